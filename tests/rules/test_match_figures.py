"""A match records each model's datacard figures when it starts, and an attack reads them there:
what the helper asks for, the weapons it offers, and what it says before an attack is applied."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.errors import RulesError
from rules.hgb.army import preset_roster, roster_to_dict
from rules.hgb.catalog import default_catalog, load_catalog
from rules.hgb.match import (
    MatchWeapon,
    ModelFigures,
    MovementFigures,
    Speed,
    ammo_counter,
    apply_event,
    apply_parts,
    attack_notes,
    before_attack_warnings,
    changed_parts,
    designation_problems,
    ecm_problems,
    ecm_warnings,
    figures_to_type,
    make_event,
    movement_modifier,
    new_match,
    offered_weapons,
    state_from_dict,
    state_to_dict,
    target_problems,
)
from rules.hgb.match.state import with_unit
from rules.hgb.match_build import side_from_roster
from tests.rules.test_match import small_match

HOST = """data_version = "h"
[[models]]
id = "hunter"
size = 6
sensors = 1
movement = [{ mode = "walker", speed = "combat", attack_modifier = 0, defense_modifier = -1 }]

[[weapons]]
id = "HG"
dm = 5
"""


def starter_match(catalog, north="north_starter", south="peace_river_starter"):
    sides = [
        side_from_roster(roster_to_dict(preset_roster(catalog, preset)), catalog)
        for preset in (north, south)
    ]
    return new_match(*sides)


@pytest.fixture
def host_catalog(tmp_path):
    (tmp_path / "host.toml").write_text(HOST, encoding="utf-8")
    return load_catalog([tmp_path])


def test_a_match_records_size_sensors_movement_perks_and_the_hand_grenade(host_catalog):
    state = starter_match(host_catalog)
    hunter = next(unit for unit in state.units if unit.model == "hunter")
    assert hunter.figures == ModelFigures(
        size=6, sensors=1, movement=(MovementFigures("walker", "combat", 0, -1),)
    )
    warrior = next(unit for unit in state.units if unit.model == "warrior")
    assert warrior.figures.size is None and warrior.figures.perks == ("ecm",)
    assert state.sides[0].grenade == MatchWeapon(
        "HG", "Hand Grenade", dm=5, notes=host_catalog.weapons["HG"].notes
    )


def test_recorded_figures_survive_plain_data_and_never_count_as_a_change(host_catalog):
    state = starter_match(host_catalog)
    data = state_to_dict(state)
    hunter = next(u for u in data["sides"][0]["groups"][0]["units"] if u["model"] == "hunter")
    assert hunter["figures"] == {"size": 6, "sensors": 1, "movement": [["walker", "combat", 0, -1]]}
    assert data["sides"][0]["grenade"]["dm"] == 5
    assert state_from_dict(data) == state
    after = apply_event(state, make_event("mark_box", unit="a-1-1"))
    assert "figures" not in changed_parts(state, after)[1]["a-1-1"]
    with pytest.raises(RulesError, match="never changes"):
        apply_parts(state, {"a-1-1": {"figures": {}}})


def test_a_state_stored_before_figures_were_recorded_still_loads():
    data = state_to_dict(starter_match(default_catalog()))
    for side in data["sides"]:
        del side["grenade"]
        for group in side["groups"]:
            for unit in group["units"]:
                del unit["figures"]
    old = state_from_dict(data)
    assert old.unit("a-1-1").figures is None and old.sides[0].grenade is None
    assert "figures" not in state_to_dict(old)["sides"][0]["groups"][0]["units"][0]
    assert "grenade" not in state_to_dict(old)["sides"][0]


def test_a_change_to_the_data_after_the_start_changes_nothing_in_the_match(tmp_path):
    (tmp_path / "host.toml").write_text(HOST, encoding="utf-8")
    started = starter_match(load_catalog([tmp_path]))
    (tmp_path / "host.toml").write_text(HOST.replace("size = 6", "size = 4"), encoding="utf-8")
    later = starter_match(load_catalog([tmp_path]))
    hunter = next(unit for unit in started.units if unit.model == "hunter")
    assert hunter.figures.size == 6
    assert next(unit for unit in later.units if unit.model == "hunter").figures.size == 4


# --- What an attack reads of them -----------------------------------------------------------------


def test_the_movement_modifier_is_the_one_recorded_for_the_current_mode_and_speed(host_catalog):
    state = starter_match(host_catalog)
    hunter = next(unit for unit in state.units if unit.model == "hunter")
    assert movement_modifier(hunter, "attack") == 0
    assert movement_modifier(hunter, "defense") == -1
    assert movement_modifier(replace(hunter, speed=Speed.TOP), "defense") is None
    assert movement_modifier(replace(hunter, figures=None), "attack") is None


@pytest.mark.parametrize(
    ("kind", "has_size", "attacker_needs"),
    [
        ("direct", True, {"accuracy", "rof", "area_effect"}),
        ("indirect", False, {"accuracy", "rof", "area_effect"}),
        ("grenade", True, {"accuracy", "area_effect"}),  # the HG: DM 5 in the host data
        ("grenade", False, {"accuracy", "area_effect", "size"}),
    ],
)
def test_the_helper_asks_only_for_what_the_recorded_data_leaves_out(
    host_catalog, kind, has_size, attacker_needs
):
    state = starter_match(host_catalog)
    hunter = state.unit("a-1-3")  # a Hunter with an LAC and a Light Rocket Pack
    if not has_size:
        hunter = replace(hunter, figures=replace(hunter.figures, size=None))
    weapon = offered_weapons(state, hunter, kind)[0]
    if kind != "grenade":
        assert weapon.code == "LAC"  # the LAC's DM of x8 is the one figure the texts give
    warrior = next(unit for unit in state.units if unit.model == "warrior")
    needs = figures_to_type(kind, hunter, weapon, [warrior, hunter])
    assert needs.attacker == attacker_needs
    assert needs.targets == (frozenset({"movement_modifier", "armor"}), frozenset())


def test_a_weapon_typed_in_by_name_needs_its_figures_and_a_model_without_figures_its_move():
    state = small_match()
    unit = state.unit("a-1-1")
    needs = figures_to_type("direct", unit, None, [state.unit("b-1-1")])
    assert needs.attacker == {
        "movement_modifier",
        "accuracy",
        "damage_multiplier",
        "rof",
        "area_effect",
    }
    assert needs.targets == (frozenset({"movement_modifier"}),)  # a Hunter's Armor 15 is known


def test_a_model_without_grenades_is_offered_its_sides_hand_grenade(host_catalog):
    state = starter_match(host_catalog)
    hunter = next(unit for unit in state.units if unit.model == "hunter")
    warrior = next(unit for unit in state.units if unit.model == "warrior")
    assert [w.code for w in offered_weapons(state, hunter, "grenade")] == ["HG"]
    assert offered_weapons(state, hunter, "grenade")[0].dm == 5
    assert "HG" not in [w.code for w in offered_weapons(state, warrior, "direct")]
    offered = offered_weapons(state, hunter, "grenade")[0]
    notes = attack_notes(state, hunter, kind="grenade", weapon=offered)
    assert notes and notes[0].startswith("The quickstart names no Hand Grenades for Hunter")
    carried = offered_weapons(state, warrior, "grenade")[0]
    assert attack_notes(state, warrior, kind="grenade", weapon=carried) == []


# --- What is said before it is applied ------------------------------------------------------------


def test_before_an_attack_the_helper_says_whether_the_model_can_attack():
    state = small_match()
    unit = state.unit("a-1-1")
    assert not any("can't attack" in w for w in before_attack_warnings(state, unit))
    top = before_attack_warnings(state, replace(unit, speed=Speed.TOP))
    assert any("is at Top Speed: it spent its action moving and can't attack." in w for w in top)
    used = before_attack_warnings(state, replace(unit, used=True))
    assert any("is Used and has no kept action" in w for w in used)
    kept = before_attack_warnings(state, replace(unit, used=True, kept_action=True))
    assert kept[0].startswith("Reaction Fire: Hunter")


def test_before_an_attack_a_limited_ammo_weapon_counts_its_shots():
    state = small_match()
    unit = state.unit("a-1-1")  # an HPZF with Limited Ammo 2
    hpzf = MatchWeapon("HPZF", "Heavy Panzerfaust", limited_ammo=2)
    assert ammo_counter(unit, hpzf) == 0
    assert ammo_counter(unit, MatchWeapon("LAC", "Light Autocannon")) is None
    assert ammo_counter(unit, None) is None
    warned = before_attack_warnings(state, unit, weapon=hpzf)
    assert "HPZF has Limited Ammo: 2 shots left; applying this attack spends one." in warned
    empty = replace(unit, ammo=(replace(unit.ammo[0], fired=2),))
    assert "HPZF is out of ammo." in before_attack_warnings(state, empty, weapon=hpzf)


def test_ecm_needs_a_kept_action_and_the_perk_the_match_recorded(host_catalog):
    state = starter_match(host_catalog)
    warrior = next(unit for unit in state.units if unit.model == "warrior")
    assert ecm_problems(state, warrior) and ecm_warnings(state, warrior) == []
    assert ecm_problems(state, replace(warrior, kept_action=True)) == []
    # The perk as recorded, not as the data says now; a state stored before: the data now.
    without = replace(warrior, figures=replace(warrior.figures, perks=()))
    assert ecm_warnings(with_unit(state, without), without)
    older = replace(warrior, figures=None)
    assert ecm_warnings(with_unit(state, older), older) == []


def test_a_marked_model_is_not_designated_again():
    unit = small_match().unit("b-1-1")
    assert designation_problems(unit) == []
    assert designation_problems(replace(unit, fo_mark=True)) == [
        "Hunter 1 is already marked by a Forward Observer."
    ]


def test_indirect_fire_needs_an_enemy_marked_by_a_forward_observer():
    state = small_match()
    shooter, enemy, friend = state.unit("a-1-1"), state.unit("b-1-1"), state.unit("a-1-2")
    assert target_problems(state, shooter, enemy, kind="direct") == []
    unmarked = target_problems(state, shooter, enemy, kind="indirect")
    assert unmarked == [
        "Hunter 1 (South CG1) is not marked by a Forward Observer: mark it on the board "
        "(FO mark) first, or choose direct fire."
    ]
    marked = replace(enemy, fo_mark=True)
    assert target_problems(state, shooter, marked, kind="indirect") == []
    assert target_problems(state, shooter, replace(friend, fo_mark=True), kind="indirect") == [
        "A Forward Observer marks an enemy model: choose an enemy target."
    ]
