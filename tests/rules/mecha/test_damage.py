"""The exact damage calculators, each against brute-force enumeration of every roll."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from rules.errors import RulesError
from rules.mecha.damage import (
    Dice,
    dice_sum,
    push,
    ram_dice,
    self_damage,
    self_readings,
    unarmed_dice,
)


def brute(count, die, change=lambda total: total):
    rolls = list(product(range(1, die + 1), repeat=count))
    counts = {}
    for roll in rolls:
        value = change(sum(roll))
        counts[value] = counts.get(value, 0) + 1
    return {value: Fraction(n, len(rolls)) for value, n in sorted(counts.items())}


@pytest.mark.parametrize(
    "count,die", [(1, 3), (2, 3), (3, 3), (1, 6), (3, 6), (4, 6), (1, 10), (3, 10)]
)
def test_any_weapons_damage_dice_match_every_roll(count, die):
    dist = dice_sum(Dice(count, die))
    assert dist.chances == brute(count, die)
    assert dist.mean == Fraction(count * (die + 1), 2)
    assert sum(dist.chances.values()) == 1


@pytest.mark.parametrize("die", [4, 8, 12, 0])
def test_damage_dice_are_d3_d6_or_d10(die):
    with pytest.raises(RulesError, match="D3, D6 or D10"):
        Dice(1, die)


@pytest.mark.parametrize("strength,expected", [(0, Dice(1, 3)), (1, Dice(1, 6)), (4, Dice(4, 6))])
def test_unarmed_attacks_only_do_the_units_strength_value_in_d6_and_d3_at_strength_0(
    strength, expected
):
    assert unarmed_dice(strength) == expected


def test_a_ram_deals_strength_in_d6_unless_a_ram_or_long_melee_weapon_gives_its_damage():
    assert ram_dice(3, None) == Dice(3, 6)
    assert ram_dice(3, Dice(2, 10)) == Dice(2, 10)
    assert ram_dice(0, Dice(1, 3)) == Dice(1, 3)


def test_a_strength_0_ram_without_a_weapon_is_not_covered_by_the_text():
    assert ram_dice(0, None) is None


@pytest.mark.parametrize(
    "dealt,armour,then_add,of_sum", [(7, 2, 5, 4), (6, 3, 6, 4), (1, 0, 0, 0), (9, 1, 5, 5)]
)
def test_the_rammer_receives_half_rounded_down_of_the_damage_dealt_plus_the_targets_armour(
    dealt, armour, then_add, of_sum
):
    assert self_damage(dealt, armour, "half_then_add") == then_add
    assert self_damage(dealt, armour, "half_of_sum") == of_sum


@pytest.mark.parametrize("count,die,armour", [(2, 6, 3), (3, 6, 0), (1, 10, 5), (2, 3, 1)])
def test_both_self_damage_readings_match_every_roll_side_by_side(count, die, armour):
    readings = self_readings(dice_sum(Dice(count, die)), armour, weapon_ram=True)
    named = {(r.formula, r.scope): r for r in readings}
    assert len(readings) == 4 and len({r.name for r in readings}) == 4
    for scope in ("every_ram", "weapon_ram_only"):
        assert named["half_then_add", scope].distribution.chances == brute(
            count, die, lambda d: d // 2 + armour
        )
        assert named["half_of_sum", scope].distribution.chances == brute(
            count, die, lambda d: (d + armour) // 2
        )


def test_in_the_weapon_ram_only_reading_a_ram_without_a_weapon_costs_the_rammer_nothing():
    readings = self_readings(dice_sum(Dice(4, 6)), 2, weapon_ram=False)
    only = [r for r in readings if r.scope == "weapon_ram_only"]
    every = [r for r in readings if r.scope == "every_ram"]
    assert all(r.distribution.chances == {0: 1} for r in only)
    assert all(r.distribution.high > 0 for r in every)
    assert "weapon ram only" in only[0].name


@pytest.mark.parametrize("strength,size,expected", [(5, 2, 3), (2, 2, 0), (1, 4, 0), (0, 0, 0)])
def test_push_is_attackers_strength_minus_targets_size_class_at_a_minimum_of_0(
    strength, size, expected
):
    assert push(strength, size) == expected


def test_the_calculator_of_a_ram_shows_the_dice_both_readings_and_the_push():
    from rules.mecha.calculate import calculate
    from tests.rules.mecha.factories import match

    state = match()
    zaku, tank = state.unit("a-1"), state.unit("b-1")
    calc = calculate(state, zaku, None, "ram", tank)
    assert calc.dice == Dice(4, 6) and calc.push == 1  # Strength 4 - Size Class 3
    assert len(calc.readings) == 4
    spike = calculate(state, zaku, zaku.weapon("u1w4"), "ram", tank)
    assert spike.dice == Dice(2, 3) and spike.weapon_ram


def test_the_calculator_says_a_strength_0_ram_is_not_covered_and_asks_for_missing_figures():
    from rules.mecha.calculate import calculate
    from tests.rules.mecha.factories import match

    state = match()
    pilot, tank = state.unit("a-2"), state.unit("b-1")
    assert "Not covered" in calculate(state, pilot, None, "ram", tank).missing
    assert calculate(state, pilot, None, "melee", tank).dice == Dice(1, 3)
    entered = calculate(state, pilot, None, "ram", tank, strength=2, armour=1, size_class=0)
    assert entered.dice == Dice(2, 6) and entered.push == 2


def test_a_roll_on_screen_is_one_die_of_each_face_count_per_die():
    from rules.mecha.damage import roll

    faces = iter([0, 5, 2])
    assert roll(Dice(3, 6), lambda n: next(faces)) == (1, 6, 3)


@pytest.mark.parametrize(
    "scope,weapon_ram,expected",
    [("every_ram", False, 5), ("weapon_ram_only", False, 0), ("weapon_ram_only", True, 5)],
)
def test_the_rammers_own_damage_follows_the_reading_the_players_picked(scope, weapon_ram, expected):
    from rules.mecha.damage import rammer_damage

    assert rammer_damage(7, 2, "half_then_add", scope, weapon_ram) == expected
