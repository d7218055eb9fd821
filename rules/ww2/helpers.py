"""The helpers where the text gives a rule (docs/ww2-readings.md says how each is read): a gun
against armour, the capture test, what damages running gear, where smoke may go. Each takes the
numbers the players enter and answers in words; none invents a number the text does not give."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rules.errors import RulesError

CAPTURE_SUCCESS = range(11, 21)
"""«11-20 на кубике» (L35)."""
CAPTURE_DIE = 20
"""The die is not named: a d20 is inferred (docs/ww2-readings.md)."""
CAPTURE_CONDITIONS = {
    "running_gear": "The vehicle's running gear is damaged",
    "four_within_2": "At least 4 capturing soldiers within 2\" of the vehicle's reference points",
    "no_friend_within_12": 'No unit friendly to the vehicle within 12" (its crew does not count)',
}
PRISONER_CONDITIONS = {
    "within_1": 'A soldier of yours is within 1" of the wounded enemy soldier',
    "no_enemy_within_4": 'No combat-capable enemy soldier within 4" of him',
}
GRENADE_STRENGTH = range(15, 21)
"""A grenade damages running gear at attack strength 15-20 (L26)."""
GUN_CLASSES = range(2, 7)
GUN_STRENGTH = range(18, 20)
"""Guns of classes 2-6 at attack strength 18-19 (L26)."""
SMOKE_GUN_CLASSES = range(3, 7)
"""Smoke fired from a gun of class 3-6 (L8)."""
SMOKE_STRIP = 'a strip 5" long and 1" wide'
SMOKE_PLACE_RANGE = 4
NAPALM_RADIUS = 4
TOW_SEATS = 6
"""Artillery is towed by a vehicle with 6 or more seats, or a tracked tractor (L10)."""
HAND_TO_HAND_RANGE = 1
COMMAND_DISTANCE = 12
CARRY_SPEED = 6
USE_ENEMY_SOLDIERS = 2
NO_CLASS = "the classes are not both entered"


def _in(value: int, span: range) -> bool:
    return value in span


@dataclass(frozen=True)
class GunVerdict:
    """What a gun's hit on a vehicle may do: ``damages`` (the players then choose damaged or
    destroyed: the text's table is garbled) and a sentence."""

    damages: bool
    words: str


def gun_against_armour(gun_class: int, armour_class: int) -> GunVerdict:
    """L24: a gun whose class is higher than the armour class damages or destroys; otherwise the
    hit records no damage (running gear is another rule)."""
    if gun_class < 1 or armour_class < 1:
        raise RulesError("A gun class and an armour class are whole numbers from 1.")
    if gun_class > armour_class:
        return GunVerdict(
            True,
            f"Gun class {gun_class} is above armour class {armour_class}: the hit damages or "
            "destroys the vehicle. Choose which: the rules' table is garbled, so the app does "
            "not decide.",
        )
    return GunVerdict(
        False,
        f"Gun class {gun_class} is not above armour class {armour_class}: no damage.",
    )


def running_gear_damaged(weapon: str, strength: int, gun_class: int | None = None) -> bool:
    """L26: a grenade at attack strength 15-20, or a gun of class 2-6 at 18-19."""
    if weapon == "grenade":
        return _in(strength, GRENADE_STRENGTH)
    if weapon == "gun":
        return gun_class is not None and _in(gun_class, GUN_CLASSES) and _in(strength, GUN_STRENGTH)
    raise RulesError("Running gear is damaged by a grenade or a gun.")


def running_gear_words(weapon: str, strength: int, gun_class: int | None = None) -> str:
    if running_gear_damaged(weapon, strength, gun_class):
        return "Running gear damaged: the vehicle cannot move for the rest of the game."
    if weapon == "grenade":
        return f"A grenade at attack strength {strength}: no running-gear damage (needs 15-20)."
    return (
        f"A class {gun_class} gun at attack strength {strength}: no running-gear damage "
        "(needs a gun of class 2-6 at 18-19)."
    )


@dataclass(frozen=True)
class CaptureTest:
    succeeded: bool
    words: str
    warnings: tuple[str, ...] = ()


def capture_test(die: int) -> CaptureTest:
    """L35: the capture test succeeds on 11-20. The die is not named (a d20 is inferred): a
    number above 20 is accepted with a warning."""
    if die < 1:
        raise RulesError("A capture test die is a whole number from 1.")
    warnings: tuple[str, ...] = ()
    if die > CAPTURE_DIE:
        warnings = (f"{die} is above 20: the rules give 11-20 as success (a d20 is inferred).",)
    if die in CAPTURE_SUCCESS:
        return CaptureTest(True, f"Capture test {die}: succeeded (11-20).", warnings)
    return CaptureTest(False, f"Capture test {die}: failed (needs 11-20).", warnings)


def capture_chance() -> Fraction:
    """The chance of 11-20 on a d20 (the d20 is inferred, not named by the text)."""
    return Fraction(len(CAPTURE_SUCCESS), CAPTURE_DIE)


def smoke_from_gun(gun_class: int | None) -> str:
    """L8: smoke fired instead of a shell needs a gun of class 3-6; "" when it may."""
    if gun_class is None:
        return "The vehicle's card gives no gun class: smoke is fired from a gun of class 3-6."
    if gun_class not in SMOKE_GUN_CLASSES:
        return f"A class {gun_class} gun cannot fire smoke: only guns of class 3-6 can."
    return ""


def hand_to_hand_winner(first: int, second: int) -> int:
    """L51: the higher wins (0: the first, 1: the second). A tie is not in the rules text: the
    app asks for a re-roll."""
    if first < 1 or second < 1:
        raise RulesError("Hand-to-hand dice are whole numbers from 1.")
    if first == second:
        raise RulesError(
            f"A tie ({first} and {second}): roll again. Ties are not in the rules text; a re-roll "
            "is the app's choice."
        )
    return 0 if first > second else 1
