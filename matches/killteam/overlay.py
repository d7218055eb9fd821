"""Kill Team's part of the stream overlay (``matches.views.match_overlay``): the turning point and
its phase, who holds the initiative, each side's CP, and every operative with its wounds and
state. Every word and number comes from the board's presenters."""

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
            "cp": side.cp,
            "out": sum(op.incapacitated for op in side.operatives),
            "operatives": [
                {
                    "name": op.name,
                    "state": op.state.value,
                    "state_word": board.STATE_WORDS[op.state],
                    "current": max(op.current, 0),
                    "wounds": op.wounds,
                    "out": op.incapacitated,
                }
                for op in side.operatives
            ],
        }
        for side in state.sides
    ]
    return {"template": PART, "turn": turn, "sides": sides}
