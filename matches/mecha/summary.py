"""A mecha match's summary (for its players and its watchers) and its log as Markdown (for its
players): the result, each side's units and the damage they took, the turn reached, and the log,
paged as every game's summary pages it (``matches.logs``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_safe

from matches import access, logs
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


def _summary(request: HttpRequest, match: Match, seat: str | None) -> HttpResponse:
    page = logs.log_page(match, request.GET.get("page"))
    if seat is None:
        board_url = reverse("matches:match-watch", args=[match.watch_slug])
    else:
        board_url = reverse("matches:match-board", args=[match.pk])
    context = _context(match) | {
        "seat": seat,
        "page": page,
        "log": [board.log_entry(event) for event in page],
        "board_url": board_url,
        "log_md_url": reverse("matches:mecha-log-md", args=[match.pk]) if seat else "",
    }
    return render(request, "matches/mecha_summary.html", context)


@require_safe
def mecha_summary(request: HttpRequest, pk: int) -> HttpResponse:
    player = access.match_for(request, pk, game=GAME_ID)
    return _summary(request, player.match, player.seat)


@require_safe
def mecha_watch_summary(request: HttpRequest, slug: str) -> HttpResponse:
    watching = access.match_for(request, slug=slug, to="watch", game=GAME_ID)
    return _summary(request, watching.match, None)


@require_safe
def mecha_log_markdown(request: HttpRequest, pk: int) -> HttpResponse:
    match = access.match_for(request, pk, game=GAME_ID).match
    context = _context(match) | {"log_rows": logs.markdown_log(match)}
    text = render_to_string("matches/mecha_log.md", context, request=request)
    return logs.markdown_download(match, text)
