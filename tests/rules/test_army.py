"""Army rules: cost, legality, changes, presets and model profiles."""

from __future__ import annotations

import json

import pytest

from rules.errors import RulesError
from rules.hgb.army import (
    CombatGroup,
    ModelEntry,
    Roster,
    add_group,
    add_model,
    available_bulk_options,
    available_group_upgrades,
    available_options,
    identical_models,
    model_profile,
    new_roster,
    preset_roster,
    remove_group,
    remove_model,
    rename,
    roster_cost,
    roster_from_dict,
    roster_is_legal,
    roster_problems,
    roster_to_dict,
    set_group_upgrade,
    set_option,
    set_option_for_identical,
    set_tv_limit,
)
from rules.hgb.catalog import Skills, load_catalog

CATALOG = load_catalog()

PR = "peace_river_starter"
NORTH = "north_starter"
SOUTH = "south_starter"
SOUTH_TR = "south_starter_translated"

# Model indexes in the presets' groups, in printed order.
PR_GP_WARRIORS = (0, 1, 2, 3)
PR_FS_WARRIORS, PR_FS_CRUSADERS, PR_FS_LEADER = (0, 1), (2, 3), 4
NORTH_GP_HUNTERS, NORTH_GP_LEADER = (0, 1, 2, 3), 4
NORTH_FS_HUNTERS, NORTH_FS_GRIZZLIES, NORTH_FS_LEADER = (0, 1), (2, 3), 4


def preset(preset_id: str) -> Roster:
    return preset_roster(CATALOG, preset_id)


def total(roster: Roster) -> int:
    return roster_cost(roster, CATALOG).total


def codes(roster: Roster) -> list[str]:
    return [problem.code for problem in roster_problems(roster, CATALOG)]


def messages(roster: Roster) -> list[str]:
    return [problem.message for problem in roster_problems(roster, CATALOG)]


def take(roster, group, model, option, chosen=True):
    return set_option(roster, CATALOG, group, model, option, chosen)


# --- Acceptance -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset_id", "tv"), [(PR, 610), (NORTH, 610), (SOUTH, 595), (SOUTH_TR, 610)]
)
def test_every_preset_costs_its_printed_tv_and_is_legal(preset_id, tv):
    roster = preset(preset_id)
    assert total(roster) == tv == CATALOG.presets[preset_id].tv
    assert roster_problems(roster, CATALOG) == ()
    assert roster_is_legal(roster, CATALOG)
    assert roster.tv_limit == 610
    assert roster.name == CATALOG.presets[preset_id].name


@pytest.mark.parametrize(
    ("preset_id", "group_totals"),
    [
        (PR, [245, 365]),  # 245; 335 + 30 leader upgrade
        (NORTH, [225, 385]),  # 205 + 20; 295 + 10 + 80 veterans
        (SOUTH, [305, 290]),
        (SOUTH_TR, [320, 290]),
    ],
)
def test_every_printed_squad_tv(preset_id, group_totals):
    cost = roster_cost(preset(preset_id), CATALOG)
    assert [group.total for group in cost.groups] == group_totals


def test_removing_peace_rivers_three_armored_jackets_gives_580():
    roster = preset(PR)
    for model in (0, 1, 2):
        roster = take(roster, 0, model, "pr_armored_jacket", False)
    assert total(roster) == 580
    assert roster_cost(roster, CATALOG).groups[0].total == 215


def test_swapping_both_crusaders_hac_for_mbzk_adds_20():
    roster = preset(PR)
    for model in PR_FS_CRUSADERS:
        roster = take(roster, 1, model, "pr_crusader_mbzk")
    assert total(roster) == 630
    assert codes(roster) == ["over_tv_limit"]
    assert messages(roster) == ["The army costs 630 TV, over its 610 TV limit."]


def test_the_north_without_its_veteran_squad_is_530():
    roster = set_group_upgrade(preset(NORTH), CATALOG, 1, "north_veteran_command", False)
    assert total(roster) == 530
    assert roster_problems(roster, CATALOG) == ()


def test_the_north_gp_squad_with_a_third_lac_swap_is_flagged():
    roster = take(preset(NORTH), 0, 2, "north_snub_cannon")
    assert "limit_too_many" in codes(roster)
    assert (
        "Only two models in the General Purpose Squad of Combat Group 1 may swap their LAC for "
        "an MAC, FGC or Snub Cannon; three do." in messages(roster)
    )


def test_the_north_preset_with_the_second_grizzly_mbzk_is_620():
    roster = take(preset(NORTH), 1, NORTH_FS_GRIZZLIES[1], "north_grizzly_mbzk")
    assert total(roster) == 620
    assert codes(roster) == ["over_tv_limit"]


# --- Cost breakdown -------------------------------------------------------------------------------


def test_the_breakdown_shows_where_every_point_goes():
    cost = roster_cost(preset(NORTH), CATALOG)
    gp, fs = cost.groups
    assert (gp.name, gp.base, gp.upgrades) == ("General Purpose Squad", 205, ())
    assert [m.total for m in gp.models] == [10, 10, 0, 0, 0]
    assert [o.tv for o in gp.models[0].options] == [10]
    assert gp.models[0].options[0].label == "Swap LAC for MAC, with Heavy Panzerfaust"
    assert all(m.in_squad_tv and m.tv == 0 for m in gp.models)
    assert (fs.base, [u.tv for u in fs.upgrades]) == (295, [80])
    assert cost.complete and cost.gaps == ()
    assert cost.total == sum(g.base + sum(u.tv for u in g.upgrades) for g in cost.groups) + sum(
        o.tv for g in cost.groups for m in g.models for o in m.options
    )


@pytest.mark.parametrize(
    ("preset_id", "group", "model", "option", "change"),
    [
        (PR, 0, 4, "pr_mac", 5),
        (PR, 0, 0, "pr_fgc", 5),  # replaces nothing: the jacket is no LAC swap
        (PR, 0, 4, "pr_rfb", 5),
        (PR, 0, 3, "pr_armored_jacket", 10),
        (PR, 1, 0, "pr_mac", 5),
        (PR, 1, 1, "pr_rfb", 5),
        (PR, 1, 2, "pr_crusader_mbzk", 10),
        (PR, 1, 0, "pr_armored_jacket", 10),
        (NORTH, 0, 2, "north_fgc", 10),
        (NORTH, 0, 3, "north_mac", 10),
        (NORTH, 0, 4, "north_snub_cannon", 10),
        (NORTH, 1, 3, "north_grizzly_mbzk", 10),
        (SOUTH, 0, 3, "south_mac", 0),  # a second MAC: free, but flagged
        (SOUTH, 0, 4, "south_paratroop_rifle", 0),
        (SOUTH, 1, 0, "south_cobra_mbzk", -5),
        (SOUTH, 1, 1, "south_cobra_vlfg", 0),
        (SOUTH, 1, 2, "south_cobra_vhac", 0),
    ],
)
def test_every_option_changes_the_tv_as_printed(preset_id, group, model, option, change):
    roster = preset(preset_id)
    assert total(take(roster, group, model, option)) - total(roster) == change


@pytest.mark.parametrize(
    ("preset_id", "group", "upgrade", "change"),
    [(PR, 1, "pr_leader_upgrade", -30), (NORTH, 1, "north_veteran_command", -80)],
)
def test_every_upgrade_changes_the_tv_as_printed(preset_id, group, upgrade, change):
    roster = preset(preset_id)
    dropped = set_group_upgrade(roster, CATALOG, group, upgrade, False)
    assert total(dropped) - total(roster) == change


def test_the_required_apm_swap_is_the_fire_support_cadres_printed_5_tv():
    roster = take(preset(SOUTH), 1, 3, "south_apm", False)
    assert total(roster) == 590
    assert messages(roster) == [
        "The Command Jäger in the Fire Support Cadre of Combat Group 2 must swap its APGL for an "
        "APM; none does."
    ]


# --- Limits just inside and just outside ----------------------------------------------------------


def with_options(roster, group, pairs):
    for model, option in pairs:
        roster = take(roster, group, model, option)
    return roster


LIMITS = [
    # The TV limit is raised to 1000 for these: only the option limits show.
    # PR GP: up to two FGC or RFB together.
    (PR, 0, [(0, "pr_fgc"), (1, "pr_rfb")], None),
    (PR, 0, [(0, "pr_fgc"), (1, "pr_rfb"), (4, "pr_fgc")], "limit_too_many"),
    # PR GP: any model may take the MAC.
    (PR, 0, [(m, "pr_mac") for m in range(5)], None),
    # PR FS: up to two RFB.
    (PR, 1, [(0, "pr_rfb"), (1, "pr_rfb")], None),
    # PR: at most three Armored Jackets in the army (a reading).
    (PR, 1, [(0, "pr_armored_jacket")], "army_limit_too_many"),
    # North GP: up to two LAC swaps.
    (NORTH, 0, [], None),
    (NORTH, 0, [(3, "north_fgc")], "limit_too_many"),
    # North FS: one Grizzly must swap, a second may.
    (NORTH, 1, [(3, "north_grizzly_mbzk")], None),
]


@pytest.mark.parametrize(("preset_id", "group", "pairs", "code"), LIMITS)
def test_option_limits(preset_id, group, pairs, code):
    roster = set_tv_limit(preset(preset_id), 1000)
    found = codes(with_options(roster, group, pairs))
    assert found == ([code] if code else [])


def test_the_pr_fire_support_rfb_limit():
    roster = preset(PR)
    roster = add_model(roster, CATALOG, 1, "warrior")
    roster = with_options(roster, 1, [(0, "pr_rfb"), (1, "pr_rfb")])
    assert "limit_too_many" not in codes(roster)
    roster = take(roster, 1, 5, "pr_rfb")
    assert (
        "Only two models in the Fire Support Squad of Combat Group 2 may take an RFB; three do."
        in messages(roster)
    )


def test_the_armored_jacket_limit_in_words():
    roster = take(preset(PR), 0, 3, "pr_armored_jacket")
    assert "Only three Warriors in the army may wear Armored Jackets; four do." in messages(roster)


def test_three_jackets_anywhere_are_fine():
    roster = take(preset(PR), 0, 0, "pr_armored_jacket", False)
    roster = take(roster, 1, 0, "pr_armored_jacket")
    assert roster_problems(roster, CATALOG) == ()
    assert total(roster) == 610


def test_two_fgc_or_rfb_in_the_gp_squad_is_fine_three_is_not():
    roster = with_options(preset(PR), 0, [(0, "pr_fgc"), (1, "pr_rfb")])
    assert "limit_too_many" not in codes(roster)
    roster = take(roster, 0, 2, "pr_fgc")
    assert (
        "Only two models in the General Purpose Squad of Combat Group 1 may take an FGC or RFB; "
        "three do." in messages(roster)
    )


def test_the_required_first_grizzly_swap():
    roster = take(preset(NORTH), 1, NORTH_FS_GRIZZLIES[0], "north_grizzly_mbzk", False)
    assert total(roster) == 600
    assert messages(roster) == [
        "One Grizzly in the Fire Support Squad of Combat Group 2 must swap its HAC for an MBZK; "
        "none does."
    ]


def test_a_third_grizzly_swap_is_flagged():
    roster = set_group_upgrade(preset(NORTH), CATALOG, 1, "north_veteran_command", False)
    roster = add_model(roster, CATALOG, 1, "grizzly")
    roster = with_options(roster, 1, [(3, "north_grizzly_mbzk"), (5, "north_grizzly_mbzk")])
    assert (
        "Only two Grizzlies in the Fire Support Squad of Combat Group 2 may swap their HAC for an "
        "MBZK; three do." in messages(roster)
    )


def test_one_veteran_command_squad_is_fine_two_are_not():
    roster = set_group_upgrade(preset(NORTH), CATALOG, 0, "north_veteran_command", True)
    assert "The army has two veteran command squads; only one may be." in messages(roster)
    roster = set_group_upgrade(roster, CATALOG, 1, "north_veteran_command", False)
    assert roster_problems(roster, CATALOG) == ()


@pytest.mark.parametrize("option", ["south_paratroop_rifle", "south_mac"])
@pytest.mark.parametrize("preset_id", [SOUTH, SOUTH_TR])
def test_exactly_one_paratroop_rifle_and_one_mac(preset_id, option):
    roster = preset(preset_id)
    holder = 0 if option == "south_paratroop_rifle" else 1
    none = take(roster, 0, holder, option, False)
    assert codes(none) == ["limit_too_few"]
    two = take(roster, 0, 2, option)
    assert codes(two) == ["limit_too_many"]


def test_the_paratroop_rifle_and_mac_sentences():
    roster = take(preset(SOUTH), 0, 0, "south_paratroop_rifle", False)
    assert messages(roster) == [
        "One model in the Veteran General Purpose Cadre of Combat Group 1 must carry the "
        "Paratroop Rifle; none does."
    ]


@pytest.mark.parametrize(("size", "flagged"), [(6, False), (7, True)])
def test_a_combat_group_holds_at_most_six(size, flagged):
    roster = preset(NORTH)
    for _ in range(size - 5):
        roster = add_model(roster, CATALOG, 1, "hunter")
    assert ("group_too_large" in codes(roster)) is flagged
    if flagged:
        assert "Combat Group 2 has 7 models; a combat group holds at most 6." in messages(roster)


@pytest.mark.parametrize(("limit", "flagged"), [(610, False), (609, True)])
def test_the_tv_limit(limit, flagged):
    roster = set_tv_limit(preset(PR), limit)
    assert (codes(roster) == ["over_tv_limit"]) is flagged


# --- Composition ----------------------------------------------------------------------------------


def test_an_extra_model_without_a_tv_makes_the_cost_incomplete():
    roster = add_model(preset(NORTH), CATALOG, 1, "grizzly")
    cost = roster_cost(roster, CATALOG)
    assert not cost.complete
    assert cost.total == 610
    extra = cost.groups[1].models[5]
    assert (extra.in_squad_tv, extra.tv_known, extra.tv) == (False, False, 0)
    assert cost.gaps == (
        "The texts do not give the TV of a Grizzly, so model 6 of Combat Group 2, beyond the "
        "Fire Support Squad's printed composition, is not counted.",
    )
    assert codes(roster) == ["extra_models", "tv_not_given"]
    gap = roster_problems(roster, CATALOG)[1]
    assert (gap.group, gap.model) == (1, 5)
    assert messages(roster)[0] == "Combat Group 2 has 3 Grizzlies; the Fire Support Squad has 2."


def test_an_extra_model_with_a_host_tv_is_costed(tmp_path):
    (tmp_path / "tv.toml").write_text('data_version = "h"\n[[models]]\nid = "grizzly"\ntv = 70\n')
    catalog = load_catalog([tmp_path])
    roster = add_model(preset_roster(catalog, NORTH), catalog, 1, "grizzly")
    cost = roster_cost(roster, catalog)
    assert cost.complete
    assert cost.total == 680
    assert [p.code for p in roster_problems(roster, catalog)] == ["extra_models", "over_tv_limit"]


def test_a_missing_model_is_flagged_and_the_squad_tv_still_paid():
    roster = remove_model(preset(NORTH), 1, NORTH_FS_LEADER)
    assert total(roster) == 610
    assert messages(roster) == ["Combat Group 2 has no Jaguar; the Fire Support Squad has 1."]
    roster = remove_model(roster, 0, 0)
    assert "Combat Group 1 has 3 Hunters; the General Purpose Squad has 4." in messages(roster)


def test_a_model_from_outside_the_squad_is_flagged():
    roster = remove_model(preset(NORTH), 0, 3)
    roster = add_model(roster, CATALOG, 0, "grizzly")
    assert messages(roster) == [
        "Combat Group 1 has 3 Hunters; the General Purpose Squad has 4.",
        "Combat Group 1 has a Grizzly (model 5), which the General Purpose Squad does not include.",
        "The texts do not give the TV of a Grizzly, so model 5 of Combat Group 1, beyond the "
        "General Purpose Squad's printed composition, is not counted.",
    ]


def test_a_group_of_another_faction_is_flagged():
    data = roster_to_dict(preset(PR))
    data["groups"].append(roster_to_dict(preset(NORTH))["groups"][0])
    roster = roster_from_dict(data, CATALOG)
    assert (
        "Combat Group 3 is a Northern Guard squad (General Purpose Squad); this is a Peace River "
        "army." in messages(roster)
    )


# --- Changes --------------------------------------------------------------------------------------


def test_a_crusader_iv_cannot_swap_an_lac_it_does_not_carry():
    with pytest.raises(RulesError, match=r"^A Crusader IV cannot swap an LAC it does not carry\.$"):
        take(preset(PR), 1, PR_FS_CRUSADERS[0], "pr_mac")


def test_a_stored_impossible_option_is_a_problem_not_a_crash():
    data = roster_to_dict(preset(PR))
    data["groups"][1]["models"][2]["options"].append({"id": "pr_mac", "name": "MAC"})
    roster = roster_from_dict(data, CATALOG)
    assert messages(roster) == [
        "A Crusader IV cannot swap an LAC it does not carry (Combat Group 2, model 3).",
        "The army costs 615 TV, over its 610 TV limit.",
    ]


@pytest.mark.parametrize(
    ("preset_id", "group", "model", "option", "message"),
    [
        (
            PR,
            1,
            0,
            "pr_fgc",
            '"Swap LAC for FGC (Hand Grenades become Heavy Hand Grenades)" is not',
        ),
        (PR, 0, 0, "north_mac", "is not an option of the General Purpose Squad"),
        (PR, 0, 0, "no_such_option", "The General Purpose Squad has no option 'no_such_option'."),
        (SOUTH, 0, 3, "south_paratroop_rifle", "A Stripped-Down Jäger cannot take"),
        (NORTH, 1, 0, "north_grizzly_mbzk", 'A Hunter cannot take "Swap HAC for MBZK".'),
        (PR, 1, PR_FS_LEADER, "pr_mac", "A Warrior IV cannot swap an LAC it does not carry."),
        (PR, 2, 0, "pr_mac", "There is no Combat Group 3; there are 2."),
        (PR, 0, 5, "pr_mac", "There is no model 6 in Combat Group 1; it has 5."),
        (PR, -1, 0, "pr_mac", "There is no Combat Group 0"),
    ],
)
def test_options_that_cannot_be_taken_at_all_raise(preset_id, group, model, option, message):
    with pytest.raises(RulesError) as caught:
        take(preset(preset_id), group, model, option)
    assert message in str(caught.value)


def test_choosing_one_lac_swap_replaces_another():
    roster = take(preset(PR), 0, 0, "pr_mac")
    roster = take(roster, 0, 0, "pr_fgc")
    assert roster.groups[0].models[0].options == ("pr_armored_jacket", "pr_fgc")
    assert total(roster) == 615


def test_choosing_one_cobra_swap_replaces_another():
    roster = take(preset(SOUTH), 1, 0, "south_cobra_vlfg")
    roster = take(roster, 1, 0, "south_cobra_vhac")
    assert roster.groups[1].models[0].options == ("south_cobra_vhac",)


def test_taking_an_option_twice_changes_nothing():
    roster = preset(NORTH)
    assert take(roster, 0, 0, "north_mac") == roster
    assert take(roster, 0, 2, "north_mac", False) == roster


def test_dropping_a_stale_option_works():
    data = roster_to_dict(preset(NORTH))
    data["groups"][0]["models"][0]["options"] = [{"id": "gone", "name": "Old swap"}]
    roster = roster_from_dict(data, CATALOG)
    roster = take(roster, 0, 0, "gone", False)
    assert roster.groups[0].models[0].options == ()


@pytest.mark.parametrize(
    ("squad_id", "tv", "options"),
    [
        ("north_fire_support", 305, [[], [], ["north_grizzly_mbzk"], [], []]),
        ("north_general_purpose", 205, [[]] * 5),
        ("pr_general_purpose", 215, [[]] * 5),
        ("pr_fire_support", 335, [[]] * 5),
    ],
)
def test_add_group_gives_the_printed_composition_with_required_options(squad_id, tv, options):
    faction = CATALOG.squads[squad_id].faction
    roster = add_group(new_roster(CATALOG, faction), CATALOG, squad_id)
    group = roster.groups[0]
    assert [list(entry.options) for entry in group.models] == options
    assert [entry.model for entry in group.models] == list(CATALOG.squads[squad_id].composition)
    assert total(roster) == tv
    assert roster_problems(roster, CATALOG) == ()


def test_add_group_of_the_south_gives_the_required_swaps():
    roster = new_roster(CATALOG, "south")
    roster = add_group(roster, CATALOG, "south_veteran_gp_cadre")
    roster = add_group(roster, CATALOG, "south_fire_support_cadre")
    assert roster.groups == preset(SOUTH).groups
    assert total(roster) == 595


def test_add_group_refuses_another_factions_squad():
    with pytest.raises(RulesError, match="Northern Guard squad; this is a Peace River army"):
        add_group(new_roster(CATALOG, "peace_river"), CATALOG, "north_general_purpose")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda r: add_group(r, CATALOG, "nope"), "There is no squad 'nope' in the game data."),
        (lambda r: add_model(r, CATALOG, 0, "nope"), "There is no model 'nope' in the game data."),
        (lambda r: remove_group(r, 2), "There is no Combat Group 3; there are 2."),
        (lambda r: remove_model(r, 0, 9), "There is no model 10 in Combat Group 1; it has 5."),
        (
            lambda r: set_group_upgrade(r, CATALOG, 0, "pr_leader_upgrade", True),
            'The General Purpose Squad has no upgrade "Leader Upgrade: Warrior IV".',
        ),
        (lambda r: set_tv_limit(r, 0), "A TV limit is a whole number from 1 to 10000; got 0."),
        (lambda r: set_tv_limit(r, 10001), "from 1 to 10000"),
        (lambda r: set_tv_limit(r, "610"), "A TV limit is a whole number; got '610'."),
        (lambda r: set_tv_limit(r, True), "whole number"),
        (lambda r: rename(r, 5), "An army's name is text"),
        (lambda r: rename(r, "x" * 201), "at most 200 characters"),
        (lambda r: new_roster(CATALOG, "atlantis"), "There is no faction 'atlantis'"),
        (lambda r: preset_roster(CATALOG, "nope"), "There is no starter force 'nope'"),
    ],
)
def test_impossible_changes_raise_with_a_sentence(call, message):
    with pytest.raises(RulesError) as caught:
        call(preset(PR))
    assert message in str(caught.value)


def test_rename_and_tv_limit():
    roster = rename(set_tv_limit(preset(PR), 1000), "  Paxton Home Guard ")
    assert (roster.name, roster.tv_limit) == ("Paxton Home Guard", 1000)


def test_new_roster_uses_the_factions_limit():
    roster = new_roster(CATALOG, "south", "Cadre")
    assert (roster.tv_limit, roster.groups, roster.name) == (610, (), "Cadre")
    assert roster.data_fingerprint == CATALOG.fingerprint
    assert roster_cost(roster, CATALOG).total == 0


# --- What the builder offers ----------------------------------------------------------------------


def test_available_options_for_a_warrior():
    offered = available_options(preset(PR), CATALOG, 0, 0)
    assert [(o.id, o.tv, o.chosen) for o in offered] == [
        ("pr_mac", 5, False),
        ("pr_fgc", 5, False),
        ("pr_rfb", 5, False),
        ("pr_armored_jacket", 10, True),
    ]
    # Every one would put the army over its 610 TV limit.
    assert all(o.would_break_limit for o in offered if not o.chosen)
    assert offered[0].breaks == ("The army costs 615 TV, over its 610 TV limit.",)


def test_available_options_show_replacements_and_broken_limits():
    roster = set_tv_limit(preset(PR), 1000)
    roster = with_options(roster, 0, [(0, "pr_fgc"), (1, "pr_rfb")])
    offered = {o.id: o for o in available_options(roster, CATALOG, 0, 2)}
    assert not offered["pr_mac"].would_break_limit
    assert offered["pr_fgc"].breaks == (
        "Only two models in the General Purpose Squad of Combat Group 1 may take an FGC or RFB; "
        "three do.",
    )
    on_first = {o.id: o for o in available_options(roster, CATALOG, 0, 0)}
    assert on_first["pr_fgc"].chosen
    assert on_first["pr_mac"].replaces == ("pr_fgc",)
    assert not on_first["pr_rfb"].would_break_limit  # it replaces the FGC: still two


def test_available_options_leave_out_what_the_model_cannot_take():
    assert [o.id for o in available_options(preset(PR), CATALOG, 1, 2)] == ["pr_crusader_mbzk"]
    assert available_options(preset(PR), CATALOG, 1, PR_FS_LEADER) == ()
    south = [o.id for o in available_options(preset(SOUTH), CATALOG, 0, 3)]
    assert south == ["south_mac"]


def test_available_options_of_a_cobra_mark_the_unprinted_tv():
    offered = {o.id: o for o in available_options(preset(SOUTH), CATALOG, 1, 0)}
    assert offered["south_cobra_mbzk"].tv == -5 and offered["south_cobra_mbzk"].tv_printed
    assert offered["south_cobra_vlfg"].tv == 0 and not offered["south_cobra_vlfg"].tv_printed
    assert "no TV change" in offered["south_cobra_vhac"].tv_note


def test_available_group_upgrades():
    roster = preset(NORTH)
    (gp_veterans,) = available_group_upgrades(roster, CATALOG, 0)
    assert (gp_veterans.id, gp_veterans.tv, gp_veterans.chosen) == (
        "north_veteran_command",
        80,
        False,
    )
    assert "The army has two veteran command squads; only one may be." in gp_veterans.breaks
    (fs_veterans,) = available_group_upgrades(roster, CATALOG, 1)
    assert fs_veterans.chosen and not fs_veterans.would_break_limit
    assert available_group_upgrades(preset(SOUTH), CATALOG, 0) == ()


# --- Model profiles -------------------------------------------------------------------------------


def weapons(profile):
    return [(w.code, w.mount.arc, w.mount.reloads, w.mount.limited_ammo) for w in profile.weapons]


def test_a_jacketed_warrior_has_an_extra_sturdy_box():
    profile = model_profile(preset(PR), CATALOG, 0, 0)
    assert profile.damage_track == ("sturdy", "sturdy", "light", "heavy", "critical")
    assert profile.name == "Warrior"
    assert profile.skills == Skills(att=2, defense=2, ew=1, ld=0)
    assert model_profile(preset(PR), CATALOG, 0, 3).damage_track == (
        "sturdy",
        "light",
        "heavy",
        "critical",
    )


def test_an_fgc_turns_hand_grenades_into_heavy_hand_grenades():
    roster = take(preset(PR), 0, 3, "pr_fgc")
    assert weapons(model_profile(roster, CATALOG, 0, 3)) == [
        ("FGC", "F", True, None),
        ("HHG", None, None, None),
    ]


def test_the_snub_cannon_removes_the_light_rocket_pack_and_adds_a_heavy_panzerfaust():
    roster = take(preset(NORTH), 0, 0, "north_snub_cannon")
    profile = model_profile(roster, CATALOG, 0, 0)
    assert weapons(profile) == [("SC", "F", None, 3), ("HPZF", "F", None, 2)]
    assert profile.armor == 15


def test_the_north_veterans_skills():
    roster = preset(NORTH)
    hunter = model_profile(roster, CATALOG, 1, 0)
    jaguar = model_profile(roster, CATALOG, 1, NORTH_FS_LEADER)
    assert hunter.skills == Skills(att=3, defense=3, ew=1, ld=0)
    assert jaguar.skills == Skills(att=3, defense=4, ew=1, ld=3)
    assert jaguar.leader and not hunter.leader
    assert jaguar.armor is None
    gp_hunter = model_profile(roster, CATALOG, 0, 0)
    assert gp_hunter.skills == Skills(att=2, defense=2, ew=1, ld=0)
    assert weapons(gp_hunter) == [
        ("MAC", "F", True, None),
        ("HPZF", "F", None, 2),
        ("LRP", None, None, None),
    ]


def test_the_leader_upgrade_makes_the_warrior_iv():
    roster = preset(PR)
    leader = model_profile(roster, CATALOG, 1, PR_FS_LEADER)
    assert (leader.name, leader.model) == ("Warrior IV", "warrior_iv")
    assert leader.skills == Skills(att=2, defense=3, ew=3, ld=3)
    assert leader.weapons == ()
    plain = set_group_upgrade(roster, CATALOG, 1, "pr_leader_upgrade", False)
    chieftain = model_profile(plain, CATALOG, 1, PR_FS_LEADER)
    assert chieftain.name == "Warrior Chieftain"
    assert chieftain.skills == Skills(att=2, defense=2, ew=1, ld=None)  # the default skills
    assert [w.code for w in chieftain.weapons] == ["LAC", "HG"]


@pytest.mark.parametrize(
    ("option", "expected"),
    [
        ("south_cobra_mbzk", [("MBZK", "F", False, None), ("HRP", None, None, None)]),
        ("south_cobra_vlfg", [("HAC", None, None, None), ("VLFG", "Ff", False, None)]),
        ("south_cobra_vhac", [("VHAC", "F", False, None), ("LGM", None, None, None)]),
    ],
)
def test_cobra_swaps(option, expected):
    roster = take(preset(SOUTH), 1, 0, option)
    profile = model_profile(roster, CATALOG, 1, 0)
    assert weapons(profile)[:2] == expected
    assert len(profile.weapons) == 3


def test_the_south_presets_weapons():
    roster = preset(SOUTH)
    rifle = model_profile(roster, CATALOG, 0, 0)
    assert rifle.weapons[0].name == "Paratroop Rifle"
    assert rifle.weapons[0].mount.ammo_text == "Reloads, reloads on the LAC only"
    assert rifle.skills == Skills(att=3, defense=3, ew=1, ld=0)
    commander = model_profile(roster, CATALOG, 0, 4)
    assert commander.skills == Skills(att=4, defense=4, ew=2, ld=3)
    cadre_leader = model_profile(roster, CATALOG, 1, 3)
    assert weapons(cadre_leader) == [("LAC", None, None, None), ("APM", "F", False, None)]


def test_weapon_figures_are_given_or_none():
    warrior = model_profile(preset(PR), CATALOG, 0, 3)
    lac = warrior.weapons[0]
    assert (lac.code, lac.name, lac.dm, lac.accuracy, lac.rof) == (
        "LAC",
        "Light Autocannon",
        8,
        None,
        None,
    )
    assert not lac.ranges.provided
    assert warrior.loadout_complete is False


# --- Stored form ----------------------------------------------------------------------------------


@pytest.mark.parametrize("preset_id", [PR, NORTH, SOUTH, SOUTH_TR])
def test_round_trip_through_json(preset_id):
    roster = preset(preset_id)
    data = json.loads(json.dumps(roster_to_dict(roster)))
    again = roster_from_dict(data, CATALOG)
    assert again == roster
    assert roster_to_dict(again) == roster_to_dict(roster)
    assert data["data"] == {"version": "1", "fingerprint": CATALOG.fingerprint}


def test_the_stored_form_has_names():
    data = roster_to_dict(preset(NORTH))
    group = data["groups"][0]
    assert group["name"] == "General Purpose Squad"
    assert group["models"][0] == {
        "model": "hunter",
        "name": "Hunter",
        "options": [{"id": "north_mac", "name": "Swap LAC for MAC, with Heavy Panzerfaust"}],
    }
    assert data["groups"][1]["upgrades"] == [
        {"id": "north_veteran_command", "name": "Veteran command squad"}
    ]


def test_a_roster_with_ids_the_data_dropped_still_loads():
    data = roster_to_dict(preset(NORTH))
    data["groups"][0]["models"][1]["model"] = "old_hunter"
    data["groups"][0]["models"][1]["name"] = "Old Hunter"
    data["groups"][0]["models"][0]["options"][0]["id"] = "old_swap"
    data["groups"][1]["upgrades"][0]["id"] = "old_veterans"
    data["groups"].append({"squad": "old_squad", "name": "Old Squad", "models": []})
    roster = roster_from_dict(data, CATALOG)
    assert roster.groups[0].models[1].model_name == "Old Hunter"
    found = messages(roster)
    assert (
        "Model 2 of Combat Group 1, Old Hunter, is not in the current data; shown as stored."
        in (found)
    )
    assert (
        "The option Swap LAC for MAC, with Heavy Panzerfaust of model 1 of Combat Group 1 is not "
        "in the current data; shown as stored." in found
    )
    assert (
        "The upgrade Veteran command squad of Combat Group 2 is not in the current data; "
        "shown as stored." in found
    )
    assert "Combat Group 3's squad, Old Squad, is not in the current data; shown as stored." in (
        found
    )
    cost = roster_cost(roster, CATALOG)
    assert not cost.complete
    assert cost.total == 205 + 10 + 295 + 10
    assert model_profile(roster, CATALOG, 0, 1).name == "Old Hunter"
    assert not model_profile(roster, CATALOG, 0, 1).known
    assert roster_to_dict(roster)["groups"][0]["models"][1]["name"] == "Old Hunter"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "the roster must be an object"),
        ({"faction": 3, "tv_limit": 610}, "the faction must be text"),
        ({"faction": "atlantis", "tv_limit": 610}, "faction 'atlantis' is not in the current data"),
        ({"faction": "north", "tv_limit": 0}, "A TV limit is a whole number from 1 to 10000"),
        ({"faction": "north"}, "A TV limit is a whole number; got None."),
        ({"faction": "north", "tv_limit": 610, "groups": {}}, "'groups' must be a list"),
        ({"faction": "north", "tv_limit": 610, "groups": [3]}, "Combat Group 1 must be an object"),
        (
            {"faction": "north", "tv_limit": 610, "groups": [{"models": []}]},
            "Combat Group 1's squad must be text",
        ),
        (
            {"faction": "north", "tv_limit": 610, "groups": [{"squad": "x", "models": [{}]}]},
            "the model id of model 1 of Combat Group 1 must be text",
        ),
        (
            {
                "faction": "north",
                "tv_limit": 610,
                "groups": [{"squad": "x", "models": [{"model": "hunter", "options": [5]}]}],
            },
            "option 1 of model 1 of Combat Group 1 must be an id",
        ),
        ({"format": 2, "faction": "north", "tv_limit": 610}, "format 2"),
        ({"faction": "north", "tv_limit": 610, "name": 4}, "An army's name is text"),
    ],
)
def test_malformed_stored_rosters_raise_with_a_sentence(data, message):
    with pytest.raises(RulesError) as caught:
        roster_from_dict(data, CATALOG)
    assert message in str(caught.value)


def test_plain_value_types():
    entry = ModelEntry("hunter", ("north_mac",))
    assert entry == ModelEntry("hunter", ("north_mac",), model_name="Hunter")
    group = CombatGroup("north_general_purpose", (entry,))
    roster = Roster("north", 610, (group,))
    with pytest.raises(AttributeError):
        roster.name = "x"  # type: ignore[misc]


# --- Identical models: one swap for all of them ---------------------------------------------------


def test_identical_models_are_the_same_model_with_the_same_choices():
    roster = preset(NORTH)
    assert identical_models(roster, CATALOG, 0, 0) == (0, 1)  # two Hunters with the MAC
    assert identical_models(roster, CATALOG, 0, 3) == (2, 3)  # two Hunters with their LAC
    assert identical_models(roster, CATALOG, 0, NORTH_GP_LEADER) == (NORTH_GP_LEADER,)
    assert identical_models(roster, CATALOG, 1, 2) == (2,)  # the Grizzlies differ (one MBZK)


def test_a_swap_for_both_identical_hunters_is_one_change():
    roster = preset(NORTH)
    swapped = set_option_for_identical(roster, CATALOG, 0, 1, "north_fgc", True)
    assert [e.options for e in swapped.groups[0].models[:3]] == [("north_fgc",), ("north_fgc",), ()]
    assert total(swapped) == 610
    dropped = set_option_for_identical(swapped, CATALOG, 0, 0, "north_fgc", False)
    assert [e.options for e in dropped.groups[0].models[:2]] == [(), ()]
    assert total(dropped) == 590


def test_a_swap_that_would_break_a_count_limit_for_all_is_refused_and_not_offered():
    roster = preset(NORTH)
    with pytest.raises(RulesError) as refused:
        set_option_for_identical(roster, CATALOG, 0, 2, "north_mac", True)
    assert str(refused.value) == (
        'The two Hunters (models 3 and 4) of Combat Group 1 cannot both take "Swap LAC for MAC, '
        'with Heavy Panzerfaust": Only two models in the General Purpose Squad of Combat Group 1 '
        "may swap their LAC for an MAC, FGC or Snub Cannon; four do."
    )
    assert available_bulk_options(roster, CATALOG, 0, 2) == ()


def test_bulk_offers_name_the_models_and_warn_of_the_tv_limit_only():
    roster = preset(NORTH)
    offered = {o.id: o for o in available_bulk_options(roster, CATALOG, 0, 0)}
    assert set(offered) == {"north_mac", "north_fgc", "north_snub_cannon"}
    assert offered["north_mac"].chosen and offered["north_mac"].count == 2
    assert offered["north_fgc"].name == "Hunters" and offered["north_fgc"].models == (0, 1)
    assert offered["north_fgc"].breaks == ()
    assert available_bulk_options(roster, CATALOG, 0, NORTH_GP_LEADER) == ()
    plain = take(roster, 1, 2, "north_grizzly_mbzk", False)  # both Grizzlies keep their HAC
    both = {o.id: o for o in available_bulk_options(plain, CATALOG, 1, 3)}
    assert both["north_grizzly_mbzk"].models == NORTH_FS_GRIZZLIES
    assert both["north_grizzly_mbzk"].breaks == ("The army costs 620 TV, over its 610 TV limit.",)
