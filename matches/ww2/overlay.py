"""The WWII skirmish's part of the stream overlay (``matches.views.match_overlay``): the turn (one
counter; the rules text gives no initiative and no turn sequence, so there is none to show), each
side's losses, and every vehicle (intact, damaged, destroyed, captured) and soldier (healthy,
wounded, recovering, dead, prisoner) with its state (the sides drawn by the shared
``matches/_overlay_sides.html``). Every word comes from the board's presenters."""

from __future__ import annotations

from django.template.defaultfilters import pluralize

from matches.models import Match
from matches.pages import player_label
from matches.ww2 import board, services
from rules.ww2.state import SIDES

PART = "matches/_ww2_overlay.html"


def _vehicle(card: dict) -> dict:
    captured = card["captured"] and not card["gone"]
    state = "captured" if captured else card["condition"]
    word = card["condition"].capitalize() + (" · captured" if captured else "")
    return {"name": card["name"], "state": state, "state_word": word}


def _soldier(card: dict) -> dict:
    return {"name": card["name"], "state": card["status"], "state_word": card["status_word"]}


def overlay(match: Match) -> dict:
    state = services.current_state(match)
    sides = []
    for side in SIDES:
        cards = board.side_cards(state, side)
        losses, prisoners = cards["losses"], cards["prisoners"]
        sides.append(
            {
                "key": side,
                "label": cards["label"],
                "player": player_label(match.player_name(side), side),
                "score": f"Losses: {losses} soldier{pluralize(losses)}"
                f" ({prisoners} prisoner{pluralize(prisoners)})",
                "tally": f"{cards['destroyed']} vehicle{pluralize(cards['destroyed'])} destroyed",
                "units": [_vehicle(v) for v in cards["vehicles"]]
                + [_soldier(s) for s in cards["soldiers"]],
            }
        )
    return {"template": PART, "turn": board.turn_panel(state), "sides": sides}
