"""A turning point played through events: initiative, command points and ploys, activations
with orders and AP, the basic actions' restrictions warned, wounds, stuns, Limited counters,
and the turning point ending when every operative is expended."""

from __future__ import annotations

import pytest

from rules.errors import RulesError
from rules.killteam import (
    OperativeSpec,
    Phase,
    SideSpec,
    Stale,
    make_event,
    new_battle,
    step,
    whose_turn,
)
from tests.rules.killteam.factories import battle, run, to_firefight, weapon


def test_a_new_battle_starts_with_2_cp_each_and_every_operative_ready():
    state = battle()
    assert [side.cp for side in state.sides] == [2, 2]
    assert state.turning_point == 1 and state.phase is Phase.INITIATIVE
    assert all(op.ready and op.current == op.wounds and op.order is None for op in state.operatives)


def test_the_higher_roll_decides_and_the_first_strategy_phase_gives_each_1_cp():
    state = battle()
    rolled = run(
        state,
        ("initiative_roll", {"side": "a", "die": 2}),
        ("initiative_roll", {"side": "b", "die": 5}),
    )
    assert rolled.state.decider == "b" and "Ben rolled higher" in rolled.summary
    with pytest.raises(RulesError, match="Ben decides"):
        step(rolled.state, make_event("give_initiative", side="a", decider="a"))
    given = step(rolled.state, make_event("give_initiative", side="a"))
    new = given.state
    assert new.initiative == "a" and new.phase is Phase.STRATEGY and new.strategy_turn == "a"
    assert [side.cp for side in new.sides] == [3, 3]
    assert "Anna gains 1 CP (3), Ben gains 1 CP (3)" in given.summary


def test_a_tie_in_the_first_turning_point_asks_who_decides():
    rolled = run(
        battle(),
        ("initiative_roll", {"side": "a", "die": 4}),
        ("initiative_roll", {"side": "b", "die": 4}),
    )
    assert rolled.state.tie and rolled.state.decider is None
    assert "players pick who decides" in rolled.summary
    with pytest.raises(RulesError, match="name the player who decided"):
        step(rolled.state, make_event("give_initiative", side="a"))
    new = step(rolled.state, make_event("give_initiative", side="a", decider="b")).state
    assert new.initiative == "a" and new.decider == "b"


def test_later_ties_are_decided_by_the_player_without_the_initiative_and_cp_are_1_and_2():
    state = to_firefight(battle(), initiative="a")
    state = step(state, make_event("end_turning_point", turning_point=1)).state
    rolled = run(
        state,
        ("initiative_roll", {"side": "a", "die": 3}),
        ("initiative_roll", {"side": "b", "die": 3}),
    )
    assert (
        rolled.state.decider == "b"
        and "Ben, who does not hold the initiative, decides" in rolled.summary
    )
    new = step(rolled.state, make_event("give_initiative", side="b")).state
    assert new.initiative == "b"
    assert [side.cp for side in new.sides] == [3 + 2, 3 + 1]  # Anna without it gains 2


def test_an_initiative_roll_entered_twice_is_stale():
    state = step(battle(), make_event("initiative_roll", side="a", die=3)).state
    with pytest.raises(Stale, match="Anna's initiative roll of 3 was already entered"):
        step(state, make_event("initiative_roll", side="a", die=3))


def test_the_strategy_phase_alternates_until_both_pass_in_turn():
    state = run(
        battle(),
        ("initiative_roll", {"side": "a", "die": 5}),
        ("initiative_roll", {"side": "b", "die": 2}),
        ("give_initiative", {"side": "a"}),
    ).state
    with pytest.raises(RulesError, match="It's Anna's turn to use a strategic manoeuvre or pass"):
        step(state, make_event("pass_strategy", side="b"))
    used = step(state, make_event("use_ploy", side="a", ploy="Plan", ploy_kind="strategic"))
    state = used.state
    assert state.side("a").cp == 2 and state.strategy_turn == "b"
    state = step(state, make_event("pass_strategy", side="b")).state
    with pytest.raises(RulesError, match="already used Plan in turning point 1"):
        step(state, make_event("use_ploy", side="a", ploy="plan ", ploy_kind="strategic"))
    state = step(
        state, make_event("use_ploy", side="a", ploy="Other plan", ploy_kind="strategic")
    ).state
    state = step(state, make_event("pass_strategy", side="b")).state
    assert state.phase is Phase.STRATEGY  # Anna used a ploy in between: not two passes in turn
    last = step(state, make_event("pass_strategy", side="a"))
    assert last.state.phase is Phase.FIREFIGHT and whose_turn(last.state) == "a"


def test_ploys_cost_1_cp_and_firefight_ploys_once_a_turning_point_except_command_reroll():
    state = to_firefight(battle())
    for _ in range(3):
        state = step(
            state, make_event("use_ploy", side="b", ploy="Command Re-roll", ploy_kind="firefight")
        ).state
    assert state.side("b").cp == 0
    with pytest.raises(RulesError, match="Ben has 0 CP; Command Re-roll costs 1"):
        step(state, make_event("use_ploy", side="b", ploy="command re-roll", ploy_kind="firefight"))
    state = step(state, make_event("use_ploy", side="a", ploy="Dodge", ploy_kind="firefight")).state
    with pytest.raises(RulesError, match="each firefight ploy once per turning point"):
        step(state, make_event("use_ploy", side="a", ploy="Dodge", ploy_kind="firefight"))
    with pytest.raises(RulesError, match="strategic manoeuvre is used in the strategy phase"):
        step(state, make_event("use_ploy", side="a", ploy="Plan", ploy_kind="strategic"))
    with pytest.raises(RulesError, match="Command Re-roll is a firefight ploy"):
        step(state, make_event("use_ploy", side="a", ploy="Command Re-roll", ploy_kind="strategic"))
    # A new turning point allows it again.
    state = step(state, make_event("end_turning_point", turning_point=1)).state
    assert state.side("a").ploys == ()


def test_sides_alternate_activations_from_the_initiative():
    state = to_firefight(battle())
    with pytest.raises(RulesError, match="It's Anna's turn to activate"):
        step(state, make_event("activate", operative="b-1", order="engage"))
    state = step(state, make_event("activate", operative="a-1", order="engage")).state
    assert state.active == "a-1" and state.operative("a-1").order == "engage"
    activated = step(state, make_event("activate", operative="b-2", order="conceal"))
    assert "Red 1 (Anna) is expended" in activated.summary
    assert not activated.state.operative("a-1").ready
    with pytest.raises(Stale, match="already activated in turning point 1"):
        step(activated.state, make_event("activate", operative="a-1", order="engage"))


def test_a_side_with_no_ready_operative_is_skipped_and_the_turning_point_then_ends():
    state = to_firefight(battle(a=1, b=3))
    state = run(
        state,
        ("activate", {"operative": "a-1", "order": "engage"}),
        ("activate", {"operative": "b-1", "order": "engage"}),
        ("end_activation", {"operative": "b-1"}),
    ).state
    assert whose_turn(state) == "b"  # Anna has none ready left
    state = step(state, make_event("activate", operative="b-2", order="engage")).state
    last = run(
        state,
        ("activate", {"operative": "b-3", "order": "engage"}),
        ("end_activation", {"operative": "b-3"}),
    )
    assert "Every operative is expended: turning point 1 ends" in last.summary
    assert last.state.turning_point == 2 and last.state.phase is Phase.INITIATIVE


def test_ap_spent_beyond_the_apl_and_a_repeated_action_are_warned_never_refused():
    state = step(
        to_firefight(battle()), make_event("activate", operative="a-1", order="engage")
    ).state
    state = step(state, make_event("action", operative="a-1", action="Reposition", ap=1)).state
    again = step(state, make_event("action", operative="a-1", action="reposition", ap=1))
    assert any("already performed Reposition" in w for w in again.warnings)
    over = step(again.state, make_event("action", operative="a-1", action="Pick up", ap=1))
    assert over.state.operative("a-1").ap_spent == 3
    assert any("spent 3 AP, more than its APL of 2" in w for w in over.warnings)


@pytest.mark.parametrize(
    ("order", "first", "then", "warning"),
    [
        ("engage", "Charge", "Reposition", "Reposition and Charge are not allowed"),
        ("engage", "Fall Back", "Reposition", "Reposition and Fall Back are not allowed"),
        ("engage", "Dash", "Charge", "Charge and Dash are not allowed"),
        ("engage", "Fall Back", "Charge", "Charge and Fall Back are not allowed"),
        ("conceal", "Dash", "Charge", "Conceal order: it cannot Charge"),
        ("conceal", "Dash", "Shoot", "Conceal order: it cannot Shoot"),
    ],
)
def test_the_basic_actions_restrictions_are_warned(order, first, then, warning):
    state = step(to_firefight(battle()), make_event("activate", operative="a-1", order=order)).state
    state = step(state, make_event("action", operative="a-1", action=first, ap=1)).state
    weapon = "Rifle" if then == "Shoot" else ""
    result = step(state, make_event("action", operative="a-1", action=then, ap=1, weapon=weapon))
    assert any(warning in w for w in result.warnings)
    assert result.state.operative("a-1").actions[-1] == then.lower().replace(" ", "_")


def test_a_silent_weapon_shoots_on_a_conceal_order_without_a_warning():
    state = step(
        to_firefight(battle()), make_event("activate", operative="a-1", order="conceal")
    ).state
    result = step(
        state, make_event("action", operative="a-1", action="Shoot", ap=1, weapon="Quiet pistol")
    )
    assert result.warnings == ()


def test_heavy_and_limited_weapons():
    state = run(
        to_firefight(battle()),
        ("activate", {"operative": "a-1", "order": "engage"}),
        ("activate", {"operative": "b-1", "order": "engage"}),
        ("activate", {"operative": "a-2", "order": "engage"}),
        ("action", {"operative": "a-2", "action": "Shoot", "ap": 1, "weapon": "Cannon"}),
    ).state
    assert state.operative("a-2").used("Cannon") == 1
    moved = step(state, make_event("action", operative="a-2", action="Dash", ap=1))
    assert any(
        "used a Heavy weapon in this activation: it cannot move" in w for w in moved.warnings
    )
    state = run(
        moved.state,
        ("end_turning_point", {"turning_point": 1}),
    ).state
    state = to_firefight(state)
    state = run(
        state,
        ("activate", {"operative": "a-2", "order": "engage"}),
        ("action", {"operative": "a-2", "action": "Dash", "ap": 1}),
    )
    state = state.state
    again = step(
        state, make_event("action", operative="a-2", action="Shoot", ap=1, weapon="Cannon")
    )
    assert any(
        "moved in this activation: a Heavy weapon cannot be used" in w for w in again.warnings
    )
    assert any("used Cannon 1 times (Limited 1)" in w for w in again.warnings)
    assert again.state.operative("a-2").used("Cannon") == 2


def test_grenades_are_counted_for_the_team():
    state = step(
        to_firefight(battle()), make_event("activate", operative="a-1", order="engage")
    ).state
    thrown = step(
        state, make_event("action", operative="a-1", action="Shoot", ap=1, weapon="Frag grenade")
    )
    assert thrown.warnings == ()
    assert thrown.state.side("a").grenade("Frag grenade").used == 1
    state = run(
        thrown.state,
        ("activate", {"operative": "b-1", "order": "engage"}),
        ("activate", {"operative": "a-2", "order": "engage"}),
    ).state
    again = step(
        state, make_event("action", operative="a-2", action="Shoot", ap=1, weapon="Frag grenade")
    )
    assert any(
        "used its Frag grenades as often as it picked them (1 of 1)" in w for w in again.warnings
    )


def test_a_grenade_thrown_through_the_helper_is_counted_with_or_without_the_action():
    state = to_firefight(battle(grenades={"frag": 2}))
    thrown = step(
        state,
        make_event("resolve", operative="a-1", weapon="Frag grenade", damage={"b-1": 2}),
    )
    assert thrown.state.side("a").grenade("Frag grenade").used == 1
    assert thrown.state.operative("a-1").ap_spent == 0 and thrown.warnings == ()
    state = step(thrown.state, make_event("activate", operative="a-2", order="engage")).state
    again = step(
        state,
        make_event(
            "resolve", operative="a-2", action="Shoot", ap=1, weapon="Frag grenade",
            damage={"b-1": 0},
        ),
    )  # fmt: skip
    assert again.state.side("a").grenade("Frag grenade").used == 2  # once, not twice
    assert again.warnings == ()
    third = step(
        again.state, make_event("resolve", operative="a-2", weapon="Frag grenade", damage={})
    )
    assert third.warnings == (
        "Anna has used its Frag grenades as often as it picked them (2 of 2): no more in this "
        "battle.",
    )
    assert third.state.side("a").grenade("Frag grenade").used == 3


def test_a_limited_weapon_used_through_the_helper_is_counted_without_the_action():
    state = to_firefight(battle())
    shot = step(state, make_event("resolve", operative="a-2", weapon="Cannon", damage={}))
    assert shot.state.operative("a-2").used("Cannon") == 1 and shot.warnings == ()
    again = step(shot.state, make_event("resolve", operative="a-2", weapon="Cannon", damage={}))
    assert any("used Cannon 1 times (Limited 1)" in w for w in again.warnings)


def test_an_action_needs_the_operative_to_be_active():
    state = to_firefight(battle())
    with pytest.raises(RulesError, match="is not active: activate it before its actions"):
        step(state, make_event("action", operative="a-1", action="Dash", ap=1))


def test_wounds_are_one_tap_steps_that_name_what_the_player_saw():
    state = battle()
    hurt = step(state, make_event("wound", operative="a-1", current=10))
    assert (
        hurt.state.operative("a-1").current == 9 and "9 of 10 wounds left, wounded" in hurt.summary
    )
    with pytest.raises(Stale, match="has 9 wounds left, not 10"):
        step(hurt.state, make_event("wound", operative="a-1", current=10))
    injured = step(hurt.state, make_event("wound", operative="a-1", amount=5, current=9))
    op = injured.state.operative("a-1")
    assert op.injured and op.effective_move == 4 and op.effective_hit(op.weapons[0]) == 4
    assert 'injured (Move 2" less, Hit 1 worse)' in injured.summary
    healed = step(injured.state, make_event("heal", operative="a-1", current=4))
    assert not healed.state.operative("a-1").injured  # 5 of 10 is not injured
    with pytest.raises(RulesError, match="cannot regain 6"):
        step(healed.state, make_event("heal", operative="a-1", amount=6, current=5))


def test_an_incapacitated_operative_is_removed_and_its_activation_ends():
    state = step(
        to_firefight(battle()), make_event("activate", operative="a-1", order="engage")
    ).state
    out = step(state, make_event("wound", operative="a-1", amount=12, current=10))
    assert "incapacitated and removed" in out.summary
    assert out.state.active is None and whose_turn(out.state) == "b"
    with pytest.raises(RulesError, match="incapacitated and removed"):
        step(out.state, make_event("stun", operative="a-1"))


def test_a_stun_lowers_the_apl_until_the_end_of_the_operatives_next_activation():
    state = to_firefight(battle())
    state = step(state, make_event("stun", operative="b-1")).state
    assert state.operative("b-1").effective_apl == 1
    state = run(
        state,
        ("activate", {"operative": "a-1", "order": "engage"}),
        ("activate", {"operative": "b-1", "order": "engage"}),
    ).state
    assert state.operative("b-1").effective_apl == 1
    state = step(state, make_event("end_activation", operative="b-1")).state
    assert state.operative("b-1").effective_apl == 2


def test_a_stun_during_its_own_activation_lasts_through_the_next_one():
    state = step(
        to_firefight(battle()), make_event("activate", operative="a-1", order="engage")
    ).state
    state = step(state, make_event("stun", operative="a-1")).state
    state = step(state, make_event("end_activation", operative="a-1")).state
    assert state.operative("a-1").effective_apl == 1


def test_resolve_applies_the_shoot_helpers_result_as_one_event():
    state = step(
        to_firefight(battle()), make_event("activate", operative="a-1", order="engage")
    ).state
    result = step(
        state,
        make_event(
            "resolve",
            operative="a-1",
            action="Shoot",
            ap=1,
            weapon="Rifle",
            damage={"b-1": 5, "b-2": 0},
            stun=["b-1"],
            note="4 dice, 2 blocked",
        ),
    )
    new = result.state
    assert new.operative("b-1").current == 4 and new.operative("b-1").injured
    assert new.operative("b-1").stuns == 1 and new.operative("a-1").ap_spent == 1
    assert (
        "Blue 1 (Ben): 5 damage" in result.summary and "Blue 2 (Ben): no damage" in result.summary
    )


def test_ending_a_turning_point_early_is_warned_and_a_stale_end_is_refused():
    state = to_firefight(battle())
    ended = step(state, make_event("end_turning_point", turning_point=1))
    assert ended.warnings and "Red 1 (Anna)" in ended.warnings[0]
    assert ended.state.turning_point == 2 and ended.state.phase is Phase.INITIATIVE
    with pytest.raises(Stale, match="Turning point 1 was already ended"):
        step(ended.state, make_event("end_turning_point", turning_point=1))


def test_an_ended_battle_takes_no_more_events():
    state = step(battle(), make_event("end_match", winner="a", note="")).state
    with pytest.raises(Stale, match="The battle was ended"):
        step(state, make_event("wound", operative="a-1", current=10))


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"kind": "wound", "operative": "a-1"}, "needs a current"),
        ({"kind": "wound", "operative": "a-1", "current": True}, "whole number"),
        ({"kind": "fly", "operative": "a-1"}, "Unknown event kind"),
        ({"kind": "activate", "operative": "a-1", "order": "hide"}, "engage or conceal"),
        ({"kind": "activate", "operative": "c-1", "order": "engage"}, "no operative .c-1."),
        ({"kind": "activate", "operative": "a-9", "order": "engage"}, "no operative 'a-9'"),
        (
            {"kind": "use_ploy", "side": "a", "ploy": "X", "ploy_kind": "sneaky"},
            "strategic or firefight",
        ),
    ],
)
def test_malformed_events_are_refused_with_a_sentence(data, words):
    from rules.killteam import read_event

    state = to_firefight(battle())
    with pytest.raises(RulesError, match=words):
        step(state, read_event(data))


def test_a_heavy_dash_only_weapon_warns_for_other_moves_but_not_a_dash():
    mortar = weapon("Mortar", "ranged", 4, 4, 3, 4, ["Heavy (Dash only)"])
    crew = OperativeSpec("Crew", apl=3, move=6, save=4, wounds=8, weapons=(mortar,))
    state = new_battle(SideSpec("Anna", "Red", [crew]), SideSpec("Ben", "Blue", [crew]))
    state = run(
        to_firefight(state),
        ("activate", {"operative": "a-1", "order": "engage"}),
        ("action", {"operative": "a-1", "action": "Shoot", "ap": 1, "weapon": "Mortar"}),
    ).state
    dashed = step(state, make_event("action", operative="a-1", action="Dash", ap=1))
    assert dashed.warnings == ()
    moved = step(state, make_event("action", operative="a-1", action="Reposition", ap=1))
    assert any("a Heavy weapon in this activation: it cannot move" in w for w in moved.warnings)
