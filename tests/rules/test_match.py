"""The rules of a live match: damage, speed and mode, actions, initiative, activations, rounds."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.errors import RulesError
from rules.hgb.army import preset_roster, roster_to_dict, set_option
from rules.hgb.catalog import Skills, default_catalog
from rules.hgb.damage import DamageState
from rules.hgb.match import (
    EventError,
    GroupSpec,
    MatchState,
    MatchWeapon,
    Phase,
    SideSpec,
    Speed,
    UnitSpec,
    UnknownId,
    apply_event,
    apply_parts,
    changed_parts,
    groups_left,
    make_event,
    new_match,
    parse_event,
    penalised,
    state_from_dict,
    state_to_dict,
    step,
    tv_destroyed,
    tv_remaining,
    whose_turn,
)
from rules.hgb.match_build import side_from_roster

SKILLS = Skills(att=2, defense=2, ew=1, ld=0)


def hunter(name: str = "Hunter", **extra) -> UnitSpec:
    return UnitSpec(name=name, model="hunter", skills=SKILLS, armor=15, **extra)


def small_match(groups: int = 2, per_group: int = 2) -> MatchState:
    """Two sides of ``groups`` combat groups of ``per_group`` Hunters; the first has an HPZF."""

    def side(faction: str) -> SideSpec:
        return SideSpec(
            roster_name=f"{faction} list",
            faction=faction,
            tv=100 * groups,
            groups=tuple(
                GroupSpec(
                    name=f"Squad {g}",
                    tv=100,
                    units=tuple(
                        hunter(
                            ammo=(("HPZF", "Heavy Panzerfaust", 2),) if m == 0 else (),
                            tv=Fraction(100, per_group),
                        )
                        for m in range(per_group)
                    ),
                )
                for g in range(1, groups + 1)
            ),
        )

    return new_match(side("North"), side("South"))


def play(state: MatchState, *events: tuple) -> MatchState:
    for kind, data in events:
        state = apply_event(state, make_event(kind, **data))
    return state


def ev(kind: str, **data):
    return (kind, data)


def refused(state: MatchState, kind: str, **data) -> str:
    with pytest.raises(RulesError) as caught:
        step(state, make_event(kind, **data))
    return str(caught.value)


def activations(state: MatchState, first: str = "a") -> MatchState:
    """Initiative rolled (a 5, b 2) and ``first`` chosen to go first."""
    return play(
        state,
        ev("initiative_roll", side="a", die=5),
        ev("initiative_roll", side="b", die=2),
        ev("choose_first", side=first),
    )


# --- Building the match ---------------------------------------------------------------------------


def test_a_new_match_numbers_models_and_starts_at_combat_speed_in_walker_mode():
    state = small_match()
    unit = state.unit("a-2-1")
    assert unit.name == "Hunter 1"
    assert (unit.speed, unit.mode.value, unit.used) == (Speed.COMBAT, "walker", False)
    assert state.round == 1 and state.phase is Phase.INITIATIVE
    assert [side.label for side in state.sides] == ["North", "South"]


def test_two_sides_of_the_same_faction_are_told_apart():
    spec = SideSpec("List", "North", (GroupSpec("Squad", (hunter(),)),))
    assert [side.label for side in new_match(spec, spec).sides] == ["North (A)", "North (B)"]


def test_a_side_without_models_cannot_start_a_match():
    empty = SideSpec("Empty", "North", ())
    with pytest.raises(RulesError, match="at least one combat group"):
        new_match(empty, empty)


def test_the_northern_starter_force_brings_its_panzerfausts_and_its_tv():
    catalog = default_catalog()
    side = side_from_roster(roster_to_dict(preset_roster(catalog, "north_starter")), catalog)
    state = new_match(side, side)
    ammo = [(u.id, c.weapon, c.capacity) for u in state.sides[0].units for c in u.ammo]
    assert ammo == [("a-1-1", "HPZF", 2), ("a-1-2", "HPZF", 2)]
    assert state.sides[0].tv == 610
    # The shares of each group add up to the group's TV.
    for group in state.sides[0].groups:
        assert sum(unit.tv for unit in group.units) == group.tv


def test_a_snub_cannon_brings_its_own_limited_ammo_counter():
    catalog = default_catalog()
    roster = preset_roster(catalog, "north_starter")
    roster = set_option(roster, catalog, 0, 0, "north_snub_cannon", True)
    side = side_from_roster(roster_to_dict(roster), catalog)
    hunter = new_match(side, side).unit("a-1-1")
    assert [(c.weapon, c.capacity, c.left) for c in hunter.ammo] == [("SC", 3, 3), ("HPZF", 2, 2)]


def test_a_match_records_each_models_weapons_as_its_list_mounts_them():
    catalog = default_catalog()
    side = side_from_roster(roster_to_dict(preset_roster(catalog, "north_starter")), catalog)
    hunter = new_match(side, side).unit("a-1-1")
    assert [(w.code, w.name, w.arc, w.reloads, w.limited_ammo) for w in hunter.weapons] == [
        ("MAC", "Medium Autocannon", "F", True, None),
        ("HPZF", "Heavy Panzerfaust", "F", None, 2),
        ("LRP", "Light Rocket Pack", None, None, None),
    ]
    # Figures the quickstart does not give stay None; the one it gives (the LAC's DM) is copied.
    assert hunter.weapons[0].dm is None and hunter.weapons[0].ranges == ()
    headhunter = next(u for u in new_match(side, side).units if u.name == "HeadHunter")
    assert (headhunter.weapons[0].code, headhunter.weapons[0].dm) == ("LAC", 8)


def test_a_swap_changes_the_weapons_the_match_records():
    catalog = default_catalog()
    roster = set_option(
        preset_roster(catalog, "north_starter"), catalog, 0, 0, "north_snub_cannon", True
    )
    side = side_from_roster(roster_to_dict(roster), catalog)
    assert [w.code for w in new_match(side, side).unit("a-1-1").weapons] == ["SC", "HPZF"]


def test_a_linked_weapon_keeps_its_parts_and_its_note():
    catalog = default_catalog()
    side = side_from_roster(roster_to_dict(preset_roster(catalog, "south_starter")), catalog)
    rifle = next(w for u in new_match(side, side).units for w in u.weapons or () if w.code == "PR")
    assert rifle.parts == ("LAC", "LGL") and "linked" in rifle.notes


def test_recorded_weapons_survive_plain_data_and_never_count_as_a_change():
    weapon = MatchWeapon(
        "LAC", "Light Autocannon", arc="F", reloads=True, dm=8, ranges=(1, 2, 3, 4, 5)
    )
    state = new_match(
        SideSpec("N", "North", (GroupSpec("S", (hunter(weapons=(weapon,)),)),)),
        SideSpec("S", "South", (GroupSpec("S", (hunter(weapons=()),)),)),
    )
    data = state_to_dict(state)
    assert data["sides"][0]["groups"][0]["units"][0]["weapons"] == [
        {"code": "LAC", "name": "Light Autocannon", "arc": "F", "reloads": True, "dm": 8,
         "ranges": [1, 2, 3, 4, 5]}
    ]  # fmt: skip
    assert state_from_dict(data) == state
    after = apply_event(state, make_event("mark_box", unit="a-1-1"))
    old, new = changed_parts(state, after)
    assert "weapons" not in new["a-1-1"]
    assert apply_parts(state, new) == after
    with pytest.raises(RulesError, match="never changes"):
        apply_parts(state, {"a-1-1": {"weapons": []}})


def test_a_state_stored_before_weapons_were_recorded_still_loads():
    state = small_match()
    data = state_to_dict(state)
    for side in data["sides"]:
        for group in side["groups"]:
            for unit in group["units"]:
                unit.pop("weapons", None)
    old = state_from_dict(data)
    assert old.unit("a-1-1").weapons is None
    assert "weapons" not in state_to_dict(old)["sides"][0]["groups"][0]["units"][0]
    marked = apply_event(old, make_event("mark_box", unit="a-1-1"))
    assert apply_parts(old, changed_parts(old, marked)[1]) == marked


def test_armored_jackets_add_a_sturdy_box_to_peace_river_warriors():
    catalog = default_catalog()
    side = side_from_roster(roster_to_dict(preset_roster(catalog, "peace_river_starter")), catalog)
    tracks = [len(unit.track.boxes) for unit in new_match(side, side).sides[0].groups[0].units]
    assert tracks == [5, 5, 5, 4, 4]


# --- Damage --------------------------------------------------------------------------------------


def test_marking_boxes_walks_the_track_and_its_effects():
    state = small_match()
    seen = []
    for _ in range(4):
        state = play(state, ev("mark_box", unit="b-1-1"))
        unit = state.unit("b-1-1")
        seen.append((unit.state, unit.penalty, unit.track.top_speed_allowed))
    assert seen == [
        (DamageState.STURDY, 0, True),
        (DamageState.LIGHT, 0, True),
        (DamageState.HEAVY, -1, False),
        (DamageState.CRITICAL, -2, False),
    ]
    state = play(state, ev("mark_box", unit="b-1-1"))
    assert state.unit("b-1-1").state is DamageState.DESTROYED


def test_clearing_a_box_takes_back_the_last_one():
    state = play(small_match(), ev("mark_box", unit="a-1-1"), ev("mark_box", unit="a-1-1"))
    state = play(state, ev("clear_box", unit="a-1-1"))
    assert state.unit("a-1-1").state is DamageState.STURDY
    state = play(state, ev("clear_box", unit="a-1-1"))
    assert "no damage box crossed off" in refused(state, "clear_box", unit="a-1-1")


def test_overkill_and_destroyed_are_one_tap_and_the_model_takes_no_further_part():
    state = play(small_match(), ev("overkill", unit="a-1-1"), ev("destroy", unit="a-1-2"))
    assert state.unit("a-1-1").state is DamageState.OVERKILLED
    assert state.unit("a-1-2").state is DamageState.DESTROYED
    assert "overkilled" in refused(state, "mark_box", unit="a-1-1")
    assert "destroyed" in refused(state, "set_speed", unit="a-1-2", speed="top")
    assert "clear the Overkill first" in refused(state, "clear_box", unit="a-1-1")
    state = play(state, ev("clear_overkill", unit="a-1-1"))
    assert state.unit("a-1-1").state is DamageState.UNDAMAGED


def test_a_destroyed_model_counts_its_share_of_tv_as_destroyed():
    state = play(small_match(), ev("destroy", unit="b-1-1"))
    south = state.side("b")
    assert tv_destroyed(south) == 50
    assert tv_remaining(south) == 150
    assert tv_destroyed(state.side("a")) == 0


def test_skills_show_the_penalty_as_a_modifier_to_the_result():
    assert penalised(2, 0) == "2"
    assert penalised(2, -1) == "2 \u22121"
    assert penalised(None, -2) == "?"


# --- Speed, mode and actions ---------------------------------------------------------------------


def test_speed_changes_one_level_once_per_round():
    state = play(small_match(), ev("set_speed", unit="a-1-1", speed="stationary"))
    assert "already changed speed this round" in refused(
        state, "set_speed", unit="a-1-1", speed="combat"
    )
    state = play(state, ev("end_round"))
    assert "one level at a time" in refused(state, "set_speed", unit="a-1-1", speed="top")
    state = play(state, ev("set_speed", unit="a-1-1", speed="combat"))
    assert state.unit("a-1-1").speed is Speed.COMBAT


def test_no_top_speed_at_heavy_damage():
    state = play(small_match(), *[ev("mark_box", unit="a-1-1")] * 3)
    assert "can't travel at Top Speed" in refused(state, "set_speed", unit="a-1-1", speed="top")


def test_top_speed_costs_the_action_and_says_so():
    result = step(small_match(), make_event("set_speed", unit="a-1-1", speed="top"))
    assert result.warnings == (
        "Top Speed costs Hunter 1 (North CG1)'s action: it can't attack or keep an action "
        "this round.",
    )
    state = result.state
    assert "none to keep" in refused(state, "keep_action", unit="a-1-1", kept=True)
    assert "can't attack this round" in refused(state, "fire", unit="a-1-1", weapon=0)


def test_heavy_damage_at_top_speed_warns_to_slow_down():
    state = play(small_match(), ev("set_speed", unit="a-1-1", speed="top"))
    state = play(state, ev("mark_box", unit="a-1-1"), ev("mark_box", unit="a-1-1"))
    result = step(state, make_event("mark_box", unit="a-1-1"))
    assert "slow it to Combat Speed" in result.warnings[0]


def test_mode_changes_once_per_round():
    state = play(small_match(), ev("set_mode", unit="a-1-1", mode="ground"))
    assert "once per round" in refused(state, "set_mode", unit="a-1-1", mode="walker")
    assert "already set to Ground mode" in refused(state, "set_mode", unit="a-1-1", mode="ground")


def test_a_used_model_cannot_move_or_act_except_by_its_kept_action():
    state = play(small_match(), ev("set_used", unit="a-1-1", used=True))
    assert "is Used" in refused(state, "set_speed", unit="a-1-1", speed="top")
    assert "no kept action" in refused(state, "fire", unit="a-1-1", weapon=0)
    state = play(small_match(), ev("keep_action", unit="a-1-1", kept=True))
    assert state.unit("a-1-1").used and state.unit("a-1-1").kept_action
    result = step(state, make_event("fire", unit="a-1-1", weapon=0))
    assert result.warnings == ("Hunter 1 (North CG1) spent its kept action on this shot.",)
    unit = result.state.unit("a-1-1")
    assert (unit.kept_action, unit.ammo[0].left) == (False, 1)


def test_limited_ammo_runs_out():
    state = play(small_match(), ev("fire", unit="a-1-1", weapon=0))
    state = play(state, ev("end_round"), ev("fire", unit="a-1-1", weapon=0))
    assert "out of ammo (Limited Ammo 2)" in refused(state, "fire", unit="a-1-1", weapon=0)
    with pytest.raises(UnknownId):
        step(state, make_event("fire", unit="a-1-2", weapon=0))


def test_unusing_a_model_drops_its_kept_action():
    state = play(small_match(), ev("keep_action", unit="a-1-1", kept=True))
    state = play(state, ev("set_used", unit="a-1-1", used=False))
    assert not state.unit("a-1-1").kept_action
    assert "not Used" in refused(state, "set_used", unit="a-1-1", used=False)


# --- Initiative, activations and rounds ----------------------------------------------------------


def test_the_higher_initiative_roll_chooses_who_goes_first():
    state = play(small_match(), ev("initiative_roll", side="b", die=4))
    assert "waiting for North" in refused(state, "initiative_roll", side="b", die=6)
    assert "roll for initiative first" in refused(state, "choose_first", side="a")
    state = play(state, ev("initiative_roll", side="a", die=3))
    assert state.winner == "b"
    state = play(state, ev("choose_first", side="a"))
    assert (state.phase, state.first, whose_turn(state)) == (Phase.ACTIVATIONS, "a", "a")


def test_an_initiative_tie_rerolls():
    result = step(
        play(small_match(), ev("initiative_roll", side="a", die=4)),
        make_event("initiative_roll", side="b", die=4),
    )
    assert "a tie on 4, both players re-roll" in result.summary
    assert (result.state.rolls, result.state.ties, result.state.winner) == ((None, None), 1, None)


def test_a_die_shows_one_to_six():
    assert "1 to 6" in refused(small_match(), "initiative_roll", side="a", die=7)


def test_combat_groups_activate_alternately():
    state = activations(small_match(), first="b")
    assert "South's turn" in refused(state, "activate", group="a-1")
    state = play(state, ev("activate", group="b-2"))
    assert whose_turn(state) == "a"
    assert "already activated" in refused(
        play(state, ev("activate", group="a-1")), "activate", group="b-2"
    )
    state = play(state, ev("activate", group="a-1"))
    # The South group that activated before is now Used.
    assert all(unit.used for unit in state.group("b-2").units)
    assert [g.id for g in groups_left(state, "a")] == ["a-2"]


def test_a_side_with_no_groups_left_lets_the_other_activate_in_a_row():
    state = play(small_match(), ev("destroy", unit="b-1-1"), ev("destroy", unit="b-1-2"))
    state = activations(state, first="a")
    state = play(state, ev("activate", group="a-1"), ev("activate", group="b-2"))
    assert whose_turn(state) == "a"
    state = play(state, ev("activate", group="a-2"))
    assert whose_turn(state) is None
    assert "out of the game" in refused(state, "activate", group="b-1")


def test_activation_waits_for_initiative():
    assert "Roll for initiative first" in refused(small_match(), "activate", group="a-1")


def test_end_round_clears_used_kept_actions_and_observer_marks():
    state = activations(small_match())
    state = play(
        state,
        ev("activate", group="a-1"),
        ev("keep_action", unit="a-1-1", kept=True),
        ev("fo_mark", unit="b-1-1", marked=True),
        ev("mark_box", unit="b-1-2"),
        ev("set_speed", unit="a-1-2", speed="top"),
    )
    result = step(state, make_event("end_round"))
    assert result.warnings == (
        "Round 1 ended before these activated: Combat Group 2 of North, Combat Group 1 of South, "
        "Combat Group 2 of South.",
    )
    state = result.state
    assert state.round == 2 and state.phase is Phase.INITIATIVE
    assert not any(u.used or u.kept_action or u.fo_mark for u in state.units)
    # Damage and speed stay.
    assert state.unit("b-1-2").state is DamageState.STURDY
    assert state.unit("a-1-2").speed is Speed.TOP
    assert state.activated == () and state.winner is None


def test_nothing_changes_after_the_match_ends():
    state = play(small_match(), ev("end_match", winner="b", note="  Held   the line "))
    assert (state.phase, state.result, state.note) == (Phase.ENDED, "b", "Held the line")
    assert "The match was ended" in refused(state, "mark_box", unit="a-1-1")


# --- Events as data ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("mark_box", "An event is an object"),
        ({"kind": "explode"}, "Unknown event kind 'explode'"),
        ({"kind": "mark_box"}, "needs a unit"),
        ({"kind": "mark_box", "unit": "a-1-1", "boxes": 2}, "has no field boxes"),
        ({"kind": "fire", "unit": "a-1-1", "weapon": "1"}, "whole number"),
        ({"kind": "set_used", "unit": "a-1-1", "used": "yes"}, "wrong type"),
        ({"kind": "undo", "target": True}, "whole number"),
    ],
)
def test_malformed_events_are_refused_in_words(data, message):
    with pytest.raises(EventError, match=message):
        parse_event(data)


@pytest.mark.parametrize(
    "unit",
    # Unicode digits: "²".isdigit() is True but int("²") fails; int("٣") is 3 and int("１") is 1.
    ["a-9-1", "a-1-9", "c-1-1", "a-1", "a-x-1", "a-1-1-1", "a-²-1", "a-1-①", "a-٣-1", "a-１-1",
     "a-1-" + "1" * 5000, "a-+1-1", "a- 1-1", "a-1-1\x00"],
)  # fmt: skip
def test_unknown_models_are_unknown_ids(unit):
    with pytest.raises(UnknownId):
        step(small_match(), make_event("mark_box", unit=unit))


def test_bad_speed_and_mode_names_are_malformed():
    with pytest.raises(EventError, match="stationary, combat or top"):
        step(small_match(), make_event("set_speed", unit="a-1-1", speed="warp"))
    with pytest.raises(EventError, match="walker or ground"):
        step(small_match(), make_event("set_mode", unit="a-1-1", mode="hover"))
    with pytest.raises(EventError, match="a, b or draw"):
        step(small_match(), make_event("end_match", winner="c"))


def test_the_state_survives_plain_data_exactly():
    state = play(
        activations(small_match()),
        ev("activate", group="a-1"),
        ev("fire", unit="a-1-1", weapon=0),
        ev("mark_box", unit="b-2-2"),
        ev("overkill", unit="b-1-1"),
    )
    assert state_from_dict(state_to_dict(state)) == state
    with pytest.raises(RulesError, match="malformed"):
        state_from_dict({"sides": []})


def test_changed_parts_records_before_and_after_of_what_changed():
    before = small_match()
    after = apply_event(before, make_event("mark_box", unit="a-1-2"))
    assert changed_parts(before, after) == ({"a-1-2": {"damage": 0}}, {"a-1-2": {"damage": 1}})
    after = apply_event(before, make_event("initiative_roll", side="a", die=3))
    assert changed_parts(before, after) == (
        {"match": {"rolls": [None, None]}},
        {"match": {"rolls": [3, None]}},
    )


def test_a_step_names_what_it_touched():
    result = step(small_match(), make_event("keep_action", unit="a-1-1", kept=True))
    assert result.writes == {"a-1-1:kept", "a-1-1:used"}
    assert result.units == {"a-1-1"}
