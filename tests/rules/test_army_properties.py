"""Laws of the army rules, checked on random rosters."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.hgb.army import (
    Roster,
    add_group,
    add_model,
    available_options,
    model_profile,
    new_roster,
    preset_roster,
    remove_group,
    remove_model,
    roster_cost,
    roster_from_dict,
    roster_problems,
    roster_to_dict,
    set_group_upgrade,
    set_option,
)
from rules.hgb.bounds import MAX_GROUP_MODELS, MAX_GROUPS, MAX_MODELS
from rules.hgb.catalog import load_catalog
from tests.examples import examples

CATALOG = load_catalog()
FACTIONS = sorted(CATALOG.factions)
MODELS = sorted(CATALOG.models)


@st.composite
def rosters(draw) -> Roster:
    """A roster built by random changes: legal or not, as a player might leave it."""
    if draw(st.booleans()):
        roster = new_roster(CATALOG, draw(st.sampled_from(FACTIONS)))
    else:
        roster = preset_roster(CATALOG, draw(st.sampled_from(sorted(CATALOG.presets))))
    squads = [squad.id for squad in CATALOG.squads_of(roster.faction)]
    for _ in range(draw(st.integers(0, 10))):
        action = draw(st.sampled_from(["group", "model", "option", "option", "upgrade", "drop"]))
        if action == "group" or not roster.groups:
            try:
                roster = add_group(roster, CATALOG, draw(st.sampled_from(squads)))
            except RulesError:
                pass  # at the size bound
            continue
        g = draw(st.integers(0, len(roster.groups) - 1))
        group = roster.groups[g]
        squad = CATALOG.squads[group.squad]
        if action == "model" or not group.models:
            try:
                roster = add_model(roster, CATALOG, g, draw(st.sampled_from(MODELS)))
            except RulesError:
                pass  # at the size bound
        elif action == "option" and squad.options:
            m = draw(st.integers(0, len(group.models) - 1))
            option = draw(st.sampled_from(squad.options))
            try:
                roster = set_option(roster, CATALOG, g, m, option, draw(st.booleans()))
            except RulesError:
                pass  # the model cannot take it at all
        elif action == "upgrade" and squad.upgrades:
            upgrade = draw(st.sampled_from(squad.upgrades))
            roster = set_group_upgrade(roster, CATALOG, g, upgrade, draw(st.booleans()))
        elif action == "drop":
            roster = remove_model(roster, g, draw(st.integers(0, len(group.models) - 1)))
    return roster


@given(rosters())
def test_the_total_is_the_sum_of_the_breakdown(roster):
    cost = roster_cost(roster, CATALOG)
    assert cost.total == sum(group.total for group in cost.groups)
    for group in cost.groups:
        assert group.total == group.base + sum(u.tv for u in group.upgrades) + sum(
            m.total for m in group.models
        )
        for model in group.models:
            assert model.total == model.tv + sum(o.tv for o in model.options)
    assert cost.complete == (not cost.gaps)


@given(rosters())
def test_the_stored_form_round_trips_through_json(roster):
    data = json.loads(json.dumps(roster_to_dict(roster)))
    again = roster_from_dict(data, CATALOG)
    assert again == roster
    assert roster_to_dict(again) == roster_to_dict(roster)


@given(rosters(), st.data())
def test_adding_then_removing_a_group_restores_the_roster(roster, data):
    squad = data.draw(st.sampled_from([s.id for s in CATALOG.squads_of(roster.faction)]))
    try:
        added = add_group(roster, CATALOG, squad)
    except RulesError:  # the size bound
        assert len(roster.groups) >= MAX_GROUPS
        return
    assert remove_group(added, len(added.groups) - 1) == roster


@given(rosters(), st.data())
def test_adding_then_removing_a_model_restores_the_roster(roster, data):
    if not roster.groups:
        return
    g = data.draw(st.integers(0, len(roster.groups) - 1))
    try:
        added = add_model(roster, CATALOG, g, data.draw(st.sampled_from(MODELS)))
    except RulesError:  # the size bound: a full group or a full roster
        models = sum(len(group.models) for group in roster.groups)
        assert len(roster.groups[g].models) >= MAX_GROUP_MODELS or models >= MAX_MODELS
        return
    assert remove_model(added, g, len(added.groups[g].models) - 1) == roster


@given(rosters(), st.data())
def test_taking_then_dropping_an_option_restores_the_roster(roster, data):
    places = [(g, m) for g, group in enumerate(roster.groups) for m in range(len(group.models))]
    if not places:
        return
    g, m = data.draw(st.sampled_from(places))
    offered = [
        o for o in available_options(roster, CATALOG, g, m) if not o.chosen and not o.replaces
    ]
    if not offered:
        return
    option = data.draw(st.sampled_from(offered))
    taken = set_option(roster, CATALOG, g, m, option.id, True)
    assert roster_cost(taken, CATALOG).total == roster_cost(roster, CATALOG).total + option.tv
    assert set_option(taken, CATALOG, g, m, option.id, False) == roster


@given(rosters(), st.data())
def test_taking_then_dropping_an_upgrade_restores_the_roster(roster, data):
    choices = [
        (g, upgrade)
        for g, group in enumerate(roster.groups)
        for upgrade in CATALOG.squads[group.squad].upgrades
        if upgrade not in group.upgrades
    ]
    if not choices:
        return
    g, upgrade = data.draw(st.sampled_from(choices))
    taken = set_group_upgrade(roster, CATALOG, g, upgrade, True)
    assert set_group_upgrade(taken, CATALOG, g, upgrade, False) == roster


def _forget_some_ids(data: dict, chooser) -> dict:
    for group in data["groups"]:
        if chooser():
            group["squad"] = "gone_squad"
        for upgrade in group["upgrades"]:
            if chooser():
                upgrade["id"] = "gone_upgrade"
        for model in group["models"]:
            if chooser():
                model["model"] = "gone_model"
            for option in model["options"]:
                if chooser():
                    option["id"] = "gone_option"
    return data


@settings(max_examples=examples(60))
@given(rosters(), st.data())
def test_a_roster_whose_ids_the_data_dropped_loads_and_reports_them(roster, data):
    stored = _forget_some_ids(roster_to_dict(roster), lambda: data.draw(st.booleans()))
    loaded = roster_from_dict(stored, CATALOG)
    problems = roster_problems(loaded, CATALOG)
    codes = {problem.code for problem in problems}
    text = json.dumps(stored)
    for gone, code in [
        ("gone_squad", "unknown_squad"),
        ("gone_model", "unknown_model"),
        ("gone_option", "unknown_option"),
        ("gone_upgrade", "unknown_upgrade"),
    ]:
        assert (gone in text) == (code in codes)
    cost = roster_cost(loaded, CATALOG)
    if "gone_" in text:
        assert not cost.complete
    for g, group in enumerate(loaded.groups):
        for m in range(len(group.models)):
            assert model_profile(loaded, CATALOG, g, m).name
            available_options(loaded, CATALOG, g, m)
    assert roster_to_dict(roster_from_dict(roster_to_dict(loaded), CATALOG)) == roster_to_dict(
        loaded
    )


@given(rosters())
def test_every_problem_is_a_sentence_with_valid_indexes(roster):
    for problem in roster_problems(roster, CATALOG):
        assert problem.message[0].isupper() and problem.message.endswith(".")
        if problem.group is not None:
            assert 0 <= problem.group < len(roster.groups)
            if problem.model is not None:
                assert 0 <= problem.model < len(roster.groups[problem.group].models)
