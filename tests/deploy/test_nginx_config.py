"""deploy/nginx/ stays in step with the app, and renders to a configuration nginx accepts."""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
from pathlib import Path

import pytest
from django.conf import settings

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
CONF = (DEPLOY / "nginx" / "blitz.conf").read_text()
UPSTREAMS, SERVER = CONF.split("\nserver {\n")
APP_UPSTREAM, STREAM_UPSTREAM = UPSTREAMS.split("\nupstream blitz_streams {\n")
STREAM_PATTERN = r"^/matches/(?:[0-9]+|watch/[^/]+)/stream$"
HEARTBEAT_SECONDS = 20  # matches/push.py sends ": hb" this often on an idle stream


def directive(name: str, where: str = SERVER, indent: int = 4) -> str:
    """The value of a directive written once in `where` at that indentation (4: the server
    block's own, 8: inside one of its locations)."""
    values = re.findall(rf"^ {{{indent}}}{name}\s+([^;]+);", where, re.MULTILINE)
    assert len(values) == 1, (name, values)
    return values[0]


def location(header: str) -> str:
    """The text of the server's location block that opens with `location <header> {`."""
    start = SERVER.index(f"\n    location {header} {{\n")
    return SERVER[start : SERVER.index("\n    }\n", start)]


def seconds(value: str) -> int:
    units = {"s": 1, "m": 60, "h": 3600}
    return int(value[:-1]) * units[value[-1]] if value[-1] in units else int(value)


def test_the_proxy_refuses_bodies_above_the_apps_limit_and_no_smaller():
    assert directive("client_max_body_size") == f"{settings.MAX_REQUEST_BYTES // (1024 * 1024)}m"


@pytest.mark.parametrize(
    "name",
    ["client_header_timeout", "client_body_timeout", "send_timeout", "keepalive_timeout"],
)
def test_slow_clients_are_cut_off_within_seconds(name):
    assert int(directive(name).removesuffix("s")) <= 15


def test_requests_and_responses_are_buffered_by_the_proxy():
    assert directive("proxy_request_buffering") == "on"
    assert directive("proxy_buffering") == "on"
    assert "proxy_buffering" not in location("/")


@pytest.mark.parametrize(
    "path",
    ["/matches/12/stream", "/matches/watch/Qx-9_aZ/stream"],
)
def test_both_stream_urls_take_the_stream_location(path):
    assert re.fullmatch(STREAM_PATTERN, path)
    assert f"\n    location ~ {STREAM_PATTERN} {{\n" in SERVER


@pytest.mark.parametrize(
    "path",
    ["/matches/12/poll", "/matches/12/stream/x", "/matches/x/stream", "/matches/watch/a/b/stream"],
)
def test_other_urls_stay_buffered(path):
    assert not re.fullmatch(STREAM_PATTERN, path)


def test_a_stream_is_passed_through_unbuffered_uncompressed_and_held_past_its_heartbeat():
    stream = location(f"~ {STREAM_PATTERN}")
    assert directive("proxy_buffering", stream, 8) == "off"
    assert directive("proxy_cache", stream, 8) == "off"
    assert directive("gzip", stream, 8) == "off"
    assert directive("proxy_http_version", stream, 8) == "1.1"
    assert directive("proxy_set_header Connection", stream, 8) == '""'
    assert seconds(directive("proxy_read_timeout", stream, 8)) >= 10 * HEARTBEAT_SECONDS


def test_a_stream_forwards_the_clients_address_exactly_as_every_other_request():
    """The per-address stream limit and the login limit read the same overwritten header."""
    forwarded = r"^ {8}proxy_set_header X-(?:Forwarded-For|Real-IP|Forwarded-Proto) .*$"
    stream = re.findall(forwarded, location(f"~ {STREAM_PATTERN}"), re.MULTILINE)
    assert len(stream) == 3
    assert stream == re.findall(forwarded, location("/"), re.MULTILINE)


def test_streams_go_to_the_stream_servers_and_everything_else_to_the_app_servers():
    assert directive("proxy_pass", location(f"~ {STREAM_PATTERN}"), 8) == "http://blitz_streams"
    assert directive("proxy_pass", location("/"), 8) == "http://blitz_app"
    stack = (DEPLOY / "stack").read_text()
    assert re.search(r'gunicorn" blitz_site\.wsgi --bind "127\.0\.0\.1:\$port"', stack)
    assert re.search(
        r'gunicorn" blitz_site\.asgi --worker-class uvicorn_worker\.UvicornWorker', stack
    )


def test_stream_connections_are_kept_and_closed_by_nginx_before_the_stream_server_closes_them():
    stream = location(f"~ {STREAM_PATTERN}")
    assert int(directive("keepalive", STREAM_UPSTREAM)) >= 8
    assert directive("proxy_http_version", stream, 8) == "1.1"
    assert directive("proxy_set_header Connection", stream, 8) == '""'
    stack = (DEPLOY / "stack").read_text()
    server_keepalive = int(re.search(r"--keep-alive (\d+)", stack).group(1))
    assert seconds(directive("keepalive_timeout", STREAM_UPSTREAM)) < server_keepalive


@pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is not installed")
def test_the_rendered_configuration_passes_nginx_t(tmp_path):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    (tmp_path / "nginx-tmp").mkdir()
    blitz = subprocess.run(
        [DEPLOY / "nginx" / "render", f"127.0.0.1:{port}", tmp_path, tmp_path]
        + ["127.0.0.1:1 127.0.0.1:2", "127.0.0.1:3 127.0.0.1:4"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert blitz.count("    server 127.0.0.1:") == 4 and "@" not in blitz
    app, streams = blitz.split("\nupstream blitz_streams {\n")
    streams = streams.split("\n}\n")[0]
    assert re.findall(r"server (127\.0\.0\.1:\d)", app) == ["127.0.0.1:1", "127.0.0.1:2"]
    assert re.findall(r"server (127\.0\.0\.1:\d)", streams) == ["127.0.0.1:3", "127.0.0.1:4"]
    (tmp_path / "blitz.conf").write_text(blitz)
    main = (DEPLOY / "nginx" / "nginx.conf").read_text().replace("@RUN_DIR@", str(tmp_path))
    (tmp_path / "nginx.conf").write_text(main)
    checked = subprocess.run(
        ["nginx", "-t", "-q", "-p", f"{tmp_path}/", "-c", tmp_path / "nginx.conf"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert checked.returncode == 0, checked.stderr
