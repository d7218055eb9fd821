"""A match's log as every game's summary page and Markdown download show it.

The log is the same table for every game (``MatchEvent``: who, when, the sentence, undone or
not), so its pages and its Markdown rows are read here once; each game's summary adds what it
knows of the battle around them (``matches.hgb.views`` for Heavy Gear Blitz,
``matches.killteam.summary`` for Kill Team)."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.http import HttpResponse
from django.utils.timezone import get_current_timezone

from blitz_site import inputs
from matches.models import Match, MatchEvent
from matches.pages import actor_label, player_label

# Log lines per summary page, newest first. The whole log of a long match (5,000 events: 700 KB
# of HTML, half a second to build) is more than a phone shows or a player reads on one page; the
# Markdown download keeps every line.
SUMMARY_PAGE = 200

# The columns a log line reads: a log query loads these and skips the big ones (payload,
# before, after, ...), which a long match's summary would otherwise parse 5,000 times.
LOG_FIELDS = (
    "seq",
    "round",
    "actor_name",
    "actor_side",
    "created_at",
    "summary",
    "warnings",
    "effective",
    "refused",
    "kind",
)

# The columns ``markdown_log_rows`` reads, as ``MatchEvent.objects.values(*MARKDOWN_FIELDS)``.
MARKDOWN_FIELDS = (
    "seq",
    "round",
    "created_at",
    "actor_name",
    "actor_side",
    "summary",
    "effective",
    "refused",
    "warnings",
)


def newest_first(match: Match) -> QuerySet[MatchEvent]:
    """The match's events, newest first, with only the columns the log shows."""
    return MatchEvent.objects.filter(match=match).only(*LOG_FIELDS).order_by("-seq")


def log_page(match: Match, number: object) -> Page:
    """One page of the log, newest first (``?page=2`` goes back in time; a number that is not
    one gives the first page, one past the end the last)."""
    return Paginator(newest_first(match), SUMMARY_PAGE).get_page(inputs.optional_id(number))


def markdown_log_rows(events: Iterable[dict]) -> str:
    """The Markdown log's table rows, one line an event, from ``MARKDOWN_FIELDS`` rows.

    Written here, not in the template, and from plain rows, not models: for a 5,000-event log a
    template loop took about 0.4 s and model instances 40 ms more; this takes about 15 ms. The
    text is the one the template wrote (times in the current time zone, UTC; an undone line
    struck through; a refused tap said as the board says it; each warning in italics after it)."""
    zone, lines = get_current_timezone(), []
    for event in events:
        if event["refused"]:
            what = f"Refused, nothing changed: {event['summary']}"
        elif event["effective"]:
            what = event["summary"]
        else:
            what = f"~~{event['summary']}~~ (undone)"
        what += "".join(f" _{warning}_" for warning in event["warnings"])
        time = event["created_at"].astimezone(zone).strftime("%H:%M:%S")
        who = actor_label(event["actor_name"], event["actor_side"])
        cells = (event["seq"], event["round"], time, who, what)
        lines.append("| " + " | ".join(str(cell) for cell in cells) + " |\n")
    return "".join(lines)


def markdown_log(match: Match) -> str:
    """Every event of the match, oldest first, as the Markdown table's rows."""
    events = MatchEvent.objects.filter(match=match).order_by("seq")
    return markdown_log_rows(events.values(*MARKDOWN_FIELDS))


def markdown_download(match: Match, text: str) -> HttpResponse:
    """The Markdown log as a file to save."""
    response = HttpResponse(text, content_type="text/markdown; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="blitz-match-{match.pk}.md"'
    return response


def log_line(event: MatchEvent) -> dict:
    """One event as a board's log and a summary's log show it (every game but HGB, whose line
    also names what a change touched)."""
    return {
        "seq": event.seq,
        "round": event.round,
        "time": event.created_at,
        "actor": player_label(event.actor_name, event.actor_side),
        "summary": event.summary,
        "warnings": event.warnings,
        "effective": event.effective,
        "refused": event.refused,
        "is_undo": event.kind == "undo",
    }
