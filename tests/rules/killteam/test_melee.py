"""Who fights whom and a fight applied as one event, read from the text (KÄMPFEN): the player
whose operative performs the action is the attacker and picks an enemy operative; that operative
strikes back; both pick a melee weapon; damage takes wounds off both, 0 or less is
incapacitated and removed. Stun: a kept critical success takes 1 from the APL of the operative
the weapon is used against. Every profile figure is made up (the text gives no datacards)."""

from __future__ import annotations

import pytest

from rules.errors import RulesError
from rules.eventlog import LogEntry, Stale
from rules.killteam import (
    FightChoice,
    KeptDice,
    SideSpec,
    acting_side,
    check_fight,
    fight_attackers,
    fight_choose,
    fight_event,
    fight_targets,
    make_event,
    new_battle,
    plan_undo,
    profile_of,
    start_fight,
    step,
)
from tests.rules.killteam.factories import BLADE, GUN, operative, to_firefight, weapon

MAUL = weapon("Shock maul", "melee", 3, 3, 3, 4, ["Stun"])
STRIKE_CRIT, STRIKE_NORMAL = FightChoice("strike", "critical"), FightChoice("strike", "normal")


def kept(crits: int, normals: int) -> KeptDice:
    return KeptDice(dice=(), reads=(), unrolled=0, crits=crits, normals=normals)


def brawl():
    """Red: a-1 with a Stun maul, a-2 with a gun only; Blue: b-1 and b-2 with knives (9 W)."""
    red = SideSpec(
        "Anna",
        "Red team",
        [operative("Brawler", weapons=(GUN, MAUL)), operative("Gunner", weapons=(GUN,))],
    )
    blue = SideSpec(
        "Ben", "Blue team", [operative(f"Blue {n}", wounds=9, weapons=(BLADE,)) for n in (1, 2)]
    )
    return new_battle(red, blue)


INITIAL = brawl()
FIREFIGHT = to_firefight(INITIAL)  # Red has the initiative: Red activates first


def then(state, kind, **fields):
    return step(state, make_event(kind, **fields)).state


def ids(operatives) -> list[str]:
    return [op.id for op in operatives]


def test_outside_the_firefight_the_players_pick_from_both_sides():
    assert acting_side(INITIAL) is None
    assert ids(fight_attackers(INITIAL)) == ["a-1", "b-1", "b-2"]  # a-2 has no melee weapon
    assert ids(fight_targets(INITIAL)) == ["a-1", "b-1", "b-2"]


def test_the_acting_side_attacks_its_active_operative_first_and_fights_enemies():
    assert acting_side(FIREFIGHT) == "a"  # due to activate next
    assert ids(fight_attackers(FIREFIGHT)) == ["a-1"]
    assert ids(fight_targets(FIREFIGHT)) == ["b-1", "b-2"]
    blue_turn = then(
        then(FIREFIGHT, "activate", operative="a-2", order="engage"),
        "end_activation",
        operative="a-2",
    )
    assert acting_side(blue_turn) == "b"
    active = then(blue_turn, "activate", operative="b-2", order="engage")
    assert ids(fight_attackers(active)) == ["b-2", "b-1"]
    assert ids(fight_targets(active)) == ["a-1"]


def test_an_incapacitated_operative_neither_fights_nor_is_fought():
    state = then(FIREFIGHT, "wound", operative="b-2", amount=9, current=9)
    assert ids(fight_targets(state)) == ["b-1"]
    b2 = state.operative("b-2")
    with pytest.raises(RulesError, match="incapacitated and removed"):
        check_fight(state, state.operative("a-1"), MAUL, b2, BLADE)


@pytest.mark.parametrize(
    ("attacker", "defender", "a_weapon", "message"),
    [
        ("b-1", "a-1", BLADE, "Anna is acting: the attacker is one of its operatives"),
        ("a-1", "a-2", MAUL, "are on the same side: fight an enemy operative"),
        ("a-1", "b-1", GUN, "Rifle is a ranged weapon: Brawler fights with a melee weapon"),
    ],
)
def test_a_fight_the_text_does_not_allow_is_refused_in_words(attacker, defender, a_weapon, message):
    state = FIREFIGHT
    with pytest.raises(RulesError, match=message):
        check_fight(state, state.operative(attacker), a_weapon, state.operative(defender), BLADE)


def fought(state, fight, *, ap=1):
    return fight_event(
        state,
        attacker=state.operative("a-1"),
        weapon=MAUL,
        defender=state.operative("b-1"),
        defender_weapon=BLADE,
        fight=fight,
        action_ap=ap,
    )


def exchange():
    """Brawler (1 critical, 1 normal) against Blue 1 (2 normals): a critical strike, a block,
    a normal strike back: Blue 1 takes 4, Brawler 3."""
    fight = start_fight(profile_of(MAUL), kept(1, 1), 10, profile_of(BLADE), kept(0, 2), 9)
    fight = fight_choose(fight, STRIKE_CRIT)
    fight = fight_choose(fight, FightChoice("block", "normal", "normal"))
    return fight_choose(fight, STRIKE_NORMAL)


def test_a_fight_applies_both_damages_the_stun_and_the_action_as_one_event_that_undoes():
    state = then(FIREFIGHT, "activate", operative="a-1", order="engage")
    fight = exchange()
    assert fight.over and (fight.damage_to_defender, fight.damage_to_attacker) == (4, 3)
    event = fought(state, fight)
    assert event["damage"] == {"a-1": 3, "b-1": 4}
    assert event["stun"] == ["b-1"]  # the maul kept a critical: Stun
    assert event["seen"] == {"a-1": 10, "b-1": 9}
    assert "Attacker: 1 strike, 0 blocks; defender: 1 strike, 1 block." in event["note"]
    result = step(state, event)
    after = result.state
    assert after.operative("a-1").current == 7 and after.operative("b-1").current == 5
    assert after.operative("b-1").stuns == 1 and after.operative("a-1").stuns == 0
    assert after.operative("a-1").ap_spent == 1 and after.operative("a-1").actions == ("fight",)
    assert "Brawler (Anna): 3 damage" in result.summary
    assert "Blue 1 (Ben): 4 damage" in result.summary
    log = [LogEntry(1, make_event("activate", operative="a-1", order="engage")), LogEntry(2, event)]
    undone = plan_undo(FIREFIGHT, log, 2, {1: "", 2: result.summary})
    assert undone.state == state


def test_without_the_action_only_the_damage_is_applied():
    state = then(FIREFIGHT, "activate", operative="a-1", order="engage")
    after = step(state, fought(state, exchange(), ap=None)).state
    assert after.operative("a-1").ap_spent == 0 and after.operative("b-1").current == 5


def test_a_fight_resolved_on_wounds_that_changed_since_is_stale_and_changes_nothing():
    state = then(FIREFIGHT, "activate", operative="a-1", order="engage")
    event = fought(state, exchange())
    hurt = then(state, "wound", operative="b-1", amount=1, current=9)
    with pytest.raises(Stale):
        step(hurt, event)


def test_a_fight_with_dice_left_cannot_be_applied():
    fight = start_fight(profile_of(MAUL), kept(1, 1), 10, profile_of(BLADE), kept(0, 2), 9)
    with pytest.raises(RulesError, match="Resolve every die first: 4 still"):
        fought(FIREFIGHT, fight)


def test_an_operative_taken_to_0_is_incapacitated_and_not_stunned():
    state = then(FIREFIGHT, "wound", operative="b-1", amount=4, current=9)
    fight = start_fight(profile_of(MAUL), kept(2, 0), 10, profile_of(BLADE), kept(0, 1), 5)
    fight = fight_choose(fight, STRIKE_CRIT)
    fight = fight_choose(fight, STRIKE_NORMAL)  # Blue 1 strikes back first: 3
    fight = fight_choose(fight, STRIKE_CRIT)
    assert fight.over and fight.incapacitated == ("defender",)
    event = fought(state, fight, ap=None)
    assert event["stun"] == []
    after = step(state, event).state
    assert after.operative("b-1").incapacitated and after.operative("a-1").current == 7


def test_seen_wounds_must_be_whole_numbers():
    bad = make_event("resolve", operative="a-1", damage={"b-1": 1}, seen={"b-1": "9"})
    with pytest.raises(RulesError, match="Wounds seen are a whole number"):
        step(FIREFIGHT, bad)
