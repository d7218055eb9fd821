"""The game-data pack: what the texts give is in it, what they do not give is "not provided"."""

from __future__ import annotations

import re

import pytest

from rules.hgb.catalog import (
    ARC_NAMES,
    BOX_KINDS,
    NOT_PROVIDED,
    DataError,
    Skills,
    article,
    default_catalog,
    load_catalog,
    reset_default_catalog,
    show_figure,
)

CATALOG = load_catalog()

ARSENAL_CODES = (
    "LAC MAC HAC VHAC LMG HMG MBZK RFB DPG SC FGC VLFG HPZF LRP MRP HRP APGL APM LFM LGM HGM "
    "VA VB CR HG HHG PZF"
).split()


def test_it_loads_the_built_in_data_with_a_version_and_a_fingerprint():
    assert CATALOG.data_version == "1"
    assert re.fullmatch(r"[0-9a-f]{16}", CATALOG.fingerprint)
    assert all(source.builtin for source in CATALOG.sources)
    assert {source.path for source in CATALOG.sources} >= {
        "rules/hgb/data/arsenal.toml",
        "rules/hgb/data/models.toml",
        "rules/hgb/data/core.toml",
    }


def test_loading_twice_gives_the_same_fingerprint():
    assert load_catalog().fingerprint == CATALOG.fingerprint


def test_it_counts_what_it_loaded():
    assert CATALOG.counts() == {
        "weapons": 28,
        "models": 12,
        "factions": 3,
        "squads": 7,
        "options": 15,
        "upgrades": 2,
        "presets": 4,
    }


# --- Arsenal --------------------------------------------------------------------------------------


@pytest.mark.parametrize("code", ARSENAL_CODES)
def test_every_arsenal_code_is_in_the_data_with_a_name(code):
    assert CATALOG.weapons[code].name


@pytest.mark.parametrize(
    ("code", "name"),
    [
        ("LAC", "Light Autocannon"),
        ("MBZK", "Medium Bazooka"),
        ("RFB", "Rapid-Fire Bazooka"),
        ("FGC", "Fragmentation Cannon"),
        ("VLFG", "Very Light Field Gun"),
        ("HPZF", "Heavy Panzerfaust"),
        ("APGL", "Anti-Personnel Grenade Launcher"),
        ("CR", "Combat Reinforcement"),
        ("PZF", "Panzerfaust"),
        ("PR", "Paratroop Rifle"),
    ],
)
def test_weapon_names_are_the_armorys(code, name):
    assert CATALOG.weapons[code].name == name


def test_the_paratroop_rifle_is_one_weapon_of_two_parts_also_called_assault_rifle():
    rifle = CATALOG.weapons["PR"]
    assert rifle.parts == ("LAC", "LGL")
    assert "Assault Rifle" in rifle.aliases
    assert "LAC only" in rifle.notes


def test_the_only_damage_multiplier_given_is_the_lacs_x8():
    assert CATALOG.weapons["LAC"].dm == 8
    assert [code for code, weapon in CATALOG.weapons.items() if weapon.dm is not None] == ["LAC"]


def test_no_accuracy_range_or_rof_is_invented():
    for weapon in CATALOG.weapons.values():
        assert weapon.accuracy is None
        assert weapon.rof is None
        assert not weapon.ranges.provided
        assert weapon.traits is None


# --- Models ---------------------------------------------------------------------------------------


def test_only_the_hunter_has_armor():
    assert CATALOG.models["hunter"].armor == 15
    assert [m.id for m in CATALOG.models.values() if m.armor is not None] == ["hunter"]


@pytest.mark.parametrize("model_id", sorted(CATALOG.models))
def test_no_model_has_invented_figures(model_id):
    model = CATALOG.models[model_id]
    assert (model.size, model.sensors, model.tv, model.movement) == (None, None, None, ())
    assert model.loadout_complete is False
    assert model.damage_track == ("sturdy", "light", "heavy", "critical") == BOX_KINDS


@pytest.mark.parametrize(
    ("model_id", "counts_as"),
    [
        ("warrior_chieftain", "warrior"),
        ("headhunter", "hunter"),
        ("command_jager", "jager"),
        ("warrior", None),
        ("warrior_iv", None),
        ("stripped_down_jager", None),
        ("jaguar", None),
    ],
)
def test_command_models_count_as_their_base_model(model_id, counts_as):
    assert CATALOG.models[model_id].counts_as == counts_as


@pytest.mark.parametrize(
    ("model_id", "weapons"),
    [
        ("warrior", ["LAC", "HG"]),
        ("warrior_chieftain", ["LAC", "HG"]),
        ("warrior_iv", []),
        ("crusader_iv", ["HAC"]),
        ("hunter", ["LAC", "LRP"]),
        ("headhunter", ["LAC", "LRP"]),
        ("grizzly", ["HAC"]),
        ("jaguar", []),
        ("jager", ["LAC"]),
        ("stripped_down_jager", ["LAC"]),
        ("command_jager", ["LAC", "APGL"]),
        ("spitting_cobra", ["HAC", "LGM", "HRP", "MRP"]),
    ],
)
def test_loadouts_are_as_far_as_the_texts_name_them(model_id, weapons):
    assert [mount.weapon for mount in CATALOG.models[model_id].loadout] == weapons


def test_core_rules():
    rules = CATALOG.rules
    assert rules.max_group_size == 6
    assert rules.default_tv_limit == 610
    assert rules.priority_level == 1
    assert rules.damage_track == BOX_KINDS
    assert rules.default_skills == Skills(att=2, defense=2, ew=1, ld=None)


# --- Squads ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("squad_id", "faction", "tv", "size"),
    [
        ("pr_general_purpose", "peace_river", 215, 5),  # printed 245 with three jackets
        ("pr_fire_support", "peace_river", 335, 5),
        ("north_general_purpose", "north", 205, 5),  # printed 225 with two swaps
        ("north_fire_support", "north", 295, 5),  # printed 305 with the required swap
        ("south_veteran_gp_cadre", "south", 305, 5),
        ("south_veteran_gp_squad_translated", "south", 320, 5),
        ("south_fire_support_cadre", "south", 285, 4),  # printed 290 with the APM
    ],
)
def test_squad_base_tv(squad_id, faction, tv, size):
    squad = CATALOG.squads[squad_id]
    assert (squad.faction, squad.tv, squad.size) == (faction, tv, size)
    assert squad.tv_note


SKILL_LINES = [
    ("pr_general_purpose", "warrior", 4, (2, 2, 1, 0), False),
    ("pr_general_purpose", "warrior_chieftain", 1, (2, 2, 2, 2), True),
    ("pr_fire_support", "warrior", 2, (2, 2, 1, 0), False),
    ("pr_fire_support", "crusader_iv", 2, (2, 2, 1, 0), False),
    ("pr_fire_support", "warrior_chieftain", 1, (None, None, None, None), True),
    ("north_general_purpose", "hunter", 4, (2, 2, 1, 0), False),
    ("north_general_purpose", "headhunter", 1, (2, 2, 1, 1), True),
    ("north_fire_support", "hunter", 2, (2, 2, 1, 0), False),
    ("north_fire_support", "grizzly", 2, (2, 2, 1, 0), False),
    ("north_fire_support", "jaguar", 1, (2, 3, 1, 1), True),
    ("south_veteran_gp_cadre", "jager", 3, (3, 3, 1, 0), False),
    ("south_veteran_gp_cadre", "stripped_down_jager", 1, (3, 3, 1, 0), False),
    ("south_veteran_gp_cadre", "command_jager", 1, (4, 4, 2, 3), True),
    ("south_veteran_gp_squad_translated", "jager", 4, (3, 3, 1, 0), False),
    ("south_veteran_gp_squad_translated", "command_jager", 1, (4, 4, 2, 3), True),
    ("south_fire_support_cadre", "spitting_cobra", 3, (2, 2, 1, 0), False),
    ("south_fire_support_cadre", "command_jager", 1, (2, 2, 1, 1), True),
]


@pytest.mark.parametrize(("squad_id", "model_id", "count", "line", "leader"), SKILL_LINES)
def test_every_printed_skill_line(squad_id, model_id, count, line, leader):
    slot = CATALOG.squads[squad_id].slot_for(model_id)
    assert slot.count == count
    assert (slot.skills.att, slot.skills.defense, slot.skills.ew, slot.skills.ld) == line
    assert slot.leader is leader


# --- Options and upgrades -------------------------------------------------------------------------

OPTIONS = [
    # id, TV change, printed?, removes, adds as (code, arc, reloads, limited ammo), sturdy boxes
    ("pr_mac", 5, True, ("LAC",), [("MAC", "F", True, None)], 0),
    ("pr_fgc", 5, True, ("LAC", "HG"), [("FGC", "F", True, None), ("HHG", None, None, None)], 0),
    ("pr_rfb", 5, True, ("LAC",), [("RFB", "F", True, None)], 0),
    ("pr_crusader_mbzk", 10, True, ("HAC",), [("MBZK", "F", True, None)], 0),
    ("pr_armored_jacket", 10, True, (), [], 1),
    ("north_mac", 10, True, ("LAC",), [("MAC", "F", True, None), ("HPZF", "F", None, 2)], 0),
    ("north_fgc", 10, True, ("LAC",), [("FGC", "F", True, None), ("HPZF", "F", None, 2)], 0),
    (
        "north_snub_cannon",
        10,
        True,
        ("LAC", "LRP"),
        [("SC", "F", None, 3), ("HPZF", "F", None, 2)],
        0,
    ),
    ("north_grizzly_mbzk", 10, True, ("HAC",), [("MBZK", "F", True, None)], 0),
    ("south_paratroop_rifle", 0, False, ("LAC",), [("PR", "F", True, None)], 0),
    ("south_mac", 0, False, ("LAC",), [("MAC", "F", True, None)], 0),
    ("south_apm", 5, True, ("APGL",), [("APM", "F", False, None)], 0),
    ("south_cobra_mbzk", -5, True, ("HAC", "LGM"), [("MBZK", "F", False, None)], 0),
    ("south_cobra_vlfg", 0, False, ("HRP", "LGM"), [("VLFG", "Ff", False, None)], 0),
    ("south_cobra_vhac", 0, False, ("HAC", "MRP"), [("VHAC", "F", False, None)], 0),
]


@pytest.mark.parametrize(("option_id", "tv", "printed", "removes", "adds", "sturdy"), OPTIONS)
def test_every_option_as_printed(option_id, tv, printed, removes, adds, sturdy):
    option = CATALOG.options[option_id]
    assert option.tv == tv
    assert option.tv_printed is printed
    if not printed:
        assert option.tv_note
    assert option.removes == removes
    assert [(m.weapon, m.arc, m.reloads, m.limited_ammo) for m in option.adds] == adds
    assert option.sturdy_boxes == sturdy


def test_every_option_is_tested():
    assert {row[0] for row in OPTIONS} == set(CATALOG.options)


def test_the_mbzk_reloads_differ_by_list_as_printed():
    assert CATALOG.options["pr_crusader_mbzk"].adds[0].reloads is True
    assert CATALOG.options["north_grizzly_mbzk"].adds[0].reloads is True
    assert CATALOG.options["south_cobra_mbzk"].adds[0].reloads is False


def test_the_north_veteran_command_squad():
    upgrade = CATALOG.upgrades["north_veteran_command"]
    assert upgrade.tv == 80
    assert upgrade.skills == Skills(att=3, defense=3)
    assert upgrade.leader_skills == Skills(att=3, defense=4, ew=1, ld=3)


def test_the_peace_river_leader_upgrade_makes_the_warrior_iv():
    upgrade = CATALOG.upgrades["pr_leader_upgrade"]
    assert upgrade.tv == 30
    assert upgrade.leader_model == "warrior_iv"
    assert upgrade.leader_skills == Skills(att=2, defense=3, ew=3, ld=3)


@pytest.mark.parametrize(
    ("model_id", "option_id", "refusal"),
    [
        ("crusader_iv", "pr_mac", "A Crusader IV cannot swap an LAC it does not carry."),
        ("warrior_chieftain", "pr_fgc", None),
        ("warrior_iv", "pr_mac", "A Warrior IV cannot swap an LAC it does not carry."),
        ("headhunter", "north_snub_cannon", None),
        ("grizzly", "north_mac", "A Grizzly cannot swap an LAC it does not carry."),
        (
            "stripped_down_jager",
            "south_paratroop_rifle",
            'A Stripped-Down Jäger cannot take "Swap LAC for Paratroop Rifle".',
        ),
        ("stripped_down_jager", "south_mac", None),
        ("command_jager", "south_paratroop_rifle", None),
        ("hunter", "pr_armored_jacket", 'A Hunter cannot take "Armored Jacket".'),
        ("warrior_chieftain", "pr_armored_jacket", None),
    ],
)
def test_who_may_take_what(model_id, option_id, refusal):
    assert CATALOG.refusal(model_id, option_id) == refusal


# --- Presets --------------------------------------------------------------------------------------


def test_presets_in_order():
    assert [(p.id, p.name, p.tv, p.faction, p.default) for p in CATALOG.presets_in_order()] == [
        ("peace_river_starter", "Peace River starter force", 610, "peace_river", True),
        ("north_starter", "Northern Guard starter force", 610, "north", True),
        ("south_starter", "Southern MILICIA starter force", 595, "south", True),
        (
            "south_starter_translated",
            "Southern MILICIA starter force (translated edition variant)",
            610,
            "south",
            False,
        ),
    ]


# --- Helpers --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "unit", "shown"),
    [(None, "", NOT_PROVIDED), (15, "", "15"), (None, '"', "not provided"), (6, '"', '6"')],
)
def test_show_figure(value, unit, shown):
    assert show_figure(value, unit) == shown


@pytest.mark.parametrize(
    ("word", "expected"),
    [("LAC", "an"), ("MBZK", "an"), ("HAC", "an"), ("VHAC", "a"), ("Hunter", "a"), ("APM", "an")],
)
def test_article(word, expected):
    assert article(word) == expected


def test_arc_names():
    assert ARC_NAMES["Ff"] == "Fixed Forward arc"
    assert CATALOG.options["south_cobra_vlfg"].adds[0].arc_name == "Fixed Forward arc"
    assert CATALOG.options["north_snub_cannon"].adds[0].ammo_text == "Limited Ammo 3"
    assert CATALOG.models["warrior"].loadout[0].arc_name == NOT_PROVIDED


# --- Host data ------------------------------------------------------------------------------------


def write(directory, name, text):
    path = directory / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_host_file_fills_in_the_jaguars_armor(tmp_path):
    write(
        tmp_path, "jaguar.toml", 'data_version = "host-1"\n[[models]]\nid = "jaguar"\narmor = 16\n'
    )
    catalog = load_catalog([tmp_path])
    assert catalog.models["jaguar"].armor == 16
    assert catalog.models["jaguar"].name == "Jaguar"  # other fields kept
    assert catalog.fingerprint != CATALOG.fingerprint
    assert catalog.data_version == CATALOG.data_version
    assert [s.path for s in catalog.sources if not s.builtin] == [str(tmp_path / "jaguar.toml")]


def test_a_host_file_adds_entries_and_replaces_lists(tmp_path):
    write(
        tmp_path,
        "more.toml",
        """data_version = "host-1"
[[models]]
id = "grizzly"
tv = 60
loadout = [{ weapon = "HAC" }, { weapon = "LRP" }]
movement = [{ mode = "walker", speed = "combat", mp = 5, defense_modifier = 0 }]

[[weapons]]
id = "HAC"
dm = 10
ranges = { short = 12, medium = 24 }
""",
    )
    catalog = load_catalog([tmp_path])
    grizzly = catalog.models["grizzly"]
    assert grizzly.tv == 60
    assert [m.weapon for m in grizzly.loadout] == ["HAC", "LRP"]
    assert grizzly.movement_for("walker", "combat").mp == 5
    assert grizzly.movement_for("ground", "top") is None
    assert catalog.weapons["HAC"].dm == 10
    assert catalog.weapons["HAC"].ranges.medium == 24
    assert catalog.weapons["HAC"].ranges.long is None


def test_a_later_host_dir_overrides_an_earlier_one(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    write(first, "x.toml", 'data_version = "h"\n[[models]]\nid = "jaguar"\narmor = 16\n')
    write(second, "x.toml", 'data_version = "h"\n[[models]]\nid = "jaguar"\narmor = 17\n')
    assert load_catalog([first, second]).models["jaguar"].armor == 17


def test_a_new_host_entry_must_be_complete(tmp_path):
    path = write(
        tmp_path, "new.toml", 'data_version = "h"\n[[models]]\nid = "kodiak"\narmor = 18\n'
    )
    with pytest.raises(DataError) as caught:
        load_catalog([tmp_path])
    assert str(caught.value) == f"{path}: model entry 'kodiak', field 'name': is missing."


def test_the_default_catalog_reads_blitz_data_dirs_and_is_cached(tmp_path, monkeypatch):
    write(tmp_path, "j.toml", 'data_version = "h"\n[[models]]\nid = "jaguar"\narmor = 16\n')
    monkeypatch.setenv("BLITZ_DATA_DIRS", f"{tmp_path}")
    reset_default_catalog()
    try:
        catalog = default_catalog()
        assert catalog.models["jaguar"].armor == 16
        assert default_catalog() is catalog
        monkeypatch.delenv("BLITZ_DATA_DIRS")
        assert default_catalog() is catalog  # cached until reset
        reset_default_catalog()
        assert default_catalog().models["jaguar"].armor is None
    finally:
        reset_default_catalog()


MALFORMED = [
    ("bad TOML", '[[models]\nid = "x"', ["not valid TOML"]),
    (
        "negative TV",
        'data_version = "h"\n[[squads]]\nid = "pr_fire_support"\ntv = -5\n',
        ["squad entry 'pr_fire_support'", "field 'tv'", "0 or more", "-5"],
    ),
    (
        "unknown weapon code in a loadout",
        'data_version = "h"\n[[models]]\nid = "jaguar"\nloadout = [{ weapon = "LASER" }]\n',
        ["model entry 'jaguar'", "field 'loadout', item 1, 'weapon'", "unknown weapon 'LASER'"],
    ),
    (
        "duplicate id",
        'data_version = "h"\n[[models]]\nid = "jaguar"\narmor = 1\n'
        '[[models]]\nid = "jaguar"\narmor = 2\n',
        ["model entry 'jaguar'", "field 'id'", "duplicate id"],
    ),
    (
        "unknown field",
        'data_version = "h"\n[[models]]\nid = "jaguar"\narmour = 16\n',
        ["model entry 'jaguar'", "field 'armour'", "not a known field"],
    ),
    (
        "an option naming a weapon the model lacks",
        'data_version = "h"\n[[squads]]\nid = "north_fire_support"\n'
        'defaults = [{ option = "north_grizzly_mbzk", model = "jaguar" }]\n',
        ["squad entry 'north_fire_support'", "field 'defaults', item 1, 'option'", "Jaguar"],
    ),
    (
        "an option naming a slot the squad lacks",
        'data_version = "h"\n[[presets]]\nid = "north_starter"\n'
        'groups = [{ squad = "north_general_purpose", options = '
        '[{ option = "north_mac", model = "grizzly" }] }]\n',
        ["preset entry 'north_starter'", "field 'groups', item 1, 'options', item 1, 'model'"],
    ),
    (
        "an option no model of the squad can take",
        'data_version = "h"\n[[squads]]\nid = "north_fire_support"\n'
        'options = ["north_grizzly_mbzk", "pr_crusader_mbzk"]\n',
        ["squad entry 'north_fire_support'", "field 'options'", "no model of the squad"],
    ),
    (
        "a limit with an unknown placeholder",
        'data_version = "h"\n[[factions]]\nid = "north"\n'
        'limits = [{ upgrades = ["north_veteran_command"], max = 1, too_many = "{oops}" }]\n',
        ["faction entry 'north'", "field 'limits', item 1, 'too_many'", "oops"],
    ),
    (
        "a wrong type",
        'data_version = "h"\n[[models]]\nid = "jaguar"\narmor = "thick"\n',
        ["model entry 'jaguar'", "field 'armor'", "whole number"],
    ),
    (
        "no data version",
        '[[models]]\nid = "jaguar"\narmor = 16\n',
        ["'data_version' must be given"],
    ),
    (
        "an unknown top-level key",
        'data_version = "h"\n[[model]]\nid = "jaguar"\n',
        ["'model' is not a known top-level key"],
    ),
    (
        "an entry without an id",
        'data_version = "h"\n[[models]]\nname = "Nameless"\n',
        ["model entry 1 has no valid 'id'"],
    ),
    (
        "an unknown arc",
        'data_version = "h"\n[[options]]\nid = "pr_mac"\nadds = [{ weapon = "MAC", arc = "X" }]\n',
        ["option entry 'pr_mac'", "field 'adds', item 1, 'arc'", "one of F, Ff, Rr, FRr"],
    ),
    (
        "two options giving up one weapon without a shared choice",
        'data_version = "h"\n[[options]]\nid = "pr_rfb"\nchoice = "other"\n',
        ["squad entry 'pr_general_purpose'", "'pr_mac' and 'pr_rfb'", "same 'choice'"],
    ),
]


@pytest.mark.parametrize(("case", "text", "expected"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_a_malformed_host_file_is_refused_with_file_entry_and_field(tmp_path, case, text, expected):
    path = write(tmp_path, "host.toml", text)
    with pytest.raises(DataError) as caught:
        load_catalog([tmp_path])
    message = str(caught.value)
    assert str(path) in message or "pr_general_purpose" in message
    for fragment in expected:
        assert fragment in message, (case, message)


def test_the_error_names_the_file_that_set_the_bad_field(tmp_path):
    # The squad is built-in, the bad field comes from the host file.
    path = write(
        tmp_path,
        "host.toml",
        'data_version = "h"\n[[squads]]\nid = "pr_general_purpose"\noptions = ["no_such"]\n',
    )
    with pytest.raises(DataError) as caught:
        load_catalog([tmp_path])
    assert str(caught.value).startswith(
        f"{path}: squad entry 'pr_general_purpose', field 'options'"
    )


def test_a_missing_directory_is_refused(tmp_path):
    with pytest.raises(DataError, match="not a directory"):
        load_catalog([tmp_path / "nowhere"])


def test_every_problem_is_reported_at_once(tmp_path):
    write(tmp_path, "a.toml", 'data_version = "h"\n[[models]]\nid = "jaguar"\narmor = -1\n')
    write(tmp_path, "b.toml", 'data_version = "h"\n[[models]]\nid = "hunter"\nsize = -1\n')
    with pytest.raises(DataError) as caught:
        load_catalog([tmp_path])
    assert len(caught.value.messages) == 2


def test_a_data_error_is_a_rules_error():
    from rules.errors import RulesError

    assert issubclass(DataError, RulesError)
