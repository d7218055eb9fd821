"""The Shoot odds against brute force: every roll of every die (and every re-roll) enumerated
face by face (tests/rules/killteam/brute.py), with and without each weapon rule."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.killteam import (
    attack_profile,
    incapacitate_chance,
    injure_chance,
    modelled_rules,
    odds_policy,
    read_attack,
    read_defence,
    resolve_shoot,
    shoot_damage_distribution,
)
from tests.examples import examples
from tests.rules.killteam import brute

# Every figure here is made up for the test: the core rules give no datacards.
ODDS_RULES = [
    "Accurate 1",
    "Accurate 2",
    "Balanced",
    "Brutal",
    "Ceaseless",
    "Devastating 2",
    "Lethal 5+",
    "Piercing 1",
    "Piercing Crits 1",
    "Punishing",
    "Relentless",
    "Rending",
    "Saturate",
    "Severe",
]
NO_ODDS_RULES = [
    'Blast 2"',
    "Heavy",
    "Hot",
    "Limited 1",
    'Range 6"',
    "Seek",
    "Seek Light",
    "Shock",
    "Silent",
    "Stun",
    'Torrent 2"',
]
BASE = {"hit": 4, "normal_damage": 3, "critical_damage": 4, "save": 4}


def same(**kwargs):
    got = shoot_damage_distribution(**kwargs)
    assert sum(got.values()) == 1
    assert got == brute.shoot(**kwargs)
    return got


def test_every_weapon_rule_is_modelled_or_said_to_be_judged_elsewhere():
    groups = modelled_rules()
    assert len([key for keys in groups.values() for key in keys]) == 24  # 22 rules, 2 forms
    assert set(groups["odds"]) == {
        "accurate", "balanced", "brutal", "ceaseless", "devastating", "lethal", "piercing",
        "piercing_crits", "punishing", "relentless", "rending", "saturate", "severe",
    }  # fmt: skip


@pytest.mark.parametrize("attacks", [1, 2, 3, 4])
@pytest.mark.parametrize("cover", [False, True])
def test_plain_weapon(attacks, cover):
    same(attacks=attacks, cover=cover, **BASE)


@pytest.mark.parametrize("rule", ODDS_RULES)
@pytest.mark.parametrize("attacks", [1, 3])
def test_each_rule_that_changes_the_odds(rule, attacks):
    got = same(attacks=attacks, cover=True, weapon_rules=[rule], **BASE)
    if attacks == 3 and rule != "Saturate":
        # Every one of them changes something with three dice against a target in cover.
        assert got != shoot_damage_distribution(attacks=3, cover=True, **BASE)


@pytest.mark.parametrize("rule", NO_ODDS_RULES)
def test_rules_judged_at_the_table_or_on_the_board_leave_the_odds_alone(rule):
    plain = shoot_damage_distribution(attacks=3, **BASE)
    assert same(attacks=3, weapon_rules=[rule], **BASE) == plain


PAIRS = [pair for pair in combinations(ODDS_RULES, 2) if pair != ("Accurate 1", "Accurate 2")]


@pytest.mark.parametrize("pair", PAIRS)
def test_every_pair_of_rules(pair):
    same(attacks=2, cover=True, weapon_rules=list(pair), **{**BASE, "hit": 3})


@pytest.mark.parametrize(
    ("hit", "save", "injured"), list(product([2, 5, 6], [2, 6], [False, True]))
)
def test_hit_and_save_extremes_and_the_injured_attacker(hit, save, injured):
    same(
        attacks=3,
        hit=hit,
        save=save,
        normal_damage=2,
        critical_damage=5,
        injured_attacker=injured,
        weapon_rules=["Lethal 5+"],
    )


def test_command_reroll_and_relentless_ceaseless_balanced_together():
    same(
        attacks=2,
        command_reroll=True,
        weapon_rules=["Relentless", "Ceaseless", "Balanced"],
        **BASE,
    )


def test_severe_and_rending_are_not_taken_when_critical_damage_is_lower():
    rules = ["Severe", "Rending"]
    low = {"hit": 4, "save": 4, "normal_damage": 5, "critical_damage": 3}
    assert same(attacks=3, weapon_rules=rules, **low) == shoot_damage_distribution(attacks=3, **low)


def mean(distribution):
    return sum(damage * p for damage, p in distribution.items())


def test_punishing_is_taken_even_when_critical_damage_is_lower():
    # One more normal success can only add damage, so the attacker takes it: a 3-attack 4+ 4/2
    # weapon against a 4+ save averages 2.24 with Punishing, not the 1.63 of the plain weapon.
    low = {"hit": 4, "save": 4, "normal_damage": 4, "critical_damage": 2}
    got = same(attacks=3, weapon_rules=["Punishing"], **low)
    plain = shoot_damage_distribution(attacks=3, **low)
    assert mean(got) == Fraction(52171, 23328)
    assert round(float(mean(got)), 2) == 2.24 and round(float(mean(plain)), 2) == 1.63


@pytest.mark.parametrize("others", [[], ["Severe"], ["Rending"], ["Lethal 5+"], ["Balanced"]])
@pytest.mark.parametrize(("normal", "critical"), [(4, 2), (3, 3), (1, 0), (0, 2)])
def test_punishing_against_brute_force_at_every_damage_order(others, normal, critical):
    same(
        attacks=3,
        hit=4,
        save=4,
        cover=True,
        normal_damage=normal,
        critical_damage=critical,
        weapon_rules=["Punishing", *others],
    )


@pytest.mark.parametrize("dice", [0, 1, 2])
def test_piercing_with_cover_takes_dice_away_before_cover_keeps_one(dice):
    same(attacks=2, defence_dice=dice, cover=True, weapon_rules=["Piercing 1"], **BASE)


@settings(max_examples=examples(25))
@given(
    attacks=st.integers(1, 3),
    hit=st.integers(2, 6),
    save=st.integers(2, 6),
    normal=st.integers(0, 5),
    critical=st.integers(0, 7),
    cover=st.booleans(),
    injured=st.booleans(),
    rules=st.lists(st.sampled_from(ODDS_RULES + NO_ODDS_RULES), max_size=2, unique=True),
)
def test_any_small_shot_equals_brute_force(
    attacks, hit, save, normal, critical, cover, injured, rules
):
    if {"Accurate 1", "Accurate 2"} <= set(rules):
        rules.remove("Accurate 2")
    if "Relentless" in rules and "Ceaseless" in rules and attacks == 3:
        attacks = 2
    same(
        attacks=attacks,
        hit=hit,
        save=save,
        normal_damage=normal,
        critical_damage=critical,
        cover=cover,
        injured_attacker=injured,
        weapon_rules=rules,
    )


@pytest.mark.parametrize("rules", [[], ["Lethal 5+"], ["Piercing Crits 1", "Rending"], ["Brutal"]])
def test_the_odds_equal_every_entered_roll_resolved_with_the_least_damage_blocks(rules):
    """Entering each of the 6**5 rolls and taking the first block option offered gives the
    odds: the odds and the entered-roll path read the text the same way."""
    profile = attack_profile(
        attacks=2, hit=3, normal_damage=3, critical_damage=5, weapon_rules=rules
    )
    counts: dict[int, Fraction] = {}
    for attack_faces in product(range(1, 7), repeat=2):
        attack = read_attack(profile, attack_faces)
        dice = 3 - (1 if attack.crits and "Piercing Crits 1" in rules else 0)
        for defence_faces in product(range(1, 7), repeat=dice):
            defence = read_defence(profile, attack, defence_faces, save=4)
            damage = resolve_shoot(profile, attack, defence).damage
            counts[damage] = counts.get(damage, 0) + Fraction(1, 6 ** (2 + dice))
    expected = shoot_damage_distribution(
        attacks=2, hit=3, normal_damage=3, critical_damage=5, save=4, weapon_rules=rules
    )
    assert dict(sorted(counts.items())) == expected


def test_the_policies_are_said_in_words_beside_the_odds():
    lines = odds_policy(["Balanced", "Heavy"], cover=True)
    assert lines[0] == "If the defender blocks to take the least damage."
    assert "Balanced: the odds re-roll one failed attack die." in lines
    assert "Heavy: whether the operative moved is the table's; the board warns." in lines
    assert lines[-1].startswith("In cover")
    assert not any("cover" in line.lower() for line in odds_policy(["Saturate"], cover=True)[2:])


def test_chances_to_incapacitate_and_to_injure():
    odds = {0: Fraction(1, 2), 3: Fraction(1, 4), 6: Fraction(1, 4)}
    # 10 wounds, 8 left: 3 damage leaves 5 (not injured), 6 leaves 2 (injured).
    assert incapacitate_chance(odds, 8) == 0
    assert injure_chance(odds, 10, 8) == Fraction(1, 4)
    assert incapacitate_chance(odds, 6) == Fraction(1, 4)
    assert injure_chance(odds, 10, 6) == Fraction(1, 4)  # 3 leaves 3 of 10


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"weapon_rules": ["Lethal 5"]}, "Lethal takes a dice result"),
        ({"weapon_rules": ["Lethal 1+"]}, "a 1 always fails"),
        ({"weapon_rules": ["Piercing"]}, "Piercing needs its x"),
        ({"weapon_rules": ["Sneaky 2"]}, "not one of the core rules"),
        ({"weapon_rules": ["Saturate 2"]}, "Saturate takes no value"),
        ({"weapon_rules": ["Lethal 5+", "Lethal 4+"]}, "Lethal is listed twice"),
        ({"weapon_rules": "Lethal 5+"}, "Weapon rules are a list"),
        ({"weapon_rules": [5]}, "is not one of the core rules"),
        ({"attacks": 0}, "Attacks must be a whole number"),
        ({"hit": 7}, "Hit is the x of x+"),
        ({"save": 1}, "Save is the x of x+"),
        ({"normal_damage": -1}, "Normal damage must be"),
        ({"cover": "yes"}, "In cover must be yes or no"),
        ({"defence_dice": 9}, "Defence dice must be"),
    ],
)
def test_malformed_input_raises_a_rules_error_with_a_sentence(kwargs, words):
    with pytest.raises(RulesError) as caught:
        shoot_damage_distribution(**{"attacks": 3, **BASE, **kwargs})
    message = str(caught.value)
    assert words in message
    assert message[0].isupper() or message[0] in "“'\"" and message.rstrip().endswith(".")


def test_the_policy_fills_in_each_rules_x_and_says_when_the_shooter_is_injured():
    lines = odds_policy(["Piercing 2", "Devastating 3"], injured_attacker=True)
    assert "Piercing 2: the defender rolls 2 fewer defence dice." in lines
    assert (
        "Devastating 3: each kept critical deals 3 at once and still counts when blocking." in lines
    )
    assert "The shooter is injured: its weapon's Hit is 1 worse." in lines
    assert not any("injured" in line for line in odds_policy(["Piercing 2"]))


def test_the_policy_says_blitzs_choice_where_the_text_is_silent():
    both = odds_policy(["Piercing 1", "Piercing Crits 1"])
    assert any("with a critical kept the defender rolls 2 fewer" in line for line in both)
    assert any(
        "the ploy may re-roll the die Balanced re-rolled" in line
        for line in odds_policy(["Balanced"])
    )
    assert not any("Blitz adds" in line for line in odds_policy(["Piercing 1"]))
    # The odds are the ones said: both taken away with a critical kept, as brute force does.
    same(attacks=2, weapon_rules=["Piercing 1", "Piercing Crits 1"], **BASE)
