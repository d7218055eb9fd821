"""What happens to soldiers: wounds and deaths, the wound test, recovery, prisoners, carrying the
wounded, hand-to-hand, weapon attacks and the morale reminder. Handlers as in
``rules.ww2.vehicles``: (state, event) -> (new state, a sentence, warnings).

Read as docs/ww2-readings.md says: a wounded soldier is offered a wound test in every later turn
(the test is not in the text: the players enter recovered or still wounded, L57); after recovery
in turn N he may only move in turn N+1 and is himself again from N+2 (L60); a prisoner is taken
from the wounded, once the text's conditions are ticked, and counts as a loss (L48); hand-to-hand
once a turn per soldier instead of a weapon attack, the higher die wins, the winner chooses
killed or wounded (L50-L53)."""

from __future__ import annotations

from dataclasses import replace

from rules.errors import RulesError
from rules.eventlog import Event, Stale
from rules.ww2 import helpers
from rules.ww2.state import DEAD, HEALTHY, PRISONER, RECOVERING, WOUNDED, Soldier, Ww2State

Result = tuple[Ww2State, str, tuple[str, ...]]
OUTCOMES = {"killed": DEAD, "wounded": WOUNDED}


def move_only(soldier: Soldier, turn: int) -> bool:
    """Recovered in turn N: only moves in turn N+1 (and for the rest of N)."""
    return soldier.status == RECOVERING and turn <= soldier.recovered_turn + 1


def condition(soldier: Soldier, turn: int) -> str:
    """What the board calls him this turn: a recovering soldier is healthy again from N+2."""
    if soldier.status == RECOVERING and not move_only(soldier, turn):
        return HEALTHY
    return soldier.status


def wound_test_due(soldier: Soldier, turn: int) -> bool:
    """A wound test is offered in every turn after the wound not yet tested in."""
    return soldier.status == WOUNDED and soldier.wounded_turn < turn and soldier.tested_turn < turn


def no_combat(soldier: Soldier, turn: int) -> str:
    """Why he may not fight or attack this turn (a warning), or ""."""
    if soldier.status == WOUNDED:
        return f"{soldier.name} is wounded."
    if move_only(soldier, turn):
        return f"{soldier.name} is recovering: he may only move this turn."
    if soldier.disembarked_turn == turn:
        return f"{soldier.name} got off a vehicle this turn: no combat."
    if soldier.carrying_turn == turn:
        return f"{soldier.name} is carrying a wounded man this turn: no combat."
    if soldier.seat:
        return f"{soldier.name} is aboard a vehicle."
    return ""


def _in_game(soldier: Soldier) -> None:
    if soldier.out:
        raise RulesError(f"{soldier.name} is out of the game ({soldier.status}).")


def _hurt(state: Ww2State, soldier: Soldier, outcome: str) -> Ww2State:
    if outcome == "killed":
        return state.with_soldiers(replace(soldier, status=DEAD, vehicle="", seat=""))
    return state.with_soldiers(
        replace(soldier, status=WOUNDED, wounded_turn=state.turn, tested_turn=0, recovered_turn=0)
    )


def wound(state: Ww2State, event: Event) -> Result:
    soldier = state.soldier(event["soldier"])
    outcome = event["outcome"]
    if outcome not in OUTCOMES:
        raise RulesError(f"A soldier is killed or wounded; got {outcome!r}.")
    if soldier.status == OUTCOMES[outcome] or soldier.out:
        raise Stale(f"{soldier.name} was already {soldier.status}{{by}}", f"{soldier.id}:status")
    state = _hurt(state, soldier, outcome)
    return state, f"{soldier.name} {outcome}.", ()


def wound_test(state: Ww2State, event: Event) -> Result:
    soldier = state.soldier(event["soldier"])
    if soldier.status != WOUNDED:
        raise Stale(f"{soldier.name} is no longer wounded{{by}}", f"{soldier.id}:status")
    if soldier.wounded_turn >= state.turn:
        raise RulesError(
            f"{soldier.name} was wounded this turn: his wound test comes in a later turn."
        )
    if soldier.tested_turn == state.turn:
        raise Stale(
            f"{soldier.name}'s wound test was already entered this turn{{by}}",
            f"{soldier.id}:tested_turn",
        )
    if event["result"] == "recovered":
        new = replace(soldier, status=RECOVERING, tested_turn=state.turn, recovered_turn=state.turn)
        words = f"{soldier.name} recovered: next turn he may only move, then he is himself again."
    elif event["result"] == "wounded":
        new = replace(soldier, tested_turn=state.turn)
        words = f"{soldier.name} is still wounded."
    else:
        raise RulesError("A wound test's result is recovered or still wounded.")
    return state.with_soldiers(new), words, ()


def take_prisoner(state: Ww2State, event: Event) -> Result:
    soldier, captor = state.soldier(event["soldier"]), state.soldier(event["captor"])
    if soldier.status == PRISONER:
        raise Stale(f"{soldier.name} was already taken prisoner{{by}}", f"{soldier.id}:status")
    if soldier.status != WOUNDED:
        raise RulesError(f"{soldier.name} is not wounded: only a wounded enemy is taken prisoner.")
    if captor.side == soldier.side:
        raise RulesError(f"{captor.name} is on {soldier.name}'s side.")
    _in_game(captor)
    missing = [w for k, w in helpers.PRISONER_CONDITIONS.items() if k not in event["conditions"]]
    if missing:
        raise RulesError(f"Not a prisoner yet: {'; '.join(missing)} is not ticked.")
    state = state.with_soldiers(replace(soldier, status=PRISONER, vehicle="", seat=""))
    return state, f"{captor.name} took {soldier.name} prisoner (a loss for his side).", ()


def carry(state: Ww2State, event: Event) -> Result:
    carrier, wounded = state.soldier(event["soldier"]), state.soldier(event["wounded"])
    _in_game(carrier)
    if wounded.status != WOUNDED:
        raise RulesError(f"{wounded.name} is not wounded.")
    if carrier.status == WOUNDED or move_only(carrier, state.turn):
        raise RulesError(
            f"{carrier.name} is not unhurt: the wounded are carried by a soldier with no wound."
        )
    if carrier.carrying_turn == state.turn:
        raise Stale(
            f"{carrier.name} is already carrying this turn{{by}}", f"{carrier.id}:carrying_turn"
        )
    warnings: tuple[str, ...] = ()
    if carrier.attacked_turn == state.turn or carrier.fought_turn == state.turn:
        warnings = (
            f"{carrier.name} already fought this turn: a carrier shows no combat activity.",
        )
    state = state.with_soldiers(replace(carrier, carrying_turn=state.turn))
    return (
        state,
        f'{carrier.name} carries {wounded.name} (up to 6"): no combat this turn.',
        warnings,
    )


def attack(state: Ww2State, event: Event) -> Result:
    soldier = state.soldier(event["soldier"])
    _in_game(soldier)
    warnings = []
    if reason := no_combat(soldier, state.turn):
        warnings.append(reason)
    if soldier.fought_turn == state.turn:
        warnings.append(
            f"{soldier.name} fought hand-to-hand this turn, instead of a weapon attack."
        )
    if soldier.attacked_turn == state.turn:
        warnings.append(f"{soldier.name} already attacked this turn.")
    state = state.with_soldiers(replace(soldier, attacked_turn=state.turn))
    return state, f"{soldier.name} attacked with his weapon.", tuple(warnings)


def fight(state: Ww2State, event: Event) -> Result:
    first, second = state.soldier(event["soldier"]), state.soldier(event["enemy"])
    _in_game(first)
    _in_game(second)
    if first.side == second.side:
        raise RulesError(f"{first.name} and {second.name} are on the same side.")
    if event["outcome"] not in OUTCOMES:
        raise RulesError("The winner chooses killed or wounded.")
    winner_index = helpers.hand_to_hand_winner(event["die"], event["enemy_die"])
    warnings = []
    if first.fought_turn == state.turn:
        warnings.append(f"{first.name} already fought hand-to-hand this turn (once a turn).")
    if first.attacked_turn == state.turn:
        warnings.append(
            f"{first.name} attacked with a weapon this turn: hand-to-hand is instead of that."
        )
    if reason := no_combat(first, state.turn):
        warnings.append(reason)
    state = state.with_soldiers(replace(first, fought_turn=state.turn))
    winner, loser = (first, second) if winner_index == 0 else (second, first)
    loser = state.soldier(loser.id)
    state = _hurt(state, loser, event["outcome"])
    words = (
        f"Hand-to-hand: {first.name} {event['die']} against {second.name} {event['enemy_die']}: "
        f"{winner.name} wins; {loser.name} {event['outcome']}."
    )
    return state, words, tuple(warnings)


def mark_far(state: Ww2State, event: Event) -> Result:
    soldier = state.soldier(event["soldier"])
    _in_game(soldier)
    far = event["far"]
    if bool(soldier.far_turn) == far:
        raise Stale(f"{soldier.name} was already marked{{by}}", f"{soldier.id}:far_turn")
    state = state.with_soldiers(replace(soldier, far_turn=state.turn if far else 0))
    if far:
        return state, f'{soldier.name} is beyond 12" of a commander or officer.', ()
    return state, f"{soldier.name} is back within command distance.", ()


def morale(state: Ww2State, event: Event) -> Result:
    soldier = state.soldier(event["soldier"])
    if not soldier.far_turn:
        raise Stale(
            f"{soldier.name}'s morale test was already entered{{by}}", f"{soldier.id}:far_turn"
        )
    result = event["result"]
    if result not in ("passed", "failed"):
        raise RulesError("A morale test is passed or failed.")
    state = state.with_soldiers(replace(soldier, far_turn=0))
    return state, f"{soldier.name}'s morale test: {result} (the test is not in the rules text).", ()


def far_soldiers(state: Ww2State) -> tuple[Soldier, ...]:
    """Soldiers marked beyond command distance whose morale test is not entered: the end of a
    turn reminds of them."""
    return tuple(s for s in state.soldiers if s.far_turn and not s.out)
