"""PostgreSQL (blitz_site.postgres): the health check before each request costs no round trip
while the connection is quiet and was checked a moment ago, and still replaces a connection the
server closed; the poll's statement is prepared once it repeats."""

from __future__ import annotations

import time

import psycopg
import pytest
from django.db import connection
from django.test import Client

from blitz_site.postgres import base

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="a PostgreSQL connection's health: run on PostgreSQL (DATABASE_URL=postgres://...)",
    ),
    pytest.mark.django_db(transaction=True),
]


def new_request() -> None:
    """What Django does between two requests on a kept connection."""
    connection.close_if_unusable_or_obsolete()


def backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def test_a_quiet_connection_checked_a_moment_ago_is_reused_without_a_select_1(monkeypatch):
    pid = backend_pid()
    connection.checked_at = time.monotonic()  # the last request, a moment ago
    checks = []
    monkeypatch.setattr(connection, "is_usable", lambda: checks.append(1) or True)
    new_request()
    assert connection.health_check_enabled and not connection.health_check_done
    connection.close_if_health_check_failed()
    assert connection.health_check_done and checks == []
    assert backend_pid() == pid


def test_after_a_pause_the_connection_is_checked_with_a_round_trip(monkeypatch):
    backend_pid()
    checks = []
    monkeypatch.setattr(connection, "is_usable", lambda: checks.append(1) or True)
    connection.checked_at -= base.QUIET_SECONDS  # as if the last request was a while ago
    new_request()
    connection.close_if_health_check_failed()
    assert checks == [1]  # a silently dropped connection shows only to a round trip
    new_request()
    connection.close_if_health_check_failed()
    assert checks == [1]  # checked a moment ago: the quiet socket is enough


def test_a_connection_the_server_closed_is_replaced_before_the_request_uses_it():
    pid = backend_pid()
    settings = connection.settings_dict
    with psycopg.connect(
        dbname=settings["NAME"],
        user=settings["USER"],
        password=settings["PASSWORD"],
        host=settings["HOST"],
        port=settings["PORT"] or 5432,
        autocommit=True,
    ) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
    deadline = time.monotonic() + 5
    while connection.socket_is_quiet() and time.monotonic() < deadline:
        time.sleep(0.01)  # the server's goodbye reaches the socket
    new_request()
    assert Client().get("/healthz").status_code == 200  # not a 500 on the dead connection
    assert backend_pid() != pid


def test_the_polls_statement_is_prepared_once_it_repeats(client, django_user_model):
    from matches.queries import poll_row
    from tests.factories import make_match

    match = make_match(django_user_model.objects.create_user("poller", password="x" * 12))
    for _ in range(6):
        assert poll_row("id", match.pk)["seq"] == 0
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s",
            ['%FROM "matches_match" WHERE "id" = $1%'],
        )
        assert cursor.fetchone()[0] == 1
