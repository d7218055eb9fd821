"""What an attack reads of a model's recorded figures, and which figures the player types in.

A match records each model's weapons and datacard figures when it starts (``Unit.weapons``,
``Unit.figures``, ``Side.grenade``, built by ``rules.hgb.match_build``): an attack reads them here,
never the game data, so a later change to the data never alters a match in progress. A figure the
data did not give is None: the player types it in (``figures_to_type`` says which), and
``rules.hgb.attack`` works out no odds without it (``missing_inputs`` names what is still missing).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.hgb.attack import HAND_GRENADES
from rules.hgb.match.state import MatchState, MatchWeapon, ModelFigures, Unit

NO_FIGURES = ModelFigures()


def figures_of(unit: Unit) -> ModelFigures:
    """The model's recorded datacard figures (none for a state stored before they were kept)."""
    return unit.figures or NO_FIGURES


def movement_modifier(unit: Unit, roll: str) -> int | None:
    """The movement modifier recorded for the model's current mode and speed: to its attack rolls
    (``roll="attack"``) or to the rolls against it (``"defense"``); None when the data did not
    give it."""
    line = figures_of(unit).movement_for(unit.mode, unit.speed)
    if line is None:
        return None
    return line.attack_modifier if roll == "attack" else line.defense_modifier


def offered_weapons(state: MatchState, unit: Unit, kind: str) -> tuple[MatchWeapon, ...]:
    """The weapons a model can make this kind of attack with: a hand grenade attack throws a
    grenade ("Hand Grenades use the IF rules, but do not require a spotter"), never the gun.

    A model the data gives grenades throws those; one it gives none (the texts name Hand
    Grenades only for Peace River's Warriors) is offered a Hand Grenade as its side's data gave
    it, whose missing figures the player types in. Direct and indirect fire use the other
    weapons."""
    carried = unit.weapons or ()
    if kind != "grenade":
        return tuple(weapon for weapon in carried if weapon.code not in HAND_GRENADES)
    grenades = tuple(weapon for weapon in carried if weapon.code in HAND_GRENADES)
    return grenades or (state.side(unit.side).grenade or MatchWeapon("HG", "Hand Grenade"),)


def carries(unit: Unit, weapon: MatchWeapon) -> bool:
    """False for a weapon offered to a model whose data does not give it (a Hand Grenade)."""
    return any(carried.code == weapon.code for carried in unit.weapons or ())


@dataclass(frozen=True)
class FiguresToType:
    """The figures an attack reads that the match's data does not give, by ``rules.hgb.attack``'s
    names: the attacker's and its weapon's ("movement_modifier", "accuracy",
    "damage_multiplier", "rof", "area_effect", "size"), and each target's, in order
    ("movement_modifier", "armor")."""

    attacker: frozenset[str]
    targets: tuple[frozenset[str], ...]


def figures_to_type(
    kind: str, attacker: Unit, weapon: MatchWeapon | None, targets: Sequence[Unit]
) -> FiguresToType:
    """Which figures the player types in for this attack: each one the recorded data leaves out
    (``weapon`` None: a weapon the data does not list, typed in by name). A thrown grenade needs
    the thrower's Size (its ranges are Size and twice Size) and has no Rate of Fire; the data
    gives no Area Effect rating, so it is always typed."""
    needs = set()
    if movement_modifier(attacker, "attack") is None:
        needs.add("movement_modifier")
    for figure, value in (
        ("accuracy", weapon.accuracy if weapon else None),
        ("damage_multiplier", weapon.dm if weapon else None),
    ):
        if value is None:
            needs.add(figure)
    if kind != "grenade" and (weapon is None or weapon.rof is None):
        needs.add("rof")
    needs.add("area_effect")
    if kind == "grenade" and figures_of(attacker).size is None:
        needs.add("size")
    return FiguresToType(
        attacker=frozenset(needs),
        targets=tuple(_target_figures(unit) for unit in targets),
    )


def _target_figures(unit: Unit) -> frozenset[str]:
    needs = set()
    if movement_modifier(unit, "defense") is None:
        needs.add("movement_modifier")
    if unit.armor is None:
        needs.add("armor")
    return frozenset(needs)
