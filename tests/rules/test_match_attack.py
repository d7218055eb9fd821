"""The attack helper's events: one ``attack`` applies a resolved attack to every model it names,
spends a kept action (Reaction Fire) and a Limited Ammo shot; ``ecm`` spends the blocker's kept
action and clears the mark it blocks. Both replay and undo like every other event."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.hgb.damage import DamageState
from rules.hgb.match import EventError, UnknownId, make_event, parse_event, replay, step
from tests.examples import examples
from tests.rules.test_match import ev, play, refused, small_match
from tests.rules.test_match_log import UNITS, Game, ops

OUTCOMES = ["miss", "no_effect", "one_box", "two_boxes", "overkill"]


def attack(attacker: str = "a-1-1", *targets: tuple[str, str], **extra):
    return make_event(
        "attack", attacker=attacker, targets=[list(t) for t in targets] or [], **extra
    )


def test_an_attack_applies_its_outcome_to_the_target_and_says_how_in_the_log():
    state = small_match()
    result = step(
        state,
        attack("a-1-1", ("b-1-1", "two_boxes"), note="LAC: MoS 4 x DM 8 = 32 against Armor 15."),
    )
    assert result.state.unit("b-1-1").track.marked == 2
    assert result.state.unit("b-1-1").state is DamageState.LIGHT
    assert result.summary == (
        "Hunter 1 (North CG1) attacked. LAC: MoS 4 x DM 8 = 32 against Armor 15. "
        "Hunter 1 (South CG1): 2 boxes crossed off: Light (No effect in the quickstart rules)."
    )
    # The attacker records that it attacked this round (see test_a_second_attack_...).
    assert result.writes == {"b-1-1:damage", "a-1-1:acted"}
    assert result.units == {"a-1-1", "b-1-1"}


def test_one_attack_hits_several_models_each_with_its_own_outcome():
    state = small_match()
    result = step(
        state,
        attack(
            "a-1-1",
            ("b-1-1", "one_box"),
            ("b-1-2", "miss"),
            ("b-2-1", "overkill"),
            ("b-2-2", "no_effect"),
        ),
    )
    new = result.state
    assert new.unit("b-1-1").track.marked == 1
    assert new.unit("b-1-2") == state.unit("b-1-2")
    assert new.unit("b-2-1").track.overkilled
    assert new.unit("b-2-2") == state.unit("b-2-2")
    assert "Hunter 2 (South CG1): missed" in result.summary
    assert "Hunter 1 (South CG2): Overkilled (removed from the table)" in result.summary
    assert "Hunter 2 (South CG2): hit, no effect" in result.summary
    assert result.units == {"a-1-1", "b-1-1", "b-2-1"}


def test_damage_past_the_critical_box_destroys():
    state = play(small_match(), *[ev("mark_box", unit="b-1-1")] * 3)
    result = step(state, attack("a-1-1", ("b-1-1", "two_boxes")))
    assert result.state.unit("b-1-1").state is DamageState.DESTROYED
    assert "Destroyed (it stays on the table as rough terrain)" in result.summary


def test_reaction_fire_spends_the_kept_action():
    state = play(small_match(), ev("keep_action", unit="a-1-1", kept=True))
    result = step(state, attack("a-1-1", ("b-1-1", "miss")))
    assert not result.state.unit("a-1-1").kept_action
    assert result.state.unit("a-1-1").used
    assert "(Reaction Fire: its kept action is spent)" in result.summary
    assert "a-1-1:kept" in result.writes


def test_a_used_model_without_a_kept_action_cannot_attack():
    state = play(small_match(), ev("set_used", unit="a-1-1", used=True))
    assert "is Used and has no kept action" in refused(
        state, "attack", attacker="a-1-1", targets=[["b-1-1", "one_box"]]
    )


def test_a_model_at_top_speed_cannot_attack():
    state = play(small_match(), ev("set_speed", unit="a-1-1", speed="top"))
    assert "spent its action moving at Top Speed" in refused(
        state, "attack", attacker="a-1-1", targets=[["b-1-1", "one_box"]]
    )


def test_a_limited_ammo_weapon_spends_a_shot():
    state = small_match()
    once = step(state, attack("a-1-1", ("b-1-1", "miss"), ammo=0)).state
    assert once.unit("a-1-1").ammo[0].left == 1
    twice = step(once, attack("a-1-1", ("b-1-1", "miss"), ammo=0)).state
    assert "is out of ammo (Limited Ammo 2)" in refused(
        twice, "attack", attacker="a-1-1", targets=[["b-1-1", "miss"]], ammo=0
    )
    with pytest.raises(UnknownId, match="no Limited Ammo weapon number 2"):
        step(state, attack("a-1-1", ("b-1-1", "miss"), ammo=1))


def test_a_destroyed_model_neither_attacks_nor_is_attacked():
    state = play(small_match(), ev("destroy", unit="b-1-1"), ev("overkill", unit="a-1-2"))
    assert "is destroyed" in refused(
        state, "attack", attacker="a-1-1", targets=[["b-1-1", "one_box"]]
    )
    assert "was overkilled" in refused(
        state, "attack", attacker="a-1-2", targets=[["b-1-2", "one_box"]]
    )


@pytest.mark.parametrize(
    ("targets", "message"),
    [
        ([["b-1-1"]], r"\[model, outcome\]"),
        ([["b-1-1", 2]], r"\[model, outcome\]"),
        (["b-1-1"], r"\[model, outcome\]"),
        ([["b-1-1", "three_boxes"]], "outcome is one of miss, no_effect"),
        ([["b-1-1", "miss"], ["b-1-1", "one_box"]], "names the model b-1-1 twice"),
        ([["b-1-1", "miss"]] * 25, "at most 24 models"),
    ],
)
def test_a_malformed_attack_is_an_event_error(targets, message):
    with pytest.raises(EventError, match=message):
        step(small_match(), make_event("attack", attacker="a-1-1", targets=targets))


def test_an_attack_on_an_unknown_model_is_unknown():
    with pytest.raises(UnknownId):
        step(small_match(), attack("a-1-1", ("b-9-1", "one_box")))
    with pytest.raises(EventError, match="wrong type"):
        parse_event({"kind": "attack", "attacker": "a-1-1", "targets": "b-1-1"})
    with pytest.raises(EventError, match="at most 2000 characters"):
        step(small_match(), attack("a-1-1", note="x" * 2001))


def test_an_attack_keeps_the_figures_typed_in_for_it():
    figures = {"models": {"jager": {"armor": 14}}, "weapons": {"LAC": {"accuracy": 0}}}
    event = attack("a-1-1", ("b-1-1", "miss"), figures=figures)
    assert event["figures"] == figures
    assert step(small_match(), event).state.unit("b-1-1") == small_match().unit("b-1-1")
    assert parse_event({"kind": "attack", "attacker": "a-1-1", "targets": []})["figures"] == {}


@pytest.mark.parametrize(
    "figures",
    [
        {"units": {}},
        {"models": []},
        {"models": {"jager": 14}},
        {"models": {"jager": {"armor": "14"}}},
        {"models": {"jager": {"armor": True}}},
        {"models": {"jager": {"armor": 1000}}},
        {"weapons": {f"W{i}": {"dm": 1} for i in range(65)}},
    ],
)
def test_malformed_figures_are_an_event_error(figures):
    with pytest.raises(EventError, match="figures are"):
        step(small_match(), attack("a-1-1", figures=figures))
    with pytest.raises(EventError, match="figures are"):
        step(
            ecm_ready(),
            make_event("ecm", blocker="b-1-2", target="b-1-1", blocked=True, figures=figures),
        )


def test_an_attack_that_missed_everyone_changes_nothing_but_is_logged():
    result = step(small_match(), attack("a-1-1", ("b-1-1", "miss")), 7)
    assert result.state.unit("b-1-1") == small_match().unit("b-1-1")
    assert result.state.unit("a-1-1").actions == (
        ("attack", "#7: an attack at Hunter 1 (South CG1)"),
    )
    assert result.writes == {"a-1-1:acted"}
    assert result.summary.endswith("Hunter 1 (South CG1): missed.")


def test_undo_takes_a_whole_attack_back_at_once():
    game = Game()
    game.do(make_event("keep_action", unit="a-1-1", kept=True))
    before = game.state
    done = game.do(attack("a-1-1", ("b-1-1", "two_boxes"), ("b-1-2", "one_box"), ammo=0))
    assert game.state.unit("b-1-1").track.marked == 2
    game.undo(done)
    assert game.state == before
    assert replay(game.initial, game.log) == before


def test_an_attack_depends_on_earlier_damage_to_its_target():
    game = Game()
    box = game.do(make_event("mark_box", unit="b-1-1"))
    shot = game.do(attack("a-1-1", ("b-1-1", "one_box")))
    with pytest.raises(Exception, match=f"#{shot} .* depends on it"):
        game.undo(box)


# --- ECM ------------------------------------------------------------------------------------------


def ecm_ready():
    return play(
        small_match(),
        ev("fo_mark", unit="b-1-1", marked=True),
        ev("keep_action", unit="b-1-2", kept=True),
    )


def test_ecm_that_wins_clears_the_mark_and_spends_the_kept_action():
    result = step(
        ecm_ready(),
        make_event("ecm", blocker="b-1-2", target="b-1-1", blocked=True, note="ECM 5 against 3."),
    )
    assert not result.state.unit("b-1-1").fo_mark
    assert not result.state.unit("b-1-2").kept_action
    assert result.summary == (
        "Hunter 2 (South CG1) spent its kept action on ECM against the observation of "
        "Hunter 1 (South CG1). ECM 5 against 3. The observation is blocked: the forward "
        "observer mark is cleared."
    )


def test_ecm_that_loses_keeps_the_mark_but_still_spends_the_action():
    result = step(ecm_ready(), make_event("ecm", blocker="b-1-2", target="b-1-1", blocked=False))
    assert result.state.unit("b-1-1").fo_mark
    assert not result.state.unit("b-1-2").kept_action
    assert result.summary.endswith("The observation goes ahead: the mark stays.")


def test_a_model_may_block_the_observation_of_itself():
    state = play(
        small_match(),
        ev("fo_mark", unit="b-1-1", marked=True),
        ev("keep_action", unit="b-1-1", kept=True),
    )
    new = step(state, make_event("ecm", blocker="b-1-1", target="b-1-1", blocked=True)).state
    assert not new.unit("b-1-1").fo_mark and not new.unit("b-1-1").kept_action


@pytest.mark.parametrize(
    ("blocker", "target", "message"),
    [
        ("a-1-1", "b-1-1", "its own side's models"),
        ("b-2-1", "b-1-1", "has no kept action"),
        ("b-1-2", "b-2-1", "has no forward observer mark"),
    ],
)
def test_ecm_is_refused_with_a_reason(blocker, target, message):
    assert message in refused(ecm_ready(), "ecm", blocker=blocker, target=target, blocked=True)


# --- With every other event -----------------------------------------------------------------------

helper_events = st.one_of(
    st.builds(
        lambda a, targets, ammo: attack(a, *targets, ammo=ammo),
        st.sampled_from(UNITS),
        st.lists(
            st.tuples(st.sampled_from(UNITS), st.sampled_from(OUTCOMES)),
            max_size=3,
            unique_by=lambda t: t[0],
        ),
        st.sampled_from([-1, -1, 0]),
    ),
    st.builds(
        lambda b, t, blocked: make_event("ecm", blocker=b, target=t, blocked=blocked),
        st.sampled_from(UNITS),
        st.sampled_from(UNITS),
        st.booleans(),
    ),
)
mixed = st.lists(st.one_of(ops.map(tuple), helper_events), min_size=1, max_size=20)


def flatten(items):
    for item in items:
        if isinstance(item, tuple):
            yield from item
        else:
            yield item


@settings(max_examples=examples(100), deadline=None)
@given(mixed, helper_events)
def test_attack_and_ecm_replay_and_undo_like_every_event(items, event):
    game = Game()
    game.run(list(flatten(items)))
    assert replay(game.initial, game.log) == game.state
    before = game.state
    try:
        done = game.do(event)
    except Exception as error:  # a refusal: nothing changed
        assert isinstance(error, (EventError, ValueError))
        assert game.state == before
        return
    after = game.state
    undo = game.undo(done)
    assert game.state == before
    game.undo(undo)
    assert game.state == after
    assert replay(game.initial, game.log) == after
