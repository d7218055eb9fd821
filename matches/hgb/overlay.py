"""Heavy Gear Blitz's part of the stream overlay (``matches.views.match_overlay``): the round and
its phase, who won the initiative and who went first, each side's TV destroyed, and every model
with its damage state. Every word and number comes from the board's presenters."""

from __future__ import annotations

from matches.hgb import board
from matches.models import Match

PART = "matches/_hgb_overlay.html"


def overlay(match: Match) -> dict:
    state = match.current_state()
    turn = board.turn_panel(state)
    sides = []
    for side in state.sides:
        summary = board.side_summary(match, state, side.key)
        models = [
            {
                "name": unit.name,
                "state": unit.state.value,
                "state_word": board.STATE_WORDS[unit.state],
                "out": unit.is_out,
            }
            for unit in side.units
        ]
        sides.append(summary | {"units": models})
    return {"template": PART, "turn": turn, "sides": sides}
