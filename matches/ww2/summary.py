"""A WWII skirmish match's summary (for its players and its watchers) and its log as Markdown
(for its players): the result, each side's vehicles and soldiers at the end, the losses, and the
log, paged as every game's summary pages it (``matches.logs``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

from matches import logs, summaries
from matches.models import Match
from matches.pages import player_label
from matches.ww2 import board, services
from rules.ww2.state import SIDES


def _context(match: Match) -> dict:
    state = services.current_state(match)
    sides = []
    for side in SIDES:
        cards = board.side_cards(state, side)
        cards |= {
            "force": getattr(match, f"{side}_roster_name"),
            "player": player_label(match.player_name(side), side),
        }
        sides.append(cards)
    return {"match": match, "turn": board.turn_panel(state), "sides": sides}


WW2_SUMMARY = summaries.Summary(
    game=services.GAME_ID,
    template="matches/ww2_summary.html",
    markdown="matches/ww2_log.md",
    log_md="matches:ww2-log-md",
    context=_context,
    log_entry=logs.log_line,
)


@require_safe
def ww2_summary(request: HttpRequest, pk: int) -> HttpResponse:
    return summaries.player_summary(request, pk, WW2_SUMMARY)


@require_safe
def ww2_watch_summary(request: HttpRequest, slug: str) -> HttpResponse:
    return summaries.watch_summary(request, slug, WW2_SUMMARY)


@require_safe
def ww2_log_markdown(request: HttpRequest, pk: int) -> HttpResponse:
    return summaries.log_markdown(request, pk, WW2_SUMMARY)
