"""Command points (docs/killteam-readings.md, 'Command points'): each player starts with 2; in the
first strategy phase each gains 1; in each later one the player with the initiative gains 1 and the
other 2. Ploys cost 1."""

from __future__ import annotations

from rules.checks import check_flag, check_whole
from rules.killteam.data import core_numbers

STARTING_CP = core_numbers().starting_cp
PLOY_COST = core_numbers().ploy_cost
COMMAND_REROLL = "Command Re-roll"
"""The one firefight ploy a player may use more than once in a turning point."""


def command_points_gained(turning_point: int, has_initiative: bool) -> int:
    """The CP a player gains in the strategy phase of ``turning_point`` (1, 2, ...)."""
    check_whole(turning_point, "A turning point is a whole number of 1 or more", 1)
    check_flag(has_initiative, "Has the initiative")
    numbers = core_numbers()
    if turning_point == 1:
        return numbers.first_strategy_phase_cp
    return numbers.initiative_cp if has_initiative else numbers.other_cp
