"""Undo and redo on a long Kill Team match are decided from the end of the log, as Heavy Gear
Blitz's are (test_match_undo_budget.py): "Undo last" a few times, then "Redo" each, makes as many
queries and reads as many events whether the match has 50 events or 300, and leaves exactly the
state a replay of the whole log gives."""

from __future__ import annotations

import uuid
from unittest.mock import patch

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from armies.models import Owner
from matches import taps
from matches.killteam import services
from matches.killteam.services import kt_apply, kt_match_start, log_entry
from matches.models import STATES, Match, MatchEvent
from rules import killteam as kt
from tests.app.test_killteam_match import kt_tap
from tests.factories import make_team

pytestmark = pytest.mark.django_db

UNDOS = 4
# The tap's 6 (test_killteam_match.py) and, for an undo: the latest event that counts ("Undo
# last") or the events before the one brought back that its undo reaches ("Redo"), the events
# from the one undone on, the flags of the events undone or brought back (twice when a redo also
# takes an undo back).
UNDO_QUERIES = 10


def long_match(user, events: int) -> Match:
    """A Kill Team match with ``events`` taps: each operative loses a wound in turn, then
    regains it."""
    mine = make_team(user, name="Red team", operatives=2)
    theirs = make_team(user, name="Blue team", operatives=2)
    match = kt_match_start(owner=Owner(user.pk, None), player="jan", mine=mine, opponent=theirs)
    operatives = [op.id for op in services.current_state(match).operatives]
    for i in range(events):
        operative = operatives[i % len(operatives)]
        kind = "wound" if (i // len(operatives)) % 2 == 0 else "heal"
        seen = services.current_state(Match.objects.get(pk=match.pk)).operative(operative)
        applied = kt_apply(
            match_id=match.pk,
            side="a",
            token=match.token("a"),
            client_key=uuid.uuid4().hex,
            request=kt.make_event(kind, operative=operative, current=seen.current),
        )
        assert not applied.error, applied.error
    return match


def replayed(match: Match) -> kt.KillTeamState:
    """The stored state (as a server that saw none of the taps reads it), checked against a
    replay of the whole stored log."""
    match.refresh_from_db()
    rows = MatchEvent.objects.filter(match=match, refused=False).order_by("seq")
    initial = kt.state_from_dict(match.initial)
    STATES.entries.clear()
    state = services.current_state(match)
    assert state == kt.replay(initial, [log_entry(row) for row in rows])
    return state


def test_undo_last_then_redo_cost_the_same_for_50_and_300_events_and_give_the_replay(
    client, player, django_assert_max_num_queries
):
    costs = []
    for events in (50, 300):
        match = long_match(player, events)
        assert client.get(reverse("matches:match-board", args=[match.pk])).status_code == 200
        states, undone, cost = [replayed(match)], [], []

        def timed(op: str, match=match, cost=cost) -> str:
            """The tap, with its queries and the stored events it read as events of the log."""
            with (
                patch.object(
                    taps.Game, "log_entry", autospec=True, side_effect=taps.Game.log_entry
                ) as read,
                CaptureQueriesContext(connection) as queries,
                django_assert_max_num_queries(UNDO_QUERIES),
            ):
                response = kt_tap(client, match, op)
            assert response.status_code == 200
            cost.append((len(queries), read.call_count))
            return response.content.decode()

        for _ in range(UNDOS):
            assert "Undid #" in timed("undo last")
            undone.append(MatchEvent.objects.get(match=match, seq=match.seq + 1).payload["target"])
            states.append(replayed(match))
        assert undone == list(range(events, events - UNDOS, -1))
        states.pop()
        for seq in reversed(undone):
            assert f"Redid #{seq}" in timed(f"redo {seq}")
            assert replayed(match) == states.pop()
        costs.append(cost)
    assert costs[0] == costs[1]
    # Read twice (to decide, then to flag the events undone): the events undone and the undos
    # and redos after them, never the whole log.
    reads = [read for _, read in costs[1]]
    assert 0 < min(reads) and max(reads) <= 2 * 3 * UNDOS
