"""Rules the attack helper used to decide in matches/: default skills and which Limited Ammo
counter a shot spends."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from rules.hgb.attack import (
    DEFAULT_EW,
    DEFAULT_SKILL,
    attack_skill,
    ew_skill,
    limited_ammo_counter,
    signed,
)


def test_a_skill_the_datacard_does_not_give_is_the_quickstarts_default():
    # "Unless otherwise stated ... Attack and Defense are Level 2 and Electronic Warfare is
    # Level 1."
    assert (DEFAULT_SKILL, DEFAULT_EW) == (2, 1)
    assert attack_skill(None) == 2 and ew_skill(None) == 1
    assert attack_skill(3) == 3 and ew_skill(0) == 0


@dataclass
class Counter:
    weapon: str
    left: int


@pytest.mark.parametrize(
    ("counters", "code", "spent"),
    [
        ([], "HPZF", None),
        ([Counter("HPZF", 2)], "HPZF", 0),
        ([Counter("HPZF", 0), Counter("HPZF", 1)], "HPZF", 1),  # the one with a shot left
        ([Counter("HPZF", 0)], "HPZF", 0),  # empty: the shot is refused as out of ammo
        ([Counter("LRP", 1)], "HPZF", None),
        ([Counter("LRP", 1), Counter("HPZF", 1)], "HPZF", 1),
    ],
)
def test_a_shot_spends_the_first_counter_of_its_weapon_with_a_shot_left(counters, code, spent):
    assert limited_ammo_counter(counters, code) == spent


def test_modifiers_are_written_as_players_write_them():
    assert [signed(v) for v in (2, 0, -3)] == ["+2", "+0", "\u22123"]
