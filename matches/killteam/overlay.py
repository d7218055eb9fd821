"""Kill Team's part of the stream overlay (``matches.views.match_overlay``): the turning point and
its phase, who holds the initiative, each side's CP, and every operative with its wounds and
state (the sides drawn by the shared ``matches/_overlay_sides.html``). Every word and number
comes from the board's presenters."""

from __future__ import annotations

from matches.killteam import board, services
from matches.models import Match
from matches.pages import player_label

PART = "matches/_kt_overlay.html"


def overlay(match: Match) -> dict:
    state = services.current_state(match)
    turn = board.turn_panel(state)
    sides = [
        {
            "key": side.key,
            "label": side.label,
            "player": player_label(match.player_name(side.key), side.key),
            "score": f"{side.cp} CP",
            "tally": f"out {sum(op.incapacitated for op in side.operatives)}"
            f"/{len(side.operatives)}",
            "units": [
                {
                    "name": op.name,
                    "state": op.state.value,
                    "state_word": f"{board.STATE_WORDS[op.state]} · "
                    f"{max(op.current, 0)}/{op.wounds} W",
                }
                for op in side.operatives
            ],
        }
        for side in state.sides
    ]
    return {"template": PART, "turn": turn, "sides": sides}
