"""The Shoot sequence from entered dice: which dice are successes and criticals, the defender's
block options (least damage first) and the damage of a chosen block."""

from __future__ import annotations

import pytest

from rules.errors import RulesError
from rules.killteam import (
    Blocks,
    attack_profile,
    block_options,
    read_attack,
    read_defence,
    resolve_shoot,
)

# Made-up figures: the core rules give no datacards.
GUN = attack_profile(attacks=4, hit=3, normal_damage=3, critical_damage=4)


def test_a_6_is_critical_a_1_fails_and_the_hit_decides_the_rest():
    attack = read_attack(GUN, (6, 3, 2, 1))
    assert attack.reads == ("critical", "normal", "fail", "fail")
    assert (attack.crits, attack.normals) == (1, 1)


def test_lethal_makes_successes_of_x_or_more_critical_and_an_injured_attacker_hits_worse():
    lethal = attack_profile(
        attacks=4, hit=3, normal_damage=3, critical_damage=4, weapon_rules=["Lethal 5+"]
    )
    assert read_attack(lethal, (5, 4, 3, 2)).reads == ("critical", "normal", "normal", "fail")
    injured = read_attack(lethal, (5, 4, 3, 2), injured_attacker=True)
    assert injured.reads == ("critical", "normal", "fail", "fail")


def test_accurate_keeps_dice_unrolled_as_normal_successes():
    accurate = attack_profile(
        attacks=4, hit=3, normal_damage=3, critical_damage=4, weapon_rules=["Accurate 2"]
    )
    attack = read_attack(accurate, (6, 1))
    assert (attack.unrolled, attack.crits, attack.normals) == (2, 1, 2)
    assert read_attack(accurate, (6, 1, 1, 1)).unrolled == 0
    with pytest.raises(
        RulesError, match="Roll 4 attack dice \\(or up to 2 fewer with Accurate\\); got 1"
    ):
        read_attack(accurate, (6,))
    with pytest.raises(RulesError, match="Roll 4 attack dice; got 3"):
        read_attack(GUN, (6, 6, 6))


@pytest.mark.parametrize(
    ("rules", "dice", "kept", "note"),
    [
        (["Rending"], (6, 4, 1, 1), (2, 0), "Rending"),
        (["Rending"], (5, 4, 1, 1), (0, 2), None),
        (["Severe"], (5, 4, 1, 1), (1, 1), "Severe"),
        (["Punishing"], (6, 1, 1, 1), (1, 1), "Punishing"),
        (["Severe", "Rending", "Punishing"], (5, 1, 1, 1), (1, 0), "Severe"),
        (["Punishing", "Rending"], (6, 1, 1, 1), (2, 0), "Rending"),
    ],
)
def test_the_attacker_takes_the_choices_that_raise_the_damage(rules, dice, kept, note):
    profile = attack_profile(
        attacks=4, hit=3, normal_damage=3, critical_damage=4, weapon_rules=rules
    )
    attack = read_attack(profile, dice)
    assert (attack.crits, attack.normals) == kept
    if note:
        assert any(line.startswith(note) for line in attack.notes)


def test_cover_keeps_one_defence_die_unrolled_and_saturate_takes_it_away():
    attack = read_attack(GUN, (6, 4, 4, 1))
    defence = read_defence(GUN, attack, (6, 2), save=3, cover=True)
    assert (defence.crits, defence.normals) == (1, 1)
    rolled_all = read_defence(GUN, attack, (6, 2, 2), save=3, cover=True)
    assert (rolled_all.crits, rolled_all.normals) == (1, 0)
    saturate = attack_profile(
        attacks=4, hit=3, normal_damage=3, critical_damage=4, weapon_rules=["Saturate"]
    )
    with pytest.raises(
        RulesError, match="The defender rolls 3 dice \\(Saturate: no cover save\\); got 2"
    ):
        read_defence(saturate, read_attack(saturate, (6, 4, 4, 1)), (6, 2), save=3, cover=True)


def test_piercing_crits_take_a_die_only_with_a_critical_kept():
    piercing = attack_profile(
        attacks=2, hit=3, normal_damage=3, critical_damage=4, weapon_rules=["Piercing Crits 1"]
    )
    with_crit = read_attack(piercing, (6, 3))
    read_defence(piercing, with_crit, (4, 4), save=3)
    with pytest.raises(RulesError, match="rolls 2 dice \\(Piercing Crits 1\\); got 3"):
        read_defence(piercing, with_crit, (4, 4, 4), save=3)
    read_defence(piercing, read_attack(piercing, (5, 3)), (4, 4, 4), save=3)


def test_the_least_damage_block_is_offered_first():
    big_crits = attack_profile(attacks=2, hit=3, normal_damage=2, critical_damage=6)
    attack = read_attack(big_crits, (6, 4))
    defence = read_defence(big_crits, attack, (4, 4, 1), save=3)  # two normals
    options = block_options(big_crits, attack, defence)
    # Two normals on the critical (2 damage taken) beat blocking the normal (6 taken).
    assert options[0] == Blocks(0, 1, 0, 0, damage=2)
    assert [o.damage for o in options] == sorted(o.damage for o in options)
    assert resolve_shoot(big_crits, attack, defence).damage == 2
    other = next(o for o in options if o.normal_on_normal)
    assert resolve_shoot(big_crits, attack, defence, other).damage == 6


def test_a_critical_blocks_either_and_brutal_blocks_with_criticals_only():
    brutal = attack_profile(
        attacks=2, hit=3, normal_damage=3, critical_damage=4, weapon_rules=["Brutal"]
    )
    attack = read_attack(brutal, (6, 4))
    defence = read_defence(brutal, attack, (6, 5, 5), save=3)
    assert all(
        o.pairs_on_crit == 0 and o.normal_on_normal == 0
        for o in block_options(brutal, attack, defence)
    )
    assert resolve_shoot(brutal, attack, defence).damage == 3  # the critical blocks the critical
    with pytest.raises(RulesError, match="Brutal"):
        resolve_shoot(brutal, attack, defence, Blocks(0, 1, 0, 0))


def test_devastating_damage_cannot_be_blocked():
    devastating = attack_profile(
        attacks=2, hit=3, normal_damage=3, critical_damage=4, weapon_rules=["Devastating 2"]
    )
    attack = read_attack(devastating, (6, 1))
    defence = read_defence(devastating, attack, (6, 1, 1), save=3)
    result = resolve_shoot(devastating, attack, defence)
    assert (result.damage, result.devastating, result.unblocked_crits) == (2, 2, 0)
    assert "2 from Devastating" in result.words


def test_a_block_the_dice_cannot_make_is_refused():
    attack = read_attack(GUN, (6, 4, 1, 1))
    defence = read_defence(GUN, attack, (4, 1, 1), save=3)
    with pytest.raises(RulesError, match="kept 0 critical successes to block with"):
        resolve_shoot(GUN, attack, defence, Blocks(1, 0, 0, 0))
    with pytest.raises(RulesError, match="kept 1 normal successes to block with"):
        resolve_shoot(GUN, attack, defence, Blocks(0, 1, 0, 0))


def test_stun_is_reported_when_a_critical_is_kept():
    stun = attack_profile(
        attacks=2, hit=3, normal_damage=3, critical_damage=4, weapon_rules=["Stun"]
    )
    attack = read_attack(stun, (6, 1))
    assert resolve_shoot(stun, attack, read_defence(stun, attack, (1, 1, 1), save=3)).stun
    attack = read_attack(stun, (5, 1))
    assert not resolve_shoot(stun, attack, read_defence(stun, attack, (1, 1, 1), save=3)).stun


@pytest.mark.parametrize("dice", [(0, 3), (7,), "66", [6, 6.0]])
def test_dice_that_are_not_dice_are_refused(dice):
    with pytest.raises(RulesError, match="1 to 6"):
        read_attack(GUN, dice)
