"""Rounds, initiative and activations: the events that move a match on.

Rules, from the English quickstart (hgb-quickstart-en.txt): "both players roll one dice at the
start of each round. Whoever rolls higher gets to decide who goes first that round. If the results
are the same, re-roll." Then "the two players alternate activating Combat Groups". A player whose
groups have all activated (or are all destroyed) stops; the other activates the rest in a row.
"""

from __future__ import annotations

from dataclasses import replace

from rules.errors import RulesError
from rules.eventlog import EventError, Stale
from rules.hgb.match.events import Event, Handler, Step
from rules.hgb.match.state import (
    SIDES,
    MatchState,
    Phase,
    groups_left,
    other_side,
    whose_turn,
    with_unit,
)

DIE_FACES = range(1, 7)
MAX_NOTE = 500
_ROUND_READS = frozenset({"turn", "phase"})


def _initiative_roll(state: MatchState, event: Event) -> Step:
    side = state.side(event["side"])
    die = event["die"]
    if die not in DIE_FACES:
        raise RulesError(f"A die shows 1 to 6; got {die}.")
    if state.phase is not Phase.INITIATIVE:
        raise Stale(
            f"Round {state.round}'s initiative was already settled{{by}}: "
            f"{state.side(state.first).label if state.first else 'a side'} goes first",
            "match:first",
        )
    if state.winner is not None:
        raise RulesError(
            f"{state.side(state.winner).label} won the initiative: they choose who goes first."
        )
    index = SIDES.index(side.key)
    if state.rolls[index] is not None:
        raise Stale(
            f"{side.label}'s initiative roll of {state.rolls[index]} was already entered{{by}}; "
            f"waiting for {state.side(other_side(side.key)).label}'s roll",
            "match:rolls",
        )
    rolls = (die, state.rolls[1]) if index == 0 else (state.rolls[0], die)
    first, second = rolls
    how = " on screen" if event["on_screen"] else ""
    summary = f"{side.label} rolled {die}{how} for initiative"
    if first is None or second is None:
        new = replace(state, rolls=rolls)
        summary += "."
    elif first == second:
        new = replace(state, rolls=(None, None), ties=state.ties + 1, last_tie=die)
        summary += f": a tie on {die}, both players re-roll."
    else:
        winner = SIDES[0] if first > second else SIDES[1]
        new = replace(state, rolls=rolls, winner=winner)
        summary += (
            f": {state.side(winner).label} wins ({first} to {second}) and chooses who goes first."
        )
    return Step(new, summary, writes=frozenset({"turn"}), reads=_ROUND_READS)


def _choose_first(state: MatchState, event: Event) -> Step:
    side = state.side(event["side"])
    if state.phase is not Phase.INITIATIVE:
        raise Stale(
            f"Who goes first in round {state.round} was already chosen{{by}}", "match:first"
        )
    if state.winner is None:
        raise RulesError("Both players roll for initiative first; the higher roll chooses.")
    chooser = state.side(state.winner).label
    new = replace(state, first=side.key, turn=side.key, phase=Phase.ACTIVATIONS)
    return Step(
        new,
        f"{chooser} chose: {side.label} goes first in round {state.round}.",
        writes=frozenset({"turn"}),
        reads=_ROUND_READS,
    )


def _activate(state: MatchState, event: Event) -> Step:
    group = state.group(event["group"])
    side = state.side(group.side)
    what = f"Combat Group {group.number} of {side.label}"
    if state.phase is not Phase.ACTIVATIONS:
        raise RulesError("Roll for initiative first: the winner chooses who activates first.")
    if group.id in state.activated:
        raise Stale(f"{what} was already activated this round{{by}}", "match:activated")
    if not group.can_activate:
        raise RulesError(f"Every model of {what} is out of the game.")
    turn = whose_turn(state)
    if turn is None:
        raise RulesError("Every combat group has activated this round: end the round.")
    if turn != group.side:
        raise RulesError(f"It's {state.side(turn).label}'s turn to activate a combat group.")
    new = state
    writes = {"turn"}
    if state.active_group is not None:
        for unit in state.group(state.active_group).units:
            if not unit.used and not unit.is_out:
                new = with_unit(new, replace(unit, used=True))
                writes.add(f"{unit.id}:used")
    new = replace(
        new,
        active_group=group.id,
        activated=state.activated + (group.id,),
        turn=other_side(group.side),
    )
    summary = f"{side.label} activates Combat Group {group.number} ({group.name})."
    if len(writes) > 1:
        summary += " The models of the last group to activate are Used."
    return Step(new, summary, writes=frozenset(writes), reads=_ROUND_READS)


def _end_round(state: MatchState, event: Event) -> Step:
    ending = event["round"]
    if ending and ending < state.round:
        raise Stale(f"Round {ending} was already ended{{by}}", "match:round")
    if ending > state.round:
        raise Stale(
            f"The match is back in round {state.round}: the end of round {state.round} was "
            "undone{by}",
            "match:round",
        )
    warnings = []
    waiting = [
        f"Combat Group {group.number} of {state.side(side).label}"
        for side in SIDES
        for group in groups_left(state, side)
    ]
    if waiting:
        warnings.append(f"Round {state.round} ended before these activated: {', '.join(waiting)}.")
    writes = {"turn", "round"}
    new = state
    for unit in state.units:
        writes.update(f"{unit.id}:{name}" for name in ("used", "kept", "fo", "acted"))
        if unit.used or unit.kept_action or unit.fo_mark or unit.actions:
            new = with_unit(
                new, replace(unit, used=False, kept_action=False, fo_mark=False, actions=())
            )
    new = replace(
        new,
        round=state.round + 1,
        phase=Phase.INITIATIVE,
        rolls=(None, None),
        ties=0,
        last_tie=None,
        winner=None,
        first=None,
        turn=None,
        active_group=None,
        activated=(),
    )
    return Step(
        new,
        f"Round {state.round} ended: Used, kept actions and forward observer marks cleared. "
        f"Round {state.round + 1} begins.",
        tuple(warnings),
        writes=frozenset(writes),
        reads=frozenset({"turn", "round", "phase"}),
    )


def _end_match(state: MatchState, event: Event) -> Step:
    winner = event["winner"]
    if winner not in (*SIDES, "draw"):
        raise EventError(f"The result is a, b or draw; got {winner!r}.")
    note = " ".join(event["note"].split())
    if len(note) > MAX_NOTE:
        raise RulesError(f"A result note can be at most {MAX_NOTE} characters.")
    new = replace(state, phase=Phase.ENDED, result=winner, note=note, active_group=None)
    words = "a draw" if winner == "draw" else f"{state.side(winner).label} won"
    return Step(
        new,
        f"The match ended in round {state.round}: {words}.",
        writes=frozenset({"phase"}),
        reads=frozenset({"phase"}),
    )


ROUND_HANDLERS: dict[str, Handler] = {
    "initiative_roll": _initiative_roll,
    "choose_first": _choose_first,
    "activate": _activate,
    "end_round": _end_round,
    "end_match": _end_match,
}
