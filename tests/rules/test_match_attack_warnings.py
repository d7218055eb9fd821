"""Rule warnings of the attack helper's events: legal, applied all the same, and said in a plain
sentence stored with the event. A model attacking twice in a round, acting before initiative or
out of turn, a kept action spent on something other than Reaction Fire, RoF beyond Long range,
ECM without the ECM perk, and a forward observation spending the observer's action."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.hgb import rate_of_fire_warnings, unit_label
from rules.hgb.attack import RangeBand
from rules.hgb.catalog import Skills
from rules.hgb.match import (
    GroupSpec,
    SideSpec,
    UnitSpec,
    apply_parts,
    changed_parts,
    make_event,
    new_match,
    replay,
    state_from_dict,
    state_to_dict,
    step,
)
from tests.examples import examples
from tests.rules.test_match import activations, ev, play, refused, small_match
from tests.rules.test_match_attack import attack, helper_events
from tests.rules.test_match_log import UNITS, Game, ops


def active(group: str = "a-1"):
    """Initiative rolled, side a first, ``group`` activating."""
    return play(activations(small_match()), ev("activate", group=group))


def shot(state, attacker="a-1-1", *targets, seq=None, **extra):
    targets = targets or (("b-1-1", "miss"),)
    return step(state, attack(attacker, *targets, weapon="LAC", **extra), seq)


# --- Attacking twice in a round -------------------------------------------------------------------


def test_a_second_attack_in_the_same_round_names_the_first():
    first = shot(active(), seq=12)
    assert first.warnings == ()
    assert first.state.unit("a-1-1").actions == (
        ("attack", "#12: its LAC at Hunter 1 (South CG1)"),
    )
    second = shot(first.state, "a-1-1", ("b-1-2", "one_box"), seq=13)
    assert second.warnings == (
        "Hunter 1 (North CG1) already attacked this round (#12: its LAC at Hunter 1 (South "
        "CG1)): each Gear can attack once per round.",
    )
    # Warned, never refused: the second attack is applied.
    assert second.state.unit("b-1-2").track.marked == 1


def test_autopilot_allows_a_second_attack_but_not_a_third():
    state = shot(active(), seq=1, autopilot=True).state
    second = shot(state, seq=2, autopilot=True)
    assert second.warnings == ()
    third = shot(second.state, seq=3, autopilot=True)
    assert third.warnings == (
        "Hunter 1 (North CG1) already made its 2 attacks this round with its Autopilot on "
        "(#1: its LAC at Hunter 1 (South CG1); #2: its LAC at Hunter 1 (South CG1)).",
    )


def test_end_round_clears_what_the_models_did():
    state = shot(active(), seq=1).state
    state = play(state, ev("end_round"))
    assert state.unit("a-1-1").actions == ()
    state = play(activations(state), ev("activate", group="a-1"))
    assert shot(state).warnings == ()


def test_an_attack_spread_over_several_models_is_named_by_the_first():
    result = shot(active(), "a-1-1", ("b-1-1", "miss"), ("b-1-2", "miss"), seq=4, rof=1)
    assert result.state.unit("a-1-1").actions == (
        ("attack", "#4: its LAC at Hunter 1 (South CG1) and 1 more"),
    )


def test_without_a_number_the_action_is_named_by_its_words_only():
    result = step(active(), attack("a-1-1", ("b-1-1", "miss")))
    assert result.state.unit("a-1-1").actions == (("attack", "an attack at Hunter 1 (South CG1)"),)


def test_replay_numbers_each_action_like_the_app():
    game = Game()
    for event in [
        make_event("initiative_roll", side="a", die=5),
        make_event("initiative_roll", side="b", die=2),
        make_event("choose_first", side="a"),
        make_event("activate", group="a-1"),
        attack("a-1-1", ("b-1-1", "miss"), weapon="LAC"),
    ]:
        game.do(event)
    assert game.state.unit("a-1-1").actions == (("attack", "#5: its LAC at Hunter 1 (South CG1)"),)
    assert replay(game.initial, game.log) == game.state


def test_undoing_the_first_attack_waits_for_the_second():
    game = Game()
    first = game.do(attack("a-1-1", ("b-1-1", "miss")))
    second = game.do(attack("a-1-1", ("b-1-2", "miss")))
    with pytest.raises(Exception, match=f"#{second} .* depends on it"):
        game.undo(first)
    game.undo(second)
    game.undo(first)
    assert game.state == game.initial


# --- Acting out of turn ---------------------------------------------------------------------------


def test_an_attack_before_initiative_is_warned():
    result = shot(small_match())
    assert result.warnings == (
        "Hunter 1 (North CG1) attacked before initiative was rolled for round 1: both players "
        "roll first, and the winner chooses who activates first.",
    )
    assert result.state.unit("a-1-1").actions


def test_an_attack_outside_the_activating_group_without_a_kept_action_is_warned():
    result = shot(active("a-1"), "a-2-1")
    assert result.warnings == (
        "Hunter 1 (North CG2) attacked outside its activation, with no kept action: Combat "
        "Group 1 of North is activating.",
    )
    assert shot(active("a-1"), "a-1-2").warnings == ()


def test_an_attack_before_any_group_activated_is_warned():
    (warning,) = shot(activations(small_match())).warnings
    assert "before any combat group activated this round" in warning


# --- Kept actions and Reaction Fire ---------------------------------------------------------------


def kept_while_south_moves():
    """North's CG1 activated and Hunter 1 kept its action; South's CG1 is activating now."""
    return play(
        active("a-1"),
        ev("keep_action", unit="a-1-1", kept=True),
        ev("activate", group="b-1"),
    )


def test_reaction_fire_at_a_moving_model_is_fine():
    result = shot(kept_while_south_moves(), "a-1-1", ("b-1-1", "one_box"), reaction=True)
    assert result.warnings == ()
    assert not result.state.unit("a-1-1").kept_action


def test_a_kept_action_spent_on_an_attack_that_is_not_reaction_fire_is_warned():
    result = shot(kept_while_south_moves(), "a-1-1", ("b-1-1", "one_box"))
    assert result.warnings == (
        "Hunter 1 (North CG1) spends its kept action on an attack that is not Reaction Fire: a "
        "kept action is spent to respond to a model that is moving now.",
    )
    assert not result.state.unit("a-1-1").kept_action


def test_reaction_fire_at_a_model_that_is_not_moving_is_warned():
    result = shot(kept_while_south_moves(), "a-1-1", ("b-2-1", "miss"), reaction=True)
    assert result.warnings == (
        "Reaction Fire responds to a model that is moving now: Hunter 1 (South CG2) is not "
        "moving (its combat group is not activating, or it is Used).",
    )


def test_reaction_fire_without_a_kept_action_is_warned():
    (warning,) = shot(active(), reaction=True).warnings
    assert "has no kept action: Reaction Fire spends a kept action" in warning


def test_keeping_an_action_after_attacking_is_warned():
    state = shot(active(), seq=3).state
    result = step(state, make_event("keep_action", unit="a-1-1", kept=True))
    assert result.warnings == (
        "Hunter 1 (North CG1) already spent its action this round (#3: its LAC at Hunter 1 "
        "(South CG1)): it has no action left to keep.",
    )
    assert result.state.unit("a-1-1").kept_action


# --- Rate of Fire beyond Long range ---------------------------------------------------------------


def test_rof_is_checked_against_every_model_attacked():
    assert rate_of_fire_warnings(
        1, [("Jaguar", RangeBand.LONG), ("Grizzly", RangeBand.EXTREME), ("Hunter", None)]
    ) == [
        "Grizzly is at Extreme range: RoF may only be used on attacks against targets at Long "
        "range or closer."
    ]
    assert rate_of_fire_warnings(0, [("Grizzly", RangeBand.EXTREME)]) == []


def test_an_attack_with_rof_at_a_model_beyond_long_range_is_warned_and_stored():
    result = shot(
        active(),
        "a-1-1",
        ("b-1-1", "one_box"),
        ("b-1-2", "miss"),
        rof=1,
        bands={"b-1-1": "long", "b-1-2": "extreme"},
    )
    assert result.warnings == (
        "Hunter 2 (South CG1) is at Extreme range: RoF may only be used on attacks against "
        "targets at Long range or closer.",
    )


@pytest.mark.parametrize("bands", [{"b-1-1": "far"}, {"b-1-1": 3}])
def test_a_malformed_range_band_is_an_event_error(bands):
    from rules.hgb.match import EventError

    with pytest.raises(EventError, match="range bands"):
        shot(active(), bands=bands)


# --- ECM and the ECM perk -------------------------------------------------------------------------


def ecm_match(blocker_model: str):
    def side(faction, model):
        return SideSpec(
            roster_name=faction,
            faction=faction,
            groups=(
                GroupSpec(
                    "Squad",
                    (
                        UnitSpec("Hunter", "hunter", Skills(2, 2, 1, 0)),
                        UnitSpec("Blocker", model, Skills(2, 2, 1, 0)),
                    ),
                ),
            ),
        )

    return play(
        new_match(side("North", "hunter"), side("Peace River", blocker_model)),
        ev("fo_mark", unit="b-1-1", marked=True),
        ev("keep_action", unit="b-1-2", kept=True),
    )


def test_ecm_from_a_model_without_the_ecm_perk_is_warned():
    result = step(
        ecm_match("hunter"), make_event("ecm", blocker="b-1-2", target="b-1-1", blocked=True)
    )
    assert result.warnings == (
        "Blocker (Peace River CG1) has no ECM perk in the game data: only a model with the ECM "
        "Perk may block a Forward Observation.",
    )
    assert not result.state.unit("b-1-1").fo_mark


def test_every_peace_river_model_has_ecm_from_the_faction_note():
    result = step(
        ecm_match("warrior"), make_event("ecm", blocker="b-1-2", target="b-1-1", blocked=True)
    )
    assert result.warnings == ()


# --- The Forward Observer's action ----------------------------------------------------------------


def observe(state, observer="a-1-1", target="b-1-1", seq=None):
    return step(state, make_event("fo_mark", unit=target, marked=True, observer=observer), seq)


def test_a_forward_observation_spends_the_observers_action():
    result = observe(active(), seq=8)
    assert result.warnings == ()
    assert result.state.unit("b-1-1").fo_mark
    assert result.state.unit("a-1-1").actions == (
        ("fo", "#8: forward observation of Hunter 1 (South CG1)"),
    )
    assert result.summary == (
        "Hunter 1 (South CG1): marked by Hunter 1 (North CG1) for indirect fire until the end "
        "of the round (the observation spends its action)."
    )
    # An attack after it has no action left.
    (warning,) = shot(result.state, seq=9).warnings
    assert warning == (
        "Hunter 1 (North CG1) already spent its action this round (#8: forward observation of "
        "Hunter 1 (South CG1)): it has no action left to attack with."
    )


def test_an_observer_that_already_attacked_is_warned():
    state = shot(active(), seq=2).state
    (warning,) = observe(state, seq=3).warnings
    assert warning == (
        "Hunter 1 (North CG1) already spent its action this round (#2: its LAC at Hunter 1 "
        "(South CG1)): a forward observation spends an action, and it has none left."
    )


def test_an_observer_with_a_kept_action_spends_it():
    state = play(active("a-1"), ev("keep_action", unit="a-1-1", kept=True))
    result = observe(state)
    assert result.warnings == ()
    assert not result.state.unit("a-1-1").kept_action
    assert result.summary.endswith("(the observation spends its kept action).")


def test_a_used_observer_without_a_kept_action_is_warned():
    state = play(active("a-1"), ev("set_used", unit="a-1-1", used=True))
    result = observe(state)
    assert (
        "is Used and has no kept action: a forward observation spends an action"
        in (result.warnings[0])
    )
    assert result.state.unit("b-1-1").fo_mark


def test_an_observer_marks_an_enemy():
    message = refused(active(), "fo_mark", unit="a-1-2", marked=True, observer="a-1-1")
    assert "marks an enemy model" in message


def test_a_mark_without_an_observer_is_as_before():
    result = step(active(), make_event("fo_mark", unit="b-1-1", marked=True))
    assert result.warnings == ()
    assert result.writes == {"b-1-1:fo"}


# --- Labels and stored states ---------------------------------------------------------------------


def test_the_label_tells_same_named_models_apart():
    state = small_match()
    labels = {unit_label(state, unit) for unit in state.units}
    assert len(labels) == len(state.units)
    assert unit_label(state, state.unit("a-2-1")) == "Hunter 1 (North CG2)"


def test_a_state_stored_before_models_recorded_their_actions_still_loads():
    data = state_to_dict(shot(active(), seq=1).state)
    for side in data["sides"]:
        for group in side["groups"]:
            for unit in group["units"]:
                unit.pop("actions")
    state = state_from_dict(data)
    assert state.unit("a-1-1").actions == ()


observations = st.builds(
    lambda o, t: make_event("fo_mark", unit=t, marked=True, observer=o),
    st.sampled_from(UNITS),
    st.sampled_from(UNITS),
)


@settings(max_examples=examples(80), deadline=None)
@given(ops, st.lists(st.one_of(helper_events, observations), min_size=1, max_size=8))
def test_the_stored_change_of_an_attack_or_observation_rebuilds_the_state(operations, events):
    game = Game()
    game.run(operations)
    for event in events:
        before = game.state
        game.run([event])
        after = json.loads(json.dumps(changed_parts(before, game.state)[1]))
        assert apply_parts(before, after) == game.state
        assert state_from_dict(json.loads(json.dumps(state_to_dict(game.state)))) == game.state
    assert replay(game.initial, game.log) == game.state
