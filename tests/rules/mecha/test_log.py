"""The log of a mecha match: replaying it rebuilds the state, each event's recorded change brings
the state before it to the state after it, undo after do is the identity, and the plan from the
end of the log agrees with the plan from its start."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.eventlog import LogEntry
from rules.mecha.log import plan_undo, plan_undo_from, replay
from rules.mecha.play import make_event, step
from rules.mecha.storage import apply_parts, changed_parts, state_from_dict, state_to_dict
from tests.rules.mecha.factories import match

INITIAL = match()
UNITS = [unit.id for unit in INITIAL.units]
WEAPONS = ["", "u1w1", "u1w2", "u1w3", "u1w4", "u2w1", "u2w3", "u2w4", "u2w5", "u2w6"]
units = st.sampled_from(UNITS)

events = st.one_of(
    st.builds(lambda u, c: make_event("move", unit=u, charge=c), units, st.booleans()),
    st.builds(
        lambda u, w, t, a, f: make_event(
            "attack", unit=u, weapon=w, target=t, attack=a, front_arc=f
        ),
        units,
        st.sampled_from(WEAPONS),
        units,
        st.sampled_from(["range", "melee", "ram"]),
        st.booleans(),
    ),
    st.builds(
        lambda w: make_event("link_attack", unit="b-1", set="1", weapons=w, target="a-1"),
        st.sampled_from([["u2w1"], ["u2w1", "u2w2"]]),
    ),
    st.builds(
        lambda u, w: make_event("declare", unit=u, weapons=w),
        units,
        st.sampled_from([[], ["u1w1"], ["u1w2"], ["u1w1", "u1w3"]]),
    ),
    st.builds(lambda u, n: make_event("damage", hits={u: n}), units, st.integers(0, 9)),
    st.builds(
        lambda u, n: make_event("set_counters", unit=u, counters=n), units, st.integers(0, 4)
    ),
    st.just(lambda state: make_event("end_turn", turn=state.turn)),
)
ends = st.builds(lambda w: make_event("end_match", winner=w), st.sampled_from(["a", "b", "draw"]))
ops = st.lists(
    st.one_of(events, events, events, ends, st.tuples(st.just("undo"), st.integers(1, 80))),
    min_size=5,
    max_size=50,
)


def play(operations):
    """Apply ``operations`` as the app does (a refused one is not stored); check each recorded
    change and each undo on the way. Returns the state and the log."""
    state, log, befores = INITIAL, [], []
    for op in operations:
        seq = len(log) + 1
        try:
            if isinstance(op, tuple):
                target = op[1] % seq or 1
                result = plan_undo(INITIAL, log, target)
                assert result.state == plan_undo_from(state, log, befores, target).state
                event = make_event("undo", target=target)
            else:
                event = op(state) if callable(op) else op
                result = step(state, event)
        except RulesError:
            continue
        before, after = changed_parts(state, result.state)
        assert apply_parts(state, after) == result.state
        log.append(LogEntry(seq, event))
        befores.append(before)
        state = result.state
        assert replay(INITIAL, log) == state
    return state, log


@settings(max_examples=150, deadline=None)
@given(ops)
def test_replaying_the_log_gives_the_state_and_each_change_carries_it(operations):
    state, _ = play(operations)
    assert state_from_dict(json.loads(json.dumps(state_to_dict(state)))) == state


@settings(max_examples=150, deadline=None)
@given(ops, events)
def test_undo_after_do_is_the_identity(operations, last):
    state, log = play(operations)
    event = last(state) if callable(last) else last
    try:
        step(state, event)
    except RulesError:
        return
    log = [*log, LogEntry(len(log) + 1, event)]
    undone = plan_undo(INITIAL, log, len(log))
    assert undone.state == state
