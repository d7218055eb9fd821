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


def directive(name: str) -> str:
    values = re.findall(rf"^\s*{name}\s+([^;]+);", CONF, re.MULTILINE)
    assert len(values) == 1, (name, values)
    return values[0]


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


@pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is not installed")
def test_the_rendered_configuration_passes_nginx_t(tmp_path):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    (tmp_path / "nginx-tmp").mkdir()
    blitz = subprocess.run(
        [DEPLOY / "nginx" / "render", f"127.0.0.1:{port}", tmp_path, tmp_path]
        + ["127.0.0.1:1", "127.0.0.1:2"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert blitz.count("    server 127.0.0.1:") == 2 and "@" not in blitz
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
