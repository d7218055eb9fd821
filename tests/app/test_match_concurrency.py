"""Two devices tapping at the same moment: no update is lost, none applies twice.

These run on PostgreSQL (CI runs the database tests again there): SQLite serialises every writer
anyway, so it cannot show a lost update.
"""

from __future__ import annotations

import threading
import time
import uuid

import pytest
from django.db import connection, connections, transaction
from django.test import Client
from django.urls import reverse

from matches.hgb import services
from matches.hgb.forms import parse_op
from matches.models import STATES, Match, MatchEvent
from rules.hgb.match import apply_event, parse_event, replay
from tests.factories import make_match, make_user, tap

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="concurrency needs real row locks: run on PostgreSQL (DATABASE_URL=postgres://...)",
    ),
]

UNITS = ["b-1-1", "b-1-2", "b-1-3", "b-2-1", "b-2-2", "a-1-1", "a-1-2", "a-2-4"]
ROUNDS = 2  # each device marks each model twice: 4 boxes in all, Critical but not destroyed


def devices(match: Match, host) -> tuple[Client, Client]:
    a = Client()
    a.force_login(host)
    b = Client()
    b.post(reverse("matches:match-join", args=[match.join_slug]))
    for client in (a, b):
        assert client.get(reverse("matches:match-board", args=[match.pk])).status_code == 200
    return a, b


def run_together(*jobs) -> list[BaseException]:
    barrier = threading.Barrier(len(jobs))
    errors: list[BaseException] = []

    def runner(job):
        try:
            barrier.wait()
            job()
        except BaseException as error:  # noqa: BLE001 - reported by the test
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=runner, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return errors


def test_interleaved_taps_from_two_devices_all_apply_one_by_one():
    host = make_user()
    match = make_match(host)
    a, b = devices(match, host)
    statuses: list[int] = []

    def device(client, order):
        def job():
            for _ in range(ROUNDS):
                for unit in order:
                    statuses.append(tap(client, match, f"mark {unit}").status_code)

        return job

    errors = run_together(device(a, UNITS), device(b, list(reversed(UNITS))))
    assert not errors
    assert statuses == [200] * (2 * ROUNDS * len(UNITS))
    match.refresh_from_db()
    events = list(MatchEvent.objects.filter(match=match).order_by("seq"))
    assert [event.seq for event in events] == list(range(1, 2 * ROUNDS * len(UNITS) + 1))
    sides = "".join(event.actor_side for event in events)
    assert sides.count("ab") + sides.count("ba") >= 2, f"the taps did not interleave: {sides}"
    # The final state is the events applied one by one, in the order they were stored.
    state = match.initial_state()
    for event in events:
        state = apply_event(state, parse_event({"kind": event.kind, **event.payload}))
    assert state == match.current_state()
    assert replay(match.initial_state(), [e.log_entry() for e in events]) == state
    assert all(state.unit(unit).track.marked == 2 * ROUNDS for unit in UNITS)


def test_the_same_tap_sent_from_two_threads_at_once_applies_once():
    host = make_user()
    match = make_match(host)
    a, b = devices(match, host)
    key = uuid.uuid4().hex
    errors = run_together(
        *[lambda client=client: tap(client, match, "mark b-1-1", key=key) for client in (a, a, a)]
    )
    assert not errors
    match.refresh_from_db()
    assert match.current_state().unit("b-1-1").track.marked == 1
    assert MatchEvent.objects.filter(match=match).count() == 1


def test_a_tap_that_waited_for_another_servers_tap_applies_after_it():
    """A server that knew an earlier state locks the match while another server's tap holds it:
    once that tap commits, the waiting one must apply its tap to the state that tap saved (a
    server that missed taps serves the exact state)."""
    host = make_user()
    match = make_match(host)
    a, b = devices(match, host)
    assert tap(a, match, "mark b-1-1").status_code == 200  # this process knows event 1
    locked, statuses = threading.Event(), []

    def other_server():
        with transaction.atomic():
            services.match_apply(
                match_id=match.pk,
                side="a",
                token=match.a_token,
                client_key=uuid.uuid4().hex,
                request=parse_op("mark b-1-2"),
            )
            # What this process made here, another server would have made: forget it.
            STATES.entries.clear()
            locked.set()
            time.sleep(0.5)  # the other tap is waiting for the lock meanwhile

    def this_server():
        assert locked.wait(10)
        statuses.append(tap(b, match, "mark a-1-1").status_code)

    assert not run_together(other_server, this_server)
    assert statuses == [200]
    match.refresh_from_db()
    assert match.seq == 3
    STATES.entries.clear()
    state = match.current_state()
    assert [state.unit(u).track.marked for u in ("b-1-1", "b-1-2", "a-1-1")] == [1, 1, 1]
    events = [e.log_entry() for e in MatchEvent.objects.filter(match=match).order_by("seq")]
    assert replay(match.initial_state(), events) == state


def test_both_players_tapping_the_same_box_at_once_cross_it_off_once():
    """Both players record the same hit at the same moment: box 1 is crossed off once, and the
    device whose tap came second is told who did it."""
    host = make_user()
    match = make_match(host)
    a, b = devices(match, host)
    answers: list[str] = []

    def device(client):
        return lambda: answers.append(tap(client, match, "mark b-1-1 1").content.decode())

    for _ in range(3):  # a few times, so the two taps do meet at the lock
        assert not run_together(device(a), device(b))
    match.refresh_from_db()
    assert match.current_state().unit("b-1-1").track.marked == 1
    assert MatchEvent.objects.filter(match=match, refused=False).count() == 1
    assert MatchEvent.objects.filter(match=match, refused=True).count() == 5
    refusals = [html for html in answers if "was already crossed off by" in html]
    assert len(refusals) == 5
