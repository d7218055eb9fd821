"""A tablet talking to the stack of deploy/ from outside: through nginx (BLITZ_PROXY_URL), or to
one app server or stream server by its port (BLITZ_APP_PORTS, BLITZ_STREAM_PORTS), keeping its
cookies as a browser would."""

from __future__ import annotations

import http.client
import os
import re
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urlsplit

PROXY_URL = os.environ.get("BLITZ_PROXY_URL", "")
APP_PORTS = [int(port) for port in os.environ.get("BLITZ_APP_PORTS", "").split()]
STREAM_PORTS = [int(port) for port in os.environ.get("BLITZ_STREAM_PORTS", "").split()]


def front() -> tuple[str, int]:
    parts = urlsplit(PROXY_URL)
    assert parts.hostname in {"127.0.0.1", "localhost"}, "the stack runs on loopback only"
    return parts.hostname, parts.port or 80


def app_server(n: int) -> tuple[str, int]:
    """App server ``n`` (0 or 1) itself, past nginx."""
    assert len(APP_PORTS) >= 2, "BLITZ_APP_PORTS names the app servers' ports (.ci/run)"
    return "127.0.0.1", APP_PORTS[n]


def stream_server(n: int) -> tuple[str, int]:
    """Stream server ``n`` (0 or 1) itself, past nginx."""
    assert len(STREAM_PORTS) >= 2, "BLITZ_STREAM_PORTS names the stream servers' ports (.ci/run)"
    return "127.0.0.1", STREAM_PORTS[n]


class Browser:
    """One tablet: its cookies, and which app server answered (nginx's X-Upstream)."""

    def __init__(self) -> None:
        self.cookies: dict[str, str] = {}

    def headers(self) -> dict[str, str]:
        return {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}

    def keep_cookies(self, response: http.client.HTTPResponse) -> None:
        for line in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(line).items():
                self.cookies[name] = morsel.value

    def request(self, method: str, path: str, data: dict | None = None, headers=None, to=None):
        host, port = to or front()
        connection = http.client.HTTPConnection(host, port, timeout=10)
        sent = self.headers()
        sent.update(headers or {})
        body = None
        if method == "POST":
            body = urlencode(data or {})
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            sent["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        connection.request(method, path, body=body, headers=sent)
        response = connection.getresponse()
        content = response.read()
        self.keep_cookies(response)
        connection.close()
        return response, content

    def start_match(self) -> str:
        """Start a Heavy Gear Blitz match from the new-match page, as a player does; its board's
        path (the tablet holds seat A)."""
        page, html = self.request("GET", "/matches/new/")
        assert page.status == 200
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1).decode()
        started, _ = self.request(
            "POST",
            "/matches/new/",
            {
                "csrfmiddlewaretoken": token,
                "name": "Anna",
                "mine": "preset:north_starter",
                "opponent": "preset:peace_river_starter",
            },
        )
        assert started.status == 302, started.status
        return started.getheader("Location")
