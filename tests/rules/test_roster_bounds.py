"""Blitz keeps rosters up to 20 groups, 10 models a group and 100 models: far above the rules."""

from __future__ import annotations

from dataclasses import replace

import pytest

import rules.hgb


@pytest.fixture(scope="module")
def catalog():
    return rules.hgb.load_catalog()


def north(catalog, groups: int) -> rules.hgb.Roster:
    roster = rules.hgb.new_roster(catalog, "north", "Big")
    for _ in range(groups):
        roster = rules.hgb.add_group(roster, catalog, "north_general_purpose")
    return roster


def test_the_bounds_are_far_above_what_the_rules_allow(catalog):
    assert rules.hgb.MAX_GROUP_MODELS > catalog.rules.max_group_size
    starter = rules.hgb.preset_roster(catalog, "north_starter")
    assert rules.hgb.MAX_GROUPS >= 10 * len(starter.groups)
    assert rules.hgb.MAX_MODELS >= 10 * sum(len(group.models) for group in starter.groups)


def test_a_twenty_first_group_is_refused_in_words(catalog):
    roster = north(catalog, rules.hgb.MAX_GROUPS)
    assert rules.hgb.size_refusal(roster) == ""
    with pytest.raises(rules.hgb.RulesError, match="already has 20 combat groups"):
        rules.hgb.add_group(roster, catalog, "north_general_purpose")


def test_an_eleventh_model_in_a_group_is_refused_but_a_seventh_is_kept(catalog):
    roster = north(catalog, 1)
    for _ in range(5):  # 5 + 5 = 10: over the rules' 6, kept and flagged
        roster = rules.hgb.add_model(roster, catalog, 0, "hunter")
    assert len(roster.groups[0].models) == 10
    assert any(p.code == "group_too_large" for p in rules.hgb.roster_problems(roster, catalog))
    with pytest.raises(rules.hgb.RulesError, match="already has 10 models"):
        rules.hgb.add_model(roster, catalog, 0, "hunter")


def test_the_hundred_and_first_model_is_refused(catalog):
    roster = north(catalog, 20)  # 20 groups of 5: 100 models
    roster = rules.hgb.remove_model(roster, 0, 0)
    roster = rules.hgb.add_model(roster, catalog, 1, "hunter")  # 100 again, group 2 has 6
    with pytest.raises(rules.hgb.RulesError, match="already has 100 models"):
        rules.hgb.add_model(roster, catalog, 1, "hunter")


@pytest.mark.parametrize(
    ("groups", "models", "sentence"),
    [
        (21, 1, "The roster has 21 combat groups; Blitz keeps at most 20"),
        (1, 11, "Combat Group 1 has 11 models; Blitz keeps at most 10"),
        (11, 10, "The roster has 110 models; Blitz keeps at most 100"),
    ],
)
def test_size_refusal_names_the_first_bound_broken(catalog, groups, models, sentence):
    roster = north(catalog, 1)
    group = replace(roster.groups[0], models=roster.groups[0].models[:1] * models)
    roster = replace(roster, groups=(group,) * groups)
    assert rules.hgb.size_refusal(roster).startswith(sentence)
    with pytest.raises(rules.hgb.RulesError):
        rules.hgb.check_roster_size(roster)
