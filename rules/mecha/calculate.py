"""The calculator of an attack the players pick: attacker, weapon (or unarmed, or a Strength
ram), target. What dice it rolls, their exact distribution, and for a ram the rammer's own
damage under every reading and the push. A figure the card leaves empty is the players' to
enter (``strength``, ``armour``, ``size_class`` override the card's); nothing is invented."""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import RulesError
from rules.mecha.attacks import ATTACKS
from rules.mecha.damage import (
    RAM_WEAPON_TYPES,
    Dice,
    Distribution,
    Reading,
    dice_sum,
    push,
    ram_dice,
    self_readings,
    unarmed_dice,
)
from rules.mecha.state import MechaState, Unit, Weapon

NOT_COVERED = (
    "Not covered by the rules text: a ram at Strength 0 without a Rammers or Long Melee weapon."
)


@dataclass(frozen=True)
class Calculation:
    """What an attack rolls for damage (``dice`` None: not given, ``missing`` says why), its
    distribution, and for a ram the rammer's readings and the push (None when a figure is
    missing)."""

    attack: str
    what: str
    dice: Dice | None
    distribution: Distribution | None
    missing: str = ""
    readings: tuple[Reading, ...] = ()
    weapon_ram: bool = False
    push: int | None = None
    push_missing: str = ""


def _figure(entered: int | None, card: int | None) -> int | None:
    return card if entered is None else entered


def calculate(
    state: MechaState,
    unit: Unit,
    weapon: Weapon | None,
    attack: str,
    target: Unit,
    *,
    strength: int | None = None,
    armour: int | None = None,
    size_class: int | None = None,
) -> Calculation:
    if attack not in ATTACKS:
        raise RulesError(f"An attack is a ranged attack, a melee attack or a ram; got {attack!r}.")
    for value in (strength, armour, size_class):
        if value is not None and value < 0:
            raise RulesError("Strength, Armour and Size Class are 0 or more.")
    power = _figure(strength, unit.strength)
    if attack == "ram" and weapon is not None and weapon.type not in RAM_WEAPON_TYPES:
        what = f"{weapon.name} ({weapon.type_name})"
        words = "A ram uses Strength, or a Rammers or Long Melee weapon's Damage."
        return Calculation(attack, what, None, None, words)
    if weapon is not None and attack != "ram":
        what = f"{weapon.name} ({weapon.type_name})"
        if weapon.damage is None:
            return Calculation(
                attack, what, None, None, f"{weapon.name}'s Damage is not on its card."
            )
        return Calculation(attack, what, weapon.damage, dice_sum(weapon.damage))
    if attack == "range":
        return Calculation(attack, "unarmed", None, None, "An unarmed attack is a melee attack.")
    if power is None:
        return Calculation(
            attack, "Strength", None, None, f"{unit.name}'s Strength is not on its card: enter it."
        )
    if attack == "melee":
        dice = unarmed_dice(power)
        return Calculation(attack, f"unarmed, Strength {power}", dice, dice_sum(dice))
    return _ram(
        unit,
        weapon,
        target,
        power,
        _figure(armour, target.armour),
        _figure(size_class, target.size_class),
    )


def _ram(
    unit: Unit,
    weapon: Weapon | None,
    target: Unit,
    power: int,
    armour: int | None,
    size: int | None,
) -> Calculation:
    if weapon is not None and weapon.damage is None:
        return Calculation(
            "ram", weapon.name, None, None, f"{weapon.name}'s Damage is not on its card."
        )
    dice = ram_dice(power, weapon.damage if weapon else None)
    what = f"{weapon.name} ({weapon.type_name})" if weapon else f"Strength {power}"
    pushed = push(power, size) if size is not None else None
    push_missing = (
        "" if size is not None else f"{target.name}'s Size Class is not on its card: enter it."
    )
    if dice is None:
        return Calculation(
            "ram", what, None, None, NOT_COVERED, push=pushed, push_missing=push_missing
        )
    dist = dice_sum(dice)
    readings = self_readings(dist, armour, weapon is not None) if armour is not None else ()
    missing = "" if armour is not None else f"{target.name}'s Armour is not on its card: enter it."
    return Calculation(
        "ram",
        what,
        dice,
        dist,
        missing,
        readings,
        weapon is not None,
        pushed,
        push_missing,
    )
