"""Exact damage of the mecha attack rules: every distribution as whole-number counts of equally
likely rolls, answered as fractions (``rules.exact``). No hit roll: the text gives none.

From the text (read as docs/mecha-readings.md says):

- A weapon's Damage is dice to roll: N x D3, D6 or D10; the damage is their sum.
- Unarmed: "the units Strength value in D6"; "a Strength value of 0 will do D3 damage" (one D3).
- Ram, to the target: Strength x D6, or with a Rammers or Long Melee weapon that weapon's Damage.
  At Strength 0 without such a weapon the text does not say (D3 is stated for unarmed only).
- Ram, to the rammer: "half (rounded down) of that damage dealt plus the targets Armour value",
  read two ways: half-then-add (floor(dealt / 2) + Armour) and half-of-sum
  (floor((dealt + Armour) / 2)); and in two scopes: every ram, or a weapon ram only.
- Push: the attacker's Strength minus the target's Size Class, at least 0.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache, partial

from rules.errors import RulesError
from rules.exact import as_fractions

DICE = (3, 6, 10)
MAX_DICE = 40
HALF_THEN_ADD, HALF_OF_SUM = "half_then_add", "half_of_sum"
EVERY_RAM, WEAPON_RAM_ONLY = "every_ram", "weapon_ram_only"
FORMULAS = {
    HALF_THEN_ADD: "Half, then add Armour: (damage dealt ÷ 2, rounded down) + Armour",
    HALF_OF_SUM: "Half of the sum: (damage dealt + Armour) ÷ 2, rounded down",
}
SCOPES = {
    EVERY_RAM: "Every ram: the rammer takes it with or without a ram weapon",
    WEAPON_RAM_ONLY: "A weapon ram only: without a Rammers or Long Melee weapon the rammer takes 0",
}
RAM_WEAPON_TYPES = ("rammers", "long_melee")


@dataclass(frozen=True)
class Dice:
    """``count`` dice of ``die`` faces, added up."""

    count: int
    die: int

    def __post_init__(self) -> None:
        if self.die not in DICE:
            raise RulesError(f"Damage dice are D3, D6 or D10; got D{self.die}.")
        if not 1 <= self.count <= MAX_DICE:
            raise RulesError(f"A damage roll is 1 to {MAX_DICE} dice; got {self.count}.")

    def __str__(self) -> str:
        return f"{self.count}D{self.die}"


@dataclass(frozen=True)
class Distribution:
    """Each total's number of rolls out of ``total`` equally likely rolls."""

    counts: tuple[tuple[int, int], ...]
    total: int

    @property
    def chances(self) -> dict[int, Fraction]:
        return as_fractions(dict(self.counts), self.total)

    @property
    def mean(self) -> Fraction:
        return Fraction(sum(value * count for value, count in self.counts), self.total)

    @property
    def low(self) -> int:
        return self.counts[0][0]

    @property
    def high(self) -> int:
        return self.counts[-1][0]

    def map(self, change: Callable[[int], int]) -> Distribution:
        """The distribution of ``change(value)``."""
        counts: dict[int, int] = {}
        for value, count in self.counts:
            counts[change(value)] = counts.get(change(value), 0) + count
        return Distribution(tuple(sorted(counts.items())), self.total)


@lru_cache(maxsize=256)
def dice_sum(dice: Dice) -> Distribution:
    """The sum of ``dice``: each total with its number of rolls out of die ** count."""
    counts = {0: 1}
    for _ in range(dice.count):
        rolled: dict[int, int] = {}
        for value, count in counts.items():
            for face in range(1, dice.die + 1):
                rolled[value + face] = rolled.get(value + face, 0) + count
        counts = rolled
    return Distribution(tuple(sorted(counts.items())), dice.die**dice.count)


def fixed(value: int) -> Distribution:
    """A damage that is not rolled (a rammer's 0)."""
    return Distribution(((value, 1),), 1)


def unarmed_dice(strength: int) -> Dice:
    """Unarmed damage: Strength x D6, one D3 at Strength 0."""
    if strength < 0:
        raise RulesError(f"Strength is 0 or more; got {strength}.")
    return Dice(strength, 6) if strength else Dice(1, 3)


def ram_dice(strength: int, weapon: Dice | None) -> Dice | None:
    """A ram's damage to the target: the Rammers or Long Melee weapon's Damage, else Strength x
    D6; None at Strength 0 without such a weapon (the text does not cover it)."""
    if weapon is not None:
        return weapon
    if strength < 0:
        raise RulesError(f"Strength is 0 or more; got {strength}.")
    return Dice(strength, 6) if strength else None


def self_damage(dealt: int, armour: int, formula: str) -> int:
    """The rammer's own damage for ``dealt`` damage to a target of ``armour`` Armour."""
    if formula == HALF_THEN_ADD:
        return dealt // 2 + armour
    if formula == HALF_OF_SUM:
        return (dealt + armour) // 2
    raise RulesError(f"A ram self-damage reading is {' or '.join(FORMULAS)}; got {formula!r}.")


@dataclass(frozen=True)
class Reading:
    """One reading of the rammer's own damage: its formula, scope, name and distribution."""

    formula: str
    scope: str
    name: str
    distribution: Distribution


def self_readings(target: Distribution, armour: int, weapon_ram: bool) -> tuple[Reading, ...]:
    """The rammer's own damage under every reading of the sentence, side by side: both formulas
    in the every-ram scope, and in the weapon-ram-only scope (0 for a ram without a weapon)."""
    if armour < 0:
        raise RulesError(f"Armour is 0 or more; got {armour}.")
    readings = []
    for scope in SCOPES:
        for formula in FORMULAS:
            if scope == WEAPON_RAM_ONLY and not weapon_ram:
                dist = fixed(0)
            else:
                dist = target.map(partial(_self, armour=armour, formula=formula))
            readings.append(
                Reading(formula, scope, f"{FORMULAS[formula]} ({scope_name(scope)})", dist)
            )
    return tuple(readings)


def _self(dealt: int, *, armour: int, formula: str) -> int:
    return self_damage(dealt, armour, formula)


def scope_name(scope: str) -> str:
    return "every ram" if scope == EVERY_RAM else "weapon ram only"


def push(strength: int, size_class: int) -> int:
    """How far both units move after a ram: Strength - Size Class, at least 0 (inches)."""
    return max(0, strength - size_class)


def roll(dice: Dice, randbelow: Callable[[int], int]) -> tuple[int, ...]:
    """Each die of ``dice`` rolled with ``randbelow`` (``secrets.randbelow``: 0 to n - 1)."""
    return tuple(randbelow(dice.die) + 1 for _ in range(dice.count))


def rammer_damage(dealt: int, armour: int, formula: str, scope: str, weapon_ram: bool) -> int:
    """The rammer's own damage under the players' reading: 0 for a ram without a Rammers or Long
    Melee weapon when only a weapon ram damages the rammer."""
    if scope not in SCOPES:
        raise RulesError(f"A ram self-damage scope is {' or '.join(SCOPES)}; got {scope!r}.")
    if scope == WEAPON_RAM_ONLY and not weapon_ram:
        return 0
    return self_damage(dealt, armour, formula)
