"""Who fights whom, and a fight's result as one event.

From the text (KÄMPFEN): the player whose operative performs the action is the attacker; they
pick an enemy operative within the active operative's control range to fight against, and that
operative strikes back; both players pick a melee weapon of their operative. Control range is
the table's (docs/killteam-readings.md, 'Judged at the table'): Blitz offers every enemy in play and
never guesses.

Readings: the acting side is the active operative's, else the side due to activate next; when
the tracker knows neither (outside the firefight phase, or between activations with nobody due)
the players pick from both sides. An operative with no melee weapon cannot be picked.
"""

from __future__ import annotations

from rules.errors import RulesError
from rules.eventlog import Event
from rules.killteam.actions import FIGHT
from rules.killteam.changes import in_play, label
from rules.killteam.fight import ATTACKER, DEFENDER, Fight
from rules.killteam.play import make_event
from rules.killteam.profile import MELEE, Weapon
from rules.killteam.state import BattleOperative, KillTeamState, whose_turn


def acting_side(state: KillTeamState) -> str | None:
    """The side whose operative acts now: the active operative's, else the side due to activate
    next; None when the tracker knows neither."""
    if state.active is not None:
        return state.operative(state.active).side
    return whose_turn(state)


def melee_weapons(operative: BattleOperative) -> tuple[Weapon, ...]:
    return tuple(weapon for weapon in operative.weapons if weapon.kind == MELEE)


def fight_attackers(state: KillTeamState) -> tuple[BattleOperative, ...]:
    """The operatives that may fight now: the acting side's in play with a melee weapon (both
    sides' when there is no acting side), the active operative first."""
    side = acting_side(state)
    return tuple(
        sorted(
            (
                op
                for op in state.operatives
                if (side is None or op.side == side) and not op.incapacitated and melee_weapons(op)
            ),
            key=lambda op: op.id != state.active,
        )
    )


def fight_targets(state: KillTeamState) -> tuple[BattleOperative, ...]:
    """The operatives an attacker may fight: the enemies of the acting side in play with a melee
    weapon (both sides' when there is no acting side; ``check_fight`` then refuses a friend)."""
    side = acting_side(state)
    return tuple(
        op
        for op in state.operatives
        if (side is None or op.side != side) and not op.incapacitated and melee_weapons(op)
    )


def check_fight(
    state: KillTeamState,
    attacker: BattleOperative,
    attacker_weapon: Weapon,
    defender: BattleOperative,
    defender_weapon: Weapon,
) -> None:
    """Refuse, with a sentence, a fight the text does not allow as the tracker knows it."""
    side = acting_side(state)
    for operative in (attacker, defender):
        in_play(state, operative)
    if side is not None and attacker.side != side:
        raise RulesError(
            f"{state.side(side).label} is acting: the attacker is one of its operatives."
        )
    if attacker.side == defender.side:
        raise RulesError(
            f"{label(state, attacker)} and {label(state, defender)} are on the same side: "
            "fight an enemy operative."
        )
    for operative, weapon in ((attacker, attacker_weapon), (defender, defender_weapon)):
        if weapon.kind != MELEE:
            raise RulesError(
                f"{weapon.name} is a ranged weapon: {operative.name} fights with a melee weapon."
            )


def fight_event(
    state: KillTeamState,
    *,
    attacker: BattleOperative,
    weapon: Weapon,
    defender: BattleOperative,
    defender_weapon: Weapon,
    fight: Fight,
    action_ap: int | None = None,
) -> Event:
    """The ``resolve`` event of a fight resolved to its end: both operatives' damage, the stuns,
    the wounds left the fight was resolved with (``seen``: stale once they change) and, with
    ``action_ap``, the attacker's Fight action with ``weapon`` for that many AP."""
    if not fight.over:
        left = sum(fight.side(key).crits + fight.side(key).normals for key in (ATTACKER, DEFENDER))
        raise RulesError(f"Resolve every die first: {left} still to strike or block with.")
    ids = {ATTACKER: attacker.id, DEFENDER: defender.id}
    extra = [note for note in fight.notes if note.startswith(("Devastating", "Shock"))]
    return make_event(
        "resolve",
        operative=attacker.id,
        action=FIGHT if action_ap is not None else "",
        ap=action_ap or 0,
        weapon=weapon.name if action_ap is not None else "",
        damage={attacker.id: fight.damage_to_attacker, defender.id: fight.damage_to_defender},
        stun=[ids[key] for key in fight.stunned],
        seen={attacker.id: attacker.current, defender.id: defender.current},
        note=" ".join(
            [f"Fight with {weapon.name} against {defender_weapon.name}.", fight.tally, *extra]
        ),
    )
