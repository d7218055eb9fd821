"""The stored state is a snapshot and the events after it: a tap writes its event (what it
changed) and, every SNAPSHOT_EVERY events, the whole state with its event number, in the same
transaction, so any app server, however many taps it missed, reads the exact state in one query;
refused taps are logged and never part of it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from matches import taps
from matches.models import HEAVY_FIELDS, STATES, Match, MatchEvent
from rules.hgb.match import replay, state_to_dict
from tests.factories import make_match, tap

pytestmark = pytest.mark.django_db


def replayed(match: Match):
    rows = MatchEvent.objects.filter(match=match, refused=False)
    return replay(match.initial_state(), [event.log_entry() for event in rows])


def fresh(match: Match) -> Match:
    return Match.objects.defer(*HEAVY_FIELDS).get(pk=match.pk)


OPS = ["mark b-1-1", "roll a 6", "roll b 1", "first b", "activate b-2", "mark a-2-3", "clear b-1-1"]


@pytest.fixture
def snapshot_every_3(monkeypatch):
    monkeypatch.setattr(taps, "SNAPSHOT_EVERY", 3)


def test_after_every_tap_a_fresh_server_reads_the_state_the_log_replays_to(
    client, player, snapshot_every_3, django_assert_max_num_queries
):
    match = make_match(player)
    for op in OPS:
        assert tap(client, match, op).status_code == 200
        expected = replayed(match)
        for row in (fresh(match), Match.objects.get(pk=match.pk)):  # snapshot deferred or read
            STATES.entries.clear()
            with django_assert_max_num_queries(1):
                state = row.current_state()
            assert state == expected


def test_the_whole_state_is_written_every_few_events(client, player, snapshot_every_3):
    match = make_match(player)
    initial = Match.objects.get(pk=match.pk).state
    written = []
    for op in OPS:
        tap(client, match, op)
        stored = Match.objects.get(pk=match.pk)
        written.append(stored.state_seq)
        if stored.state_seq == stored.seq:
            assert stored.state == state_to_dict(replayed(match))
        else:
            assert stored.state == (initial if stored.state_seq == 0 else stored.state)
    assert written == [0, 0, 3, 3, 3, 6, 6]


def test_the_end_of_a_match_and_its_undo_write_the_whole_state(client, player):
    match = make_match(player)
    tap(client, match, "mark b-1-1")
    end = reverse("matches:match-end", args=[match.pk])
    assert client.post(end, {"winner": "a", "key": "end-00001"}).status_code in (200, 302)
    stored = Match.objects.get(pk=match.pk)
    assert (stored.status, stored.state_seq) == (Match.Status.ENDED, 2)
    assert stored.state == state_to_dict(replayed(match))
    tap(client, match, "undo last")
    stored = Match.objects.get(pk=match.pk)
    assert (stored.status, stored.state_seq) == (Match.Status.LIVE, 3)
    assert stored.state == state_to_dict(replayed(match))


def test_a_server_that_missed_taps_serves_the_exact_state(client, player, snapshot_every_3):
    match = make_match(player)
    for op in OPS[:3]:
        tap(client, match, op)
    older = fresh(match).current_state()  # this server parsed the state after event 3
    STATES.entries.clear()  # the next taps are made by another server
    for op in OPS[3:]:
        tap(client, match, op)
    STATES.entries.clear()
    state = fresh(match).current_state()
    assert state == replayed(match) and state != older


def test_a_tap_on_a_server_that_missed_taps_applies_to_the_latest_state(
    client, player, snapshot_every_3
):
    match = make_match(player)
    tap(client, match, "mark b-1-1")
    fresh(match).current_state()  # cached here after event 1
    STATES.entries.clear()
    tap(client, match, "mark b-1-2")  # as by another server
    STATES.entries.clear()
    assert tap(client, match, "mark b-1-3").status_code == 200
    STATES.entries.clear()
    state = fresh(match).current_state()
    assert [state.unit(u).track.marked for u in ("b-1-1", "b-1-2", "b-1-3")] == [1, 1, 1]
    assert state == replayed(match)


def test_a_refused_tap_is_logged_and_never_part_of_the_state(client, player):
    match = make_match(player)
    tap(client, match, "mark b-1-1 1")
    before = Match.objects.get(pk=match.pk).state
    tap(client, match, "mark b-1-1 1")  # box 1 is crossed off already
    stored = Match.objects.get(pk=match.pk)
    assert MatchEvent.objects.filter(match=match, refused=True).count() == 1
    assert stored.seq == 2 and stored.state == before


def test_a_row_read_before_a_newer_snapshot_gets_the_newer_state_and_keeps_nothing(
    client, player, snapshot_every_3
):
    match = make_match(player)
    tap(client, match, "mark b-1-1")
    old = fresh(match)  # read at event 1; the snapshot is still the start
    tap(client, match, "mark b-1-2")
    tap(client, match, "mark b-1-3")  # event 3 writes a snapshot
    STATES.entries.clear()
    assert old.current_state() == replayed(match)
    assert STATES.entries == {}  # not kept under event 1's key


@pytest.mark.django_db(transaction=True)
def test_the_migration_makes_each_stored_state_the_snapshot_after_the_last_event():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before, after = [("matches", "0008_system")], [("matches", "0009_state_snapshot")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps.get_model("matches", "Match")
    pk = old.objects.create(
        a_guest_key="g" * 12,
        a_roster_name="A",
        b_roster_name="B",
        a_faction="",
        b_faction="",
        seq=7,
    ).pk
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    try:
        new = executor.loader.project_state(after).apps.get_model("matches", "Match")
        assert new.objects.get(pk=pk).state_seq == 7
    finally:
        MigrationExecutor(connection).migrate(executor.loader.graph.leaf_nodes())


def test_many_changes_to_one_model_after_the_snapshot_read_back_exactly(client, player):
    match = make_match(player)
    for op in ["mark b-1-1", "mark b-1-1", "speed b-1-1 top", "clear b-1-1", "mark b-1-2"]:
        assert tap(client, match, op).status_code == 200
    STATES.entries.clear()
    stored = fresh(match)
    assert stored.state_seq == 0 and stored.seq == 5
    state = stored.current_state()
    assert state == replayed(match) and state.unit("b-1-1").track.marked == 1
