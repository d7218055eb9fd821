"""Dice and rolling: the result of a roll, Fumbles, and the exact chance of every result."""

import random
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.hgb import Roll, RulesError, apply_modifier, read_roll, roll, roll_distribution


def result_by_the_text(dice: tuple[int, ...]) -> int:
    """The quickstart's sentence, written out again independently of rules.hgb.dice."""
    if all(die == 1 for die in dice):
        return 0
    return max(dice) + max(0, dice.count(6) - 1)


def brute_distribution(dice: int) -> dict[int, Fraction]:
    tally = Counter(result_by_the_text(faces) for faces in product(range(1, 7), repeat=dice))
    total = 6**dice
    return {result: Fraction(count, total) for result, count in sorted(tally.items())}


def one_die_at_a_time(dice: int) -> dict[int, Fraction]:
    """Distribution built by adding dice one by one, tracking (highest die, sixes)."""
    states: Counter[tuple[int, int]] = Counter({(0, 0): 1})
    for _ in range(dice):
        following: Counter[tuple[int, int]] = Counter()
        for (highest, sixes), ways in states.items():
            for face in range(1, 7):
                following[max(highest, face), sixes + (face == 6)] += ways
        states = following
    tally: Counter[int] = Counter()
    for (highest, sixes), ways in states.items():
        tally[0 if highest == 1 else highest + max(0, sixes - 1)] += ways
    return {result: Fraction(count, 6**dice) for result, count in sorted(tally.items())}


# --- the quickstart's examples ---


def test_two_dice_showing_3_and_5_give_5():
    assert read_roll([3, 5]).result == 5


def test_three_dice_showing_6_6_1_give_7():
    assert read_roll([6, 6, 1]).result == 7


def test_each_extra_six_adds_one():
    assert read_roll([6]).result == 6
    assert read_roll([6, 6, 6, 2]).result == 8
    assert read_roll([6] * 10).result == 15


@pytest.mark.parametrize("dice", [[1], [1, 1], [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]])
def test_all_ones_is_a_fumble_worth_0(dice):
    rolled = read_roll(dice)
    assert rolled.fumble
    assert rolled.result == 0


def test_a_single_two_among_ones_is_not_a_fumble():
    rolled = read_roll([1, 1, 2])
    assert not rolled.fumble
    assert rolled.result == 2


@pytest.mark.parametrize("modifier", [-3, -1, 2, 3])
def test_no_modifier_applies_to_a_fumble(modifier):
    assert read_roll([1, 1]).final(modifier) == 0
    assert apply_modifier(0, modifier) == 0


def test_modifiers_add_to_a_result_and_may_take_it_to_zero_or_below():
    assert read_roll([5, 3]).final(-1) == 4
    assert read_roll([2]).final(-3) == -1


@given(st.lists(st.integers(1, 6), min_size=1, max_size=10))
def test_a_typed_roll_reads_as_the_text_says(dice):
    rolled = read_roll(dice)
    assert rolled.dice == tuple(dice)
    assert rolled.result == result_by_the_text(tuple(dice))
    assert rolled.fumble == all(die == 1 for die in dice)


# --- rolling with a generator ---


@pytest.mark.parametrize("dice", range(1, 11))
def test_roll_throws_the_skill_in_dice(dice):
    rolled = roll(dice, random.Random(dice))
    assert len(rolled.dice) == dice
    assert all(1 <= die <= 6 for die in rolled.dice)
    assert rolled == read_roll(rolled.dice)


def test_the_same_seed_gives_the_same_roll():
    assert roll(5, random.Random(42)) == roll(5, random.Random(42))


@pytest.mark.parametrize("dice", [0, 11, -1, True, False, "3", 2.0, None])
def test_a_roll_needs_1_to_10_dice(dice):
    with pytest.raises(RulesError, match="A roll needs 1 to 10 dice; got"):
        roll(dice, random.Random(0))


def test_the_error_for_zero_dice_is_a_plain_sentence():
    with pytest.raises(RulesError) as error:
        roll(0, random.Random(0))
    assert str(error.value) == "A roll needs 1 to 10 dice; got 0."


@pytest.mark.parametrize(
    "dice", [[], [0], [7], [3, 9], [2, True], [2.0], ["6"], [1] * 11, "66", 6, None]
)
def test_typed_dice_must_be_1_to_10_dice_each_1_to_6(dice):
    with pytest.raises(RulesError):
        read_roll(dice)


def test_a_roll_built_from_its_dice_works_out_its_own_result():
    assert Roll((2, 6, 6)) == read_roll([2, 6, 6])
    assert Roll((2, 6, 6)).result == 7


def test_a_roll_cannot_be_changed():
    rolled = read_roll([4, 2])
    with pytest.raises(AttributeError):
        rolled.result = 6


# --- the exact distribution ---


@pytest.mark.parametrize("dice", range(1, 7))
def test_the_distribution_matches_every_possible_roll(dice):
    assert roll_distribution(dice) == brute_distribution(dice)


@pytest.mark.parametrize("dice", range(1, 11))
def test_the_distribution_matches_adding_one_die_at_a_time(dice):
    assert roll_distribution(dice) == one_die_at_a_time(dice)


@pytest.mark.parametrize("dice", range(1, 11))
def test_the_distribution_sums_to_exactly_one(dice):
    distribution = roll_distribution(dice)
    assert sum(distribution.values()) == 1
    assert all(isinstance(p, Fraction) and p > 0 for p in distribution.values())


@pytest.mark.parametrize("dice", range(1, 11))
def test_results_are_a_fumble_or_2_up_to_5_plus_the_dice(dice):
    distribution = roll_distribution(dice)
    assert list(distribution) == [0, *range(2, 6 + dice)]
    assert distribution[0] == Fraction(1, 6**dice)
    assert distribution[5 + dice] == Fraction(1, 6**dice)


def test_one_die_gives_fumble_or_2_to_6_each_one_in_six():
    assert roll_distribution(1) == {result: Fraction(1, 6) for result in (0, 2, 3, 4, 5, 6)}


def test_changing_a_returned_distribution_does_not_change_the_next_answer():
    roll_distribution(2)[0] = Fraction(1, 2)
    roll_distribution(2).clear()
    assert roll_distribution(2)[0] == Fraction(1, 36)


@pytest.mark.parametrize("dice", [0, 11, True, 1.5])
def test_the_distribution_needs_1_to_10_dice(dice):
    with pytest.raises(RulesError):
        roll_distribution(dice)
