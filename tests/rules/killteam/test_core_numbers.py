"""Wound states, command points, equipment and Hot: the numbers the core text gives, read as
docs/killteam-readings.md says."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.errors import RulesError
from rules.killteam import (
    STARTING_CP,
    WoundState,
    command_points_gained,
    equipment,
    grenade_weapon,
    hot_damage_distribution,
    mine_damage,
    mine_damage_distribution,
    profile_of,
    shoot_damage_distribution,
    stun_test,
    stun_test_chance,
    wound_state,
)
from rules.killteam.team import GRENADE_PICKS, grenade_choices
from rules.killteam.wounds import injured_hit, injured_move


@pytest.mark.parametrize(
    ("starting", "current", "state"),
    [
        (10, 10, WoundState.UNHURT),
        (10, 9, WoundState.WOUNDED),
        (10, 5, WoundState.WOUNDED),  # docs/killteam-readings.md, 'Injured': 5 of 10 is not injured
        (10, 4, WoundState.INJURED),
        (9, 5, WoundState.WOUNDED),  # 5 of 9 is not injured
        (9, 4, WoundState.INJURED),
        (10, 1, WoundState.INJURED),
        (10, 0, WoundState.INCAPACITATED),
        (10, -3, WoundState.INCAPACITATED),
        (1, 1, WoundState.UNHURT),
    ],
)
def test_wound_states(starting, current, state):
    assert wound_state(starting, current) is state


def test_more_wounds_than_at_the_start_is_refused():
    with pytest.raises(RulesError, match="more wounds"):
        wound_state(10, 11)
    with pytest.raises(RulesError, match="Starting Wounds"):
        wound_state(0, 0)


def test_injured_operatives_move_2_less_and_hit_one_worse():
    assert injured_move(6) == 4
    assert injured_hit(4) == 5
    assert injured_hit(6) == 7  # only a 6 succeeds, as always


def test_an_injured_attacker_with_a_6_plus_weapon_still_hits_on_6():
    odds = shoot_damage_distribution(
        attacks=1, hit=6, normal_damage=3, critical_damage=4, save=6, injured_attacker=True
    )
    # Only a 6 (a critical) succeeds: 1 in 6 before the defence dice.
    assert sum(p for damage, p in odds.items() if damage) < Fraction(1, 6)
    assert set(odds) == {0, 4}


def test_command_points():
    assert STARTING_CP == 2
    assert command_points_gained(1, True) == command_points_gained(1, False) == 1
    assert command_points_gained(2, True) == 1
    assert command_points_gained(4, False) == 2
    with pytest.raises(RulesError, match="turning point"):
        command_points_gained(0, True)


def test_the_grenade_profiles_and_the_pick_of_two():
    frag, krak = grenade_weapon("frag"), grenade_weapon("krak")
    assert (frag.attacks, frag.hit, frag.normal_damage, frag.critical_damage) == (4, 4, 2, 4)
    assert (krak.attacks, krak.hit, krak.normal_damage, krak.critical_damage) == (4, 4, 4, 5)
    assert frag.rule_texts == ('Range 6"', 'Blast 2"', "Saturate")
    assert krak.rule_texts == ('Range 6"', "Piercing 1", "Saturate")
    assert profile_of(krak).rules.piercing == 1 and profile_of(frag).rules.saturate
    assert GRENADE_PICKS == equipment().grenade_picks == 2
    picks = {(g.frag, g.krak) for g in grenade_choices()}
    assert picks == {(0, 0), (2, 0), (1, 1), (0, 2)}
    with pytest.raises(RulesError, match="no grenade"):
        grenade_weapon("plasma")


def test_a_krak_grenade_shot_ignores_cover_and_pierces():
    krak = grenade_weapon("krak")
    in_cover = shoot_damage_distribution(
        attacks=krak.attacks,
        hit=krak.hit,
        normal_damage=krak.normal_damage,
        critical_damage=krak.critical_damage,
        save=3,
        cover=True,
        weapon_rules=krak.rule_texts,
    )
    in_the_open = shoot_damage_distribution(
        attacks=4, hit=4, normal_damage=4, critical_damage=5, save=3, weapon_rules=["Piercing 1"]
    )
    assert in_cover == in_the_open


def test_mines_deal_d3_plus_3():
    assert mine_damage_distribution() == {4: Fraction(1, 3), 5: Fraction(1, 3), 6: Fraction(1, 3)}
    assert [mine_damage(d) for d in (1, 2, 3)] == [4, 5, 6]
    with pytest.raises(RulesError, match="D3 shows 1 to 3"):
        mine_damage(4)


def test_the_stun_test_stuns_on_3_or_more():
    assert [stun_test(d) for d in range(1, 7)] == [False, False, True, True, True, True]
    assert stun_test_chance() == Fraction(2, 3)
    with pytest.raises(RulesError, match="D6 shows 1 to 6"):
        stun_test(7)


def test_hot_deals_twice_the_roll_below_the_hit():
    assert hot_damage_distribution(4) == {
        0: Fraction(1, 2),
        2: Fraction(1, 6),
        4: Fraction(1, 6),
        6: Fraction(1, 6),
    }
    assert hot_damage_distribution(4, injured=True)[8] == Fraction(1, 6)


def test_the_data_files_give_blitz_s_own_summaries_and_no_game_text():
    summaries = equipment().summaries
    assert set(summaries) == {"explosive_grenades", "utility_grenades", "stun_grenade", "mine"}
    assert all(len(line) < 160 for line in summaries.values())
