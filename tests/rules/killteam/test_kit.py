"""The universal equipment: what a team may pick, and its counted uses and effects on the board
(mines' D3+3 damage, the stun grenade's stun tests), each an event that undoes like any other."""

from __future__ import annotations

import pytest

from rules.errors import RulesError
from rules.eventlog import LogEntry
from rules.killteam import SideSpec, make_event, new_battle, step
from rules.killteam import team as kteam
from rules.killteam.equipment import kit_items, mine_damage_distribution
from rules.killteam.log import plan_undo
from rules.killteam.profile import ProfileError
from tests.rules.killteam.factories import battle, operative, run, to_firefight


def kitted(**kit):
    a = SideSpec("Anna", "Red", [operative("Red 1"), operative("Red 2")], kit=kit)
    b = SideSpec("Ben", "Blue", [operative("Blue 1", wounds=9), operative("Blue 2", wounds=9)])
    return to_firefight(new_battle(a, b))


def use(state, item, side="a", **dice):
    return step(state, make_event("use_kit", side=side, item=item, dice=dice))


# --- Picking ------------------------------------------------------------------------------------


def test_the_text_lists_eleven_pieces_besides_the_explosive_grenades():
    names = [item.name for item in kit_items()]
    assert names == [
        "Ammo cache",
        "Comms device",
        "Razor wire",
        "Mines",
        "Light barricades",
        "Heavy barricade",
        "Smoke grenade",
        "Stun grenade",
        "Ladders",
        "Breaching charge",
        "Portable barricade",
    ]


def test_a_team_picks_any_number_of_pieces_and_up_to_two_utility_grenades():
    every = {item.key: 1 for item in kit_items()}
    team = kteam.set_kit(kteam.new_team("Red"), every)
    assert len(team.kit) == 11
    assert kteam.read_team(kteam.team_to_dict(team)).kit == team.kit
    assert kteam.read_kit({"stun_grenade": 2})
    for wrong, words in (
        ({"stun_grenade": 2, "smoke_grenade": 1}, "up to 2: 2 smoke, 2 stun, or one of each"),
        ({"mines": 2}, "Mines: pick it 0 to 1 times"),
        ({"jetpack": 1}, "There is no equipment 'jetpack'"),
        ({"mines": True}, "pick it 0 to 1 times"),
    ):
        with pytest.raises(ProfileError, match=words):
            kteam.read_kit(wrong)


def test_a_team_stored_before_equipment_reads_with_none():
    data = kteam.team_to_dict(kteam.new_team("Old"))
    del data["kit"]
    assert kteam.read_team(data).kit == ()


# --- Mines --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("die", "damage"), [(1, 4), (2, 5), (3, 6)])
def test_a_mine_deals_d3_plus_3_to_the_operative_it_goes_off_against(die, damage):
    result = use(kitted(mines=1), "mines", **{"b-1": die})
    assert result.state.operative("b-1").current == 9 - damage
    assert f"Blue 1 (Ben): D3 {die}, {damage} damage" in result.summary
    assert result.state.side("a").kit[0].used == 1


def test_the_mine_damage_matches_every_d3_face():
    assert sum(mine_damage_distribution().values()) == 1
    assert sorted(mine_damage_distribution()) == [4, 5, 6]


def test_a_mine_goes_off_once_and_needs_its_one_operative_and_a_d3():
    state = kitted(mines=1)
    with pytest.raises(RulesError, match="against one operative"):
        use(state, "mines")
    with pytest.raises(RulesError, match="D3 shows 1 to 3"):
        use(state, "mines", **{"b-1": 4})
    once = use(state, "mines", **{"b-1": 1}).state
    with pytest.raises(RulesError, match="used its Mines as often as it may"):
        use(once, "mines", **{"b-2": 1})


def test_a_mine_can_incapacitate():
    state = kitted(mines=1)
    for _ in range(6):  # 9 wounds, 3 left: any mine (4 or more) incapacitates
        seen = state.operative("b-1").current
        state = step(state, make_event("wound", operative="b-1", current=seen)).state
    result = use(state, "mines", **{"b-1": 1})
    assert result.state.operative("b-1").incapacitated


# --- Grenades, ammo, breaching charge ---------------------------------------------------------


def test_a_stun_grenade_is_the_active_operatives_1_ap_action_with_a_stun_test_each():
    state = kitted(stun_grenade=2)
    with pytest.raises(RulesError, match="active operative: activate one"):
        use(state, "stun_grenade", **{"b-1": 3})
    state = step(state, make_event("activate", operative="a-1", order="engage")).state
    result = use(state, "stun_grenade", **{"b-1": 3, "b-2": 2})
    assert result.state.operative("a-1").ap_spent == 1
    assert result.state.operative("b-1").stuns == 1 and result.state.operative("b-2").stuns == 0
    assert "stun test 3, stunned" in result.summary and "stun test 2, not stunned" in result.summary
    again = use(result.state, "stun_grenade", **{"b-2": 6}).state
    with pytest.raises(RulesError, match="2 of 2"):
        use(again, "stun_grenade", **{"b-2": 6})


def test_the_smoke_grenade_is_counted_and_rolls_nothing():
    activate = make_event("activate", operative="a-1", order="engage")
    state = step(kitted(smoke_grenade=1), activate).state
    with pytest.raises(RulesError, match="rolls no dice"):
        use(state, "smoke_grenade", **{"b-1": 3})
    result = use(state, "smoke_grenade")
    assert result.state.operative("a-1").ap_spent == 0  # the text gives no AP cost
    assert result.state.side("a").kit[0].used == 1


def test_the_ammo_cache_is_once_a_turning_point():
    activate = make_event("activate", operative="a-1", order="engage")
    state = step(kitted(ammo_cache=1), activate).state
    used = use(state, "ammo_cache").state
    with pytest.raises(RulesError, match="no more this turning point"):
        use(used, "ammo_cache")
    next_tp = to_firefight(run(used, ("end_turning_point", {"turning_point": 1})).state)
    next_tp = step(next_tp, make_event("activate", operative="a-2", order="engage")).state
    assert use(next_tp, "ammo_cache").state.side("a").kit[0].used == 2


def test_a_piece_not_picked_or_unknown_is_refused_in_words():
    state = kitted(breaching_charge=1)
    with pytest.raises(RulesError, match="did not pick Mines"):
        use(state, "mines", **{"b-1": 1})
    with pytest.raises(RulesError, match="no equipment 'jetpack'"):
        use(state, "jetpack")
    once = use(state, "breaching_charge")
    assert "Breach action costs 1 AP less" in once.summary
    with pytest.raises(RulesError, match="no more this battle"):
        use(once.state, "breaching_charge")


def test_uncounted_pieces_are_kept_for_the_table_and_not_on_the_counter():
    state = kitted(comms_device=1, ladders=1, mines=1)
    side = state.side("a")
    assert [k.key for k in side.kit] == ["mines"]
    assert side.kit_kept == ("comms_device", "ladders")
    with pytest.raises(RulesError, match="did not pick Comms device"):
        use(state, "comms_device")


def test_undoing_a_mine_gives_back_the_wounds_and_the_mine():
    start = kitted(mines=1)
    event = make_event("use_kit", side="a", item="mines", dice={"b-1": 3})
    done = step(start, event)
    assert done.state.operative("b-1").current == 3
    undone = plan_undo(start, [LogEntry(1, event)], 1, {1: done.summary})
    assert undone.state == start


def test_the_stored_battle_keeps_the_counts():
    from rules.killteam import state_from_dict, state_to_dict

    state = use(kitted(mines=1, ladders=1), "mines", **{"b-1": 2}).state
    assert state_from_dict(state_to_dict(state)) == state
    assert state_from_dict(state_to_dict(battle())) == battle()
