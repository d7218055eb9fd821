"""Damage states of an operative (docs/killteam-readings.md, 'Injured') and what being injured
changes.

Wounded: fewer wounds than it started with. Injured: fewer than half, ``2 * current <
starting`` (10 wounds: 5 is not injured, 4 is; 9 wounds: 5 is not, 4 is). Incapacitated: 0 or
fewer, and removed. An injured operative moves 2" less and its weapons hit one worse (a 4+
becomes 5+); a 6 still succeeds and is critical, a 1 still fails.
"""

from __future__ import annotations

from enum import Enum

from rules.checks import check_whole
from rules.errors import RulesError
from rules.killteam.data import core_numbers

WORST_HIT = 7
"""A Hit of 6+ worsened: only a 6 succeeds, as it always does."""


class WoundState(Enum):
    UNHURT = "unhurt"
    WOUNDED = "wounded"
    INJURED = "injured"
    INCAPACITATED = "incapacitated"

    @property
    def label(self) -> str:
        return self.value.capitalize()


def wound_state(starting: int, current: int) -> WoundState:
    """The state of an operative that started with ``starting`` wounds and has ``current`` left
    (0 or less: incapacitated)."""
    check_whole(starting, "Starting Wounds must be a whole number of 1 or more", 1)
    check_whole(current, "Wounds left must be a whole number", -(10**6))
    if current > starting:
        raise RulesError(
            f"An operative cannot have more wounds ({current}) than it started with ({starting})."
        )
    if current <= 0:
        return WoundState.INCAPACITATED
    if 2 * current < starting:
        return WoundState.INJURED
    if current < starting:
        return WoundState.WOUNDED
    return WoundState.UNHURT


def is_injured(starting: int, current: int) -> bool:
    """True when the operative is injured (or worse: an incapacitated one is removed)."""
    return wound_state(starting, current) in (WoundState.INJURED, WoundState.INCAPACITATED)


def injured_move(move: int) -> int:
    """An injured operative's Move: 2" less (never below 0)."""
    return max(0, move - core_numbers().injured_move_penalty)


def injured_hit(hit: int) -> int:
    """An injured operative's weapon Hit, worsened by 1: 4 (4+) becomes 5; a 6+ becomes 7,
    which only a 6 meets (a 6 always succeeds)."""
    return min(WORST_HIT, hit + core_numbers().injured_hit_worsened_by)
