"""A game's summary page (for its players and its watchers) and its log as Markdown (for its
players), the same for every game whose summary is its own context around the paged log
(``matches.logs``). Each game gives a ``Summary``: its id, its templates, what it knows of the
battle around the log, and how it writes a log line."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse

from matches import access, logs
from matches.models import Match, MatchEvent


@dataclass(frozen=True)
class Summary:
    """What differs between the games' summaries (the rest is this module's)."""

    game: str
    template: str
    """The summary page."""
    markdown: str
    """The Markdown log's template."""
    log_md: str
    """The URL name of the Markdown download (``"matches:<game>-log-md"``)."""
    context: Callable[[Match], dict[str, Any]]
    """The battle around the log: the result, the sides, the turn reached."""
    log_entry: Callable[[MatchEvent], dict[str, Any]]
    """One log line as the page shows it."""


def summary_page(
    request: HttpRequest, match: Match, seat: str | None, game: Summary
) -> HttpResponse:
    """The summary of ``match`` for the player of ``seat`` (None: a watcher, no download)."""
    page = logs.log_page(match, request.GET.get("page"))
    if seat is None:
        board_url = reverse("matches:match-watch", args=[match.watch_slug])
    else:
        board_url = reverse("matches:match-board", args=[match.pk])
    context = game.context(match) | {
        "seat": seat,
        "page": page,
        "log": [game.log_entry(event) for event in page],
        "board_url": board_url,
        "log_md_url": reverse(game.log_md, args=[match.pk]) if seat else "",
    }
    return render(request, game.template, context)


def player_summary(request: HttpRequest, pk: int, game: Summary) -> HttpResponse:
    """The summary for a player of match ``pk`` (``matches.access`` decides), or 404."""
    player = access.match_for(request, pk, game=game.game)
    return summary_page(request, player.match, player.seat, game)


def watch_summary(request: HttpRequest, slug: str, game: Summary) -> HttpResponse:
    """The summary by the watch link ``slug``, or 404."""
    watching = access.match_for(request, slug=slug, to="watch", game=game.game)
    return summary_page(request, watching.match, None, game)


def log_markdown(request: HttpRequest, pk: int, game: Summary) -> HttpResponse:
    """The whole log of match ``pk`` as a Markdown download, for its players."""
    match = access.match_for(request, pk, game=game.game).match
    context = game.context(match) | {"log_rows": logs.markdown_log(match)}
    text = render_to_string(game.markdown, context, request=request)
    return logs.markdown_download(match, text)
