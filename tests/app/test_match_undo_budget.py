"""Undo and redo on a long match: "Undo last" several times in a row, then "Redo" as many times,
gives exactly the states a replay of the whole log gives, and each reads as many events and makes
as many queries whether the match has 30 events or 300 (an undo reads the events from the one it
takes back on, never the whole log)."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches import taps
from matches.hgb.services import match_apply
from matches.models import Match, MatchEvent
from rules.hgb.match import make_event, replay
from tests.factories import make_match, tap

pytestmark = pytest.mark.django_db

# The tap's 5 (see test_match_budget.py) and, for an undo: the session, the latest event that
# counts ("Undo last") or the events before the one brought back that its undo reaches ("Redo"),
# the events from the one undone on, a second flag update when a redo also takes an undo back,
# and the log the board shows again.
UNDO_QUERIES = 11
IN_A_ROW = 6


def long_match(user, events: int) -> Match:
    """A match with ``events`` damage taps: box 1 of each model crossed off, then cleared."""
    match = make_match(user)
    units = [unit.id for unit in match.current_state().units]
    for i in range(events):
        unit = units[i % len(units)]
        kind = "mark_box" if (i // len(units)) % 2 == 0 else "clear_box"
        applied = match_apply(
            match_id=match.pk,
            side="a",
            token=match.token("a"),
            client_key=uuid.uuid4().hex,
            request=make_event(kind, unit=unit, box=1),
        )
        assert not applied.error, applied.error
    return match


def replayed(match: Match):
    """The stored state, checked against a replay of the whole stored log."""
    match.refresh_from_db()
    rows = MatchEvent.objects.filter(match=match, refused=False).order_by("seq")
    state = match.current_state()
    assert state == replay(match.initial_state(), [row.log_entry() for row in rows])
    return state


@pytest.fixture
def events_read(monkeypatch) -> list[int]:
    """How many stored events have been read as events of the log so far (a list of one)."""
    count = [0]
    read = taps.Game.log_entry  # how the tap writer reads a stored event, for every game

    def counted(self, row):
        count[0] += 1
        return read(self, row)

    monkeypatch.setattr(taps.Game, "log_entry", counted)
    return count


def undo_then_redo(client, match, assert_max_queries, events_read) -> list[tuple[int, int]]:
    """Undo last ``IN_A_ROW`` times, then redo the undone events, latest undone first: each gives
    the state of a full replay, and the redos go back through the same states. Returns the
    queries and the events read of each request."""
    costs, states, undone = [], [replayed(match)], []

    def timed(op: str) -> str:
        before = events_read[0]
        with assert_max_queries(UNDO_QUERIES), CaptureQueriesContext(connection) as queries:
            response = tap(client, match, op)
        assert response.status_code == 200
        costs.append((len(queries), events_read[0] - before))
        return response.content.decode()

    for _ in range(IN_A_ROW):
        assert "Undid #" in timed("undo last")
        undone.append(MatchEvent.objects.get(match=match, seq=match.seq + 1).payload["target"])
        states.append(replayed(match))
    assert len(set(undone)) == IN_A_ROW
    states.pop()
    for seq in reversed(undone):
        assert f"Redid #{seq}" in timed(f"redo {seq}")
        assert replayed(match) == states.pop()
    return costs


def test_undo_last_in_a_row_then_redo_gives_the_replayed_states_at_a_cost_that_does_not_grow(
    client, player, django_assert_max_num_queries, events_read
):
    short, long = long_match(player, 30), long_match(player, 300)
    for match in (short, long):  # warm up: the seat is remembered in the session
        tap(client, match, "mark a-1-1")
        tap(client, match, "clear a-1-1 1")
    costs = [
        undo_then_redo(client, match, django_assert_max_num_queries, events_read)
        for match in (short, long)
    ]
    assert costs[0] == costs[1]
    # Read twice (to decide, then to flag the events undone): the events undone and the undos
    # and redos after them, never the whole log.
    assert max(read for _, read in costs[1]) <= 2 * 3 * IN_A_ROW
