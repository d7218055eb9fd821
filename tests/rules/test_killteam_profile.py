"""Kill Team profiles, weapon rules, grenades and teams as players type them (rules/killteam)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.killteam import profile as kt
from rules.killteam import team as kteam
from tests.killteam_profiles import KT_PROFILE

PROFILE = KT_PROFILE


def with_(**changes) -> dict:
    return {**PROFILE, **changes}


def weapon_with(**changes) -> dict:
    return with_(weapons=[{**PROFILE["weapons"][0], **changes}])


def problems(data) -> dict[str, str]:
    with pytest.raises(kt.ProfileError) as caught:
        kt.read_profile(data)
    return {problem.field: problem.message for problem in caught.value.problems}


# --- The 22 weapon rules -----------------------------------------------------------------------


def test_the_data_lists_the_22_weapon_rules_of_the_text_in_its_order():
    kinds = kt.weapon_rules()
    assert sorted({kind.number for kind in kinds}) == list(range(1, 23))
    assert [kind.english for kind in kinds if kind.number == 1] == ["Accurate"]
    assert [kind.english for kind in kinds if kind.number == 22] == ["Torrent"]
    # Two entries print two forms each (the text describes both in one paragraph).
    assert [k.english for k in kinds if k.number == 11] == ["Piercing", "Piercing Crits"]
    assert [k.english for k in kinds if k.number == 17] == ["Seek", "Seek Light"]
    # The English labels are in alphabetical order: that is how they were identified.
    firsts = [next(k.english for k in kinds if k.number == n) for n in range(1, 23)]
    assert firsts == sorted(firsts)


@pytest.mark.parametrize(
    ("key", "german", "parameter"),
    [
        ("blast", "Explosiv", "inches"),
        ("devastating", "Verheerend", "number"),
        ("heavy", "Schwer", ""),
        ("lethal", "Tödlich", "dice"),
        ("piercing", "Durchdringend", "number"),
        ("piercing_crits", "Krit. durchdringend", "number"),
        ("range", "Reichweite", "inches"),
        ("seek_light", "Zielsucher leicht", ""),
        ("torrent", "Schwall", "inches"),
        ("accurate", "", "number"),
        ("limited", "", "number"),
        ("balanced", "", ""),
    ],
)
def test_each_rule_keeps_the_texts_german_name_and_whether_it_takes_an_x(key, german, parameter):
    kind = kt.weapon_rule_kind(key)
    assert kind.german == german
    assert kind.parameter == parameter
    assert kind.takes_x == bool(parameter)


@pytest.mark.parametrize(
    ("text", "printed"),
    [
        ("Lethal 5+", "Lethal 5+"),
        ("lethal 5+", "Lethal 5+"),
        ("Tödlich 5+", "Lethal 5+"),
        ("Piercing 1", "Piercing 1"),
        ("Piercing Crits 1", "Piercing Crits 1"),
        ("Krit. durchdringend 2", "Piercing Crits 2"),
        ("Devastating 3", "Devastating 3"),
        ("Accurate 1", "Accurate 1"),
        ('Blast 2"', 'Blast 2"'),
        ("Blast 2", 'Blast 2"'),
        ("Range 9 inches", 'Range 9"'),
        ("Schwall 2 Zoll", 'Torrent 2"'),
        ("Saturate", "Saturate"),
        ("  Seek   Light ", "Seek Light"),
        ("Limited 1", "Limited 1"),
        ('Devastating 1 (1")', 'Devastating 1 (1")'),
        ("Devastating 2 (2 inches)", 'Devastating 2 (2")'),
        ("Verheerend 3 (1 Zoll)", 'Devastating 3 (1")'),
        ("Heavy (Dash only)", "Heavy (Dash only)"),
        ("heavy (fall back only)", "Heavy (Fall Back only)"),
        ("Schwer (nur Sprinten)", "Heavy (Dash only)"),
    ],
)
def test_weapon_rules_read_as_printed_in_english_or_the_texts_german(text, printed):
    assert kt.parse_weapon_rule(text).text == printed


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Lethal", "needs its x"),
        ("Lethal 5", "dice result"),
        ("Lethal 7+", "(a 1 always fails and a 6 always succeeds)"),
        ("Lethal 1+", "from Lethal 2+ to Lethal 6+"),
        ("Piercing 0", "from Piercing 1"),
        ("Piercing 1+", "plain number"),
        ("Blast 2+", "distance in inches"),
        ("Balanced 1", "takes no value"),
        ("Sniper", "not one of the core rules’ 22 weapon rules"),
        ("", "not one of the core rules’ 22 weapon rules"),
        ("Lethal ５+", "not one of"),  # a full-width digit is not a number here
        ("Devastating 1 (near)", "The bracket after Devastating is a distance"),
        ('Devastating 1 (0")', 'from 1" to 99"'),
        ('Devastating (1")', "Devastating needs its x"),
        ("Heavy (Fly only)", "names the one move action it allows"),
        ("Heavy (Dash)", "like “Heavy (Dash only)”"),
        ('Lethal 5+ (1")', "Only Devastating and Heavy take a bracket"),
    ],
)
def test_a_wrong_weapon_rule_is_refused_in_a_sentence(text, words):
    with pytest.raises(RulesError) as caught:
        kt.parse_weapon_rule(text)
    assert words in str(caught.value)


@given(st.text(max_size=40))
def test_any_typed_rule_is_read_or_refused_in_words_never_crashes(text):
    try:
        rule = kt.parse_weapon_rule(text)
    except RulesError as error:
        assert str(error).endswith(".")
    else:
        assert kt.parse_weapon_rule(rule.text) == rule  # printing and reading agree


def test_the_brackets_keep_what_the_card_says():
    devastating = kt.parse_weapon_rule('Devastating 1 (1")')
    assert (devastating.x, devastating.area) == (1, 1)
    assert kt.parse_weapon_rule("Heavy (Dash only)").only == "dash"
    assert kt.parse_weapon_rule("Heavy").only == ""


def test_every_rule_prints_in_a_form_it_reads_back():
    for kind in kt.weapon_rules():
        rule = kt.parse_weapon_rule(kind.example)
        assert rule.kind == kind
        assert kt.parse_weapon_rule(rule.text) == rule


# --- Profiles -----------------------------------------------------------------------------------


def test_a_typed_profile_reads_and_writes_back_unchanged():
    profile = kt.read_profile(PROFILE)
    assert (profile.apl, profile.move, profile.save, profile.wounds) == (2, 6, 4, 8)
    assert profile.weapons[0].rule_texts == ("Lethal 5+", "Piercing 1")
    assert profile.weapons[1].kind == kt.MELEE
    assert kt.profile_to_dict(profile) == PROFILE


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"apl": 0}, "apl", "APL must be from 1 to 9; got 0."),
        ({"apl": "two"}, "apl", "APL must be a whole number from 1 to 9."),
        ({"apl": True}, "apl", "APL must be a whole number"),
        ({"wounds": None}, "wounds", "Wounds is missing: type it from the datacard."),
        ({"save": 7}, "save", "Save must be from 2+ to 6+ (a 1 always fails"),
        ({"save": 1}, "save", "got 1+"),
        ({"move": 0}, "move", 'Move must be from 1" to 30"'),
        ({"name": "  "}, "name", "Give the profile a name."),
        ({"name": "x" * 61}, "name", "at most 60 characters"),
        ({"weapons": "Test gun"}, "weapons", "The weapons must be a list."),
        ({"weapons": [PROFILE["weapons"][0]] * 9}, "weapons", "at most 8 weapons"),
    ],
)
def test_a_bad_profile_figure_is_refused_at_its_field_in_plain_words(changes, field, words):
    assert words in problems(with_(**changes))[field]


def test_a_missing_figure_is_named_missing():
    data = dict(PROFILE)
    del data["wounds"]
    assert problems(data) == {"wounds": "Wounds is missing: type it from the datacard."}


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"hit": 7}, "weapons.0.hit", "Test gun: Hit must be from 2+ to 6+"),
        ({"attacks": 0}, "weapons.0.attacks", "Test gun: Attacks must be from 1 to 20"),
        ({"normal_damage": -1}, "weapons.0.normal_damage", "Normal damage must be from 0"),
        ({"critical_damage": None}, "weapons.0.critical_damage", "Critical damage is missing"),
        ({"kind": "thrown"}, "weapons.0.kind", "Test gun: say whether it is ranged or melee."),
        ({"name": ""}, "weapons.0.name", "Give weapon 1 a name."),
        ({"rules": ["Lethal 5"]}, "weapons.0.rules", "Test gun: Lethal takes a dice result"),
        ({"rules": "Lethal 5+"}, "weapons.0.rules", "must be a list"),
        ({"rules": ["Piercing 1", "Piercing 2"]}, "weapons.0.rules", "Piercing is listed twice"),
        ({"rules": ["Saturate"] * 13}, "weapons.0.rules", "at most 12 weapon rules"),
    ],
)
def test_a_bad_weapon_figure_is_refused_naming_the_weapon(changes, field, words):
    assert words in problems(weapon_with(**changes))[field]


def test_every_problem_of_a_profile_is_listed_at_once():
    found = problems(with_(apl=0, wounds=None, weapons=[{"name": "Gun"}]))
    assert {"apl", "wounds", "weapons.0.kind", "weapons.0.attacks", "weapons.0.hit"} <= set(found)


@pytest.mark.parametrize("data", [None, [], "profile", 3])
def test_something_that_is_no_profile_is_refused(data):
    with pytest.raises(kt.ProfileError, match="not an operative profile"):
        kt.read_profile(data)


# --- Grenades (docs/killteam-readings.md, 'Grenades') ---------------------------------------------


@pytest.mark.parametrize(("frag", "krak"), [(0, 0), (2, 0), (0, 2), (1, 1)])
def test_a_team_picks_two_explosive_grenades_or_none(frag, krak):
    assert kteam.read_grenades(frag, krak) == kteam.Grenades(frag, krak)


@pytest.mark.parametrize(("frag", "krak"), [(1, 0), (0, 1), (3, 0), (2, 1), (2, 2), (-1, 3)])
def test_any_other_grenade_pick_is_refused_with_the_rule_in_words(frag, krak):
    with pytest.raises(kt.ProfileError) as caught:
        kteam.read_grenades(frag, krak)
    assert "2 frag, 2 krak, or one of each" in str(caught.value) or "0 or more" in str(caught.value)


def test_the_choices_offered_are_exactly_the_ones_the_text_allows():
    assert set(kteam.grenade_choices()) == {
        kteam.Grenades(0, 0),
        kteam.Grenades(2, 0),
        kteam.Grenades(1, 1),
        kteam.Grenades(0, 2),
    }


# --- Teams --------------------------------------------------------------------------------------


def test_a_team_adds_renames_and_removes_operatives_by_their_own_id():
    profile = kt.read_profile(PROFILE)
    team = kteam.new_team("Test team")
    team = kteam.add_operative(team, profile, entered_by="jan")
    team = kteam.add_operative(team, profile, name="Gunner")
    assert [(o.id, o.title) for o in team.operatives] == [(1, "Test trooper"), (2, "Gunner")]
    team = kteam.remove_operative(team, 1)
    team = kteam.add_operative(team, profile)
    assert [o.id for o in team.operatives] == [2, 3]  # an id is never given twice
    team = kteam.change_operative(team, 2, name="Sergeant")
    assert team.operative(2).title == "Sergeant" and team.operative(2).profile == profile
    with pytest.raises(kt.ProfileError, match="no longer in the team"):
        kteam.remove_operative(team, 1)


def test_a_team_writes_and_reads_back_unchanged():
    team = kteam.add_operative(kteam.new_team("T"), kt.read_profile(PROFILE), entered_by="jan")
    team = kteam.set_grenades(team, 1, 1)
    assert kteam.read_team(kteam.team_to_dict(team)) == team


def test_a_team_is_bounded_by_size_and_says_the_rules_set_no_limit():
    team = kteam.new_team("T")
    profile = kt.read_profile(PROFILE)
    for _ in range(kteam.MAX_OPERATIVES):
        team = kteam.add_operative(team, profile)
    with pytest.raises(kt.ProfileError, match="the rules set none"):
        kteam.add_operative(team, profile)


def test_an_imported_team_with_repeated_ids_is_renumbered():
    op = {"id": 1, "name": "", "profile": PROFILE}
    team = kteam.read_team({"name": "T", "operatives": [op, op, {**op, "id": "x"}]})
    assert [o.id for o in team.operatives] == [1, 2, 3] and team.next_id == 4


def test_a_bad_team_names_the_operative_with_the_problem():
    data = {"name": "T", "operatives": [{"profile": with_(apl=0)}], "grenades": {"frag": 3}}
    with pytest.raises(kt.ProfileError) as caught:
        kteam.read_team(data)
    messages = [problem.message for problem in caught.value.problems]
    assert "Operative 1: APL must be from 1 to 9; got 0." in messages
    assert any("2 frag, 2 krak, or one of each" in m for m in messages)
