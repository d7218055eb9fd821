"""The Fight sequence from entered rolls (strike or block, die by die, attacker first), and the
fight odds under the stated policy against brute force."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from rules.errors import RulesError
from rules.killteam import (
    FightChoice,
    KeptDice,
    attack_profile,
    fight_choices,
    fight_choose,
    fight_odds,
    fight_policy,
    read_attack,
    start_fight,
)
from tests.rules.killteam import brute

# Made-up figures: the core rules give no datacards.
SWORD = attack_profile(attacks=4, hit=3, normal_damage=3, critical_damage=5)
CLAWS = attack_profile(attacks=3, hit=4, normal_damage=4, critical_damage=6)

STRIKE_CRIT = FightChoice("strike", "critical")
STRIKE_NORMAL = FightChoice("strike", "normal")


def kept(crits: int, normals: int) -> KeptDice:
    return KeptDice(dice=(), reads=(), unrolled=0, crits=crits, normals=normals)


def test_attacker_resolves_first_then_the_players_take_turns():
    fight = start_fight(
        SWORD, read_attack(SWORD, (6, 4, 3, 1)), 12, CLAWS, read_attack(CLAWS, (5, 2, 2)), 12
    )
    assert (fight.attacker.crits, fight.attacker.normals) == (1, 2)
    assert (fight.defender.crits, fight.defender.normals) == (0, 1)
    assert fight.turn == "attacker"
    fight = fight_choose(fight, STRIKE_CRIT)
    assert fight.damage_to_defender == 5 and fight.turn == "defender"
    fight = fight_choose(fight, FightChoice("block", "normal", "normal"))
    assert fight.attacker.normals == 1 and fight.defender.normals == 0
    # The defender has nothing left: the attacker resolves all the rest.
    assert fight.turn == "attacker"
    fight = fight_choose(fight, STRIKE_NORMAL)
    assert fight.over and fight.damage_to_defender == 8 and fight.damage_to_attacker == 0


def test_in_a_fight_a_normal_success_cannot_block_a_critical_one():
    fight = start_fight(SWORD, kept(0, 1), 10, CLAWS, kept(1, 0), 10)
    assert FightChoice("block", "normal", "critical") not in fight_choices(fight)
    with pytest.raises(RulesError, match="a normal success cannot block a critical one"):
        fight_choose(fight, FightChoice("block", "normal", "critical"))


def test_a_critical_success_blocks_either():
    fight = start_fight(SWORD, kept(1, 0), 10, CLAWS, kept(1, 1), 10)
    choices = fight_choices(fight)
    assert FightChoice("block", "critical", "critical") in choices
    assert FightChoice("block", "critical", "normal") in choices


def test_brutal_lets_the_opponent_block_only_with_critical_successes():
    brutal = attack_profile(
        attacks=3, hit=3, normal_damage=3, critical_damage=4, weapon_rules=["Brutal"]
    )
    fight = start_fight(brutal, kept(1, 2), 10, CLAWS, kept(1, 1), 10)
    fight = fight_choose(fight, STRIKE_NORMAL)
    assert FightChoice("block", "normal", "normal") not in fight_choices(fight)
    assert FightChoice("block", "critical", "normal") in fight_choices(fight)
    with pytest.raises(RulesError, match="Brutal"):
        fight_choose(fight, FightChoice("block", "normal", "critical"))
    # The other way round, the Brutal fighter blocks as usual.
    fight = fight_choose(fight, STRIKE_NORMAL)
    assert FightChoice("block", "critical", "critical") in fight_choices(fight)


def test_shock_discards_a_normal_success_the_first_time_only():
    shock = attack_profile(
        attacks=3, hit=3, normal_damage=3, critical_damage=4, weapon_rules=["Shock"]
    )
    fight = start_fight(shock, kept(2, 0), 20, CLAWS, kept(1, 2), 20)
    fight = fight_choose(fight, STRIKE_CRIT)
    assert (fight.defender.crits, fight.defender.normals) == (1, 1)
    fight = fight_choose(fight, STRIKE_NORMAL)
    fight = fight_choose(fight, STRIKE_CRIT)
    assert (fight.defender.crits, fight.defender.normals) == (1, 0)


def test_shock_discards_a_critical_when_no_normal_is_left():
    shock = attack_profile(
        attacks=3, hit=3, normal_damage=3, critical_damage=4, weapon_rules=["Shock"]
    )
    fight = fight_choose(start_fight(shock, kept(1, 0), 20, CLAWS, kept(2, 0), 20), STRIKE_CRIT)
    assert (fight.defender.crits, fight.defender.normals) == (1, 0)


def test_devastating_deals_its_damage_as_the_dice_are_kept():
    axe = attack_profile(
        attacks=3, hit=3, normal_damage=3, critical_damage=4, weapon_rules=["Devastating 2"]
    )
    fight = start_fight(axe, kept(2, 0), 10, CLAWS, kept(0, 1), 10)
    assert fight.damage_to_defender == 4 and fight.defender.wounds == 6
    assert fight.attacker.crits == 2  # the criticals still count


def test_the_fight_stops_when_an_operative_is_incapacitated():
    fight = start_fight(SWORD, kept(1, 2), 10, CLAWS, kept(2, 0), 5)
    fight = fight_choose(fight, STRIKE_CRIT)
    assert fight.over and fight.incapacitated == ("defender",)
    assert fight_choices(fight) == ()
    with pytest.raises(RulesError, match="The fight is over"):
        fight_choose(fight, STRIKE_NORMAL)


def test_a_die_the_fighter_does_not_have_is_refused():
    fight = start_fight(SWORD, kept(0, 1), 10, CLAWS, kept(0, 1), 10)
    with pytest.raises(RulesError, match="no unresolved critical success"):
        fight_choose(fight, STRIKE_CRIT)


# --- Odds against brute force ------------------------------------------------------------------


def strike_everything(attacker, a_dice, a_wounds, defender, d_dice, d_wounds):
    """The policy played out with the entered-roll rules: strike, criticals first."""
    fight = start_fight(attacker, kept(*a_dice), a_wounds, defender, kept(*d_dice), d_wounds)
    while not fight.over:
        side = fight.side(fight.turn)
        fight = fight_choose(fight, STRIKE_CRIT if side.crits else STRIKE_NORMAL)
    return fight


def brute_fight(a: dict, a_wounds: int, d: dict, d_wounds: int):
    outcomes = []
    for spec in (a, d):
        outcomes.append(
            brute.attack_outcomes(
                spec["attacks"],
                spec["hit"],
                brute.read_rules(spec["weapon_rules"]),
                helpful=spec["critical_damage"] >= spec["normal_damage"],
            )
        )
    pa, pd = attack_profile(**a), attack_profile(**d)
    to_d: Counter = Counter()
    to_a: Counter = Counter()
    wins = [Fraction(0), Fraction(0)]
    for a_dice, p in outcomes[0].items():
        for d_dice, q in outcomes[1].items():
            fight = strike_everything(pa, a_dice, a_wounds, pd, d_dice, d_wounds)
            to_d[fight.damage_to_defender] += p * q
            to_a[fight.damage_to_attacker] += p * q
            wins[0] += p * q if fight.defender.wounds <= 0 else 0
            wins[1] += p * q if fight.attacker.wounds <= 0 else 0
    return dict(sorted(to_d.items())), dict(sorted(to_a.items())), wins


@pytest.mark.parametrize(
    ("a_rules", "d_rules"),
    [
        ([], []),
        (["Lethal 5+"], []),
        (["Shock"], ["Rending"]),
        (["Devastating 1"], ["Shock"]),
        (["Brutal", "Relentless"], ["Accurate 1"]),
        (["Ceaseless"], ["Punishing", "Balanced"]),
        (["Severe"], ["Lethal 4+", "Shock"]),
    ],
)
@pytest.mark.parametrize(("a_wounds", "d_wounds"), [(7, 9), (20, 20)])
def test_fight_odds_equal_brute_force(a_rules, d_rules, a_wounds, d_wounds):
    a = {"attacks": 3, "hit": 3, "normal_damage": 3, "critical_damage": 4, "weapon_rules": a_rules}
    d = {"attacks": 3, "hit": 4, "normal_damage": 4, "critical_damage": 5, "weapon_rules": d_rules}
    odds = fight_odds(
        attacker=attack_profile(**a),
        attacker_wounds=a_wounds,
        defender=attack_profile(**d),
        defender_wounds=d_wounds,
    )
    to_d, to_a, wins = brute_fight(a, a_wounds, d, d_wounds)
    assert odds.damage_to_defender == to_d
    assert odds.damage_to_attacker == to_a
    assert (odds.attacker_incapacitates, odds.defender_incapacitates) == tuple(wins)
    assert sum(odds.damage_to_defender.values()) == 1
    assert "strike with every die" in odds.policy
    if (a_wounds, d_wounds) == (20, 20):
        assert odds.attacker_incapacitates == 0 == odds.defender_incapacitates


def test_the_injured_fighter_hits_one_worse():
    healthy = fight_odds(attacker=SWORD, attacker_wounds=10, defender=CLAWS, defender_wounds=10)
    injured = fight_odds(
        attacker=SWORD,
        attacker_wounds=10,
        defender=CLAWS,
        defender_wounds=10,
        attacker_injured=True,
    )
    mean = lambda dist: sum(k * v for k, v in dist.items())  # noqa: E731
    assert mean(injured.damage_to_defender) < mean(healthy.damage_to_defender)


def test_fight_odds_refuse_wounds_that_are_not_a_number():
    with pytest.raises(RulesError, match="wounds left must be a whole number"):
        fight_odds(attacker=SWORD, attacker_wounds=0, defender=CLAWS, defender_wounds=10)


# --- Stun, the tally and the policy in words ---------------------------------------------------

STUN_SWORD = attack_profile(
    attacks=4, hit=3, normal_damage=3, critical_damage=5, weapon_rules=["Stun"]
)


def test_stun_needs_a_kept_critical_and_holds_even_when_that_critical_is_blocked():
    """The text: if you keep at least one critical success, the APL of the operative the weapon
    is used against is 1 lower; keeping is the roll, not the strike."""
    fight = start_fight(STUN_SWORD, kept(1, 0), 10, CLAWS, kept(1, 0), 10)
    assert fight.stunned == ("defender",)
    assert "Stun: the defender is stunned (a kept critical success)." in fight.notes
    fight = fight_choose(fight, FightChoice("block", "critical", "critical"))
    assert fight.over and fight.stunned == ("defender",)
    assert start_fight(STUN_SWORD, kept(0, 3), 10, CLAWS, kept(1, 0), 10).stunned == ()


def test_stun_works_for_the_defender_too_and_not_on_an_incapacitated_operative():
    fight = start_fight(CLAWS, kept(1, 0), 10, STUN_SWORD, kept(1, 0), 10)
    assert fight.stunned == ("attacker",)
    fight = start_fight(SWORD, kept(1, 0), 10, STUN_SWORD, kept(1, 0), 5)
    fight = fight_choose(fight, STRIKE_CRIT)
    assert fight.incapacitated == ("defender",) and fight.stunned == ("attacker",)
    fight = start_fight(STUN_SWORD, kept(1, 0), 10, CLAWS, kept(0, 0), 5)
    assert fight_choose(fight, STRIKE_CRIT).stunned == ()


def test_the_tally_counts_each_sides_strikes_and_blocks():
    fight = start_fight(SWORD, kept(1, 1), 20, CLAWS, kept(0, 2), 20)
    fight = fight_choose(fight, STRIKE_CRIT)
    fight = fight_choose(fight, FightChoice("block", "normal", "normal"))
    fight = fight_choose(fight, STRIKE_NORMAL)
    assert fight.tally == "Attacker: 1 strike, 0 blocks; defender: 1 strike, 1 block."
    assert [who for who, _ in fight.choices] == ["attacker", "defender", "defender"]


def test_the_fight_policy_says_the_stated_policy_and_each_weapons_rules_in_words():
    lethal = attack_profile(
        attacks=3, hit=3, normal_damage=3, critical_damage=4, weapon_rules=["Lethal 5+"]
    )
    lines = fight_policy(lethal, STUN_SWORD, names=("Gunner", "Ork"), injured=(False, True))
    assert lines[0] == (
        "The odds: if both players strike with every die, critical successes first (no "
        "blocks); the fight stops when an operative is incapacitated."
    )
    assert "Gunner's Lethal 5+: successes of 5+ are critical." in lines
    assert "Ork is injured: its weapon's Hit is 1 worse." in lines
    assert any(line.startswith("Ork's Stun: ") for line in lines)
