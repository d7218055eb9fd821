"""A board's poll, the same for every game: what the board has seen (the last event, and whether
seat B was taken), and the 204 when nothing of it changed. A join is not an event, but it changes
the players box: a poll that says ``joined=0`` once seat B is taken gets the board's parts and
the players box, so the first player learns the opponent's name without a reload."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

from matches.models import Match
from matches.pages import SEQ
from rules.eventlog import EventError


def seen(request: HttpRequest) -> int:
    """The last event the polling board has seen (``?seq=``)."""
    number = request.GET.get("seq", "")
    if not SEQ.fullmatch(number):
        raise EventError("A poll says the last event it has seen: ?seq=<number>.")
    return int(number)


def joined_changed(request: HttpRequest, match: Match) -> bool:
    """Seat B was taken or freed since the board was drawn (``?joined=1`` or ``0``)."""
    joined = request.GET.get("joined")
    return joined in ("0", "1") and (joined == "1") != bool(match.b_token)


def unchanged(request: HttpRequest, match: Match, last_seen: int) -> HttpResponse | None:
    """204 when nothing changed since event ``last_seen``: no new event, and seat B is taken or
    free as the board says. Polling never stops, not even once the match has ended: an undo of
    the end on the other device must reach this one."""
    if match.seq != last_seen or joined_changed(request, match):
        return None
    return HttpResponse(status=204)
