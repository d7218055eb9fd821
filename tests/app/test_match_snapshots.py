"""The stored state is a snapshot: a tap writes its event and the match's number, not the whole
state; every SNAPSHOT_EVERY events (and at the end) the snapshot is rewritten; an app server that
missed taps brings what it knows up to date with only the events it missed."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from matches import services
from matches.forms import parse_op
from matches.models import HEAVY_FIELDS, LATEST, SNAPSHOT_EVERY, STATES, Known, Match, MatchEvent
from rules.match import replay, state_to_dict
from tests.factories import make_big_roster, make_match, make_user, tap

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(player):
    return make_match(player)


def another_server() -> None:
    """Forget every state this process made, as a second app server would never have made them."""
    STATES.entries.clear()
    LATEST.entries.clear()


def replayed(match: Match):
    rows = MatchEvent.objects.filter(match=match, refused=False)
    return replay(match.initial_state(), [event.log_entry() for event in rows])


def fresh(match: Match) -> Match:
    return Match.objects.defer(*HEAVY_FIELDS).get(pk=match.pk)


def taps(client, match, count: int) -> None:
    for index in range(count):
        op = "mark" if index % 2 == 0 else "clear"
        assert tap(client, match, f"{op} b-1-1").status_code == 200


def test_a_tap_on_a_big_match_writes_the_event_and_the_match_number_not_the_state(client, player):
    match = make_match(player, roster=make_big_roster(player, 12))
    before = Match.objects.get(pk=match.pk).state
    with CaptureQueriesContext(connection) as queries:
        assert tap(client, match, "mark a-1-1").status_code == 200
    updates = [q["sql"] for q in queries if q["sql"].startswith('UPDATE "matches_match"')]
    assert len(updates) == 1 and '"state"' not in updates[0], updates
    stored = Match.objects.get(pk=match.pk)
    assert (stored.seq, stored.state_seq, stored.state) == (1, 0, before)
    assert fresh(match).current_state().unit("a-1-1").track.marked == 1


def test_a_server_that_saw_no_taps_reads_the_snapshot_and_the_events_after_it(client, match):
    for op in ["mark b-1-1", "roll a 6", "roll b 1", "first b", "activate b-2", "mark a-2-3",
               "activate a-1", "speed a-1-1 top", "undo last", "keep a-1-1 1", "fire a-1-1 1",
               "destroy b-2-5", "undo 9", "redo 9", "fo b-1-1 1"]:  # fmt: skip
        tap(client, match, op)
    another_server()
    stored = fresh(match)
    assert stored.state_seq == 0 and stored.seq == MatchEvent.objects.filter(match=match).count()
    assert stored.seq >= 12
    with CaptureQueriesContext(connection) as queries:
        state = stored.current_state()
    assert len(queries) == 2  # the snapshot (deferred here), the events after it
    assert state == replayed(match)
    assert state.unit("b-2-5").is_out and state.unit("b-1-1").fo_mark


def test_every_so_many_events_the_snapshot_is_rewritten(client, match):
    taps(client, match, SNAPSHOT_EVERY - 1)
    assert Match.objects.get(pk=match.pk).state_seq == 0
    taps(client, match, 1)
    stored = Match.objects.get(pk=match.pk)
    assert stored.state_seq == stored.seq == SNAPSHOT_EVERY
    assert stored.state == state_to_dict(replayed(match))
    taps(client, match, 3)
    stored = Match.objects.get(pk=match.pk)
    assert (stored.seq, stored.state_seq) == (SNAPSHOT_EVERY + 3, SNAPSHOT_EVERY)
    another_server()
    assert fresh(match).current_state() == replayed(match)


def test_ending_the_match_writes_the_snapshot(client, match):
    tap(client, match, "mark b-1-1")
    response = client.post(
        reverse("matches:match-end", args=[match.pk]), {"winner": "a", "key": "end-key-0001"}
    )
    assert response.status_code == 302
    stored = Match.objects.get(pk=match.pk)
    assert stored.status == Match.Status.ENDED
    assert stored.state_seq == stored.seq == 2
    assert stored.state == state_to_dict(replayed(match))


def test_a_server_catches_up_from_the_latest_state_it_saw_with_only_the_missed_events(
    client, match, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        taps(client, match, 3)  # committed here: this server knows the state after event 3
    assert LATEST.get((match.pk,)).seq == 3
    taps(client, match, 2)  # made by another server: never committed in this process's eyes
    STATES.entries.clear()
    stored = fresh(match)
    with CaptureQueriesContext(connection) as queries:
        state = stored.current_state()
    assert len(queries) == 1, [q["sql"] for q in queries]  # events 4 and 5, not the snapshot
    assert state == replayed(match)
    assert state.unit("b-1-1").track.marked == 1


def test_a_state_from_a_write_that_rolled_back_is_never_taken_as_the_latest(
    match, django_capture_on_commit_callbacks
):
    class Rollback(Exception):
        pass

    another_server()
    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(Rollback), transaction.atomic():
            applied = services.match_apply(
                match_id=match.pk,
                side="a",
                token=match.a_token,
                client_key="k" * 32,
                request=parse_op("mark b-1-1"),
            )
            assert applied.state.unit("b-1-1").track.marked == 1
            raise Rollback
    assert LATEST.get((match.pk,)) is None
    STATES.entries.clear()
    assert fresh(match).current_state().unit("b-1-1").track.marked == 0


def test_another_match_with_the_same_number_never_lends_its_state(match):
    other = make_match(make_user("someone"))
    LATEST.put((match.pk,), Known(other.watch_slug, match.seq, other.current_state(), {}))
    STATES.entries.clear()
    assert fresh(match).current_state() == match.initial_state()


def test_a_tap_stores_its_event_and_the_match_as_the_orm_reads_them(client, match):
    before = Match.objects.get(pk=match.pk).updated_at
    tap(client, match, "speed a-1-1 top", key="k" * 32)
    event = MatchEvent.objects.get(match=match, seq=1)
    assert (event.client_key, event.actor_side, event.round, event.kind) == (
        "k" * 32,
        "a",
        1,
        "set_speed",
    )
    assert event.payload == {"unit": "a-1-1", "speed": "top"}
    assert event.units == ["a-1-1"] and event.effective is True
    assert event.after == {"a-1-1": {"speed": "top", "speed_round": 1}}
    assert event.warnings and all(isinstance(w, str) for w in event.warnings)
    assert event.created_at.tzinfo is not None
    stored = Match.objects.get(pk=match.pk)
    assert stored.seq == 1 and stored.updated_at > before
    assert stored.updated_at >= event.created_at


def test_a_tap_on_a_server_that_missed_taps_brings_them_in_its_locked_read(
    client, match, django_capture_on_commit_callbacks
):
    assert tap(client, match, "mark a-1-1").status_code == 200  # warm up
    with django_capture_on_commit_callbacks(execute=True):
        taps(client, match, 3)  # this server knows the state after event 4
    with CaptureQueriesContext(connection) as warm:
        tap(client, match, "mark a-2-1")  # made here, but as by another server: not committed
    tap(client, match, "mark a-2-1")
    STATES.entries.clear()
    with CaptureQueriesContext(connection) as cold:
        assert tap(client, match, "mark a-2-1").status_code == 200
    assert len(cold) == len(warm), [q["sql"] for q in cold]
    state = fresh(match).current_state()
    assert state == replayed(match)
    assert state.unit("a-2-1").track.marked == 3 and state.unit("b-1-1").track.marked == 1


def test_a_server_whose_latest_state_is_older_than_the_snapshot_starts_from_the_snapshot(
    client, match, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        taps(client, match, 2)  # this server knows the state after event 2
    taps(client, match, SNAPSHOT_EVERY + 2)  # as by another server: a snapshot at event 20
    STATES.entries.clear()
    assert LATEST.get((match.pk,)).seq == 2
    assert tap(client, match, "mark a-1-1").status_code == 200
    stored = Match.objects.get(pk=match.pk)
    assert (stored.seq, stored.state_seq) == (SNAPSHOT_EVERY + 5, SNAPSHOT_EVERY)
    STATES.entries.clear()
    assert fresh(match).current_state() == replayed(match)
    assert replayed(match).unit("a-1-1").track.marked == 1


def test_a_read_that_meets_a_newer_snapshot_shows_the_state_of_its_own_event_number(client, match):
    taps(client, match, SNAPSHOT_EVERY - 1)
    stale = fresh(match)  # the row at event 19, its state deferred (as a poll reads it)
    assert tap(client, match, "mark a-1-1").status_code == 200  # event 20 writes a snapshot
    assert Match.objects.get(pk=match.pk).state_seq == SNAPSHOT_EVERY
    another_server()
    state = stale.current_state()
    events = [e.log_entry() for e in MatchEvent.objects.filter(match=match, seq__lt=SNAPSHOT_EVERY)]
    assert state == replay(match.initial_state(), events)
    assert state.unit("a-1-1").track.marked == 0  # event 20 is not in it
