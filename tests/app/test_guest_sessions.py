"""A guest's session (and their rosters) lasts three months from the last visit."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

pytestmark = pytest.mark.django_db


class Clock:
    """Moves django.utils.timezone.now, which the session backend and its expiry read."""

    def __init__(self) -> None:
        self.now = timezone.now()

    def __call__(self):
        return self.now

    def advance(self, **delta) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def clock():
    moving = Clock()
    with mock.patch("django.utils.timezone.now", moving):
        yield moving


def guest_with_a_roster(client) -> None:
    client.post(
        reverse("armies:roster-create"), {"start": "preset:north_starter", "name": "Bridge holders"}
    )


def shows_the_roster(client) -> bool:
    return "Bridge holders" in client.get(reverse("armies:roster-list")).content.decode()


def test_a_guest_who_plays_every_day_keeps_their_rosters_past_ninety_days(client, clock):
    guest_with_a_roster(client)
    for _day in range(160):  # 80 days of use, then 80 more
        clock.advance(days=1)
        assert shows_the_roster(client)
    clock.advance(days=30)  # a month away is nothing
    assert shows_the_roster(client)


def test_ninety_one_days_of_absence_loses_the_guests_rosters(client, clock):
    guest_with_a_roster(client)
    clock.advance(days=80)
    assert shows_the_roster(client)
    clock.advance(days=91)
    assert not shows_the_roster(client)


def test_the_session_is_renewed_at_most_once_a_day(client, clock):
    guest_with_a_roster(client)
    clock.advance(days=2)

    def session_writes() -> int:
        with CaptureQueriesContext(connection) as queries:
            client.get(reverse("armies:roster-list"))
        return sum("django_session" in q["sql"] and "UPDATE" in q["sql"] for q in queries)

    assert session_writes() == 1
    clock.advance(hours=12)
    assert session_writes() == 0
    clock.advance(hours=13)
    assert session_writes() == 1


def test_a_request_that_never_reads_the_session_does_not_write_it(client, clock):
    guest_with_a_roster(client)
    clock.advance(days=2)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("ping")).status_code == 200
    assert not queries.captured_queries
