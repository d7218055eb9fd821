"""Who attacks whom with what: the attacker, its weapon and its targets, read from the form."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from rules.hgb.match import (
    MatchState,
    MatchWeapon,
    Unit,
    attackers,
    offered_weapons,
    target_problems,
    unit_label,
)

KINDS = {
    "direct": "Direct fire",
    "indirect": "Indirect fire",
    "grenade": "Hand grenade",
}
OTHER = "other"
MAX_ALSO = 11  # Spray Fire or an Area Effect: the main target and up to 11 more models
ROLLED_SALT = "blitz.attack.rolled"
ROLL_WORDS = re.compile(r"[\s,;+/]+")
# ASCII digits only: "²".isdigit() is True but int() refuses it, and int("٣") is 3.
DIGITS = re.compile(r"[0-9]{1,2}")
ROLL_HELP = "Enter the result, such as 5, or each die, such as 5 3 (a Fumble is 0)."


# --- Who attacks whom with what -------------------------------------------------------------------


@dataclass
class Who:
    """The attacker, its weapon, the kind of attack and the models it is aimed at."""

    attacker: Unit
    weapons: tuple[MatchWeapon, ...]
    weapon: MatchWeapon | None  # None: another weapon, typed in
    weapon_value: str
    kind: str
    target: Unit
    also: tuple[Unit, ...]
    problems: list[str] = field(default_factory=list)
    labels: Mapping[str, str] = field(default_factory=dict)
    """Every model's label ("Hunter 1 (North CG2)"), by id: same-named models told apart."""

    @property
    def targets(self) -> tuple[Unit, ...]:
        return (self.target, *self.also)

    def label(self, unit: Unit) -> str:
        return self.labels.get(unit.id, unit.name)

    @property
    def indirect(self) -> bool:
        return self.kind != "direct"


def first_unit(units, test) -> Unit | None:
    return next((unit for unit in units if test(unit)), None)


def read_who(data: Mapping[str, object], state: MatchState, seat: str) -> Who:
    """Who attacks whom: what the form says, or sensible first choices, with a sentence for
    each choice that could not be taken. The weapons are those the match recorded for the
    attacker (``rules.hgb.match.offered_weapons``)."""
    problems = []
    playing = [unit for unit in state.units if not unit.is_out]
    by_id = {unit.id: unit for unit in playing}
    asked = text_of(data, "attacker")
    attacker = by_id.get(asked)
    if asked and attacker is None:
        problems.append("That attacker is not a model in play in this match: choose another.")
    if attacker is None:
        able = {u.id for u in attackers(state)}
        attacker = (
            first_unit(playing, lambda u: u.side == seat and u.id in able)
            or first_unit(playing, lambda u: u.side == seat)
            or playing[0]
        )
    kind = text_of(data, "kind")
    if kind not in KINDS:
        kind = "direct"
    weapons = offered_weapons(state, attacker, kind)
    weapon_value = text_of(data, "weapon") or "0"
    if weapon_value == OTHER or not weapons:
        weapon, weapon_value = None, OTHER
    elif DIGITS.fullmatch(weapon_value) and int(weapon_value) < len(weapons):
        weapon = weapons[int(weapon_value)]
    else:
        weapon, weapon_value = weapons[0], "0"
    enemies = [unit for unit in playing if unit.side != attacker.side]
    target = by_id.get(text_of(data, "target"))
    if target is attacker:
        problems.append("A model can't attack itself: choose another target.")
        target = None
    if target is None:
        marked = kind == "indirect"
        target = (
            first_unit(enemies, lambda u: u.fo_mark or not marked)
            or first_unit(enemies, lambda u: True)
            or first_unit(playing, lambda u: u is not attacker)
            or attacker
        )
    also = []
    for uid in _list(data, "also"):
        unit = by_id.get(uid)
        if unit is not None and unit is not target and unit not in also:
            also.append(unit)
    if len(also) > MAX_ALSO:
        problems.append(
            f"At most {MAX_ALSO} more models can be in the area: the rest are left out."
        )
        also = also[:MAX_ALSO]
    problems += target_problems(state, attacker, target, kind=kind)
    labels = {unit.id: unit_label(state, unit) for unit in playing}
    return Who(
        attacker,
        weapons,
        weapon,
        weapon_value,
        kind,
        target,
        tuple(also),
        problems,
        labels,
    )


def text_of(data: Mapping[str, object], name: str) -> str:
    value = data.get(name)
    return value.strip()[:80] if isinstance(value, str) else ""


def _list(data, name: str) -> list[str]:
    values = data.getlist(name) if hasattr(data, "getlist") else data.get(name) or []
    if isinstance(values, str):
        values = [values]
    return [value for value in values[: MAX_ALSO * 3] if isinstance(value, str)]
