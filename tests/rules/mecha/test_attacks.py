"""The attack phase: each limit the text states, named after its sentence."""

from __future__ import annotations

import pytest

from rules.errors import RulesError
from rules.eventlog import Stale
from rules.mecha.play import make_event, step
from tests.rules.mecha.factories import match


def run(state, *events):
    result = None
    for kind, data in events:
        result = step(state, make_event(kind, **data))
        state = result.state
    return result


def refused(state, *events, match_words):
    *before, last = events
    if before:
        state = run(state, *before).state
    with pytest.raises(RulesError, match=match_words):
        step(state, make_event(last[0], **last[1]))


ZAKU, PILOT, TANK = "a-1", "a-2", "b-1"
GUN, BAZOOKA, HAWK, SPIKE = "u1w1", "u1w2", "u1w3", "u1w4"


def shoot(unit=ZAKU, weapon=GUN, target=TANK, attack="range", **more):
    return ("attack", dict(unit=unit, weapon=weapon, target=target, attack=attack, **more))


def test_the_action_cost_for_each_attack_is_1():
    result = run(match(), ("declare", dict(unit=ZAKU, weapons=[GUN])), shoot())
    assert result.state.unit(ZAKU).spent == 1
    assert "1 of 3 AC spent" in result.summary


def test_declaring_held_weapons_is_free_in_the_first_move_phase_and_a_change_later_costs_one():
    state = run(match(), ("declare", dict(unit=ZAKU, weapons=[GUN])), shoot()).state
    result = step(state, make_event("declare", unit=ZAKU, weapons=[HAWK]))
    assert result.state.unit(ZAKU).spent == 2
    assert "1 AC" in result.summary


def test_a_weapon_not_declared_on_the_first_turn_is_warned():
    result = run(match(), shoot())
    assert any("must be declared" in w for w in result.warnings)


def test_spending_more_action_counters_than_entered_is_warned():
    state = match()
    result = run(
        state, ("declare", dict(unit=ZAKU, weapons=[GUN])), shoot(), shoot(), shoot(), shoot()
    )
    assert result.state.unit(ZAKU).spent == 4
    assert any("more than its 3" in w for w in result.warnings)


def test_the_action_cost_of_using_linked_weapons_is_two_for_the_set():
    result = run(
        match(),
        ("link_attack", dict(unit=TANK, set="1", weapons=["u2w1", "u2w2"], target=ZAKU)),
    )
    assert result.state.unit(TANK).spent == 2
    assert "roll each weapon separately" in result.summary


def test_a_weapon_outside_the_link_set_does_not_fire_with_it():
    refused(
        match(),
        ("link_attack", dict(unit=TANK, set="1", weapons=["u2w1", "u2w3"], target=ZAKU)),
        match_words="not in the Link set",
    )


def test_if_the_weapons_range_value_is_0_it_cannot_be_used_in_range_based_attacks():
    refused(match(), shoot(TANK, "u2w8", ZAKU), match_words="Range 0")


def test_only_melee_or_long_melee_weapons_are_used_in_melee_attacks():
    refused(match(), shoot(ZAKU, GUN, TANK, "melee"), match_words="only Melee or Long Melee")


def test_only_infantry_scarus_and_units_with_arms_can_make_unarmed_attacks():
    refused(match(), shoot(TANK, "", ZAKU, "melee"), match_words="unarmed attacks")
    assert run(match(), shoot(PILOT, "", TANK, "melee")).state.unit(PILOT).spent == 1


def test_you_can_only_make_one_ram_attack_a_turn():
    charge = ("move", dict(unit=ZAKU, charge=True))
    ram = shoot(ZAKU, "", TANK, "ram", front_arc=True)
    state = run(match(), charge, ram).state
    assert state.unit(ZAKU).rams == 1
    refused(state, ram, match_words="only one ram attack a turn")


def test_a_ram_needs_a_charge_move_action_this_turn():
    refused(match(), shoot(ZAKU, "", TANK, "ram", front_arc=True), match_words="Charge Move")
    refused(
        match(),
        ("move", dict(unit=ZAKU, charge=False)),
        shoot(ZAKU, "", TANK, "ram", front_arc=True),
        match_words="Charge Move",
    )


def test_the_ram_target_must_be_in_the_units_front_arc():
    refused(
        match(),
        ("move", dict(unit=ZAKU, charge=True)),
        shoot(ZAKU, "", TANK, "ram"),
        match_words="Front arc",
    )


def test_a_ram_uses_strength_or_a_rammers_or_long_melee_weapon():
    charge = ("move", dict(unit=ZAKU, charge=True))
    assert (
        run(match(), charge, shoot(ZAKU, SPIKE, TANK, "ram", front_arc=True)).state.unit(ZAKU).rams
        == 1
    )
    refused(
        match(),
        charge,
        shoot(ZAKU, GUN, TANK, "ram", front_arc=True),
        match_words="Rammers or Long Melee",
    )


def test_a_charge_move_counts_only_for_its_turn():
    state = run(match(), ("move", dict(unit=ZAKU, charge=True)), ("end_turn", dict(turn=1))).state
    refused(state, shoot(ZAKU, "", TANK, "ram", front_arc=True), match_words="Charge Move")


def test_heavy_range_after_a_move_is_minus_4_to_range_attack():
    result = run(
        match(),
        ("declare", dict(unit=ZAKU, weapons=[BAZOOKA])),
        ("move", dict(unit=ZAKU)),
        shoot(weapon=BAZOOKA),
    )
    assert "Range Attack 6 -4 = 2" in result.summary


def test_heavy_range_without_a_move_has_no_penalty():
    result = run(match(), ("declare", dict(unit=ZAKU, weapons=[BAZOOKA])), shoot(weapon=BAZOOKA))
    assert "Range Attack 6;" in result.summary


def test_heavy_fire_changes_the_penalty_by_a_rule_not_in_the_text_so_the_players_enter_it():
    result = run(
        match(),
        ("declare", dict(unit=PILOT, weapons=["u1w4"])),
        ("move", dict(unit=PILOT)),
        shoot(PILOT, "u1w4", TANK, modifier=-2),
    )
    assert "-2 = 4" in result.summary
    assert any("not in the rules text" in w for w in result.warnings)


def test_artillery_gains_no_benefit_of_heavy_fire():
    from tests.rules.mecha.factories import GUNTANK

    tank = dict(GUNTANK, heavy_fire=True)
    result = run(match(b=(tank,)), ("move", dict(unit=TANK)), shoot(TANK, "u2w3", ZAKU))
    assert "-4 = 2" in result.summary


def test_a_heavy_range_weapon_is_used_once_a_turn():
    state = run(
        match(), ("declare", dict(unit=ZAKU, weapons=[BAZOOKA])), shoot(weapon=BAZOOKA)
    ).state
    refused(state, shoot(weapon=BAZOOKA), match_words="once a turn")
    after = run(state, ("end_turn", dict(turn=1)), shoot(weapon=BAZOOKA))
    assert after.state.unit(ZAKU).spent == 1


def test_you_can_only_use_an_artillery_weapon_once_a_turn():
    refused(
        match(), shoot(TANK, "u2w3", ZAKU), shoot(TANK, "u2w3", ZAKU), match_words="once a turn"
    )


def test_after_a_heavy_range_weapon_the_unit_cannot_make_any_move_actions_that_turn():
    refused(
        match(),
        ("declare", dict(unit=ZAKU, weapons=[BAZOOKA])),
        shoot(weapon=BAZOOKA),
        ("move", dict(unit=ZAKU)),
        match_words="no move actions after it",
    )


def test_a_stand_weapon_cannot_be_used_after_a_move_and_no_move_after_using_it():
    refused(
        match(), ("move", dict(unit=TANK)), shoot(TANK, "u2w6", ZAKU), match_words="Stand weapon"
    )
    refused(
        match(), shoot(TANK, "u2w6", ZAKU), ("move", dict(unit=TANK)), match_words="no move actions"
    )


def test_attached_weapons_cannot_be_used_in_the_same_turn_together():
    refused(
        match(), shoot(TANK, "u2w4", ZAKU), shoot(TANK, "u2w5", ZAKU), match_words="Attached set"
    )


def test_long_melee_reaches_the_high_sky_level_only_from_it():
    refused(
        match(),
        shoot(PILOT, "u1w2", TANK, "melee", attacker_high=False, target_high=True),
        match_words="High Sky",
    )
    assert run(match(), shoot(PILOT, "u1w2", TANK, "melee", attacker_high=True, target_high=True))


def test_a_ranged_attack_in_base_contact_is_warned_unless_anti_personal():
    assert any("base contact" in w for w in run(match(), shoot(base_contact=True)).warnings)
    assert not any(
        "base contact" in w
        for w in run(match(), shoot(PILOT, "u1w1", TANK, base_contact=True)).warnings
    )


def test_a_unit_cannot_use_two_half_handed_weapons_at_the_same_time():
    refused(
        match(),
        ("declare", dict(unit=PILOT, weapons=["u1w2", "u1w3"], one_handed=["u1w2", "u1w3"])),
        match_words="two 1/2 Handed",
    )


def test_two_handed_weapons_need_two_hands_and_one_handed_use_is_a_penalty_not_in_the_text():
    refused(
        match(), ("declare", dict(unit=ZAKU, weapons=[BAZOOKA, GUN])), match_words="needs 3|need 3"
    )
    result = run(
        match(), ("declare", dict(unit=ZAKU, weapons=[BAZOOKA, GUN], one_handed=[BAZOOKA]))
    )
    assert any("not in the rules text" in w for w in result.warnings)


def test_hand_held_weapons_need_a_unit_with_arms():
    refused(match(), ("declare", dict(unit=TANK, weapons=["u2w6"])), match_words="no arms")


def test_damage_is_a_count_kept_per_unit_and_several_units_take_it_in_one_event():
    result = run(match(), ("damage", dict(hits={TANK: 7, ZAKU: 4}, note="ram")))
    assert result.state.unit(TANK).damage == 7 and result.state.unit(ZAKU).damage == 4


def test_ending_a_turn_twice_from_two_screens_changes_nothing_the_second_time():
    state = run(match(), ("end_turn", dict(turn=1))).state
    with pytest.raises(Stale):
        step(state, make_event("end_turn", turn=1))


def test_the_ram_reading_is_the_players_pick_with_no_default():
    with pytest.raises(RulesError, match="does not decide"):
        match(formula="")


def test_a_fixed_handed_weapon_replaces_the_hand_so_it_holds_nothing_else():
    from tests.rules.mecha.factories import ZAKU as CARD
    from tests.rules.mecha.factories import weapon

    claw = dict(
        CARD, weapons=[*CARD["weapons"], weapon("u1w9", "Claw", "melee", 0, (1, 6), "fixed_handed")]
    )
    refused(
        match(a=(claw,)),
        ("declare", dict(unit=ZAKU, weapons=[BAZOOKA])),
        match_words="1 taken by Fixed Handed",
    )
    assert run(match(a=(claw,)), ("declare", dict(unit=ZAKU, weapons=[GUN]))).state.unit(
        ZAKU
    ).held == (GUN,)
