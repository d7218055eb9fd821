"""Resolving attacks, the damage table and the damage track."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.hgb import (
    AttackOutcome,
    BoxKind,
    DamageState,
    DamageTrack,
    RulesError,
    damage_outcome,
    margin_of_success,
    read_roll,
    resolve_attack,
)

S, L, H, C = BoxKind.STURDY, BoxKind.LIGHT, BoxKind.HEAVY, BoxKind.CRITICAL

# --- the quickstart's Joe Gear example ---


def test_joe_gears_5_against_2_at_medium_range_is_4_against_1_for_mos_3():
    # Medium range -1 to the attacker; the defender's movement modifier at Walker Combat Speed is
    # -1 (the translated text spells this out: "for a total of 4 against 1").
    attack = resolve_attack(
        attack_result=read_roll([5, 3]).result,
        defense_result=read_roll([2, 1]).result,
        attack_modifier=-1,
        defense_modifier=-1,
        damage_multiplier=8,
        armor=15,
    )
    assert (attack.attack_final, attack.defense_final) == (4, 1)
    assert attack.hit
    assert attack.mos == 3
    assert attack.mof is None


def test_joe_gears_lac_at_mos_3_does_24_damage_one_box_on_a_hunter():
    attack = resolve_attack(
        attack_result=5,
        defense_result=2,
        attack_modifier=-1,
        defense_modifier=-1,
        damage_multiplier=8,
        armor=15,
    )
    assert attack.damage == 24
    assert attack.outcome is AttackOutcome.ONE_BOX
    assert attack.boxes == 1


def test_joe_gears_lac_at_mos_6_does_48_damage_and_overkills_a_hunter():
    attack = resolve_attack(
        attack_result=8,
        defense_result=2,
        attack_modifier=-1,
        defense_modifier=-1,
        damage_multiplier=8,
        armor=15,
    )
    assert attack.mos == 6
    assert attack.damage == 48
    assert attack.outcome is AttackOutcome.OVERKILL


# --- winning, losing, Fumbles, Weak Facing ---


def test_a_tie_misses_with_mof_0():
    attack = resolve_attack(attack_result=4, defense_result=4, damage_multiplier=8, armor=15)
    assert not attack.hit
    assert attack.outcome is AttackOutcome.MISS
    assert attack.mof == 0
    assert attack.mos is None
    assert attack.damage == 0


def test_a_lower_attack_misses_with_the_difference_as_mof():
    attack = resolve_attack(attack_result=3, defense_result=5, damage_multiplier=8, armor=15)
    assert attack.outcome is AttackOutcome.MISS
    assert attack.mof == 2


def test_a_fumbling_defender_with_minus_2_still_counts_0():
    attack = resolve_attack(
        attack_result=2, defense_result=0, defense_modifier=-2, damage_multiplier=8, armor=15
    )
    assert attack.defense_final == 0
    assert attack.mos == 2


def test_a_fumbling_attacker_with_plus_3_still_counts_0_and_misses():
    attack = resolve_attack(
        attack_result=0, defense_result=2, attack_modifier=3, damage_multiplier=8, armor=15
    )
    assert attack.attack_final == 0
    assert attack.outcome is AttackOutcome.MISS
    assert attack.mof == 2


def test_a_modified_result_may_fall_below_a_fumble():
    attack = resolve_attack(
        attack_result=2, defense_result=0, attack_modifier=-3, damage_multiplier=8, armor=15
    )
    assert attack.attack_final == -1
    assert attack.outcome is AttackOutcome.MISS


def test_a_tie_hits_from_weak_facing_with_mos_2():
    attack = resolve_attack(
        attack_result=4, defense_result=4, damage_multiplier=8, armor=15, weak_facing=True
    )
    assert attack.hit
    assert attack.mos == 2
    assert attack.damage == 16
    assert attack.outcome is AttackOutcome.ONE_BOX


def test_weak_facing_adds_2_to_the_mos_of_every_hit():
    attack = resolve_attack(
        attack_result=5, defense_result=2, damage_multiplier=8, armor=15, weak_facing=True
    )
    assert attack.mos == 5
    assert attack.outcome is AttackOutcome.TWO_BOXES


def test_weak_facing_does_not_save_a_lost_roll():
    attack = resolve_attack(
        attack_result=3, defense_result=4, damage_multiplier=8, armor=15, weak_facing=True
    )
    assert attack.outcome is AttackOutcome.MISS
    assert attack.mof == 1


@pytest.mark.parametrize(
    "margin,weak_facing,mos",
    [
        (-1, False, None),
        (0, False, None),
        (1, False, 1),
        (-1, True, None),
        (0, True, 2),
        (3, True, 5),
    ],
)
def test_margin_of_success(margin, weak_facing, mos):
    assert margin_of_success(margin, weak_facing) == mos


@pytest.mark.parametrize("result", [1, -1, 16, 2.0, True, "5", None])
def test_a_rolled_result_must_be_a_fumble_or_2_to_15(result):
    with pytest.raises(RulesError):
        resolve_attack(attack_result=result, defense_result=2, damage_multiplier=8, armor=15)
    with pytest.raises(RulesError):
        resolve_attack(attack_result=2, defense_result=result, damage_multiplier=8, armor=15)


def test_a_result_of_1_is_explained_as_a_fumble():
    with pytest.raises(RulesError, match="Fumble"):
        resolve_attack(attack_result=1, defense_result=2, damage_multiplier=8, armor=15)


@pytest.mark.parametrize(
    "change",
    [
        {"damage_multiplier": 0},
        {"damage_multiplier": 8.0},
        {"armor": 0},
        {"armor": -15},
        {"attack_modifier": 1.5},
        {"defense_modifier": None},
        {"weak_facing": "yes"},
    ],
)
def test_resolve_attack_refuses_illegal_input(change):
    arguments = dict(attack_result=5, defense_result=2, damage_multiplier=8, armor=15) | change
    with pytest.raises(RulesError):
        resolve_attack(**arguments)


# --- the damage table ---


@pytest.mark.parametrize(
    "damage,outcome",
    [
        (0, AttackOutcome.NO_EFFECT),
        (14, AttackOutcome.NO_EFFECT),
        (15, AttackOutcome.ONE_BOX),
        (29, AttackOutcome.ONE_BOX),
        (30, AttackOutcome.TWO_BOXES),
        (44, AttackOutcome.TWO_BOXES),
        (45, AttackOutcome.OVERKILL),
        (1000, AttackOutcome.OVERKILL),
    ],
)
def test_the_damage_table_against_armor_15(damage, outcome):
    assert damage_outcome(damage, 15) is outcome


@pytest.mark.parametrize("damage,armor", [(-1, 15), (1.5, 15), (True, 15), (10, 0), (10, -1)])
def test_the_damage_table_needs_damage_0_or_more_and_armor_1_or_more(damage, armor):
    with pytest.raises(RulesError):
        damage_outcome(damage, armor)


def test_the_armor_error_is_a_plain_sentence():
    with pytest.raises(RulesError) as error:
        damage_outcome(10, 0)
    assert str(error.value) == "Armor must be a whole number of 1 or more, such as 15; got 0."


@pytest.mark.parametrize(
    "outcome,boxes,hit",
    [
        (AttackOutcome.MISS, 0, False),
        (AttackOutcome.NO_EFFECT, 0, True),
        (AttackOutcome.ONE_BOX, 1, True),
        (AttackOutcome.TWO_BOXES, 2, True),
        (AttackOutcome.OVERKILL, None, True),
    ],
)
def test_each_outcome_knows_its_boxes(outcome, boxes, hit):
    assert outcome.boxes == boxes
    assert outcome.hit == hit


# --- the damage track ---


def test_the_standard_track_is_sturdy_light_heavy_critical():
    assert DamageTrack.standard().boxes == (S, L, H, C)
    assert DamageTrack() == DamageTrack.standard()


def test_an_armored_jacket_track_has_5_boxes_s_s_l_h_c():
    track = DamageTrack.standard(extra_sturdy=1)
    assert track.boxes == (S, S, L, H, C)
    assert "".join(box.letter for box in track.boxes) == "SSLHC"


@pytest.mark.parametrize(
    "marked,state,penalty,top_speed,effect",
    [
        (0, DamageState.UNDAMAGED, 0, True, "No effect"),
        (1, DamageState.STURDY, 0, True, "No effect"),
        (2, DamageState.LIGHT, 0, True, "No effect in the quickstart rules"),
        (3, DamageState.HEAVY, -1, False, "-1 to all rolls, no Top Speed"),
        (4, DamageState.CRITICAL, -2, False, "-2 to all rolls, no Top Speed"),
        (5, DamageState.DESTROYED, -2, False, "Destroyed: stays on the table as rough terrain"),
    ],
)
def test_the_last_box_crossed_off_sets_the_effects(marked, state, penalty, top_speed, effect):
    track = DamageTrack.standard().mark(marked)
    assert track.state is state
    assert track.penalty == penalty
    assert track.top_speed_allowed is top_speed
    assert track.effect_text == effect
    assert track.can_act is (state is not DamageState.DESTROYED)


def test_damage_past_the_critical_box_destroys_the_model():
    track = DamageTrack.standard().mark(4).mark()
    assert track.state is DamageState.DESTROYED
    assert track.is_out
    assert track.boxes_left == 0


def test_marking_more_boxes_than_are_left_just_destroys_the_model():
    track = DamageTrack.standard().mark(3).mark(10)
    assert track.marked == 5
    assert track.state is DamageState.DESTROYED


def test_an_overkilled_model_is_removed_from_the_table():
    track = DamageTrack.standard().mark(1).overkill()
    assert track.state is DamageState.OVERKILLED
    assert track.effect_text == "Overkilled: removed from the table"
    assert track.is_out
    assert not track.can_act
    assert not track.top_speed_allowed
    assert track.mark(2) == track


def test_undoing_an_overkill_gives_back_the_track():
    track = DamageTrack.standard().mark(2)
    assert track.overkill().undo_overkill() == track


def test_clearing_boxes_of_an_overkilled_model_asks_to_undo_the_overkill_first():
    with pytest.raises(RulesError, match="undo the overkill"):
        DamageTrack.standard().mark(2).overkill().unmark()


def test_one_tap_destroy_marks_past_the_last_box():
    track = DamageTrack.standard(extra_sturdy=1).destroy()
    assert track.marked == 6
    assert track.state is DamageState.DESTROYED
    assert track.unmark().state is DamageState.CRITICAL


def test_clearing_the_last_marked_box():
    assert DamageTrack.standard().mark(3).unmark().state is DamageState.LIGHT


def test_clearing_more_boxes_than_are_crossed_off_is_refused():
    with pytest.raises(RulesError) as error:
        DamageTrack.standard().mark(1).unmark(2)
    assert str(error.value) == "Only 1 box is crossed off, so 2 can't be cleared."
    with pytest.raises(RulesError):
        DamageTrack.standard().unmark()


@pytest.mark.parametrize("n", [-1, 1.0, True, "1"])
def test_boxes_to_mark_or_clear_must_be_a_whole_number_of_0_or_more(n):
    with pytest.raises(RulesError):
        DamageTrack.standard().mark(n)
    with pytest.raises(RulesError):
        DamageTrack.standard().mark(2).unmark(n)


@pytest.mark.parametrize(
    "outcome,state",
    [
        (AttackOutcome.MISS, DamageState.STURDY),
        (AttackOutcome.NO_EFFECT, DamageState.STURDY),
        (AttackOutcome.ONE_BOX, DamageState.LIGHT),
        (AttackOutcome.TWO_BOXES, DamageState.HEAVY),
        (AttackOutcome.OVERKILL, DamageState.OVERKILLED),
    ],
)
def test_applying_an_attack_outcome(outcome, state):
    assert DamageTrack.standard().mark(1).apply(outcome).state is state


def test_two_boxes_on_a_critical_model_destroy_it():
    track = DamageTrack.standard().mark(3).apply(AttackOutcome.TWO_BOXES)
    assert track.state is DamageState.DESTROYED


def test_applying_something_that_is_not_an_outcome_is_refused():
    with pytest.raises(RulesError):
        DamageTrack.standard().apply("one_box")


@pytest.mark.parametrize(
    "arguments",
    [
        {"boxes": ()},
        {"boxes": (C, S)},
        {"boxes": ("sturdy",)},
        {"boxes": "SLHC"},
        {"marked": 6},
        {"marked": -1},
        {"marked": 1.0},
        {"overkilled": 0},
    ],
)
def test_an_impossible_track_is_refused(arguments):
    with pytest.raises(RulesError):
        DamageTrack(**arguments)


@pytest.mark.parametrize("extra_sturdy", [-1, 1.0, True])
def test_extra_sturdy_boxes_must_be_a_whole_number_of_0_or_more(extra_sturdy):
    with pytest.raises(RulesError):
        DamageTrack.standard(extra_sturdy=extra_sturdy)


# --- property tests ---

tracks = st.builds(
    lambda extra, fraction, overkilled: (
        DamageTrack.standard(extra).mark(
            round(fraction * (len(DamageTrack.standard(extra).boxes) + 1))
        )
        if not overkilled
        else DamageTrack.standard(extra).mark(round(fraction * 4)).overkill()
    ),
    st.integers(0, 3),
    st.floats(0, 1),
    st.booleans(),
)
live_tracks = st.builds(
    lambda extra, marked: DamageTrack.standard(extra).mark(marked),
    st.integers(0, 3),
    st.integers(0, 8),
)


@given(live_tracks, st.integers(0, 8))
def test_mark_then_unmark_is_the_identity_while_not_past_destroyed(track, n):
    if track.marked + n <= len(track.boxes) + 1:
        assert track.mark(n).unmark(n) == track


@given(st.integers(0, 3), st.lists(st.integers(0, 3), max_size=8))
def test_the_state_is_the_kind_of_the_last_marked_box(extra, marks):
    track = DamageTrack.standard(extra)
    for n in marks:
        track = track.mark(n)
        assert track.marked <= len(track.boxes) + 1
        if track.marked == 0:
            assert track.state is DamageState.UNDAMAGED
        elif track.marked > len(track.boxes):
            assert track.state is DamageState.DESTROYED
        else:
            assert track.state.value == track.boxes[track.marked - 1].value


@given(st.integers(0, 3), st.lists(st.integers(0, 3), max_size=8))
def test_the_penalty_never_improves_as_boxes_are_marked(extra, marks):
    track = DamageTrack.standard(extra)
    for n in marks:
        marked = track.mark(n)
        assert marked.penalty <= track.penalty
        assert not (track.is_out and not marked.is_out)
        track = marked


@given(tracks)
def test_a_track_survives_a_trip_through_json(track):
    data = json.loads(json.dumps(track.to_dict()))
    assert DamageTrack.from_dict(data) == track


@given(tracks)
def test_boxes_left_and_marked_add_up_to_the_track_while_in_play(track):
    if not track.is_out:
        assert track.boxes_left + track.marked == len(track.boxes)
    else:
        assert track.boxes_left == 0


def test_to_dict_is_plain_data():
    assert DamageTrack.standard(extra_sturdy=1).mark(2).to_dict() == {
        "boxes": ["sturdy", "sturdy", "light", "heavy", "critical"],
        "marked": 2,
        "overkilled": False,
    }


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {},
        {"boxes": ["sturdy"], "marked": 0},
        {"boxes": ["sturdy"], "marked": 0, "overkilled": False, "extra": 1},
        {"boxes": ["armored"], "marked": 0, "overkilled": False},
        {"boxes": [["sturdy"]], "marked": 0, "overkilled": False},
        {"boxes": "sturdy", "marked": 0, "overkilled": False},
        {"boxes": ["sturdy"], "marked": "0", "overkilled": False},
        {"boxes": ["sturdy"], "marked": 3, "overkilled": False},
        {"boxes": ["sturdy"], "marked": 0, "overkilled": "false"},
        {"boxes": ["critical", "sturdy"], "marked": 0, "overkilled": False},
    ],
)
def test_malformed_saved_tracks_are_refused(data):
    with pytest.raises(RulesError):
        DamageTrack.from_dict(data)
