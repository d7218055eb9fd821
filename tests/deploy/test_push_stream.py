"""The live push through the production stack (deploy/): nginx in front of two app servers (sync
workers) and two stream servers (ASGI) sharing one PostgreSQL, driven from outside as .ci/run's
third stage does.

A tap answered by an app server reaches a board's stream held by a stream server within a second
(PostgreSQL LISTEN/NOTIFY, matches/push_pg.py); through nginx a stream's events are passed on as
they come (unbuffered, uncompressed), for a player and for a watcher; a stream for a match one may
not see is a 404. Skipped unless BLITZ_PROXY_URL, BLITZ_APP_PORTS and BLITZ_STREAM_PORTS name a
running stack.
"""

from __future__ import annotations

import http.client
import re
import time
import uuid

import pytest

from tests.deploy.client import (
    APP_PORTS,
    PROXY_URL,
    STREAM_PORTS,
    Browser,
    app_server,
    front,
    stream_server,
)

pytestmark = [
    pytest.mark.deploy,
    pytest.mark.slow,
    pytest.mark.skipif(
        not PROXY_URL or len(APP_PORTS) < 2 or len(STREAM_PORTS) < 2,
        reason="needs the nginx stack: BLITZ_PROXY_URL, BLITZ_APP_PORTS and BLITZ_STREAM_PORTS"
        " (see deploy/stack)",
    ),
]

PUSHED_WITHIN = 1.0  # seconds from a tap's answer to the event on a stream server's stream


def seq_event(seq: int) -> str:
    return rf"event: seq\ndata: {seq}\n\n"


class Stream:
    """A board's open event stream, read as the events come."""

    def __init__(self, browser: Browser, path: str, to=None, headers=None) -> None:
        host, port = to or front()
        self.connection = http.client.HTTPConnection(host, port, timeout=5)
        sent = {**browser.headers(), "Accept": "text/event-stream", **(headers or {})}
        self.opened = time.monotonic()
        self.connection.request("GET", path, headers=sent)
        self.response = self.connection.getresponse()
        self.text = ""

    def until(self, pattern: str, seconds: float) -> float:
        """Read until ``pattern`` shows in what came; how long that took. Fails after
        ``seconds``."""
        started = time.monotonic()
        while not re.search(pattern, self.text):
            left = seconds - (time.monotonic() - started)
            assert left > 0, f"{pattern!r} did not come within {seconds} s; came: {self.text!r}"
            self.connection.sock.settimeout(left)
            try:
                chunk = self.response.read1(65536)
            except TimeoutError:
                continue
            assert chunk, f"the stream ended; came: {self.text!r}"
            self.text += chunk.decode()
        return time.monotonic() - started

    def close(self) -> None:
        self.connection.close()


def tap(tablet: Browser, match: str, op: str, to=None) -> http.client.HTTPResponse:
    response, content = tablet.request(
        "POST",
        f"/matches/{match}/event",
        {"op": op, "key": uuid.uuid4().hex},
        {"HX-Request": "true"},
        to=to,
    )
    assert response.status == 200, (op, response.status, content[:300])
    return response


@pytest.fixture
def played():
    """A tablet holding seat A of a new match (started through nginx), and the match's id."""
    tablet = Browser()
    board = tablet.start_match()
    return tablet, re.fullmatch(r"/matches/(\d+)/", board).group(1)


def test_taps_on_either_app_server_reach_streams_held_by_either_stream_server_within_a_second(
    played,
):
    tablet, match = played
    streams = [Stream(tablet, f"/matches/{match}/stream", to=stream_server(n)) for n in (0, 1)]
    try:
        for stream in streams:
            assert stream.response.status == 200
            assert stream.response.getheader("Content-Type").startswith("text/event-stream")
            stream.until(seq_event(0), 2.0)  # on connect: the match's number now
        for seq, op in enumerate(["mark b-1-1", "mark b-1-2", "clear b-1-1"], start=1):
            tap(tablet, match, op, to=app_server(seq % 2))
            for stream in streams:
                assert stream.until(seq_event(seq), PUSHED_WITHIN) < PUSHED_WITHIN
    finally:
        for stream in streams:
            stream.close()


def test_nginx_sends_a_stream_to_a_stream_server_at_once_uncompressed(played):
    tablet, match = played
    _, html = tablet.request("GET", f"/matches/{match}/")
    assert f'data-stream="/matches/{match}/stream"'.encode() in html  # the board asks for it
    stream = Stream(tablet, f"/matches/{match}/stream", headers={"Accept-Encoding": "gzip"})
    try:
        assert stream.response.status == 200
        assert stream.response.getheader("Content-Type").startswith("text/event-stream")
        assert stream.response.getheader("Content-Encoding") is None
        assert stream.response.getheader("Cache-Control") == "no-cache"
        # The first event is a few bytes: a buffering proxy would hold it back.
        assert stream.until(seq_event(0), 1.0) < 1.0
        held_by = int(stream.response.getheader("X-Upstream").rpartition(":")[2])
        assert held_by in STREAM_PORTS
        tap(tablet, match, "mark b-1-1", to=app_server(0))
        assert stream.until(seq_event(1), PUSHED_WITHIN) < PUSHED_WITHIN
        answered = tap(tablet, match, "mark b-1-2")  # through nginx: to an app server
        assert int(answered.getheader("X-Upstream").rpartition(":")[2]) in APP_PORTS
        assert stream.until(seq_event(2), PUSHED_WITHIN) < PUSHED_WITHIN
    finally:
        stream.close()


def test_a_watchers_stream_through_nginx_follows_the_players_taps(played):
    tablet, match = played
    _, html = tablet.request("GET", f"/matches/{match}/")
    watch = re.search(rb'id="watch-url"[^>]*value="[^"]*(/matches/watch/[^/"]+/)"', html)
    watcher = Browser()  # no seat, only the watch link
    stream = Stream(watcher, watch.group(1).decode() + "stream")
    try:
        assert stream.response.status == 200
        stream.until(seq_event(0), 1.0)
        for seq in (1, 2):
            tap(tablet, match, f"mark b-1-{seq}")
            assert stream.until(seq_event(seq), PUSHED_WITHIN) < PUSHED_WITHIN
    finally:
        stream.close()


def test_a_stream_of_a_match_one_may_not_see_is_a_404_through_nginx(played):
    _, match = played
    stranger = Browser()
    assert stranger.request("GET", f"/matches/{match}/stream")[0].status == 404
    assert stranger.request("GET", "/matches/watch/not-a-watch-link/stream")[0].status == 404
