"""The stored state is the current one: every tap saves it with the match's event number, in the
same row and transaction, so any app server, however many taps it missed, reads the exact state;
refused taps are logged and never part of it."""

from __future__ import annotations

import pytest

from matches.models import HEAVY_FIELDS, STATES, Match, MatchEvent
from rules.match import replay, state_to_dict
from tests.factories import make_match, tap

pytestmark = pytest.mark.django_db


def replayed(match: Match):
    rows = MatchEvent.objects.filter(match=match, refused=False)
    return replay(match.initial_state(), [event.log_entry() for event in rows])


def fresh(match: Match) -> Match:
    return Match.objects.defer(*HEAVY_FIELDS).get(pk=match.pk)


OPS = ["mark b-1-1", "roll a 6", "roll b 1", "first b", "activate b-2", "mark a-2-3", "clear b-1-1"]


def test_every_tap_saves_the_state_the_log_replays_to(client, player):
    match = make_match(player)
    for op in OPS:
        assert tap(client, match, op).status_code == 200
        stored = Match.objects.get(pk=match.pk)
        assert stored.state == state_to_dict(replayed(match))


def test_a_server_that_missed_taps_serves_the_exact_state(client, player):
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


def test_a_tap_on_a_server_that_missed_taps_applies_to_the_latest_state(client, player):
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
