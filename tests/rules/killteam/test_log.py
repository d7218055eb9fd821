"""The log of a Kill Team battle: replaying it rebuilds the state, each event's recorded change
(every part: the turning point, each player's CP and ploys, each operative) brings the state
before it to the state after it, undo after do is the identity, redo restores."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.eventlog import Event, LogEntry, last_undoable, undo_of, undo_reach
from rules.killteam import (
    Ploy,
    apply_parts,
    changed_parts,
    make_event,
    plan_undo,
    plan_undo_from,
    replay,
    rewind,
    state_from_dict,
    state_parts,
    state_to_dict,
    step,
    whose_turn,
)
from tests.examples import examples
from tests.rules.killteam.factories import battle, to_firefight

NAMED_PLOYS = (
    Ploy("Plan", "strategic", 1),
    Ploy("Ambush", "strategic", 2),
    Ploy("Dodge", "firefight", 0),
)
INITIAL = battle(a=2, b=2, ploys=NAMED_PLOYS)
FIREFIGHT = to_firefight(INITIAL)
"""A second start, in turning point 1's firefight phase: random logs then spend most of their
events on activations, actions and attacks."""
starts = st.sampled_from([INITIAL, FIREFIGHT])
OPERATIVES = [op.id for op in INITIAL.operatives]

ids = st.sampled_from(OPERATIVES)
sides = st.sampled_from("ab")
orders = st.sampled_from(["engage", "conceal"])
actions = st.sampled_from(["Reposition", "Dash", "Fall Back", "Charge", "Shoot", "Fight", "Guard"])
weapons = st.sampled_from(["", "Rifle", "Knife", "Cannon", "Frag grenade"])


def seen(kind, operative, amount, fresh):
    """A wound or heal tap: made on an up-to-date screen, or (``fresh`` False) on a stale one."""

    def event(state):
        current = state.operative(operative).current if fresh else 10
        return make_event(kind, operative=operative, amount=amount, current=current)

    return event


def end_turning_point(state):
    return make_event("end_turning_point", turning_point=state.turning_point)


events = st.one_of(
    st.builds(seen, st.just("wound"), ids, st.integers(1, 4), st.booleans()),
    st.builds(seen, st.just("heal"), ids, st.integers(1, 2), st.booleans()),
    st.builds(lambda o: make_event("stun", operative=o), ids),
    st.builds(lambda o, r: make_event("activate", operative=o, order=r), ids, orders),
    st.builds(lambda o, r: make_event("activate", operative=o, order=r), ids, orders),
    st.builds(lambda o, r: make_event("set_order", operative=o, order=r), ids, orders),
    st.builds(
        lambda o, a, ap, w: make_event("action", operative=o, action=a, ap=ap, weapon=w),
        ids,
        actions,
        st.integers(0, 2),
        weapons,
    ),
    st.builds(lambda o: make_event("end_activation", operative=o), ids),
    st.builds(
        lambda s, p, k: make_event("use_ploy", side=s, ploy=p, ploy_kind=k),
        sides,
        st.sampled_from(["Plan", "Command Re-roll", "Dodge", "Ambush", "Unnamed"]),
        st.sampled_from(["strategic", "firefight"]),
    ),
    st.builds(lambda s: make_event("pass_strategy", side=s), sides),
    st.builds(lambda s: make_event("pass_strategy", side=s), sides),
    st.builds(
        lambda s, n, r: make_event("adjust_cp", side=s, amount=n, reason=r),
        sides,
        st.sampled_from([-1, 1, 2]),
        st.sampled_from(["", "mission objective"]),
    ),
    st.builds(
        lambda o, t, n, stun: make_event(
            "resolve", operative=o, action="Shoot", ap=1, weapon="Rifle", damage={t: n}, stun=stun
        ),
        ids,
        ids,
        st.integers(0, 6),
        st.lists(ids, max_size=1),
    ),
)
events = st.one_of(*[events] * 6, st.just(end_turning_point))
# A whole initiative in one go, often with both passes, so random logs reach the firefight.
initiative = st.builds(
    lambda a, b, holder, decider, passes: [
        make_event("initiative_roll", side="a", die=a),
        make_event("initiative_roll", side="b", die=b),
        lambda state: make_event("give_initiative", side=holder, decider=state.decider or decider),
        *(
            [
                make_event("pass_strategy", side=holder),
                make_event("pass_strategy", side="b" if holder == "a" else "a"),
            ]
            if passes
            else []
        ),
    ],
    st.integers(1, 6),
    st.integers(1, 6),
    sides,
    sides,
    st.integers(0, 3).map(bool),
)


def activate_next(pick, order):
    """Activate a ready operative of the side whose turn it is (any, when none is due)."""

    def event(state):
        due = whose_turn(state)
        ready = [op.id for op in state.operatives if op.ready and (due is None or op.side == due)]
        choices = ready or OPERATIVES
        return make_event("activate", operative=choices[pick % len(choices)], order=order)

    return event


def act(action, weapon, target, damage):
    """An action, or a resolved attack, of the active operative (a-1 when none is)."""

    def event(state):
        operative = state.active or "a-1"
        if damage is None:
            return make_event("action", operative=operative, action=action, ap=1, weapon=weapon)
        return make_event(
            "resolve",
            operative=operative,
            action=action,
            ap=1,
            weapon=weapon,
            damage={target: damage},
        )

    return event


# An activation with an action or two, which is what most of a turning point is.
activation = st.builds(
    lambda pick, order, first, second, end: [
        activate_next(pick, order),
        first,
        *([second] if second else []),
        *(
            [lambda state: make_event("end_activation", operative=state.active or "a-1")]
            if end
            else []
        ),
    ],
    st.integers(0, 3),
    orders,
    st.builds(act, actions, weapons, ids, st.none()),
    st.one_of(st.none(), st.builds(act, actions, weapons, ids, st.integers(0, 5))),
    st.booleans(),
)
undos = st.tuples(st.just("undo"), st.integers(0, 200))
ops = st.lists(
    st.one_of(events, events, events, undos, initiative, activation, activation),
    min_size=10,
    max_size=70,
)


class Game:
    """A log kept the way the app keeps one: each event applied to the current state."""

    def __init__(self, initial=INITIAL) -> None:
        self.initial = initial
        self.state = initial
        self.log: list[LogEntry] = []
        self.summaries: dict[int, str] = {}
        self.befores: dict[int, dict] = {}

    @property
    def next_seq(self) -> int:
        return len(self.log) + 1

    def do(self, event) -> int:
        if callable(event):
            event = event(self.state)
        return self._append(event, step(self.state, event, self.next_seq))

    def undo(self, target: int) -> int:
        result = plan_undo(self.initial, self.log, target, self.summaries)
        return self._append(Event("undo", {"target": target}), result)

    def _append(self, event, result) -> int:
        seq = self.next_seq
        self.log.append(LogEntry(seq, event))
        self.summaries[seq] = result.summary
        self.befores[seq] = changed_parts(self.state, result.state)[0]
        self.state = result.state
        return seq

    def run(self, operations) -> None:
        for op in operations:
            try:
                if isinstance(op, list):
                    self.run(op)
                elif isinstance(op, tuple):
                    if self.log:
                        self.undo(self.log[op[1] % len(self.log)].seq)
                else:
                    self.do(op)
            except RulesError:
                pass


@settings(max_examples=examples(150), deadline=None)
@given(starts, ops)
def test_replay_rebuilds_the_state_and_each_recorded_change_carries_every_part(start, operations):
    game = Game(start)
    for op in operations:
        before = game.state
        game.run([op])
        assert replay(game.initial, game.log) == game.state
        # What the log keeps of the change, through JSON as stored and sent to the other
        # device, brings the state before it to exactly the state after it.
        old, new = json.loads(json.dumps(changed_parts(before, game.state)))
        assert apply_parts(before, new) == game.state
        assert apply_parts(game.state, old) == before
    assert state_from_dict(json.loads(json.dumps(state_to_dict(game.state)))) == game.state


@settings(max_examples=examples(150), deadline=None)
@given(starts, ops, st.one_of(events, activation))
def test_undo_after_do_is_the_identity_and_redo_restores(start, operations, event):
    game = Game(start)
    game.run(operations)
    if isinstance(event, list):  # an activation: its events but the last, then the last
        game.run(event[:-1])
        event = event[-1]
    before = game.state
    try:
        done = game.do(event)
    except RulesError:
        return
    after = game.state
    undo = game.undo(done)
    assert game.state == before
    game.undo(undo)
    assert game.state == after
    assert replay(game.initial, game.log) == after


@settings(max_examples=examples(60), deadline=None)
@given(starts, ops)
def test_undo_last_always_works_until_the_log_is_back_to_the_start(start, operations):
    game = Game(start)
    game.run(operations)
    while (target := last_undoable(game.log)) is not None:
        game.undo(target)
    assert game.state == start


def _planned(plan):
    try:
        result = plan()
    except RulesError as error:
        return ("refused", str(error))
    return (result.state, result.summary, result.writes, result.reads)


def _read_from(game: Game, first: int, target: int) -> tuple[list[LogEntry], list[dict]]:
    """The end of the log an undo of ``target`` is decided from, as the app reads it: from
    ``first`` on, and further back while an undo chain reaches before it; with each event's
    recorded "before" (through JSON, as stored)."""
    while True:
        tail = [entry for entry in game.log if entry.seq >= first]
        reach = undo_reach(tail, target)
        if reach >= first:
            befores = [game.befores[entry.seq] for entry in tail]
            return tail, json.loads(json.dumps(befores))
        first = reach


@settings(max_examples=examples(150), deadline=None)
@given(starts, ops, st.data())
def test_an_undo_decided_from_the_end_of_the_log_equals_the_replay(start, operations, data):
    game = Game(start)
    game.run(operations)
    if not game.log:
        return
    # Often the latest events (what "Undo last" and "Redo" touch), sometimes any; the end of the
    # log read from that event on, or from anywhere before it.
    pick = data.draw(st.one_of(st.integers(0, 3), st.integers(0, len(game.log))))
    target = game.log[max(0, len(game.log) - 1 - pick)].seq
    tail, befores = _read_from(game, data.draw(st.integers(1, target)), target)
    quick = _planned(lambda: plan_undo_from(game.state, tail, befores, target, game.summaries))
    assert quick == _planned(lambda: plan_undo(game.initial, game.log, target, game.summaries))


@settings(max_examples=examples(100), deadline=None)
@given(starts, ops)
def test_putting_back_each_recorded_change_rewinds_to_the_start(start, operations):
    game = Game(start)
    game.run(operations)
    assert rewind(game.state, _read_from(game, 1, 1)[1]) == start


@settings(max_examples=examples(60), deadline=None)
@given(starts, ops, st.integers(1, 12))
def test_undo_last_n_times_then_redo_n_times_from_the_end_of_the_log_gives_the_replay(
    start, operations, n
):
    game = Game(start)
    game.run(operations)
    states, undone = [game.state], []

    def undo_from_the_end(target: int) -> None:
        tail, befores = _read_from(game, target, target)
        result = plan_undo_from(game.state, tail, befores, target, game.summaries)
        game._append(Event("undo", {"target": target}), result)
        assert game.state == replay(game.initial, game.log)

    while len(undone) < n and (target := last_undoable(game.log)) is not None:
        undo_from_the_end(target)
        states.append(game.state)
        undone.append(target)
    assert len(undone) == n or game.state == start
    states.pop()
    for seq in reversed(undone):
        redo = undo_of(game.log, seq)
        assert redo is not None
        undo_from_the_end(redo)
        assert game.state == states.pop()


def test_every_kind_of_event_records_its_change_in_parts_the_cp_of_each_side_included():
    game = Game()
    for event in [
        make_event("initiative_roll", side="a", die=6),
        make_event("initiative_roll", side="b", die=1),
        make_event("give_initiative", side="b"),
        make_event("use_ploy", side="b", ploy="Plan", ploy_kind="strategic"),
        make_event("pass_strategy", side="a"),
        make_event("pass_strategy", side="b"),
        make_event("activate", operative="b-1", order="engage"),
        make_event("use_ploy", side="a", ploy="Command Re-roll", ploy_kind="firefight"),
        make_event(
            "resolve",
            operative="b-1",
            action="Shoot",
            ap=1,
            weapon="Rifle",
            damage={"a-1": 6},
            stun=["a-1"],
        ),
        make_event("adjust_cp", side="a", amount=2, reason="a mission rule"),
        make_event("end_activation", operative="b-1"),
        make_event("activate", operative="a-2", order="conceal"),
        make_event("action", operative="a-2", action="Shoot", ap=1, weapon="Frag grenade"),
        make_event("wound", operative="a-2", amount=2, current=10),
        make_event("heal", operative="a-2", current=8),
        make_event("set_order", operative="a-2", order="engage"),
        make_event("end_turning_point", turning_point=1),
        make_event("end_match", winner="draw"),
    ]:
        before = game.state
        game.do(event)
        old, new = changed_parts(before, game.state)
        assert new, event.kind  # every event changes some part
        assert apply_parts(before, json.loads(json.dumps(new))) == game.state
    # What an event says it wrote names the parts it changed (the app keeps them per event).
    last = step(FIREFIGHT, make_event("resolve", operative="a-1", damage={"b-2": 3}, stun=["b-1"]))
    assert last.parts == {"b-1", "b-2"} == set(changed_parts(FIREFIGHT, last.state)[1])
    parts = state_parts(game.state)
    assert parts["a"]["cp"] == 2 + 1 - 1 + 2 and parts["b"]["cp"] == 2 + 1 - 1


def test_a_later_wound_on_the_same_operative_blocks_undoing_an_earlier_one():
    game = Game()
    first = game.do(make_event("wound", operative="b-1", current=9))
    game.do(make_event("wound", operative="b-2", current=9))
    second = game.do(make_event("wound", operative="b-1", current=8))
    with pytest.raises(RulesError, match=f"Can.t undo #{first} "):
        game.undo(first)
    game.undo(second)
    game.undo(first)
    assert game.state.operative("b-1").current == 9 and game.state.operative("b-2").current == 8


def test_after_the_battle_ends_only_the_end_can_be_undone():
    game = Game()
    tap = game.do(make_event("wound", operative="a-1", current=10))
    end = game.do(make_event("end_match", winner="a"))
    with pytest.raises(RulesError, match="undo 'End battle' first"):
        game.undo(tap)
    game.undo(end)
    game.undo(tap)
    assert game.state == INITIAL


@pytest.mark.parametrize(
    "parts",
    [
        {"a-1": {"name": "Renamed"}},
        {"a-1": {"nonsense": 1}},
        {"a": {"label": "Someone else"}},
        {"match": {"phase": "no such phase"}},
        {"a-9": {"current": 1}},
        {"a-1": "wounded"},
        ["a-1"],
    ],
)
def test_a_malformed_recorded_change_is_refused_in_words(parts):
    with pytest.raises(RulesError):
        apply_parts(INITIAL, parts)


def test_a_malformed_saved_state_is_refused_in_words():
    data = state_to_dict(INITIAL)
    del data["sides"][0]["operatives"][0]["current"]
    with pytest.raises(RulesError, match="A saved Kill Team battle is malformed"):
        state_from_dict(data)
