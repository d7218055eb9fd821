"""Heavy Gear Blitz's part of the stream overlay (``matches.views.match_overlay``): the round and
its phase, who won the initiative and who went first, each side's TV destroyed, and every model
with its damage state (the sides drawn by the shared ``matches/_overlay_sides.html``). Every
word and number comes from the board's presenters."""

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
        tv = f" of {summary['tv']}" if summary["tv"] else ""
        models = [
            {
                "name": unit.name,
                "state": unit.state.value,
                "state_word": board.STATE_WORDS[unit.state],
            }
            for unit in side.units
        ]
        sides.append(
            summary
            | {
                "score": f"TV destroyed {summary['tv_destroyed']}{tv}",
                "tally": f"out {summary['models_out']}/{summary['models']}",
                "units": models,
            }
        )
    return {"template": PART, "turn": turn, "sides": sides}
