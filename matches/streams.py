"""A match's live stream (Server-Sent Events): the board polls the moment the stream says a change
was made, instead of waiting for its next poll. The same for every game, for a player and for a
watcher.

A stream is authorised exactly as the board's poll (``matches.access``): a player's by the seat
the browser holds, a watcher's by the watch link; a match one may not see is a 404. It reads the
database only as it opens (and when a seat of the match was ended, to check its own), and holds
no connection while it waits: an idle stream costs a heartbeat comment every
``BLITZ_PUSH_HEARTBEAT`` seconds and no worker. A seat ended by a logout or a password change
(or freed) closes its streams. One address holds at most ``BLITZ_PUSH_PER_ADDRESS`` streams in
one server process (``make run``'s, or one stream server's); one more is refused with a 429.

Only an ASGI server holds streams: ``make run`` serves everything from one, and production's
proxy sends the streams to its stream servers (``BLITZ_STREAM_SERVERS``, deploy/stack). Asked of
a WSGI server, a stream answers 204 at once; a board whose page came from one asks for no stream
unless ``BLITZ_STREAM_SERVERS`` says the proxy has stream servers (``stream_url``): it polls, as
it always could.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.urls import reverse
from django.views.decorators.http import require_safe

from blitz_site.client import client_address
from matches import access
from matches.models import Match
from matches.push import SEATS_ENDED, broker

RETRY_MS = 3000  # how long the browser waits before opening a dropped stream again
TOO_MANY = "Too many live boards are open from your address; close some and reload this one."


class OpenStreams:
    """How many streams each client address holds in this server process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: dict[str, int] = {}

    def full(self, address: str) -> bool:
        with self._lock:
            return self._open.get(address, 0) >= settings.BLITZ_PUSH_PER_ADDRESS

    def enter(self, address: str) -> bool:
        """Count one more stream of ``address``; False (not counted) when it holds its limit."""
        with self._lock:
            if self._open.get(address, 0) >= settings.BLITZ_PUSH_PER_ADDRESS:
                return False
            self._open[address] = self._open.get(address, 0) + 1
            return True

    def leave(self, address: str) -> None:
        with self._lock:
            left = self._open.get(address, 0) - 1
            if left > 0:
                self._open[address] = left
            else:
                self._open.pop(address, None)

    def count(self) -> int:
        with self._lock:
            return sum(self._open.values())


OPEN = OpenStreams()


def stream_url(request: HttpRequest, match: Match, player: bool) -> str:
    """The stream a board follows (a player's or a watcher's), or "" when there is no server to
    hold one (a WSGI server with no stream servers beside it): the board then polls."""
    if not isinstance(request, ASGIRequest) and not settings.BLITZ_STREAM_SERVERS:
        return ""
    if player:
        return reverse("matches:stream", args=[match.pk])
    return reverse("matches:watch-stream", args=[match.watch_slug])


@require_safe
async def match_stream(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's stream of match ``pk``."""
    return await _stream(request, lambda: _player(request, pk))


@require_safe
async def watch_stream(request: HttpRequest, slug: str) -> HttpResponse:
    """A watcher's stream, by the watch link."""
    return await _stream(request, lambda: _watcher(request, slug))


Opened = tuple[int, int, access.Claim | None]  # the match's id, its seq, the player's seat


async def _stream(request: HttpRequest, authorise) -> HttpResponse:
    opened: Opened = await sync_to_async(_read_once)(authorise)  # Http404: not one's to see
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)  # no streams here: the board polls
    address = client_address(request) or "-"
    if OPEN.full(address):
        return HttpResponse(TOO_MANY, status=429, content_type="text/plain; charset=utf-8")
    response = StreamingHttpResponse(_events(*opened, address), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx passes each event on at once
    return response


def _player(request: HttpRequest, pk: int) -> Opened:
    fields = (*access.CLAIM_FIELDS, "seq")
    player = access.match_for(request, pk, matches=Match.objects.only(*fields))
    return player.match.pk, player.match.seq, player.claim


def _watcher(request: HttpRequest, slug: str) -> Opened:
    watching = access.match_for(request, slug=slug, to="watch", matches=Match.objects.only("seq"))
    return watching.match.pk, watching.match.seq, None


def _read_once(read):
    """``read()``, then the database connection is given back: a waiting stream holds none."""
    try:
        return read()
    finally:
        if not connection.in_atomic_block:  # (a test's transaction stays the test's)
            connection.close()


async def _events(
    match_pk: int, seq: int, claim: access.Claim | None, address: str
) -> AsyncIterator[str]:
    if not OPEN.enter(address):
        return
    listening = broker().listen(match_pk)
    waiting = asyncio.ensure_future(anext(listening))
    try:
        await asyncio.sleep(0)  # listening now: a change made from here on is pushed
        # The board polls on this first event too: it fetches anything made before.
        yield f"retry: {RETRY_MS}\nevent: seq\ndata: {seq}\n\n"
        while True:
            done, _ = await asyncio.wait({waiting}, timeout=settings.BLITZ_PUSH_HEARTBEAT)
            if not done:
                yield ": hb\n\n"
                continue
            if waiting.exception() is not None:
                return  # the broker stopped listening (StopAsyncIteration): the board reopens
            seq = waiting.result()
            if seq != SEATS_ENDED:
                yield f"event: seq\ndata: {seq}\n\n"
            elif claim is not None:
                if not await sync_to_async(_read_once)(lambda: access.still_holds(match_pk, claim)):
                    return  # the seat was ended or freed: so is its stream
            waiting = asyncio.ensure_future(anext(listening))
    finally:
        waiting.cancel()
        await asyncio.gather(waiting, return_exceptions=True)
        await listening.aclose()
        OPEN.leave(address)
