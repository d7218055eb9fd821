"""Blitz keeps no state in a process: two app servers on one PostgreSQL serve one match.

Two gunicorn processes on two loopback ports share the test database. One tablet's taps go to
them in turn (as a load balancer may send them); the match ends in exactly the state of its
events applied in order, and each server sees what the other wrote.
"""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import time
import uuid
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.urls import reverse

from matches.models import Match, MatchEvent
from rules.hgb.match import apply_event, parse_event
from tests.factories import make_match, make_user

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="several app servers share one PostgreSQL: run on PostgreSQL (DATABASE_URL=...)",
    ),
]

REPO = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).with_name("gunicorn")
OPS = [f"{op} {unit}" for unit in ("b-1-1", "b-1-2", "a-2-1") for op in ("mark", "mark")]
OPS += ["clear b-1-1", "speed a-1-1 top", "used a-1-2 1", "overkill b-2-1", "undo last"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_url() -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


class Browser:
    """One tablet: its cookies, sent to whichever server it is given."""

    def __init__(self, session_key: str) -> None:
        self.cookies = {settings.SESSION_COOKIE_NAME: session_key}

    def request(self, port: int, method: str, path: str, data: dict | None = None):
        connection_ = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if method == "POST":
            body = urlencode(data or {})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.cookies.get(settings.CSRF_COOKIE_NAME, "")
            headers["HX-Request"] = "true"
        connection_.request(method, path, body=body, headers=headers)
        response = connection_.getresponse()
        content = response.read()
        for line in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(line).items():
                self.cookies[name] = morsel.value
        connection_.close()
        return response.status, content


@pytest.fixture
def servers(tmp_path):
    ports = [free_port(), free_port()]
    env = {
        **{k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE", "DEBUG"}},
        "DATABASE_URL": database_url(),
        "SECRET_KEY": settings.SECRET_KEY,
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_LEVEL": "WARNING",
        "STATIC_ROOT": str(tmp_path / "static"),
    }
    # As in production: hashed, compressed static files collected once for both servers.
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=REPO,
        env=env,
        check=True,
        timeout=120,
    )
    processes = [
        subprocess.Popen(
            [str(GUNICORN), "blitz_site.wsgi", "-b", f"127.0.0.1:{port}", "-w", "1"],
            cwd=REPO,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=(tmp_path / f"server-{port}.log").open("w"),
            start_new_session=True,
        )
        for port in ports
    ]
    try:
        deadline = time.monotonic() + 30
        for port in ports:
            while True:
                try:
                    probe = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                    probe.request("GET", "/healthz")
                    if probe.getresponse().status == 200:
                        break
                except OSError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError(f"app server on port {port} did not start")
                time.sleep(0.2)
        yield ports
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def logged_in(user) -> str:
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


def test_taps_alternating_between_two_app_servers_end_in_the_exact_state(servers):
    host = make_user("host")
    match = make_match(host)
    tablet = Browser(logged_in(host))
    board = reverse("matches:match-board", args=[match.pk])
    status, _ = tablet.request(servers[0], "GET", board)  # the seat cookie, from server 1
    assert status == 200
    event_url = reverse("matches:match-event", args=[match.pk])
    for index, op in enumerate(OPS):
        port = servers[index % 2]
        status, content = tablet.request(
            port, "POST", event_url, {"op": op, "key": uuid.uuid4().hex}
        )
        assert status == 200, (op, port, content[:300])
        # The other server sees the tap at once: its poll says something changed.
        other = servers[(index + 1) % 2]
        poll = reverse("matches:match-poll", args=[match.pk]) + f"?seq={index}"
        assert tablet.request(other, "GET", poll)[0] == 200
    match.refresh_from_db()
    events = list(MatchEvent.objects.filter(match=match).order_by("seq"))
    assert [event.seq for event in events] == list(range(1, len(OPS) + 1))
    assert len({event.client_key for event in events}) == len(OPS)
    # The stored state is the effective events applied one by one.
    state = match.initial_state()
    for event in events:
        if event.effective and event.kind != "undo":
            state = apply_event(state, parse_event({"kind": event.kind, **event.payload}))
    assert Match.objects.get(pk=match.pk).current_state() == state
    assert state.unit("b-1-2").track.marked == 2 and state.unit("b-1-1").track.marked == 1
