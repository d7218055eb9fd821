"""A Kill Team match's summary (for its players and its watchers) and its log as Markdown (for its
players): the result, each side's operatives and their wounds, CP and grenades, the turning
point reached, and the log, paged as every game's summary pages it (``matches.logs``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

from blitz_site.systems import KILLTEAM
from matches import logs, summaries
from matches.killteam import board, services
from matches.models import Match


def _context(match: Match) -> dict:
    state = services.current_state(match)
    return {
        "match": match,
        "turn": board.turn_panel(state),
        "note": state.note,
        "sides": [board.summary_side(match, state, side) for side in state.sides],
    }


KT_SUMMARY = summaries.Summary(
    game=KILLTEAM.id,
    template="matches/killteam_summary.html",
    markdown="matches/killteam_log.md",
    log_md="matches:kt-log-md",
    context=_context,
    log_entry=logs.log_line,
)


@require_safe
def kt_summary(request: HttpRequest, pk: int) -> HttpResponse:
    return summaries.player_summary(request, pk, KT_SUMMARY)


@require_safe
def kt_watch_summary(request: HttpRequest, slug: str) -> HttpResponse:
    return summaries.watch_summary(request, slug, KT_SUMMARY)


@require_safe
def kt_log_markdown(request: HttpRequest, pk: int) -> HttpResponse:
    return summaries.log_markdown(request, pk, KT_SUMMARY)
