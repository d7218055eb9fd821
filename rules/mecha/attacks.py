"""The attacks of the mecha rules and the once-a-turn limits the text states, as the tracker
checks them (read as docs/mecha-readings.md says). A limit the text states is a refusal with its
sentence; what the players must judge on the table (arcs, range, line of sight) they confirm;
what the text leaves open (a penalty's size, what Heavy Fire changes) they enter.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.errors import RulesError
from rules.mecha.state import HAND_HELD, ONCE_A_TURN, MechaState, Unit, Weapon

ATTACKS = {"range": "ranged attack", "melee": "melee attack", "ram": "ram"}
RANGE_TYPES = ("anti_personal", "artillery", "heavy_range", "long_melee", "range")
MELEE_TYPES = ("melee", "long_melee", "unarmed")
RAM_TYPES = ("rammers", "long_melee")
HEAVY_PENALTY = -4
LINK_COST = 2
ATTACK_COST = 1
MAX_MODIFIER = 20


@dataclass(frozen=True)
class Shot:
    """One weapon's (or an unarmed or Strength) attack as checked: the attack value in words and
    any warnings."""

    value: str
    warnings: tuple[str, ...]


def attack_value(unit: Unit, kind: str) -> tuple[str, int | None]:
    """ "For Range based attacks the unit must use its Range Attack value"; Melee and Ram use
    its Melee Attack value."""
    if kind == "range":
        return "Range Attack", unit.range_attack
    return "Melee Attack", unit.melee_attack


def check_unarmed(unit: Unit) -> None:
    if not unit.may_go_unarmed:
        raise RulesError(
            f"Only Infantry and SCARUs, and units with arms, can make unarmed attacks: {unit.name} "
            f"is a {unit.kind_label} without arms."
        )


def check_weapon_kind(unit: Unit, weapon: Weapon, kind: str) -> None:
    """The weapon's type allows this kind of attack."""
    if kind == "range":
        if weapon.type not in RANGE_TYPES:
            raise RulesError(
                f"{weapon.name} is a {weapon.type_name} weapon: not for ranged attacks."
            )
        if weapon.range == 0:
            raise RulesError(
                f"{weapon.name} has Range 0: a weapon with Range 0 cannot be used in range based "
                f"attacks."
            )
    elif kind == "melee":
        if weapon.type not in MELEE_TYPES:
            raise RulesError(
                f"{weapon.name} is a {weapon.type_name} weapon: only Melee or Long Melee weapons "
                f"(or an unarmed attack) are used in a melee attack."
            )
        if weapon.type == "unarmed":
            check_unarmed(unit)
    elif weapon.type not in RAM_TYPES:
        raise RulesError(
            f"{weapon.name} is a {weapon.type_name} weapon: a ram deals the unit's Strength in D6, "
            f"or the damage of a Rammers or Long Melee weapon."
        )


def check_limits(unit: Unit, weapon: Weapon, turn: int) -> list[str]:
    """The once-a-turn, Attached and Stand limits (refused), and the warnings of using it."""
    warnings = []
    if weapon.type in ONCE_A_TURN and weapon.id in unit.used:
        raise RulesError(
            f"{weapon.name} was already used this turn: a {weapon.type_name} weapon can be used "
            f"once a turn."
        )
    if weapon.type == "heavy_range" and any(
        unit.weapon(used).type == "heavy_range" for used in unit.used
    ):
        warnings.append(
            f"{unit.name} already used a Heavy Range weapon this turn: the text allows one use "
            f"a turn; Blitz counts it per weapon, check your table's reading."
        )
    if weapon.attached:
        for used in unit.used:
            other = unit.weapon(used)
            if other.id != weapon.id and other.attached and other.link_set == weapon.link_set:
                raise RulesError(
                    f"{weapon.name} and {other.name} are an Attached set: both cannot be used in "
                    f"the same turn, and {other.name} was used this turn."
                )
    if weapon.fix == "stand" and unit.moved:
        raise RulesError(
            f"{weapon.name} is a Stand weapon: the unit cannot use it after a move action this "
            f"turn."
        )
    if weapon.fix in (*HAND_HELD, "stand") and weapon.id not in unit.held:
        first = " (on the first turn it must be declared)" if turn == 1 else ""
        warnings.append(f"{weapon.name} is not declared as held{first}.")
    return warnings


def heavy_modifier(unit: Unit, weapon: Weapon | None, modifier: int) -> tuple[int, str, str]:
    """The Range Attack change of a Heavy Range or Artillery shot after a move: -4, or with
    Heavy Fire (Heavy Range only) or Stable Platform the players' entered ``modifier`` (the text
    says they "change" it, not how). Returns (change, words, warning)."""
    if weapon is None or weapon.type not in ONCE_A_TURN or not unit.moved:
        return 0, "", ""
    changers = []
    if unit.heavy_fire and weapon.type == "heavy_range":
        changers.append("Heavy Fire")
    if unit.stable_platform:
        changers.append("Stable Platform")
    if changers:
        words = " and ".join(changers)
        return (
            modifier,
            f"after a move; {words} changes the -4 (rule not in the text: {modifier:+d} entered)",
            f"{words}: what it changes is not in the rules text; the players entered "
            f"{modifier:+d}.",
        )
    return HEAVY_PENALTY, f"{HEAVY_PENALTY} after a move", ""


def shot(
    unit: Unit, weapon: Weapon | None, kind: str, *, modifier: int, base_contact: bool, turn: int
) -> Shot:
    """Check one attack by ``unit`` with ``weapon`` (None: unarmed, or a Strength ram) and say
    its attack value."""
    warnings: list[str] = []
    if weapon is None:
        if kind == "range":
            raise RulesError(
                "An unarmed attack is a melee attack: pick a weapon for a ranged attack."
            )
        if kind == "melee":
            check_unarmed(unit)
    else:
        check_weapon_kind(unit, weapon, kind)
        warnings += check_limits(unit, weapon, turn)
        if kind == "range" and weapon.range is None:
            warnings.append(f"{weapon.name}'s Range is not on its card: judge it on the table.")
        if kind == "range" and base_contact and weapon.type != "anti_personal":
            warnings.append(
                f"{weapon.name} is fired in base contact: only Anti-Personal weapons can be used "
                f"in base contact."
            )
    name, value = attack_value(unit, kind)
    change, words, warning = heavy_modifier(unit, weapon, modifier)
    if warning:
        warnings.append(warning)
    elif modifier:
        words = "; ".join(filter(None, (words, f"{modifier:+d} entered")))
        change += modifier
    if value is None:
        shown = f"{name} not given on the card"
    elif change:
        shown = f"{name} {value} {change:+d} = {value + change} ({words})"
    else:
        shown = f"{name} {value}"
    return Shot(shown, tuple(warnings))


def check_ram(unit: Unit, front_arc: bool) -> None:
    """ "You can only make one ram attack a turn"; "the unit must have made a Charge Move action
    this turn"; "the target must be in the unit's Front arc"."""
    if unit.rams:
        raise RulesError(f"{unit.name} already rammed this turn: only one ram attack a turn.")
    if not unit.charged:
        raise RulesError(f"{unit.name} has made no Charge Move this turn: a ram needs one first.")
    if not front_arc:
        raise RulesError("The target must be in the rammer's Front arc: confirm it on the table.")


def check_high_sky(weapon: Weapon | None, attacker_high: bool, target_high: bool) -> None:
    if weapon is not None and weapon.type == "long_melee" and attacker_high != target_high:
        raise RulesError(
            f"{weapon.name} is a Long Melee weapon: it reaches the High Sky level only from the "
            f"High Sky level, and from there only units in the High Sky level."
        )


def spend(unit: Unit, cost: int, used: tuple[Weapon, ...]) -> tuple[Unit, list[str]]:
    """The unit after spending ``cost`` Action Counters and using ``used``; a warning when it
    spends more than the counters the players entered."""
    stops = [w.name for w in used if w.type in ONCE_A_TURN or w.fix == "stand"]
    after = replace(
        unit,
        spent=unit.spent + cost,
        used=(*unit.used, *(w.id for w in used if w.id not in unit.used)),
        no_move=unit.no_move or (stops[0] if stops else ""),
    )
    warnings = []
    if after.counters is not None and after.spent > after.counters:
        warnings.append(
            f"{unit.name} has spent {after.spent} Action Counters, more than its {after.counters}."
        )
    return after, warnings


def counters_words(unit: Unit) -> str:
    if unit.counters is None:
        return f"{unit.spent} AC spent"
    return f"{unit.spent} of {unit.counters} AC spent"


def check_attack_target(state: MechaState, unit: Unit, target: Unit) -> None:
    if target.id == unit.id:
        raise RulesError("A unit does not attack itself: pick another target.")
