"""A mecha attack phase as the tracker holds it: the turn, the ram reading the players picked,
and each unit's card (copied from the roster at the start) with what it did this turn. Immutable;
only events change it (``rules.mecha.play``).

The card is the player's, as typed: a figure the player left empty stays None and the board says
"not given". A unit's id is "<side>-<number>" ("a-1"), its weapons keep their roster ids.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.checks import is_whole
from rules.errors import RulesError
from rules.eventlog import UnknownId
from rules.mecha.damage import FORMULAS, SCOPES, Dice

SIDES = ("a", "b")
KINDS = {
    "infantry": "Infantry",
    "scaru": "SRACU (also SCARU)",
    "mobile_suit": "Mobile Suit",
    "other": "Other",
}
WEAPON_TYPES = {
    "anti_personal": "Anti-Personal",
    "artillery": "Artillery",
    "heavy_range": "Heavy Range",
    "long_melee": "Long Melee",
    "melee": "Melee",
    "rammers": "Rammers",
    "range": "Range",
    "unarmed": "Unarmed",
}
HAND_HELD = ("1_handed", "2_handed", "1_2_handed")
HANDS_NEEDED = {"1_handed": 1, "2_handed": 2, "1_2_handed": 1, "stand": 2}
ONCE_A_TURN = ("heavy_range", "artillery")
MAX_UNITS = 40


@dataclass(frozen=True)
class Weapon:
    """A weapon as the card gives it; ``damage`` None when the card leaves it empty."""

    id: str
    name: str
    type: str
    range: int | None
    damage: Dice | None
    fix: str
    link_kind: str = ""  # "attached_main", "attached_addon", "linked" or ""
    link_set: str = ""

    @property
    def type_name(self) -> str:
        return WEAPON_TYPES[self.type]

    @property
    def hand_held(self) -> bool:
        return self.fix in HAND_HELD

    @property
    def attached(self) -> bool:
        return self.link_kind in ("attached_main", "attached_addon")


@dataclass(frozen=True)
class Unit:
    """A unit in the match: its card (as typed) and what it did this turn.

    ``counters`` are the Action Counters the players entered (None: not entered; the text gives
    none), ``spent`` those spent this turn; ``held`` the hand-held weapons declared, ``declared``
    whether that was this turn; ``moved``/``charged`` a move or Charge Move this turn; ``rams``
    this turn; ``used`` the weapons fired this turn; ``no_move`` a Heavy Range, Artillery or Stand
    weapon fired (no move actions after); ``damage`` the damage it has taken (a count: the text
    has no thresholds)."""

    id: str
    name: str
    kind: str
    kind_name: str
    size_class: int | None
    strength: int | None
    armour: int | None
    range_attack: int | None
    melee_attack: int | None
    hands: int
    has_arms: bool
    heavy_fire: bool
    stable_platform: bool
    weapons: tuple[Weapon, ...] = ()
    counters: int | None = None
    spent: int = 0
    held: tuple[str, ...] = ()
    declared: bool = False
    moved: bool = False
    charged: bool = False
    rams: int = 0
    used: tuple[str, ...] = ()
    no_move: str = ""
    damage: int = 0

    @property
    def side(self) -> str:
        return self.id[0]

    @property
    def kind_label(self) -> str:
        return self.kind_name if self.kind == "other" and self.kind_name else KINDS[self.kind]

    @property
    def may_go_unarmed(self) -> bool:
        """ "Only Infantry and SCARUs (... as well as Units that have arms) can make unarmed
        attacks"."""
        return self.kind in ("infantry", "scaru") or self.has_arms

    @property
    def left(self) -> int | None:
        return None if self.counters is None else self.counters - self.spent

    def weapon(self, weapon_id: str) -> Weapon:
        for weapon in self.weapons:
            if weapon.id == weapon_id:
                return weapon
        raise UnknownId(f"{self.name} has no weapon {weapon_id!r}.")


@dataclass(frozen=True)
class Side:
    """A side as every game's pages name it: its key ("a", "b") and label."""

    key: str
    label: str


@dataclass(frozen=True)
class MechaState:
    """The match: side labels, the turn (from 1), the ram reading the players picked, the units,
    and whether it has ended (``result`` "a", "b", "draw")."""

    labels: tuple[str, str]
    units: tuple[Unit, ...]
    ram_formula: str
    ram_scope: str
    turn: int = 1
    ended: bool = False
    result: str = ""
    note: str = ""

    @property
    def sides(self) -> tuple[Side, Side]:
        return Side("a", self.labels[0]), Side("b", self.labels[1])

    def unit(self, unit_id: object) -> Unit:
        for unit in self.units:
            if unit.id == unit_id:
                return unit
        raise UnknownId(f"This match has no unit {unit_id!r}.")

    def label(self, unit: Unit) -> str:
        return f"{unit.name} ({self.labels[SIDES.index(unit.side)]})"

    def side_units(self, side: str) -> tuple[Unit, ...]:
        return tuple(unit for unit in self.units if unit.side == side)


def _figure(data: Mapping[str, Any], name: str) -> int | None:
    value = data.get(name)
    if value is None:
        return None
    if not is_whole(value) or value < 0:
        raise RulesError(f"{name.replace('_', ' ').capitalize()} is a whole number 0 or more.")
    return value


def weapon_from_card(data: Mapping[str, Any]) -> Weapon:
    """A weapon from the roster document's weapon."""
    damage = data.get("damage")
    link = data.get("link") or {}
    kind = data.get("type")
    if kind not in WEAPON_TYPES:
        raise RulesError(f"A weapon's type is one of the eight; got {kind!r}.")
    return Weapon(
        id=str(data["id"]),
        name=str(data.get("name") or "Weapon")[:60],
        type=kind,
        range=_figure(data, "range"),
        damage=Dice(int(damage["count"]), int(damage["die"])) if damage else None,
        fix=str(data.get("fix") or ""),
        link_kind=str(link.get("kind") or ""),
        link_set=str(link.get("set") or ""),
    )


def default_hands(kind: str) -> int:
    """ "Unless other wised stated, the Mobile Suit and Infantry units have two hands"."""
    return 2 if kind in ("mobile_suit", "infantry") else 0


def unit_from_card(side: str, number: int, data: Mapping[str, Any]) -> Unit:
    """A unit from the roster document's unit, as side ``side``'s ``number``th."""
    kind = data.get("kind")
    if kind not in KINDS:
        raise RulesError(f"A unit's kind is Infantry, SCARU, Mobile Suit or other; got {kind!r}.")
    hands = _figure(data, "hands")
    try:
        weapons = tuple(weapon_from_card(w) for w in data.get("weapons") or ())
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, RulesError):
            raise
        raise RulesError(f"A weapon of {data.get('name')!r} is malformed.") from None
    return Unit(
        id=f"{side}-{number}",
        name=str(data.get("name") or f"Unit {number}")[:60],
        kind=kind,
        kind_name=str(data.get("kind_name") or "")[:60],
        size_class=_figure(data, "size_class"),
        strength=_figure(data, "strength"),
        armour=_figure(data, "armour"),
        range_attack=_figure(data, "range_attack"),
        melee_attack=_figure(data, "melee_attack"),
        hands=default_hands(kind) if hands is None else hands,
        has_arms=bool(data.get("has_arms")),
        heavy_fire=bool(data.get("heavy_fire")),
        stable_platform=bool(data.get("stable_platform")),
        weapons=weapons,
        counters=_figure(data, "action_counters"),
    )


def units_from_roster(side: str, army: Mapping[str, Any]) -> tuple[Unit, ...]:
    """A side's units from a mecha roster document (``{"units": [...]}``)."""
    if not isinstance(army, Mapping) or not isinstance(army.get("units"), list):
        raise RulesError("This roster has no units list.")
    cards = army["units"]
    if not cards:
        raise RulesError("This roster has no units yet: add one first.")
    if len(cards) > MAX_UNITS:
        raise RulesError(f"A side can bring at most {MAX_UNITS} units.")
    return tuple(unit_from_card(side, n, card) for n, card in enumerate(cards, 1))


def new_match(
    labels: tuple[str, str],
    a: tuple[Unit, ...],
    b: tuple[Unit, ...],
    ram_formula: str,
    ram_scope: str,
) -> MechaState:
    """A match in turn 1. The ram reading is the players' pick: the text does not decide it."""
    if ram_formula not in FORMULAS:
        raise RulesError("Pick how a rammer's own damage is read: the text does not decide it.")
    if ram_scope not in SCOPES:
        raise RulesError("Pick which rams damage the rammer: the text does not decide it.")
    return MechaState(labels, (*a, *b), ram_formula, ram_scope)
