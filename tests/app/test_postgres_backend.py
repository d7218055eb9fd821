"""PostgreSQL on Django's stock backend, with its connection pool (under ASGI each sync view runs
in a thread of its own: a persistent connection would be one per request) and
``CONN_HEALTH_CHECKS``: a connection the server closed is replaced before a request uses it."""

from __future__ import annotations

import time

import psycopg
import pytest
from django.db import connection
from django.test import Client

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="a PostgreSQL connection's health: run on PostgreSQL (DATABASE_URL=postgres://...)",
    ),
    pytest.mark.django_db(transaction=True),
]


def backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


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
    time.sleep(0.2)  # the server's goodbye reaches the socket
    connection.close_if_unusable_or_obsolete()  # what Django does between two requests
    assert Client().get("/healthz").status_code == 200  # not a 500 on the dead connection
    assert backend_pid() != pid


def test_the_backend_is_djangos_own():
    assert connection.settings_dict["ENGINE"] == "django.db.backends.postgresql"
    assert connection.settings_dict["CONN_HEALTH_CHECKS"] is True


def test_the_pool_replaces_persistent_connections():
    assert connection.settings_dict["CONN_MAX_AGE"] == 0
    assert connection.pool is not None
