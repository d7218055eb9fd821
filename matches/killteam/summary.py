"""A Kill Team match's summary (for its players and its watchers) and its log as Markdown (for its
players): the result, each side's operatives and their wounds, CP and grenades, the turning
point reached, and the log, paged as every game's summary pages it (``matches.logs``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_safe

from blitz_site.systems import KILLTEAM
from matches import access, logs
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
        "log_md_url": reverse("matches:kt-log-md", args=[match.pk]) if seat else "",
    }
    return render(request, "matches/killteam_summary.html", context)


@require_safe
def kt_summary(request: HttpRequest, pk: int) -> HttpResponse:
    player = access.match_for(request, pk, game=KILLTEAM.id)
    return _summary(request, player.match, player.seat)


@require_safe
def kt_watch_summary(request: HttpRequest, slug: str) -> HttpResponse:
    watching = access.match_for(request, slug=slug, to="watch", game=KILLTEAM.id)
    return _summary(request, watching.match, None)


@require_safe
def kt_log_markdown(request: HttpRequest, pk: int) -> HttpResponse:
    match = access.match_for(request, pk, game=KILLTEAM.id).match
    context = _context(match) | {"log_rows": logs.markdown_log(match)}
    text = render_to_string("matches/killteam_log.md", context, request=request)
    return logs.markdown_download(match, text)
