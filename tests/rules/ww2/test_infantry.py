"""The infantry rules of the WWII fragment, one test per rule (docs/ww2-readings.md)."""

from __future__ import annotations

import pytest

from rules.errors import RulesError
from rules.eventlog import Stale
from rules.ww2.helpers import capture_chance
from rules.ww2.infantry import condition, wound_test_due
from rules.ww2.play import make_event, step
from tests.rules.ww2.factories import battle


def run(state, kind, **data):
    return step(state, make_event(kind, **data))


def next_turn(state):
    return run(state, "end_turn", turn=state.turn).state


def wounded(soldier="b-i2"):
    return run(battle(), "wound", soldier=soldier, outcome="wounded").state


def test_a_wound_test_is_offered_in_every_later_turn_not_the_turn_of_the_wound():
    state = wounded()
    assert not wound_test_due(state.soldier("b-i2"), state.turn)
    with pytest.raises(RulesError, match="comes in a later turn"):
        run(state, "wound_test", soldier="b-i2", result="recovered")
    state = next_turn(state)
    assert wound_test_due(state.soldier("b-i2"), state.turn)
    state = run(state, "wound_test", soldier="b-i2", result="wounded").state
    assert not wound_test_due(state.soldier("b-i2"), state.turn)
    assert wound_test_due(state.soldier("b-i2"), next_turn(state).turn)


def test_a_recovered_soldier_only_moves_for_one_full_turn_then_is_himself_again():
    state = run(next_turn(wounded()), "wound_test", soldier="b-i2", result="recovered").state
    state = next_turn(state)  # turn 3: the full turn of moving only
    assert condition(state.soldier("b-i2"), state.turn) == "recovering"
    assert any("may only move" in w for w in run(state, "attack", soldier="b-i2").warnings)
    state = next_turn(state)
    assert condition(state.soldier("b-i2"), state.turn) == "healthy"
    assert not run(state, "attack", soldier="b-i2").warnings


def test_a_prisoner_is_taken_from_the_wounded_once_the_conditions_are_ticked():
    ticked = ["within_1", "no_enemy_within_4"]
    with pytest.raises(RulesError, match="not wounded"):
        run(battle(), "prisoner", soldier="b-i2", captor="a-i2", conditions=ticked)
    with pytest.raises(RulesError, match="not ticked"):
        run(wounded(), "prisoner", soldier="b-i2", captor="a-i2", conditions=["within_1"])
    state = run(wounded(), "prisoner", soldier="b-i2", captor="a-i2", conditions=ticked).state
    assert state.soldier("b-i2").status == "prisoner" and state.soldier("b-i2").out


def test_hand_to_hand_the_higher_die_wins_and_the_winner_chooses_killed_or_wounded():
    state = run(
        battle(), "fight", soldier="a-i2", enemy="b-i2", die=2, enemy_die=5, outcome="wounded"
    ).state
    assert state.soldier("a-i2").status == "wounded" and state.soldier("b-i2").status == "healthy"
    state = run(
        battle(), "fight", soldier="a-i2", enemy="b-i2", die=6, enemy_die=1, outcome="killed"
    ).state
    assert state.soldier("b-i2").status == "dead"


def test_a_hand_to_hand_tie_is_rolled_again():
    with pytest.raises(RulesError, match="roll again"):
        run(battle(), "fight", soldier="a-i2", enemy="b-i2", die=3, enemy_die=3, outcome="killed")


def test_hand_to_hand_once_a_turn_and_instead_of_a_weapon_attack_is_warned():
    state = run(
        battle(), "fight", soldier="a-i2", enemy="b-i2", die=4, enemy_die=1, outcome="wounded"
    ).state
    again = run(state, "fight", soldier="a-i2", enemy="b-i3", die=4, enemy_die=1, outcome="wounded")
    assert any("once a turn" in w for w in again.warnings)
    shot = run(state, "attack", soldier="a-i2")
    assert any("instead of a weapon attack" in w for w in shot.warnings)


def test_a_carrier_of_the_wounded_has_no_combat_that_turn():
    state = run(wounded("a-i3"), "carry", soldier="a-i2", wounded="a-i3").state
    assert any("carrying a wounded man" in w for w in run(state, "attack", soldier="a-i2").warnings)


def test_the_end_of_a_turn_reminds_of_the_morale_test_for_soldiers_marked_beyond_12_inches():
    state = run(battle(), "mark_far", soldier="a-i2", far=True).state
    ended = run(state, "end_turn", turn=1)
    assert any("Morale test" in w and "Kozlov" in w for w in ended.warnings)
    state = run(ended.state, "morale", soldier="a-i2", result="failed").state
    assert not run(state, "end_turn", turn=2).warnings


def test_a_turn_ended_on_a_stale_screen_changes_nothing():
    with pytest.raises(Stale):
        run(next_turn(battle()), "end_turn", turn=1)


def test_the_capture_chance_on_the_inferred_d20_is_one_half():
    assert capture_chance() == 1 / 2
