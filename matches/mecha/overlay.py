"""The mecha game's part of the stream overlay (``matches.views.match_overlay``): the turn (the
rules text gives no initiative and no turn sequence, so there is none to show), and every unit
with the damage it has taken, as a count (the text has no damage track, so no unit is ever shown
as destroyed), and its Action Counters as the board shows them (the sides drawn by the shared
``matches/_overlay_sides.html``). Every word comes from the board's presenters."""

from __future__ import annotations

from matches.mecha import board, services
from matches.models import Match
from matches.pages import player_label

PART = "matches/_mecha_overlay.html"


def overlay(match: Match) -> dict:
    state = services.current_state(match)
    turn = board.turn_panel(state)
    sides = []
    for side in turn["sides"]:
        units = []
        for unit in state.side_units(side["key"]):
            card = board.unit_card(state, unit)
            units.append(
                {
                    "name": card["name"],
                    "state": "hit" if card["damage"] else "unhit",
                    "state_word": f"Damage taken: {card['damage']}",
                    "detail": card["ac"],
                }
            )
        player = player_label(match.player_name(side["key"]), side["key"])
        sides.append(side | {"player": player, "score": "", "tally": "", "units": units})
    return {"template": PART, "turn": turn, "sides": sides}
