"""A mecha match's summary (for its players and its watchers) and its log as Markdown (for its
players): the result, each side's units and the damage they took, the turn reached, and the log,
paged as every game's summary pages it (``matches.logs``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

from matches import logs, summaries
from matches.mecha import board, services
from matches.mecha.services import GAME_ID
from matches.models import Match
from rules.mecha.damage import FORMULAS, scope_name


def _context(match: Match) -> dict:
    state = services.current_state(match)
    return {
        "match": match,
        "turn": board.turn_panel(state),
        "note": state.note,
        "reading": f"{FORMULAS[state.ram_formula]} ({scope_name(state.ram_scope)})",
        "sides": [
            board.summary_side(match, state, key, label)
            for key, label in zip(("a", "b"), state.labels, strict=True)
        ],
    }


MECHA_SUMMARY = summaries.Summary(
    game=GAME_ID,
    template="matches/mecha_summary.html",
    markdown="matches/mecha_log.md",
    log_md="matches:mecha-log-md",
    context=_context,
    log_entry=logs.log_line,
)


@require_safe
def mecha_summary(request: HttpRequest, pk: int) -> HttpResponse:
    return summaries.player_summary(request, pk, MECHA_SUMMARY)


@require_safe
def mecha_watch_summary(request: HttpRequest, slug: str) -> HttpResponse:
    return summaries.watch_summary(request, slug, MECHA_SUMMARY)


@require_safe
def mecha_log_markdown(request: HttpRequest, pk: int) -> HttpResponse:
    return summaries.log_markdown(request, pk, MECHA_SUMMARY)
