"""Indirect fire, scatter, hand grenades and Forward Observation, against the quickstart's wording
and the translated edition's Light Rocket Pack example."""

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.hgb import AttackOutcome, DamageState, RulesError, damage_outcome
from rules.hgb.attack import (
    INDIRECT_THRESHOLD,
    Attacker,
    Cover,
    ForwardObservation,
    GrenadeRange,
    MissingInputs,
    Modifier,
    RangeBand,
    Target,
    grenade_reach_words,
    indirect_defense_summary,
    indirect_modifiers,
    indirect_questions,
    indirect_summary,
    resolve_indirect,
    resolve_indirect_defense,
    scatter,
)
from rules.hgb.attack import (
    grenade_range as grenade_band,
)
from rules.hgb.attack import (
    grenade_reach as reach,
)


def text_final(dice: tuple[int, ...], modifier: int) -> int:
    if all(die == 1 for die in dice):
        return 0
    return max(dice) + max(0, dice.count(6) - 1) + modifier


def hunter_with_lrp(**changes) -> Attacker:
    """A Hunter firing its Light Rocket Pack; the example's modifiers add up to -2."""
    values = dict(
        attack_dice=2,
        movement_modifier=0,
        accuracy=-1,
        damage_multiplier=10,
        name="Hunter",
        weapon="LRP",
    )
    values.update(changes)
    return Attacker(**values)


def model_under(**changes) -> Target:
    values = dict(defense_dice=2, movement_modifier=0, armor=15)
    values.update(changes)
    return Target(**values)


# --- the roll against Threshold 4 ----------------------------------------------------------------


def test_the_indirect_modifiers_are_range_cover_from_the_spotter_movement_and_accuracy():
    modifiers = indirect_modifiers(
        hunter_with_lrp(movement_modifier=-1), RangeBand.LONG, Cover.OPEN
    )
    assert [str(m) for m in modifiers] == [
        "-2 Long range",
        "+1 Open target, seen from the Forward Observer",
        "-1 Hunter's movement modifier (from the datacard)",
        "-1 LRP accuracy (from the datacard)",
    ]


def test_the_lrp_example_roll_4_modifiers_minus_2_scatters_2_inches():
    # "A Hunter fires a Light Rocket Pack (LRP) with a roll result of 4 [...] the modifiers add up
    # to -2, with a modified roll of 2 against a Threshold of 4. The Margin of Failure 4-2=2 is the
    # number of inches by which the attack deviates."
    shot = resolve_indirect(hunter_with_lrp(), RangeBand.MEDIUM, Cover.SOME, attack_roll=4)
    assert sum(m.value for m in shot.modifiers) == -2
    assert shot.final == 2
    assert shot.threshold == INDIRECT_THRESHOLD == 4
    assert not shot.success
    assert shot.mof == shot.scatter_inches == 2
    # "The model that is hit by the deviated attack defends against the attacker's unmodified
    # roll, i.e. against the original four."
    assert shot.attack_result == 4


def test_the_model_hit_by_the_lrp_scatter_defends_against_the_unmodified_4():
    (hit,) = resolve_indirect_defense(hunter_with_lrp(), [model_under()], 4, [[3, 2]])
    assert hit.result.attack_final == 4
    assert hit.attack_modifiers == ()
    assert hit.result.mos == 1
    (missed,) = resolve_indirect_defense(hunter_with_lrp(), [model_under()], 4, [[4, 2]])
    assert not missed.hit  # a tie is a failure for the attacker


def test_a_model_under_the_landing_point_keeps_its_own_defense_modifiers():
    target = model_under(movement_modifier=-1, rear_arc=True, state=DamageState.HEAVY)
    (hit,) = resolve_indirect_defense(hunter_with_lrp(), [target], 4, [5])
    assert hit.result.defense_final == 5 - 3
    assert hit.result.mos == 2


@pytest.mark.parametrize(
    "roll,modifier_total,success,mos,mof",
    [
        (6, 0, True, 2, None),
        (5, 0, True, 1, None),
        (4, 0, False, None, 0),  # "a failure if the result is less than or equal to the Threshold"
        (6, -2, False, None, 0),
        (3, 0, False, None, 1),
        (2, -3, False, None, 5),
        (7, -2, True, 1, None),
    ],
)
def test_the_indirect_roll_must_beat_4(roll, modifier_total, success, mos, mof):
    attacker = hunter_with_lrp(accuracy=modifier_total)
    shot = resolve_indirect(attacker, RangeBand.SHORT, Cover.SOME, roll, direction_die=1)
    assert shot.success is success
    assert (shot.mos, shot.mof) == (mos, mof)


def test_a_modified_4_fails_with_mof_0_and_lands_on_the_target_point():
    shot = resolve_indirect(hunter_with_lrp(accuracy=0), RangeBand.SHORT, Cover.SOME, 4)
    assert not shot.success
    assert shot.scatter == scatter(None, 0)
    assert shot.lands_on_target_point
    assert "lands on the target point" in shot.describe()


@pytest.mark.parametrize("dice", [[1], [1, 1], [1, 1, 1]])
def test_a_fumbled_indirect_roll_is_0_unmodified_and_scatters_4_inches(dice):
    attacker = hunter_with_lrp(attack_dice=len(dice), accuracy=3)
    shot = resolve_indirect(attacker, RangeBand.POINT_BLANK, Cover.OPEN, dice, direction_die=2)
    assert shot.final == 0
    assert shot.mof == 4
    assert shot.scatter.distance_inches == 4


@given(st.integers(1, 6), st.integers(-5, 5), st.sampled_from(list(Cover)))
def test_an_indirect_fumble_is_never_modified(dice, accuracy, cover):
    attacker = hunter_with_lrp(attack_dice=dice, accuracy=accuracy)
    shot = resolve_indirect(attacker, RangeBand.SHORT, cover, [1] * dice)
    assert shot.final == 0
    assert shot.mof == INDIRECT_THRESHOLD


def test_the_heavy_damage_penalty_applies_to_the_indirect_roll():
    modifiers = indirect_modifiers(
        hunter_with_lrp(state=DamageState.HEAVY), RangeBand.SHORT, Cover.SOME
    )
    assert modifiers[-1] == Modifier(-1, "Hunter at Heavy damage: -1 to all rolls, no Top Speed")


def test_the_indirect_attacker_is_asked_for_missing_figures():
    with pytest.raises(MissingInputs) as raised:
        resolve_indirect(Attacker(attack_dice=2), RangeBand.SHORT, Cover.SOME, 5)
    assert [m.field for m in raised.value.missing] == ["movement_modifier", "accuracy"]


def test_rof_can_not_be_used_for_indirect_fire_at_extreme_range():
    attacker = hunter_with_lrp(rof=2, spray=1)
    with pytest.raises(RulesError, match="Extreme range"):
        resolve_indirect(attacker, RangeBand.EXTREME, Cover.SOME, 5)


# --- scatter -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "die,degrees,clock",
    [
        (1, 60, "2 o'clock"),
        (2, 120, "4 o'clock"),
        (3, 180, "6 o'clock"),
        (4, 240, "8 o'clock"),
        (5, 300, "10 o'clock"),
        (6, 0, "12 o'clock"),
    ],
)
def test_the_scatter_die_counts_clockwise_in_60_degree_steps_from_the_line(die, degrees, clock):
    landing = scatter(die, 3)
    assert landing.degrees == degrees
    assert landing.clock == clock
    assert landing.distance_inches == 3


def test_the_six_scatter_directions_are_all_different():
    assert sorted(scatter(die, 1).degrees for die in range(1, 7)) == [0, 60, 120, 180, 240, 300]


def test_a_scatter_with_mof_needs_a_direction_die_from_1_to_6():
    with pytest.raises(RulesError, match="Roll one die"):
        scatter(None, 2)
    with pytest.raises(RulesError, match="1 to 6"):
        scatter(7, 2)
    with pytest.raises(RulesError, match="1 to 6"):
        scatter(0, 2)


def test_the_scatter_is_described_in_words():
    assert scatter(2, 2).describe() == (
        "It scatters 2 inches toward 4 o'clock: 120 degrees clockwise from the line from the "
        "attacker through the target point (12 o'clock is straight on)."
    )


def test_a_failed_roll_without_its_direction_die_asks_for_it():
    shot = resolve_indirect(hunter_with_lrp(), RangeBand.SHORT, Cover.SOME, 4)
    assert shot.scatter is None
    assert "Roll one die for the direction" in shot.describe()


# --- exact odds ----------------------------------------------------------------------------------


def test_the_indirect_odds_add_up_to_one():
    summary = indirect_summary(hunter_with_lrp(), RangeBand.MEDIUM, Cover.OPEN)
    assert summary.modifier == -1
    assert summary.strike_chance + sum(summary.scatter_chances.values()) == 1
    assert summary.lands_on_target_chance == summary.strike_chance + summary.scatter_chances[0]


@pytest.mark.parametrize("dice", range(1, 5))
@pytest.mark.parametrize("modifier", [-3, -1, 0, 2])
def test_the_strike_and_scatter_chances_match_every_roll(dice, modifier):
    summary = indirect_summary(
        hunter_with_lrp(attack_dice=dice, accuracy=modifier), RangeBand.SHORT, Cover.SOME
    )
    strikes = 0
    scatters: Counter[int] = Counter()
    for faces in product(range(1, 7), repeat=dice):
        final = text_final(faces, modifier)
        if final > 4:
            strikes += 1
        else:
            scatters[4 - final] += 1
    assert summary.strike_chance == Fraction(strikes, 6**dice)
    assert summary.scatter_chances == {k: Fraction(v, 6**dice) for k, v in sorted(scatters.items())}


def brute_indirect(attacker, modifier, targets):
    """Per-target outcome counts and the number hit, rolling every die together; a model at the
    target point is hit only if the attack lands there (modified 4 or more)."""
    outcomes = [Counter() for _ in targets]
    hits: Counter[int] = Counter()
    sizes = [attacker.attack_dice] + [t.dice for t in targets]
    for faces in product(range(1, 7), repeat=sum(sizes)):
        attack = faces[: attacker.attack_dice]
        unmodified = text_final(attack, 0)
        lands = text_final(attack, modifier) >= 4
        start = attacker.attack_dice
        hit_count = 0
        for index, target in enumerate(targets):
            defense = faces[start : start + target.dice]
            start += target.dice
            d = text_final(defense, target.movement_modifier)
            margin = unmodified - d
            mos = (
                margin + (2 if target.weak_facing else 0)
                if margin > 0 or (target.weak_facing and margin == 0)
                else None
            )
            if not lands or mos is None:
                outcomes[index][AttackOutcome.MISS] += 1
            else:
                hit_count += 1
                outcomes[index][damage_outcome(mos * attacker.damage_multiplier, target.armor)] += 1
        hits[hit_count] += 1
    total = 6 ** sum(sizes)
    return (
        [{o: Fraction(c[o], total) for o in AttackOutcome} for c in outcomes],
        {k: Fraction(hits[k], total) for k in range(len(targets) + 1)},
    )


@pytest.mark.parametrize(
    "attack_dice,targets",
    [
        (2, [model_under()]),
        (1, [model_under(defense_dice=1, movement_modifier=-1), model_under(defense_dice=2)]),
        (2, [model_under(defense_dice=1, weak_facing=True, armor=5), model_under(defense_dice=1)]),
    ],
)
def test_the_odds_of_models_at_the_target_point_match_every_roll(attack_dice, targets):
    attacker = hunter_with_lrp(attack_dice=attack_dice)
    summary = indirect_summary(attacker, RangeBand.MEDIUM, Cover.OPEN, targets)
    per_target, hits = brute_indirect(attacker, summary.modifier, targets)
    assert [s.odds for s in summary.targets] == per_target
    assert summary.targets_hit == hits
    assert all(s.attack_modifiers == () for s in summary.targets)


def test_the_odds_of_a_model_under_a_known_roll_match_its_defense_dice():
    attacker = hunter_with_lrp()
    target = model_under(movement_modifier=-1)
    summary = indirect_defense_summary(attacker, target, 4)
    expected: Counter = Counter()
    for faces in product(range(1, 7), repeat=2):
        d = text_final(faces, -1)
        if 4 > d:
            expected[damage_outcome((4 - d) * 10, 15)] += 1
        else:
            expected[AttackOutcome.MISS] += 1
    assert summary.odds == {o: Fraction(expected[o], 36) for o in AttackOutcome}
    assert "unmodified indirect attack roll, 4" in summary.notes[0]


@given(st.integers(1, 6), st.integers(-4, 3), st.integers(1, 4), st.integers(-2, 1))
def test_a_model_at_the_target_point_is_hit_only_when_the_attack_lands(
    attack_dice, modifier, defense_dice, movement
):
    attacker = hunter_with_lrp(attack_dice=attack_dice, accuracy=modifier)
    target = model_under(defense_dice=defense_dice, movement_modifier=movement)
    summary = indirect_summary(attacker, RangeBand.SHORT, Cover.SOME, [target])
    (own,) = summary.targets
    assert sum(own.odds.values()) == 1
    assert own.hit_chance <= summary.lands_on_target_chance
    assert summary.targets_hit[1] == own.hit_chance


# --- hand grenades -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "size,distance,band",
    [
        (5, 0, GrenadeRange.SHORT),
        (5, 5, GrenadeRange.SHORT),
        (5, 5.5, GrenadeRange.MEDIUM),
        (5, 10, GrenadeRange.MEDIUM),
        (3, 4, GrenadeRange.MEDIUM),
    ],
)
def test_grenades_reach_size_inches_at_short_and_twice_size_at_medium(size, distance, band):
    assert grenade_band(size, distance) is band


def test_grenade_ranges_modify_by_0_and_minus_1_per_the_english_text():
    assert GrenadeRange.SHORT.modifier == 0
    assert GrenadeRange.MEDIUM.modifier == -1
    assert reach(4) == (4, 8)


def test_a_grenade_beyond_twice_size_is_out_of_range():
    with pytest.raises(RulesError, match="Out of grenade range.*Size 5 reaches 10 inches"):
        grenade_band(5, 10.5)


def test_a_grenade_throw_asks_for_the_throwers_size():
    with pytest.raises(MissingInputs, match="Enter the thrower's Size"):
        grenade_band(None, 3)


def test_a_grenade_is_thrown_with_the_thrower_as_its_own_spotter():
    thrower = hunter_with_lrp(weapon="HG", accuracy=0)
    modifiers = indirect_modifiers(thrower, GrenadeRange.MEDIUM, Cover.PARTIAL)
    assert [str(m) for m in modifiers[:2]] == [
        "-1 Medium grenade range (up to twice the thrower's Size in inches)",
        "-1 Partial cover, seen from the thrower",
    ]
    summary = indirect_summary(thrower, GrenadeRange.SHORT, Cover.SOME)
    assert "its own spotter" in summary.notes[0]


def test_a_grenade_roll_scatters_like_indirect_fire():
    thrower = hunter_with_lrp(weapon="HG", accuracy=0)
    shot = resolve_indirect(thrower, GrenadeRange.MEDIUM, Cover.SOME, 3, direction_die=3)
    assert shot.final == 2
    assert shot.scatter == scatter(3, 2)


# --- Forward Observation -------------------------------------------------------------------------


def test_a_forward_observation_marks_its_target_for_the_rest_of_the_round():
    mark = ForwardObservation(target="jager-2", round_number=3)
    assert mark.marks("jager-2", 3)
    assert not mark.marks("jager-1", 3)
    assert not mark.marks("jager-2", 4)


def test_a_forward_observation_ends_when_the_target_moves():
    assert not ForwardObservation("jager-2", 3).after_target_moved().marks("jager-2", 3)


@pytest.mark.parametrize(
    ("grenade", "band", "cover", "size", "asked"),
    [
        (
            False,
            None,
            None,
            None,
            [("range_band", "Point-Blank to Extreme"), ("cover", "Observer")],
        ),
        (False, RangeBand.LONG, Cover.SOME, None, []),
        (True, None, Cover.SOME, 6, [("range_band", "Short or Medium")]),
        (True, GrenadeRange.SHORT, None, None, [("cover", "the thrower"), ("size", "Hunter 3")]),
    ],
)
def test_indirect_fire_asks_for_its_range_cover_and_a_throwers_size(
    grenade, band, cover, size, asked
):
    questions = indirect_questions(
        grenade=grenade, band=band, cover=cover, size=size, thrower="Hunter 3"
    )
    assert [item.field for item in questions] == [field for field, _ in asked]
    for item, (_, words) in zip(questions, asked, strict=True):
        assert words in item.question


def test_a_throwers_grenade_ranges_in_words():
    assert grenade_reach_words(3) == (
        "Size 3: Short range is up to 3 inches (+0), Medium up to 6 inches (\u22121)."
    )
    with pytest.raises(RulesError):
        grenade_reach_words(0)
