"""A team's own named ploys: checked when named, kept with the team, taken into a battle when it
starts, each used at most once per turning point at the team's cost; CP corrected by hand with a
reason, undone like any event."""

from __future__ import annotations

import pytest

from rules.errors import RulesError
from rules.eventlog import Event, LogEntry
from rules.killteam import (
    Phase,
    Ploy,
    ProfileError,
    make_event,
    plan_undo,
    read_team,
    replay,
    side_from_team,
    state_from_dict,
    state_to_dict,
    step,
    team_to_dict,
)
from rules.killteam.team import drop_ploy, name_ploy, new_team
from tests.rules.killteam.factories import battle, run, to_firefight

PLOYS = (
    Ploy("Seek and Destroy", "strategic", 1),
    Ploy("Overwhelm", "strategic", 2),
    Ploy("Dodge", "firefight", 0),
)


def strategy(state):
    """Anna (5) beats Ben (2) and takes the initiative: Anna's turn in the strategy phase."""
    return run(
        state,
        ("initiative_roll", {"side": "a", "die": 5}),
        ("initiative_roll", {"side": "b", "die": 2}),
        ("give_initiative", {"side": "a"}),
    ).state


def ploy(side, name, kind):
    return make_event("use_ploy", side=side, ploy=name, ploy_kind=kind)


def test_two_different_strategic_ploys_in_one_turning_point_are_both_accepted():
    state = strategy(battle(ploys=PLOYS))
    assert state.side("a").cp == 3
    first = step(state, ploy("a", "Seek and Destroy", "strategic"))
    assert "Anna used Seek and Destroy, a strategic manoeuvre (1 CP, 2 left)" in first.summary
    state = step(first.state, make_event("pass_strategy", side="b")).state
    second = step(state, ploy("a", "overwhelm", "strategic"))  # any case: the team's spelling
    assert "Anna used Overwhelm, a strategic manoeuvre (2 CP, 0 left)" in second.summary
    assert second.state.side("a").ploys == (
        ("strategic", "Seek and Destroy"),
        ("strategic", "Overwhelm"),
    )


def test_the_same_ploy_twice_in_one_turning_point_is_refused_and_allowed_again_in_the_next():
    state = strategy(battle(ploys=PLOYS))
    state = step(state, ploy("a", "Seek and Destroy", "strategic")).state
    state = step(state, make_event("pass_strategy", side="b")).state
    with pytest.raises(RulesError, match="already used Seek and Destroy in turning point 1"):
        step(state, ploy("a", "seek  and destroy", "strategic"))
    state = step(state, make_event("pass_strategy", side="a")).state  # both passed in turn
    assert state.phase is Phase.FIREFIGHT
    state = step(state, make_event("end_turning_point", turning_point=1)).state
    state = strategy(state)
    assert step(state, ploy("a", "Seek and Destroy", "strategic")).state.side("a").ploys


def test_a_named_ploy_costs_what_the_team_says_and_not_enough_cp_is_refused():
    state = to_firefight(battle(ploys=PLOYS))
    free = step(state, ploy("a", "Dodge", "firefight"))
    assert free.state.side("a").cp == state.side("a").cp  # costs 0
    state = step(state, make_event("adjust_cp", side="a", amount=-3, reason="test")).state
    assert state.side("a").cp == 0
    with pytest.raises(RulesError, match="Anna has 0 CP; Command Re-roll costs 1"):
        step(state, ploy("a", "Command Re-roll", "firefight"))
    assert step(state, ploy("a", "Dodge", "firefight")).state.side("a").cp == 0


def test_a_named_ploy_of_the_other_kind_is_refused_and_an_unnamed_one_costs_the_texts_1_cp():
    state = to_firefight(battle(ploys=PLOYS))
    with pytest.raises(RulesError, match="Overwhelm is a strategic manoeuvre of Red team"):
        step(state, ploy("a", "Overwhelm", "firefight"))
    other = step(state, ploy("b", "Smoke screen", "firefight"))  # Ben's team named none
    assert other.state.side("b").cp == state.side("b").cp - 1


def test_a_cp_correction_is_an_event_with_its_reason_replayed_and_undone():
    start = battle(ploys=PLOYS)
    events = [
        make_event("adjust_cp", side="b", amount=1, reason="  mission   objective "),
        make_event("adjust_cp", side="b", amount=-1, reason=""),
    ]
    state, log, summaries = start, [], {}
    for seq, event in enumerate(events, start=1):
        result = step(state, event, seq)
        log.append(LogEntry(seq, event))
        summaries[seq] = result.summary
        state = result.state
    assert summaries[1] == "Ben gains 1 CP (mission objective): 3 CP."
    assert summaries[2] == "Ben loses 1 CP: 2 CP."
    assert replay(start, log) == state
    undone = plan_undo(start, log[:1], 1, summaries)
    assert undone.state.side("b").cp == 2
    log2 = [*log[:1], LogEntry(2, Event("undo", {"target": 1}))]
    assert replay(start, log2).side("b").cp == 2
    with pytest.raises(RulesError, match="cannot go below 0"):
        step(start, make_event("adjust_cp", side="b", amount=-3))


def test_the_teams_ploys_are_taken_into_the_battle_and_kept_through_storage():
    team = name_ploy(new_team("Red team"), "Seek and Destroy", "strategic", 1)
    team = name_ploy(team, "Dodge", "firefight", 0)
    spec = side_from_team(team, "Anna")
    assert tuple(spec.ploys) == (PLOYS[0], PLOYS[2])
    state = battle(ploys=spec.ploys)
    assert state_from_dict(state_to_dict(state)) == state
    # A match saved before teams named ploys reads with none.
    old = state_to_dict(state)
    for side in old["sides"]:
        del side["team_ploys"]
    assert state_from_dict(old).side("a").team_ploys == ()
    # Editing the team later changes no battle: the battle holds its own copy.
    assert drop_ploy(team, "dodge").ploys == (PLOYS[0],)
    assert state.side("a").team_ploys == (PLOYS[0], PLOYS[2])
    assert read_team(team_to_dict(team)) == team


@pytest.mark.parametrize(
    ("name", "kind", "cost", "message"),
    [
        ("", "strategic", 1, "Give the ploy a name"),
        ("   ", "firefight", 1, "Give the ploy a name"),
        ("x" * 61, "strategic", 1, "at most 60 characters"),
        ("Plan", "tactical", 1, "strategic or firefight"),
        ("Plan", "strategic", -1, "0 to 9"),
        ("Plan", "strategic", 10, "0 to 9"),
        ("Plan", "strategic", "1", "0 to 9"),
        ("Plan", "strategic", True, "0 to 9"),
        ("command re-roll", "firefight", 1, "in the core rules for every team"),
        ("seek and destroy", "firefight", 1, "already has a ploy called seek and destroy"),
    ],
)
def test_a_ploy_is_refused_in_words(name, kind, cost, message):
    team = name_ploy(new_team("Red"), "Seek and Destroy", "strategic", 1)
    with pytest.raises(ProfileError, match=message):
        name_ploy(team, name, kind, cost)


def test_a_stored_team_with_bad_ploys_names_each_ploy_and_field():
    data = team_to_dict(new_team("Red"))
    data["ploys"] = [
        {"name": "Plan", "kind": "strategic", "cost": 1},
        {"name": "plan", "kind": "strategic", "cost": 1},
        {"name": "Dodge", "kind": "sneaky", "cost": 1},
        "Ambush",
    ]
    with pytest.raises(ProfileError) as error:
        read_team(data)
    fields = [problem.field for problem in error.value.problems]
    assert fields == ["ploys.1.name", "ploys.2.kind", "ploys.3"]
    assert "Ploy 2: plan is named twice." in str(error.value)
    data["ploys"] = "Plan"
    with pytest.raises(ProfileError, match="The ploys must be a list"):
        read_team(data)


def test_a_strategic_ploy_is_used_only_in_its_players_turn_of_the_strategy_phase():
    state = strategy(battle(ploys=PLOYS))
    assert state.phase is Phase.STRATEGY
    with pytest.raises(RulesError, match="It's Anna's turn"):
        step(state, ploy("b", "Plan", "strategic"))
