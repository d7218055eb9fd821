"""One attack against several models: Spray Fire and Area Effect.

"All targets, friendly and enemy, within the Spray Fire Area must roll to defend against the
attack and take damage if hit. All Attacker and Defender modifiers are determined individually for
each target." The attacker rolls once; each model defends separately.
"""

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.hgb import AttackOutcome, RulesError
from rules.hgb.attack import (
    Attacker,
    Cover,
    MissingInputs,
    RangeBand,
    Target,
    attack_summary,
    multi_target_summary,
    resolve_multi_target,
)
from tests.examples import examples


def text_final(dice: tuple[int, ...], modifier: int) -> int:
    """A roll's final result, read straight from the quickstart's Dice and Rolling section."""
    if all(die == 1 for die in dice):
        return 0
    return max(dice) + max(0, dice.count(6) - 1) + modifier


def sprayer(**changes) -> Attacker:
    values = dict(
        attack_dice=2,
        movement_modifier=0,
        accuracy=0,
        damage_multiplier=8,
        rof=3,
        spray=2,
        weapon="LMG",
    )
    values.update(changes)
    return Attacker(**values)


def model(**changes) -> Target:
    values = dict(
        defense_dice=2,
        movement_modifier=0,
        armor=15,
        range_band=RangeBand.SHORT,
        cover=Cover.SOME,
    )
    values.update(changes)
    return Target(**values)


def brute_targets_hit(attacker: Attacker, targets: list[Target]) -> dict[int, Fraction]:
    """Roll every die of the attacker and of every defender together and count the hits."""
    summaries = [attack_summary(attacker, target) for target in targets]
    tally: Counter[int] = Counter()
    dice_counts = [attacker.attack_dice] + [target.dice for target in targets]
    for faces in product(range(1, 7), repeat=sum(dice_counts)):
        attack_faces, start = faces[: attacker.attack_dice], attacker.attack_dice
        hits = 0
        for target, summary in zip(targets, summaries, strict=True):
            defense_faces = faces[start : start + target.dice]
            start += target.dice
            a = text_final(attack_faces, summary.attack_modifier)
            d = text_final(defense_faces, summary.defense_modifier)
            if a > d or (target.weak_facing and a == d):
                hits += 1
        tally[hits] += 1
    total = 6 ** sum(dice_counts)
    return {k: Fraction(tally[k], total) for k in range(len(targets) + 1)}


@pytest.mark.parametrize(
    "attacker,targets",
    [
        (sprayer(), [model(), model(cover=Cover.OPEN)]),
        (sprayer(attack_dice=1), [model(defense_dice=1), model(defense_dice=1, rear_arc=True)]),
        (
            sprayer(attack_dice=1),
            [model(defense_dice=1), model(defense_dice=1, weak_facing=True), model(defense_dice=1)],
        ),
        (sprayer(), [model(range_band=RangeBand.LONG), model(defense_dice=1, autopilot=True)]),
        (sprayer(movement_modifier=-2), [model(defense_dice=3), model(defense_dice=1)]),
    ],
)
def test_the_number_of_models_hit_matches_rolling_every_die_together(attacker, targets):
    assert multi_target_summary(attacker, targets).targets_hit == brute_targets_hit(
        attacker, targets
    )


def test_each_models_own_odds_are_a_single_attack_on_it():
    targets = [model(), model(cover=Cover.PARTIAL, rear_arc=True), model(armor=8, defense_dice=3)]
    summary = multi_target_summary(sprayer(), targets)
    for target, own in zip(targets, summary.targets, strict=True):
        assert own.odds == attack_summary(sprayer(), target).odds
        assert own.attack_modifiers == attack_summary(sprayer(), target).attack_modifiers


def test_each_model_has_its_own_range_and_cover_modifiers():
    summary = multi_target_summary(
        sprayer(),
        [model(range_band=RangeBand.POINT_BLANK, cover=Cover.OPEN), model(cover=Cover.FULL)],
    )
    assert [s.attack_modifier for s in summary.targets] == [2, -2]


def test_shared_attack_roll_makes_hits_correlated():
    # Two identical targets: hitting both is likelier than the product of the two chances,
    # because a high attack roll helps against both.
    summary = multi_target_summary(sprayer(), [model(), model()])
    p = summary.targets[0].hit_chance
    assert summary.targets_hit[2] > p * p


def test_concentrated_fire_raises_the_dm_against_every_model_in_the_spray():
    summary = multi_target_summary(sprayer(spray=1, concentrated=2), [model(), model()])
    assert [s.damage_multiplier for s in summary.targets] == [10, 10]


def test_several_models_need_spray_fire_or_an_area_effect():
    with pytest.raises(RulesError, match="Only Spray Fire or an Area Effect"):
        multi_target_summary(sprayer(spray=0), [model(), model()])
    # An Area Effect weapon reaches several models without RoF.
    summary = multi_target_summary(sprayer(spray=0, area_effect=2), [model(), model()])
    assert len(summary.targets) == 2


def test_rof_is_barred_only_by_the_main_target_being_at_extreme_range():
    with pytest.raises(RulesError, match="Extreme range"):
        multi_target_summary(sprayer(), [model(range_band=RangeBand.EXTREME), model()])
    summary = multi_target_summary(sprayer(), [model(), model(range_band=RangeBand.EXTREME)])
    assert summary.targets[1].attack_modifier == -3


def test_missing_figures_name_the_model_they_belong_to():
    with pytest.raises(MissingInputs) as raised:
        multi_target_summary(sprayer(), [model(), model(armor=None, name="Jäger")])
    (missing,) = raised.value.missing
    assert missing.target_index == 1
    assert missing.question == "Enter the Jäger's Armor: the data does not give it."


def test_the_expected_boxes_add_up_over_the_models():
    summary = multi_target_summary(sprayer(), [model(), model(boxes_left=1), model(armor=6)])
    assert summary.expected_boxes == sum(s.expected_boxes for s in summary.targets)


def test_one_attack_roll_is_resolved_against_each_models_own_defense():
    friend = model(name="Friendly Hunter", movement_modifier=-1)
    foe = model(name="Jäger", cover=Cover.OPEN, rear_arc=True)
    first, second = resolve_multi_target(
        sprayer(), [foe, friend], attack_roll=[5, 4], defense_rolls=[3, 6]
    )
    assert (first.result.attack_final, first.result.defense_final) == (6, 2)
    assert first.result.mos == 4
    assert first.outcome is AttackOutcome.TWO_BOXES  # 32 damage against 15
    assert (second.result.attack_final, second.result.defense_final) == (5, 5)
    assert not second.hit


def test_resolving_needs_one_defense_roll_per_model():
    with pytest.raises(RulesError, match="2 targets, 1 roll"):
        resolve_multi_target(sprayer(), [model(), model()], 5, [3])


@settings(max_examples=examples(40), deadline=None)
@given(
    st.integers(1, 6),
    st.lists(
        st.tuples(
            st.integers(1, 6), st.integers(-3, 2), st.booleans(), st.sampled_from(list(Cover))
        ),
        min_size=1,
        max_size=6,
    ),
)
def test_the_models_hit_distribution_is_exact_and_agrees_with_the_marginals(attack_dice, specs):
    targets = [
        model(defense_dice=dice, movement_modifier=movement, weak_facing=weak, cover=cover)
        for dice, movement, weak, cover in specs
    ]
    summary = multi_target_summary(sprayer(attack_dice=attack_dice), targets)
    assert sum(summary.targets_hit.values()) == 1
    assert summary.expected_hits == sum(s.hit_chance for s in summary.targets)
    for own, target in zip(summary.targets, targets, strict=True):
        assert own.odds == attack_summary(sprayer(attack_dice=attack_dice), target).odds
