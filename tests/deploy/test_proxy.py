"""The production stack, driven from outside: nginx (deploy/nginx/) in front of two app servers.

Skipped unless BLITZ_PROXY_URL points at a running stack (loopback only): `.ci/run` starts one
with `deploy/stack start` and runs these. Every request goes through nginx, as a player's would;
the test reads nothing from the database.
"""

from __future__ import annotations

import gzip
import http.client
import re
import uuid

import pytest

from tests.deploy import slow_headers
from tests.deploy.client import PROXY_URL, Browser, front

pytestmark = [
    pytest.mark.deploy,
    pytest.mark.slow,
    pytest.mark.skipif(
        not PROXY_URL, reason="needs the nginx stack: BLITZ_PROXY_URL (see deploy/stack)"
    ),
]

OPS = [f"{op} {unit}" for unit in ("b-1-1", "b-1-2", "a-2-1") for op in ("mark", "mark")]
OPS += ["clear b-1-1", "speed a-1-1 top", "used a-1-2 1", "overkill b-2-1", "undo last"]


def test_taps_through_nginx_take_turns_on_both_app_servers_and_each_sees_the_others():
    tablet = Browser()
    board = tablet.start_match()
    match = re.fullmatch(r"/matches/(\d+)/", board).group(1)
    assert tablet.request("GET", board)[0].status == 200
    tapped_on = []
    for seq, op in enumerate(OPS, start=1):
        response, content = tablet.request(
            "POST",
            f"/matches/{match}/event",
            {"op": op, "key": uuid.uuid4().hex},
            {"HX-Request": "true"},
        )
        assert response.status == 200, (op, content[:300])
        server = response.getheader("X-Upstream")
        tapped_on.append(server)
        # The other app server has the tap at once: polled there, event seq is news no more.
        for _ in range(4):
            poll, _ = tablet.request("GET", f"/matches/{match}/poll?seq={seq}")
            if poll.getheader("X-Upstream") != server:
                break
        assert poll.getheader("X-Upstream") != server
        assert poll.status == 204, (op, poll.status)
        # nginx takes the app servers in turn: a third request makes the next tap the other's.
        assert tablet.request("GET", f"/matches/{match}/poll?seq={seq}")[0].status == 204
    assert len(set(tapped_on)) == 2, tapped_on  # both app servers took taps
    log, content = tablet.request("GET", f"/matches/{match}/log.md")
    assert log.status == 200
    assert content.decode().count("Refused") == 0


def test_slow_header_clients_do_not_delay_anyone_else():
    """Six clients send their headers a byte a second for 10 s: each normal request through
    nginx (the health check and the home page) still answers within a second."""
    host, port = front()
    run = slow_headers.run(f"http://{host}:{port}", clients=6, seconds=10)
    print(run.summary())
    assert min(run.slow_bytes) >= 5  # the slow clients really were dribbling all along
    assert not run.failures, run.summary()
    assert all(len(times) >= 5 for times in run.latencies.values()), run.summary()
    assert run.worst < 1.0, run.summary()


def test_a_body_over_the_limit_is_refused_by_nginx_before_the_app_sees_it():
    host, port = front()
    connection = http.client.HTTPConnection(host, port, timeout=10)
    body = b"x" * (2 * 1024 * 1024)
    try:
        connection.request(
            "POST",
            "/armies/import",
            body=body,
            headers={"Content-Type": "application/octet-stream"},
        )
    except (BrokenPipeError, ConnectionResetError):
        pass  # nginx may answer and close before the whole body is sent
    response = connection.getresponse()
    content = response.read().decode()
    connection.close()
    assert response.status == 413
    assert response.getheader("X-Upstream") is None  # no app server was asked
    assert "That was too large to send" in content


def test_static_files_come_from_nginx_compressed_and_hashed_ones_cached_for_good():
    tablet = Browser()
    _, html = tablet.request("GET", "/")
    stylesheet = re.search(rb'href="(/static/css/[^"]+\.[0-9a-f]{12}\.css)"', html).group(1)
    response, content = tablet.request(
        "GET", stylesheet.decode(), headers={"Accept-Encoding": "gzip"}
    )
    assert response.status == 200
    assert response.getheader("X-Upstream") is None  # from disk, not from an app server
    assert response.getheader("Content-Encoding") == "gzip"
    assert b"{" in gzip.decompress(content)
    assert "immutable" in response.getheader("Cache-Control")


def test_pages_are_compressed_and_keep_the_apps_security_headers():
    response, content = Browser().request("GET", "/", headers={"Accept-Encoding": "gzip"})
    assert response.status == 200
    assert response.getheader("X-Upstream")
    assert response.getheader("Content-Encoding") == "gzip"
    assert b"<html" in gzip.decompress(content)
    assert response.getheader("Content-Security-Policy")
    assert response.getheader("X-Frame-Options") == "DENY"
    assert response.getheader("Server") == "nginx"  # no version number
