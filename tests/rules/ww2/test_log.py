"""The log of a WWII skirmish battle: replaying it rebuilds the state, each event's recorded change
brings the state before it to the state after it, undo after do is the identity, redo restores,
and an undo decided from the end of the log equals the replay's."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.eventlog import Event, LogEntry, last_undoable, undo_reach
from rules.ww2.log import plan_undo, plan_undo_from, replay
from rules.ww2.play import make_event, step
from rules.ww2.storage import apply_parts, changed_parts, state_from_dict, state_to_dict
from tests.examples import examples
from tests.rules.ww2.factories import battle

STARTS = st.sampled_from([battle(False), battle(True)])
INITIAL = battle()
VEHICLES = [v.id for v in INITIAL.vehicles]
SOLDIERS = [s.id for s in INITIAL.soldiers]
vehicles = st.sampled_from(VEHICLES)
soldiers = st.sampled_from(SOLDIERS)
ticked = st.sampled_from([[], ["four_within_2", "no_friend_within_12"]])


def seen_hit(vehicle, result, gun, fresh):
    def event(state):
        seen = state.vehicle(vehicle).damage if fresh else 5
        return make_event("hit", vehicle=vehicle, seen=seen, result=result, gun_class=gun)

    return event


def end_turn(fresh):
    return lambda state: make_event("end_turn", turn=state.turn if fresh else 99)


events = st.one_of(
    st.builds(
        seen_hit,
        vehicles,
        st.sampled_from(["damaged", "destroyed", "cancelled"]),
        st.integers(0, 7),
        st.booleans(),
    ),
    st.builds(
        lambda v, w, s, g: make_event("running_gear", vehicle=v, weapon=w, strength=s, gun_class=g),
        vehicles,
        st.sampled_from(["grenade", "gun"]),
        st.integers(14, 20),
        st.integers(0, 7),
    ),
    st.builds(lambda v: make_event("mine_trawl", vehicle=v), vehicles),
    st.builds(
        lambda v, h, d: make_event("napalm", vehicle=v, hit=h, destroyed=d),
        vehicles,
        st.booleans(),
        st.lists(st.sampled_from(VEHICLES + SOLDIERS), max_size=3),
    ),
    st.builds(
        lambda v, h: make_event("smoke", vehicle=v, how=h),
        vehicles,
        st.sampled_from(["placed", "fired"]),
    ),
    st.builds(lambda v: make_event("clear_smoke", vehicle=v), vehicles),
    st.builds(
        lambda v, d, c: make_event("capture", vehicle=v, die=d, conditions=c),
        vehicles,
        st.integers(1, 22),
        ticked,
    ),
    st.builds(
        lambda v, s, who: make_event("use_enemy", vehicle=v, side=s, soldiers=who),
        vehicles,
        st.sampled_from("ab"),
        st.lists(soldiers, max_size=3, unique=True),
    ),
    st.builds(lambda v: make_event("move", vehicle=v), vehicles),
    st.builds(
        lambda v, w: make_event("fire", vehicle=v, weapon=w),
        vehicles,
        st.sampled_from(["gun", "hull", "turret", "armour", "flamethrower"]),
    ),
    st.builds(lambda v, t: make_event("hitch", vehicle=v, tow=t), vehicles, vehicles),
    st.builds(lambda v: make_event("unhitch", vehicle=v), vehicles),
    st.builds(lambda s, v: make_event("embark", soldier=s, vehicle=v), soldiers, vehicles),
    st.builds(lambda s: make_event("dismount", soldier=s), soldiers),
    st.builds(
        lambda s, o: make_event("wound", soldier=s, outcome=o),
        soldiers,
        st.sampled_from(["wounded", "wounded", "killed"]),
    ),
    st.builds(
        lambda s, r: make_event("wound_test", soldier=s, result=r),
        soldiers,
        st.sampled_from(["recovered", "wounded"]),
    ),
    st.builds(
        lambda s, c, k: make_event("prisoner", soldier=s, captor=c, conditions=k),
        soldiers,
        soldiers,
        st.sampled_from([[], ["within_1", "no_enemy_within_4"]]),
    ),
    st.builds(lambda s, w: make_event("carry", soldier=s, wounded=w), soldiers, soldiers),
    st.builds(lambda s: make_event("attack", soldier=s), soldiers),
    st.builds(
        lambda s, e, d, f, o: make_event(
            "fight", soldier=s, enemy=e, die=d, enemy_die=f, outcome=o
        ),
        soldiers,
        soldiers,
        st.integers(1, 6),
        st.integers(1, 6),
        st.sampled_from(["killed", "wounded"]),
    ),
    st.builds(lambda s, f: make_event("mark_far", soldier=s, far=f), soldiers, st.booleans()),
    st.builds(
        lambda s, r: make_event("morale", soldier=s, result=r),
        soldiers,
        st.sampled_from(["passed", "failed"]),
    ),
    st.builds(lambda w: make_event("end_match", winner=w), st.sampled_from(["a", "b", "draw"])),
)
events = st.one_of(*[events] * 6, st.builds(end_turn, st.booleans()))
undos = st.tuples(st.just("undo"), st.integers(0, 200))
ops = st.lists(st.one_of(events, events, events, undos), min_size=10, max_size=60)


class Game:
    """A log kept the way the app keeps one: each event applied to the current state."""

    def __init__(self, initial) -> None:
        self.initial = initial
        self.state = initial
        self.log: list[LogEntry] = []
        self.summaries: dict[int, str] = {}
        self.befores: dict[int, dict] = {}

    def do(self, event) -> int:
        if callable(event):
            event = event(self.state)
        return self._append(event, step(self.state, event, len(self.log) + 1))

    def undo(self, target: int) -> int:
        result = plan_undo(self.initial, self.log, target, self.summaries)
        return self._append(Event("undo", {"target": target}), result)

    def _append(self, event, result) -> int:
        seq = len(self.log) + 1
        self.log.append(LogEntry(seq, event))
        self.summaries[seq] = result.summary
        self.befores[seq] = changed_parts(self.state, result.state)[0]
        self.state = result.state
        return seq

    def run(self, operations) -> None:
        for op in operations:
            try:
                if isinstance(op, tuple):
                    if self.log:
                        self.undo(self.log[op[1] % len(self.log)].seq)
                else:
                    self.do(op)
            except RulesError:
                pass


@settings(max_examples=examples(150), deadline=None)
@given(STARTS, ops)
def test_replay_rebuilds_the_state_and_each_recorded_change_carries_every_part(start, operations):
    game = Game(start)
    for op in operations:
        before = game.state
        game.run([op])
        assert replay(game.initial, game.log) == game.state
        old, new = json.loads(json.dumps(changed_parts(before, game.state)))
        assert apply_parts(before, new) == game.state
        assert apply_parts(game.state, old) == before
    assert state_from_dict(json.loads(json.dumps(state_to_dict(game.state)))) == game.state


@settings(max_examples=examples(150), deadline=None)
@given(STARTS, ops, events)
def test_undo_after_do_is_the_identity_and_redo_restores(start, operations, event):
    game = Game(start)
    game.run(operations)
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
@given(STARTS, ops)
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


@settings(max_examples=examples(100), deadline=None)
@given(STARTS, ops, st.data())
def test_an_undo_decided_from_the_end_of_the_log_equals_the_replay(start, operations, data):
    game = Game(start)
    game.run(operations)
    if not game.log:
        return
    pick = data.draw(st.one_of(st.integers(0, 3), st.integers(0, len(game.log))))
    target = game.log[max(0, len(game.log) - 1 - pick)].seq
    first = data.draw(st.integers(1, target))
    while True:
        tail = [entry for entry in game.log if entry.seq >= first]
        reach = undo_reach(tail, target)
        if reach >= first:
            break
        first = reach
    befores = json.loads(json.dumps([game.befores[entry.seq] for entry in tail]))
    quick = _planned(lambda: plan_undo_from(game.state, tail, befores, target, game.summaries))
    assert quick == _planned(lambda: plan_undo(game.initial, game.log, target, game.summaries))
