"""Exact odds of opposed rolls and attacks, checked against brute force."""

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from rules.hgb import (
    AttackOutcome,
    RulesError,
    attack_odds,
    expected_boxes,
    hit_chance,
    kill_chance,
    opposed_margin_distribution,
    resolve_attack,
)
from rules.hgb.odds import clear_caches


def result_by_the_text(dice: tuple[int, ...]) -> int:
    if all(die == 1 for die in dice):
        return 0
    return max(dice) + max(0, dice.count(6) - 1)


def final_by_the_text(dice: tuple[int, ...], modifier: int) -> int:
    result = result_by_the_text(dice)
    return 0 if result == 0 else result + modifier


def every_roll(dice: int):
    return product(range(1, 7), repeat=dice)


def brute_margins(attack_dice, attack_modifier, defense_dice, defense_modifier):
    """Every roll of the attacker's dice against every roll of the defender's."""
    attack = Counter(final_by_the_text(faces, attack_modifier) for faces in every_roll(attack_dice))
    defense = Counter(
        final_by_the_text(faces, defense_modifier) for faces in every_roll(defense_dice)
    )
    margins: Counter[int] = Counter()
    for (a, a_ways), (d, d_ways) in product(attack.items(), defense.items()):
        margins[a - d] += a_ways * d_ways
    total = 6 ** (attack_dice + defense_dice)
    return {margin: Fraction(ways, total) for margin, ways in sorted(margins.items())}


MODIFIERS = [(0, 0), (-1, -1), (3, -2), (-3, 3), (2, 0), (0, -3)]
DICE_PAIRS = [(1, 1), (1, 4), (2, 2), (3, 1), (2, 3), (4, 4)]


@pytest.mark.parametrize("attack_dice,defense_dice", DICE_PAIRS)
@pytest.mark.parametrize("attack_modifier,defense_modifier", MODIFIERS)
def test_the_margin_distribution_matches_every_pair_of_rolls(
    attack_dice, defense_dice, attack_modifier, defense_modifier
):
    assert opposed_margin_distribution(
        attack_dice, attack_modifier, defense_dice, defense_modifier
    ) == brute_margins(attack_dice, attack_modifier, defense_dice, defense_modifier)


def test_the_margin_distribution_matches_all_dice_rolled_together():
    tally: Counter[int] = Counter()
    for faces in every_roll(4):
        tally[final_by_the_text(faces[:2], -1) - final_by_the_text(faces[2:], 2)] += 1
    expected = {margin: Fraction(ways, 6**4) for margin, ways in sorted(tally.items())}
    assert opposed_margin_distribution(2, -1, 2, 2) == expected


@pytest.mark.parametrize("attack_dice", range(1, 7))
@pytest.mark.parametrize("defense_dice", range(1, 7))
def test_every_margin_distribution_sums_to_exactly_one(attack_dice, defense_dice):
    for attack_modifier, defense_modifier in product(range(-3, 4), repeat=2):
        distribution = opposed_margin_distribution(
            attack_dice, attack_modifier, defense_dice, defense_modifier
        )
        assert sum(distribution.values()) == 1


def test_a_fumbling_defender_counts_0_even_with_a_minus_2():
    distribution = opposed_margin_distribution(1, 0, 1, -2)
    # A 6 against a Fumble is 6 - 0; it would be 6 - (0 - 2) = 8 if the -2 applied to the Fumble.
    assert max(distribution) == 6
    assert 8 not in distribution


def test_a_fumbling_attacker_with_plus_3_still_scores_0_and_misses():
    distribution = opposed_margin_distribution(1, 3, 1, 0)
    # The attacker's lowest non-Fumble final is 2 + 3 = 5; a Fumble stays 0.
    assert distribution[0 - 6] == Fraction(1, 36)
    assert min(distribution) == -6


def test_changing_a_returned_margin_distribution_does_not_change_the_next_answer():
    opposed_margin_distribution(2, 0, 2, 0).clear()
    assert sum(opposed_margin_distribution(2, 0, 2, 0).values()) == 1


@pytest.mark.parametrize(
    "arguments",
    [(0, 0, 2, 0), (2, 0, 11, 0), (2, 0.5, 2, 0), (2, 0, 2, "1"), (True, 0, 2, 0), (2, 0, 2, None)],
)
def test_the_margin_distribution_refuses_illegal_dice_and_modifiers(arguments):
    with pytest.raises(RulesError):
        opposed_margin_distribution(*arguments)


# --- attack odds ---


def brute_attack_odds(
    attack_dice, attack_modifier, defense_dice, defense_modifier, dm, armor, weak_facing
):
    """Every pair of rolls resolved one by one with resolve_attack."""
    attack = Counter(result_by_the_text(faces) for faces in every_roll(attack_dice))
    defense = Counter(result_by_the_text(faces) for faces in every_roll(defense_dice))
    tally = dict.fromkeys(AttackOutcome, 0)
    for (a, a_ways), (d, d_ways) in product(attack.items(), defense.items()):
        outcome = resolve_attack(
            attack_result=a,
            defense_result=d,
            attack_modifier=attack_modifier,
            defense_modifier=defense_modifier,
            damage_multiplier=dm,
            armor=armor,
            weak_facing=weak_facing,
        ).outcome
        tally[outcome] += a_ways * d_ways
    total = 6 ** (attack_dice + defense_dice)
    return {outcome: Fraction(ways, total) for outcome, ways in tally.items()}


@pytest.mark.parametrize("attack_dice,defense_dice", [(1, 1), (2, 2), (3, 2), (2, 4)])
@pytest.mark.parametrize("attack_modifier,defense_modifier", [(0, 0), (-1, -1), (2, -3)])
@pytest.mark.parametrize("dm,armor", [(8, 15), (3, 4), (20, 15)])
@pytest.mark.parametrize("weak_facing", [False, True])
def test_attack_odds_match_resolving_every_pair_of_rolls(
    attack_dice, defense_dice, attack_modifier, defense_modifier, dm, armor, weak_facing
):
    odds = attack_odds(
        attack_dice=attack_dice,
        attack_modifier=attack_modifier,
        defense_dice=defense_dice,
        defense_modifier=defense_modifier,
        damage_multiplier=dm,
        armor=armor,
        weak_facing=weak_facing,
    )
    assert odds == brute_attack_odds(
        attack_dice, attack_modifier, defense_dice, defense_modifier, dm, armor, weak_facing
    )


def test_attack_odds_have_every_outcome_in_order_and_sum_to_one():
    for attack_dice, defense_dice in product(range(1, 7), repeat=2):
        odds = attack_odds(
            attack_dice=attack_dice,
            defense_dice=defense_dice,
            damage_multiplier=8,
            armor=15,
            weak_facing=attack_dice % 2 == 0,
        )
        assert list(odds) == list(AttackOutcome)
        assert sum(odds.values()) == 1


def test_a_weak_facing_turns_every_tie_into_a_hit():
    plain = opposed_margin_distribution(2, 0, 2, 0)
    weak = attack_odds(
        attack_dice=2, defense_dice=2, damage_multiplier=8, armor=15, weak_facing=True
    )
    assert hit_chance(weak) == sum(p for margin, p in plain.items() if margin >= 0)


def test_a_hit_that_cannot_beat_the_armor_has_no_effect():
    odds = attack_odds(attack_dice=2, defense_dice=2, damage_multiplier=1, armor=100)
    assert odds[AttackOutcome.NO_EFFECT] == hit_chance(odds)
    assert odds[AttackOutcome.ONE_BOX] == 0
    assert odds[AttackOutcome.OVERKILL] == 0


def test_odds_are_the_same_after_the_caches_are_cleared():
    arguments = dict(attack_dice=3, defense_dice=2, damage_multiplier=8, armor=15)
    before = attack_odds(**arguments)
    clear_caches()
    assert attack_odds(**arguments) == before


@pytest.mark.parametrize(
    "change",
    [
        {"damage_multiplier": 0},
        {"armor": 0},
        {"armor": 15.0},
        {"weak_facing": 1},
        {"attack_dice": 0},
        {"defense_modifier": "-1"},
    ],
)
def test_attack_odds_refuse_illegal_input(change):
    arguments = dict(attack_dice=2, defense_dice=2, damage_multiplier=8, armor=15) | change
    with pytest.raises(RulesError):
        attack_odds(**arguments)


# --- summaries of odds ---

EIGHTHS = {
    AttackOutcome.MISS: Fraction(1, 2),
    AttackOutcome.NO_EFFECT: Fraction(1, 8),
    AttackOutcome.ONE_BOX: Fraction(1, 8),
    AttackOutcome.TWO_BOXES: Fraction(1, 8),
    AttackOutcome.OVERKILL: Fraction(1, 8),
}


def test_the_hit_chance_counts_hits_that_do_no_damage():
    assert hit_chance(EIGHTHS) == Fraction(1, 2)


def test_expected_boxes_counts_an_overkill_as_a_whole_standard_track():
    assert expected_boxes(EIGHTHS) == Fraction(1 + 2 + 4, 8)


def test_expected_boxes_counts_no_more_than_the_boxes_left():
    assert expected_boxes(EIGHTHS, boxes_left=5) == Fraction(1 + 2 + 5, 8)
    assert expected_boxes(EIGHTHS, boxes_left=1) == Fraction(1 + 1 + 1, 8)
    assert expected_boxes(EIGHTHS, boxes_left=0) == 0


def test_the_kill_chance_is_overkill_or_more_boxes_than_are_left():
    assert kill_chance(EIGHTHS) == Fraction(1, 8)
    assert kill_chance(EIGHTHS, boxes_left=1) == Fraction(2, 8)
    assert kill_chance(EIGHTHS, boxes_left=0) == Fraction(3, 8)


@pytest.mark.parametrize("boxes_left", [-1, 1.0, True, "2"])
def test_boxes_left_must_be_a_whole_number_of_0_or_more(boxes_left):
    with pytest.raises(RulesError):
        expected_boxes(EIGHTHS, boxes_left=boxes_left)


def test_odds_must_be_keyed_by_outcome():
    with pytest.raises(RulesError):
        hit_chance({"miss": Fraction(1)})
