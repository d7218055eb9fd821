"""Dice and rolling: a roll of Skill six-sided dice, read the way the quickstart says.

"Roll a number of dice equal to the specified Skill and the result of the roll is the highest
result on any single die. If multiple 6s are rolled, add 1 to the result for each extra 6. If all
dice come up 1, the result is a Fumble, and counts as a result of 0. No modifiers ever apply to a
Fumble." (quickstart, Dice and Rolling)

A single die showing 1 is a Fumble too (every die shows 1). Since a highest die of 1 always means
a Fumble, a result of 1 never happens: results are 0 (Fumble) or 2 and up.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb

from rules.checks import is_whole
from rules.errors import RulesError

MIN_DICE = 1
MAX_DICE = 10
FUMBLE = 0
"""The result of a Fumble, whatever the modifiers."""


def check_dice(dice: object) -> int:
    """Return ``dice`` if it is a legal number of dice (a Skill of 1 to 10), else raise."""
    if not is_whole(dice) or not MIN_DICE <= dice <= MAX_DICE:
        shown = dice if is_whole(dice) else repr(dice)
        raise RulesError(f"A roll needs {MIN_DICE} to {MAX_DICE} dice; got {shown}.")
    return dice


def check_modifier(modifier: object, what: str = "A modifier") -> int:
    """Return ``modifier`` if it is a whole number, else raise."""
    if not is_whole(modifier):
        raise RulesError(f"{what} must be a whole number such as -1, 0 or +2; got {modifier!r}.")
    return modifier


def result_from_dice(dice_values: tuple[int, ...]) -> int:
    """The result of a roll: the highest die, +1 for each extra 6, or 0 when every die is a 1."""
    if all(value == 1 for value in dice_values):
        return FUMBLE
    sixes = dice_values.count(6)
    if sixes:
        return 6 + sixes - 1
    return max(dice_values)


def apply_modifier(result: int, modifier: int) -> int:
    """The final result: ``result + modifier``, except that a Fumble stays 0.

    No floor is applied: a non-Fumble result plus negative modifiers is just the sum and may be 0
    or less (the texts only say that a Fumble is 0 and modifiers are added before comparing).
    """
    if result == FUMBLE:
        return FUMBLE
    return result + modifier


@dataclass(frozen=True)
class Roll:
    """One roll of Skill dice. ``result`` and ``fumble`` are read from ``dice``."""

    dice: tuple[int, ...]
    result: int = field(init=False)
    fumble: bool = field(init=False)

    def __post_init__(self) -> None:
        values = _read_dice(self.dice)
        object.__setattr__(self, "dice", values)
        object.__setattr__(self, "result", result_from_dice(values))
        object.__setattr__(self, "fumble", self.result == FUMBLE)

    def final(self, modifier: int = 0) -> int:
        """The result after ``modifier``; a Fumble stays 0."""
        return apply_modifier(self.result, check_modifier(modifier))


def roll(dice: int, rng: random.Random) -> Roll:
    """Roll ``dice`` six-sided dice (a Skill of 1 to 10) with ``rng``."""
    check_dice(dice)
    return Roll(tuple(rng.randint(1, 6) for _ in range(dice)))


def read_roll(dice_values: object) -> Roll:
    """Read the dice a player rolled on the table (1 to 10 dice, each 1 to 6); anything else
    raises RulesError."""
    return Roll(_read_dice(dice_values))


def _read_dice(dice: object) -> tuple[int, ...]:
    """``dice`` as a tuple if it is a list of 1 to 10 dice, each 1 to 6, else raise."""
    if isinstance(dice, (str, bytes)) or not isinstance(dice, Sequence):
        raise RulesError(f"A roll is a list of dice, each 1 to 6; got {dice!r}.")
    values = tuple(dice)
    check_dice(len(values))
    for value in values:
        if not is_whole(value) or not 1 <= value <= 6:
            raise RulesError(f"Each die shows 1 to 6; got {value!r}.")
    return values


def roll_counts(dice: int) -> tuple[tuple[int, int], ...]:
    """How many of the 6**dice equally likely rolls give each result, as (result, count) pairs.

    Only possible results are listed, lowest first; the counts add up to 6**dice.
    """
    return _roll_counts(check_dice(dice))


@lru_cache(maxsize=MAX_DICE)
def _roll_counts(dice: int) -> tuple[tuple[int, int], ...]:
    # Derived, not enumerated:
    # - Fumble (0): every die is a 1, one roll in 6**dice.
    # - 2 to 5: the highest die is k, so every die is at most k but not every die is at most
    #   k - 1: k**dice - (k - 1)**dice rolls.
    # - 6 + (j - 1) with j sixes (1 <= j <= dice): choose which j dice show 6, the others show
    #   1 to 5: comb(dice, j) * 5**(dice - j) rolls.
    counts = [(FUMBLE, 1)]
    counts.extend((k, k**dice - (k - 1) ** dice) for k in range(2, 6))
    counts.extend(
        (5 + sixes, comb(dice, sixes) * 5 ** (dice - sixes)) for sixes in range(1, dice + 1)
    )
    return tuple(counts)


def clear_roll_cache() -> None:
    """Forget the cached roll counts (for benchmarks; answers never change)."""
    _roll_counts.cache_clear()


def roll_distribution(dice: int) -> dict[int, Fraction]:
    """Exact chance of every possible result of ``dice`` dice (0 is a Fumble), lowest first.

    Only possible results are keys (never 1). The chances add up to exactly 1. The dict is a
    fresh copy: changing it does not change later answers.
    """
    total = 6 ** check_dice(dice)
    return {result: Fraction(count, total) for result, count in roll_counts(dice)}
