"""The vehicle rules of the WWII fragment, one test per rule (docs/ww2-readings.md)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.errors import RulesError
from rules.eventlog import Stale
from rules.ww2.play import make_event, step
from tests.rules.ww2.factories import battle


def run(state, kind, **data):
    return step(state, make_event(kind, **data))


def do(state, *events):
    for kind, data in events:
        state = run(state, kind, **data).state
    return state


def next_turn(state):
    return run(state, "end_turn", turn=state.turn).state


def test_a_damaged_vehicle_keeps_its_card_and_a_second_damage_destroys_it():
    state = run(battle(), "hit", vehicle="b-v1", seen=0, result="damaged").state
    tank = state.vehicle("b-v1")
    assert tank.condition == "damaged" and tank.armour_class == 4 and tank.gun_class == 5
    state = run(state, "hit", vehicle="b-v1", seen=1, result="damaged").state
    assert state.vehicle("b-v1").condition == "destroyed"


def test_a_gun_not_above_the_armour_class_records_no_damage():
    with pytest.raises(RulesError, match="not above armour class 4: no damage"):
        run(battle(), "hit", vehicle="b-v1", seen=0, result="damaged", gun_class=4)


def test_a_gun_above_the_armour_class_lets_the_players_choose_damaged_or_destroyed():
    state = run(battle(), "hit", vehicle="b-v1", seen=0, result="destroyed", gun_class=5).state
    assert state.vehicle("b-v1").destroyed


def test_a_hit_on_a_screen_that_missed_the_last_hit_changes_nothing():
    state = run(battle(), "hit", vehicle="b-v1", seen=0, result="damaged").state
    with pytest.raises(Stale):
        run(state, "hit", vehicle="b-v1", seen=0, result="damaged")


def test_riders_on_a_damaged_tank_are_destroyed():
    state = run(battle(), "embark", soldier="a-i2", vehicle="a-v1").state
    result = run(state, "hit", vehicle="a-v1", seen=0, result="damaged")
    assert result.state.soldier("a-i2").status == "dead"
    assert "riders lost: Kozlov" in result.summary


def test_riders_on_a_damaged_truck_stay_aboard():
    state = run(battle(), "embark", soldier="a-i2", vehicle="a-v2").state
    state = run(state, "hit", vehicle="a-v2", seen=0, result="damaged").state
    assert state.soldier("a-i2").status == "healthy" and state.soldier("a-i2").vehicle == "a-v2"


def test_a_destroyed_vehicles_crew_survives_and_dismounts():
    result = run(battle(), "hit", vehicle="a-v1", seen=0, result="destroyed")
    ivanov = result.state.soldier("a-v1c1")
    assert ivanov.status == "healthy" and ivanov.vehicle == ""
    assert "the crew survive and dismount" in result.summary


def test_running_gear_damage_refuses_every_later_move():
    state = run(battle(), "running_gear", vehicle="b-v1", weapon="grenade", strength=15).state
    for _ in range(2):
        with pytest.raises(RulesError, match="cannot move until the end of the game"):
            run(state, "move", vehicle="b-v1")
        state = next_turn(state)


@pytest.mark.parametrize(
    ("weapon", "strength", "gun_class", "damages"),
    [
        ("grenade", 14, 0, False),
        ("grenade", 15, 0, True),
        ("grenade", 20, 0, True),
        ("gun", 18, 2, True),
        ("gun", 19, 6, True),
        ("gun", 20, 4, False),
        ("gun", 17, 4, False),
        ("gun", 18, 1, False),
        ("gun", 18, 7, False),
    ],
)
def test_running_gear_is_damaged_by_a_grenade_at_15_to_20_or_a_class_2_to_6_gun_at_18_19(
    weapon, strength, gun_class, damages
):
    event = dict(vehicle="b-v1", weapon=weapon, strength=strength, gun_class=gun_class)
    if damages:
        assert run(battle(), "running_gear", **event).state.vehicle("b-v1").running_gear
    else:
        with pytest.raises(RulesError, match="no running-gear damage"):
            run(battle(), "running_gear", **event)


def test_running_gear_counts_as_a_damage_only_when_the_players_said_so():
    event = dict(vehicle="b-v1", weapon="grenade", strength=16)
    assert run(battle(False), "running_gear", **event).state.vehicle("b-v1").damage == 0
    assert run(battle(True), "running_gear", **event).state.vehicle("b-v1").damage == 1


def test_running_gear_damage_on_a_tank_loses_its_riders():
    state = run(battle(), "embark", soldier="b-i3", vehicle="b-v1").state
    state = run(state, "running_gear", vehicle="b-v1", weapon="grenade", strength=16).state
    assert state.soldier("b-i3").status == "dead"


def test_active_armour_cancels_one_hit_once():
    state = run(battle(), "hit", vehicle="b-v1", seen=0, result="cancelled").state
    assert state.vehicle("b-v1").damage == 0 and state.vehicle("b-v1").armour_used
    with pytest.raises(RulesError, match="already spent"):
        run(state, "hit", vehicle="b-v1", seen=0, result="cancelled")


def test_active_armour_needs_the_specialisation():
    with pytest.raises(RulesError, match="no active armour"):
        run(battle(), "hit", vehicle="b-v2", seen=0, result="cancelled")


def test_the_mine_trawl_is_spent_once_and_only_on_a_vehicle_that_has_one():
    state = run(battle(), "mine_trawl", vehicle="a-v1").state
    with pytest.raises(Stale):
        run(state, "mine_trawl", vehicle="a-v1")
    with pytest.raises(RulesError, match="no mine trawl"):
        run(battle(), "mine_trawl", vehicle="a-v2")


def test_a_napalm_hit_destroys_the_units_the_players_mark_and_spends_the_card():
    result = run(battle(), "napalm", vehicle="a-v1", hit=True, destroyed=["b-i2", "b-v2"])
    state = result.state
    assert state.soldier("b-i2").status == "dead" and state.vehicle("b-v2").destroyed
    assert state.vehicle("a-v1").napalm_used == 1
    assert "light cover" in result.summary


def test_a_napalm_miss_spends_the_card_with_no_result():
    state = run(battle(), "napalm", vehicle="a-v1", hit=False).state
    assert state.vehicle("a-v1").napalm_used == 1
    with pytest.raises(RulesError, match="no napalm card left"):
        run(state, "napalm", vehicle="a-v1", hit=True)


def test_smoke_fired_needs_a_gun_of_class_3_to_6():
    state = run(battle(), "smoke", vehicle="a-v1", how="fired").state
    assert state.smoke == ((1, "a-v1"),)
    with pytest.raises(RulesError, match="no smoke card left"):
        run(state, "smoke", vehicle="a-v1", how="placed")


def test_the_capture_test_is_offered_only_once_running_gear_is_damaged_and_the_rest_ticked():
    ticked = ["four_within_2", "no_friend_within_12"]
    with pytest.raises(RulesError, match="running gear is not damaged"):
        run(battle(), "capture", vehicle="b-v1", die=15, conditions=ticked)
    state = run(battle(), "running_gear", vehicle="b-v1", weapon="grenade", strength=16).state
    with pytest.raises(RulesError, match="not ticked"):
        run(state, "capture", vehicle="b-v1", die=15, conditions=["four_within_2"])


def test_a_capture_test_succeeds_on_11_to_20_and_its_crew_are_prisoners():
    ticked = ["four_within_2", "no_friend_within_12"]
    state = run(battle(), "running_gear", vehicle="b-v1", weapon="grenade", strength=16).state
    failed = run(state, "capture", vehicle="b-v1", die=10, conditions=ticked)
    assert not failed.state.vehicle("b-v1").captured
    won = run(next_turn(failed.state), "capture", vehicle="b-v1", die=11, conditions=ticked)
    assert won.state.vehicle("b-v1").captured
    assert won.state.soldier("b-v1c1").status == "prisoner"


def test_a_second_capture_test_in_a_turn_is_warned():
    ticked = ["four_within_2", "no_friend_within_12"]
    state = run(battle(), "running_gear", vehicle="b-v1", weapon="grenade", strength=16).state
    state = run(state, "capture", vehicle="b-v1", die=3, conditions=ticked).state
    again = run(state, "capture", vehicle="b-v1", die=4, conditions=ticked)
    assert any("second capture test" in w for w in again.warnings)


def test_using_an_enemy_vehicle_warns_without_two_soldiers_and_a_commander():
    lone = run(battle(), "use_enemy", vehicle="b-v2", side="a", soldiers=["a-i2"])
    assert any("at least 2 soldiers" in w for w in lone.warnings)
    pair = run(battle(), "use_enemy", vehicle="b-v2", side="a", soldiers=["a-i1", "a-i2"])
    assert not any("at least 2 soldiers" in w for w in pair.warnings)
    assert pair.state.vehicle("b-v2").controller == "a"


def test_a_gun_does_not_fire_in_its_hitch_turn_nor_unhitch_then():
    state = run(battle(), "hitch", vehicle="a-v3", tow="a-v2").state
    with pytest.raises(RulesError, match="does not fire"):
        run(state, "fire", vehicle="a-v3", weapon="gun")
    with pytest.raises(RulesError, match="unhitches in a later turn"):
        run(state, "unhitch", vehicle="a-v3")
    state = run(next_turn(state), "unhitch", vehicle="a-v3").state
    assert run(state, "fire", vehicle="a-v3", weapon="gun").state.vehicle("a-v3").fired_turn == 2


def test_towing_needs_six_seats_or_a_tracked_tractor():
    tank_tow = run(battle(), "hitch", vehicle="a-v3", tow="a-v1")
    assert not tank_tow.warnings
    state = battle()
    small = state.with_vehicle(replace(state.vehicle("a-v2"), seats=4))
    assert any(
        "fewer than 6 seats" in w for w in run(small, "hitch", vehicle="a-v3", tow="a-v2").warnings
    )


def test_riders_beyond_the_seats_are_warned():
    state = battle()
    state = state.with_vehicle(replace(state.vehicle("a-v2"), seats=1))
    state = run(state, "embark", soldier="a-i2", vehicle="a-v2").state
    result = run(state, "embark", soldier="a-i3", vehicle="a-v2")
    assert any("2 riders on ZiS truck, which has 1 seats" in w for w in result.warnings)


def test_a_rider_does_not_get_off_in_the_turn_he_got_on_and_then_has_no_combat():
    state = run(battle(), "embark", soldier="a-i2", vehicle="a-v2").state
    with pytest.raises(RulesError, match="gets off in a later turn"):
        run(state, "dismount", soldier="a-i2")
    state = run(next_turn(state), "dismount", soldier="a-i2").state
    attack = run(state, "attack", soldier="a-i2")
    assert any("got off a vehicle this turn: no combat" in w for w in attack.warnings)


def test_the_on_armour_mg_is_warned_without_a_rider_and_unpaid_mgs_are_warned():
    result = run(battle(), "fire", vehicle="a-v1", weapon="armour")
    assert any("not paid for" in w for w in result.warnings)
    assert any("at least 1 rider" in w for w in result.warnings)
