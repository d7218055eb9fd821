"""Hot's roll applied with the shot, and several targets of one action counted as one use
(Limited, grenades), read as the text says:

> Wird die Waffe in einer Aktion mehrfach eingesetzt (etwa durch Explosiv), wirfst du trotzdem nur
> einen W6. / ... zählt dies als eine Anwendung."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.errors import RulesError
from rules.killteam import (
    OperativeSpec,
    SideSpec,
    hot_damage_distribution,
    make_event,
    new_battle,
    step,
)
from tests.rules.killteam.factories import BLADE, HEAVY, to_firefight, weapon

PLASMA = weapon("Plasma gun", "ranged", 4, 4, 4, 6, ["Hot", "Limited 2", 'Blast 2"'])


def battle(wounds: int = 12):
    a = SideSpec(
        "Anna",
        "Red team",
        [
            OperativeSpec("Gunner", 2, 6, 4, wounds, (PLASMA, HEAVY, BLADE)),
            OperativeSpec("Gunner", 2, 6, 4, wounds, (PLASMA, BLADE)),
        ],
        grenades={"frag": 1},
    )
    b = SideSpec(
        "Ben", "Blue team", [OperativeSpec(f"Cultist {n}", 2, 6, 5, 8, ()) for n in (1, 2)]
    )
    state = to_firefight(new_battle(a, b))
    return step(state, make_event("activate", operative="a-1", order="engage")).state


def shot(state, **fields):
    return step(state, make_event("resolve", operative="a-1", **fields))


def brute_hot(hit: int, injured: bool) -> dict[int, Fraction]:
    """Every face of the D6, read as a player would: below the Hit (one worse when injured),
    twice the face."""
    out: dict[int, Fraction] = {}
    for face in range(1, 7):
        damage = 2 * face if face < hit + injured else 0
        out[damage] = out.get(damage, Fraction(0)) + Fraction(1, 6)
    return out


@pytest.mark.parametrize("injured", [False, True])
def test_the_hot_roll_is_applied_to_the_shooter_as_part_of_the_shot(injured):
    state = battle()
    if injured:  # 5 of 12 left: injured, so the Plasma gun's 4+ reads as 5+
        state = step(state, make_event("wound", operative="a-1", amount=7, current=12)).state
    before = state.operative("a-1").current
    taken: dict[int, Fraction] = {}
    for face in range(1, 7):
        result = shot(state, weapon="Plasma gun", damage={"b-1": 3}, hot=face)
        lost = before - result.state.operative("a-1").current
        taken[lost] = taken.get(lost, Fraction(0)) + Fraction(1, 6)
        assert result.state.operative("b-1").current == 5
        assert f"Hot roll {face}" in result.summary
    assert taken == brute_hot(4, injured) == hot_damage_distribution(4, injured=injured)
    mean = sum(d * p for d, p in taken.items())
    assert mean == (Fraction(2) if not injured else Fraction(10, 3))


def test_a_hot_roll_that_incapacitates_the_shooter_says_so_and_ends_its_activation():
    state = battle(wounds=4)
    result = shot(state, weapon="Plasma gun", damage={"b-1": 0}, hot=3)
    assert "Gunner 1 (Anna): Hot roll 3, 6 damage to itself" in result.summary
    assert result.state.operative("a-1").incapacitated and result.state.active is None


def test_a_hot_roll_needs_a_hot_weapon_and_one_d6():
    state = battle()
    with pytest.raises(RulesError, match="Cannon is not Hot"):
        shot(state, weapon="Cannon", damage={}, hot=2)
    with pytest.raises(RulesError, match="The Hot roll is a D6"):
        shot(state, weapon="Plasma gun", damage={}, hot=7)


def test_a_limited_weapon_at_a_second_target_of_the_same_action_counts_one_use():
    state = battle()
    first = shot(state, action="Shoot", ap=1, weapon="Plasma gun", damage={"b-1": 4}, hot=5)
    second = shot(first.state, weapon="Plasma gun", damage={"b-2": 2}, again=True)
    assert second.state.operative("a-1").used("Plasma gun") == 1
    assert second.state.operative("a-1").ap_spent == 1 and second.warnings == ()
    assert "another target of the same action with Plasma gun (one use)" in second.summary
    assert second.state.operative("b-2").current == 6
    # A new action is a new use: the second of Limited 2, then a warning at the third.
    third = shot(second.state, weapon="Plasma gun", damage={})
    assert third.state.operative("a-1").used("Plasma gun") == 2 and third.warnings == ()
    fourth = shot(third.state, weapon="Plasma gun", damage={})
    assert any("(Limited 2)" in w for w in fourth.warnings)


def test_one_frag_grenade_at_a_primary_and_a_secondary_target_is_one_of_one_used():
    state = battle()
    primary = shot(state, action="Shoot", ap=1, weapon="Frag grenade", damage={"b-1": 2})
    secondary = shot(primary.state, weapon="Frag grenade", damage={"b-2": 4}, again=True)
    assert secondary.state.side("a").grenade("Frag grenade").used == 1
    assert secondary.warnings == ()


@pytest.mark.parametrize(
    "fields",
    [
        {"action": "Shoot", "ap": 1, "weapon": "Plasma gun", "again": True},
        {"weapon": "Plasma gun", "again": True, "hot": 2},
        {"weapon": "", "again": True},
    ],
)
def test_another_target_of_the_same_action_takes_no_second_action_or_hot_roll(fields):
    with pytest.raises(RulesError):
        shot(battle(), damage={}, **fields)
