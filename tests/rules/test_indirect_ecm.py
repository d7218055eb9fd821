"""ECM against a Forward Observer, and the translated edition's improvised designation roll,
which is only an optional house rule, off by default and labelled as not official."""

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.hgb import DamageState
from rules.hgb.attack import (
    DESIGNATION_HOUSE_RULE,
    Cover,
    EcmContest,
    MissingInputs,
    Modifier,
    ecm_modifiers,
    ecm_odds,
    house_rule_designation_odds,
    house_rule_designation_questions,
    resolve_ecm,
    resolve_house_rule_designation,
)


def text_final(dice, modifier):
    if all(die == 1 for die in dice):
        return 0
    return max(dice) + max(0, dice.count(6) - 1) + modifier


def contest(**changes) -> EcmContest:
    values = dict(observer_ew=1, blocker_ew=2, observer_comm=0, blocker_comm=1, ecm_rating=2)
    values.update(changes)
    return EcmContest(**values)


# --- ECM -----------------------------------------------------------------------------------------


def test_both_sides_add_comm_and_the_blocker_adds_its_ecm_rating():
    observer, blocker = ecm_modifiers(
        contest(blocker_name="Warrior", blocker_state=DamageState.HEAVY)
    )
    assert [str(m) for m in observer] == ["+0 Forward Observer's Comm rating"]
    assert [str(m) for m in blocker] == [
        "+1 Warrior's Comm rating",
        "+2 Warrior's ECM rating",
        "-1 Warrior at Heavy damage: -1 to all rolls, no Top Speed",
    ]


def test_the_ecm_contest_asks_for_comm_and_ecm_ratings_the_data_lacks():
    with pytest.raises(MissingInputs) as raised:
        ecm_odds(EcmContest(observer_ew=1, blocker_ew=2, blocker_name="Warrior IV"))
    assert [m.question for m in raised.value.missing] == [
        "Enter the Forward Observer's Comm rating: the data does not give it.",
        "Enter the Warrior IV's Comm rating: the data does not give it.",
        "Enter the Warrior IV's ECM rating: the data does not give it.",
    ]


@pytest.mark.parametrize(
    "observer_roll,blocker_roll,blocked",
    [
        (5, 3, True),  # 5 + 0 against 3 + 3 = 6: "If the blocking Model rolls higher"
        (6, 3, False),  # a tie: the Observation goes ahead
        (6, 2, False),
        ([1], [1, 1], False),  # both Fumble: 0 against 0
        ([1], 2, True),
    ],
)
def test_the_observation_is_blocked_only_if_the_blocker_rolls_higher(
    observer_roll, blocker_roll, blocked
):
    result = resolve_ecm(contest(), observer_roll, blocker_roll)
    assert result.blocked is blocked
    assert "Both models' actions are spent either way." in result.describe()


def test_a_fumbled_ecm_roll_gets_no_comm_or_ecm_rating():
    result = resolve_ecm(contest(ecm_rating=4), 3, [1, 1])
    assert result.blocker_final == 0
    assert not result.blocked


@given(
    st.integers(1, 3), st.integers(1, 3), st.integers(-1, 2), st.integers(-1, 2), st.integers(0, 3)
)
def test_the_chance_of_blocking_matches_every_pair_of_rolls(
    observer_ew, blocker_ew, observer_comm, blocker_comm, ecm
):
    setup = contest(
        observer_ew=observer_ew,
        blocker_ew=blocker_ew,
        observer_comm=observer_comm,
        blocker_comm=blocker_comm,
        ecm_rating=ecm,
    )
    blocks = sum(
        text_final(b, blocker_comm + ecm) > text_final(o, observer_comm)
        for o in product(range(1, 7), repeat=observer_ew)
        for b in product(range(1, 7), repeat=blocker_ew)
    )
    odds = ecm_odds(setup)
    assert odds.block_chance == Fraction(blocks, 6 ** (observer_ew + blocker_ew))
    assert odds.block_chance + odds.observation_chance == 1


# --- the house rule ------------------------------------------------------------------------------


def test_the_designation_house_rule_is_off_by_default_and_labelled_not_official():
    assert DESIGNATION_HOUSE_RULE.on_by_default is False
    assert DESIGNATION_HOUSE_RULE.official is False
    assert "not official" in DESIGNATION_HOUSE_RULE.label
    assert "translator" in DESIGNATION_HOUSE_RULE.label


@pytest.mark.parametrize(
    "roll,sensors,cover,designated",
    [
        (4, 0, Cover.SOME, True),  # "the total reaches 4 or more"
        (3, 0, Cover.SOME, False),
        (3, 0, Cover.OPEN, True),
        (5, -1, Cover.FULL, False),
        ([1], 3, Cover.OPEN, False),  # a Fumble is 0
    ],
)
def test_the_house_rule_designates_on_a_modified_4_or_more(roll, sensors, cover, designated):
    result = resolve_house_rule_designation(ew=1, sensors=sensors, cover=cover, roll=roll)
    assert result.designated is designated
    assert result.label == DESIGNATION_HOUSE_RULE.label


def test_under_the_house_rule_as_many_models_may_fire_as_the_spotters_ew():
    odds = house_rule_designation_odds(ew=3, sensors=0, cover=Cover.SOME)
    assert odds.shooters_allowed == 3
    assert odds.modifiers == (
        Modifier(0, "Spotter's Sensors rating"),
        Modifier(0, "Some cover, seen from the spotter"),
    )


def test_the_house_rule_odds_match_every_roll():
    odds = house_rule_designation_odds(ew=2, sensors=-1, cover=Cover.OPEN)
    wins = sum(text_final(dice, 0) > 3 for dice in product(range(1, 7), repeat=2))
    assert odds.success_chance == Fraction(wins, 36)


def test_the_house_rule_asks_for_the_spotters_sensors():
    with pytest.raises(MissingInputs, match="Sensors rating"):
        house_rule_designation_odds(ew=1, sensors=None, cover=Cover.SOME)


def test_the_designation_roll_asks_for_the_cover_and_a_missing_sensors_rating():
    asked = house_rule_designation_questions(sensors=None, cover=None, spotter="Jäger")
    assert [(item.field, item.question) for item in asked] == [
        ("cover", "Choose the target's cover, seen from the spotter."),
        ("sensors", "Enter Jäger's Sensors rating: the data does not give it."),
    ]
    assert house_rule_designation_questions(sensors=0, cover=Cover.OPEN) == []
