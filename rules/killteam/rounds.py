"""Turning points: the initiative roll, the strategy phase (command points, ploys, passing), the end
of a turning point and of the battle (docs/killteam-readings.md: 'First initiative tie',
'Command points', 'Turning point end')."""

from __future__ import annotations

from dataclasses import replace

from rules.errors import RulesError
from rules.eventlog import Event, EventError, Stale, Step
from rules.killteam.changes import (
    MAX_NAME,
    MAX_NOTE,
    check_name,
    check_range,
    expend,
    label,
    with_side,
)
from rules.killteam.command import COMMAND_REROLL, command_points_gained
from rules.killteam.data import core_numbers
from rules.killteam.ploys import FIREFIGHT, PLOY_KINDS, STRATEGIC
from rules.killteam.state import (
    SIDES,
    KillTeamState,
    Phase,
    other_side,
)

_INITIATIVE = frozenset({"match:initiative"})
_PHASE = frozenset({"match:phase"})


def initiative_roll(state: KillTeamState, event: Event) -> Step:
    side = state.side(event["side"])
    die = check_range(event["die"], "A die", 1, 6)
    tp = state.turning_point
    if state.phase is not Phase.INITIATIVE:
        raise Stale(
            f"Turning point {tp}'s initiative was already decided{{by}}", "match:initiative"
        )
    if state.decider is not None or state.tie:
        raise Stale(
            f"Both players have rolled for initiative in turning point {tp}{{by}}",
            "match:initiative",
        )
    index = SIDES.index(side.key)
    if state.rolls[index] is not None:
        raise Stale(
            f"{side.label}'s initiative roll of {state.rolls[index]} was already entered{{by}}",
            "match:initiative",
        )
    rolls = (die, state.rolls[1]) if index == 0 else (state.rolls[0], die)
    first, second = rolls
    how = " on screen" if event["on_screen"] else ""
    summary = f"{side.label} rolled {die}{how} for initiative"
    new = replace(state, rolls=rolls)
    if first is None or second is None:
        summary += "."
    elif first != second:
        decider = SIDES[0] if first > second else SIDES[1]
        new = replace(new, decider=decider)
        summary += (
            f": {state.side(decider).label} rolled higher ({first} to {second}) and "
            "decides who has the initiative."
        )
    elif state.initiative is None:
        new = replace(new, tie=True)
        summary += (
            f": a tie on {die}. Nobody holds the initiative yet, so the players pick who decides."
        )
    else:
        decider = other_side(state.initiative)
        new = replace(new, decider=decider)
        summary += (
            f": a tie on {die}. {state.side(decider).label}, who does not hold the initiative, "
            "decides."
        )
    return Step(new, summary, writes=_INITIATIVE, reads=_PHASE)


def give_initiative(state: KillTeamState, event: Event) -> Step:
    holder = state.side(event["side"])
    tp = state.turning_point
    if state.phase is not Phase.INITIATIVE:
        raise Stale(
            f"Who has the initiative in turning point {tp} was already decided{{by}}",
            "match:initiative",
        )
    if None in state.rolls:
        raise RulesError("Both players roll for initiative first: the higher roll decides.")
    if state.tie:
        if event["decider"] not in SIDES:
            raise RulesError(
                "After a tie in the first turning point, the players pick who decides: "
                "name the player who decided."
            )
        decider = event["decider"]
    else:
        decider = state.decider
        if event["decider"] and event["decider"] != decider:
            raise RulesError(f"{state.side(decider).label} decides who has the initiative.")
    new = replace(
        state,
        phase=Phase.STRATEGY,
        initiative=holder.key,
        decider=decider,
        strategy_turn=holder.key,
        passes=0,
    )
    writes = {"match:initiative", "match:phase", "match:turn"}
    gains = []
    for side in new.sides:
        gained = command_points_gained(tp, side.key == holder.key)
        operatives = tuple(
            replace(op, ready=True) if not op.incapacitated and not op.ready else op
            for op in side.operatives
        )
        writes.update(f"{op.id}:ready" for op in side.operatives)
        new = with_side(new, replace(side, cp=side.cp + gained, operatives=operatives))
        writes.add(f"{side.key}:cp")
        gains.append(f"{side.label} gains {gained} CP ({side.cp + gained})")
    summary = (
        f"{state.side(decider).label} decided: {holder.label} has the initiative in turning "
        f"point {tp}. Strategy phase: {', '.join(gains)}; every operative is ready."
    )
    return Step(new, summary, writes=frozenset(writes), reads=_PHASE | _INITIATIVE)


def _ploy_name(value: str) -> str:
    name = check_name(value, "ploy")
    return COMMAND_REROLL if name.casefold() == COMMAND_REROLL.casefold() else name


def use_ploy(state: KillTeamState, event: Event) -> Step:
    side = state.side(event["side"])
    kind = event["ploy_kind"]
    if kind not in PLOY_KINDS:
        raise EventError(f"A ploy is strategic or firefight; got {kind!r}.")
    name = _ploy_name(event["ploy"])
    if name == COMMAND_REROLL and kind != FIREFIGHT:
        raise RulesError("Command Re-roll is a firefight ploy.")
    # The team's own ploy by that name costs what the team says; any other the text's 1 CP.
    cost = core_numbers().ploy_cost
    if (named := side.team_ploy(name)) is not None:
        if named.kind != kind:
            raise RulesError(f"{named.name} is a {named.kind_words} of {side.team}.")
        name, cost = named.name, named.cost
    wanted = Phase.STRATEGY if kind == STRATEGIC else Phase.FIREFIGHT
    if state.phase is not wanted:
        raise RulesError(f"A {PLOY_KINDS[kind]} is used in the {wanted.value} phase.")
    if kind == STRATEGIC and state.strategy_turn != side.key:
        raise RulesError(
            f"It's {state.side(state.strategy_turn).label}'s turn to use a strategic manoeuvre "
            "or pass."
        )
    used = {(k, n.casefold()): n for k, n in side.ploys}
    if (kind, name.casefold()) in used and name != COMMAND_REROLL:
        name = used[(kind, name.casefold())]
        raise RulesError(
            f"{side.label} already used {name} in turning point {state.turning_point}: each "
            f"{PLOY_KINDS[kind]} once per turning point."
        )
    if side.cp < cost:
        raise RulesError(f"{side.label} has {side.cp} CP; {name} costs {cost}.")
    new = with_side(state, replace(side, cp=side.cp - cost, ploys=(*side.ploys, (kind, name))))
    writes = {f"{side.key}:cp", f"{side.key}:ploys"}
    if kind == STRATEGIC:
        new = replace(new, strategy_turn=other_side(side.key), passes=0)
        writes.add("match:strategy")
    summary = f"{side.label} used {name}, a {PLOY_KINDS[kind]} ({cost} CP, {side.cp - cost} left)."
    return Step(new, summary, writes=frozenset(writes), reads=_PHASE | {"match:strategy"})


def pass_strategy(state: KillTeamState, event: Event) -> Step:
    side = state.side(event["side"])
    if state.phase is not Phase.STRATEGY:
        raise Stale("The strategy phase is over{by}", "match:phase")
    if state.strategy_turn != side.key:
        raise RulesError(
            f"It's {state.side(state.strategy_turn).label}'s turn to use a strategic manoeuvre "
            "or pass."
        )
    passes = state.passes + 1
    if passes >= 2:
        new = replace(state, phase=Phase.FIREFIGHT, strategy_turn=None, passes=0)
        summary = (
            f"{side.label} passed: both passed in turn. Firefight phase: "
            f"{state.side(state.initiative).label} activates first."
        )
    else:
        new = replace(state, strategy_turn=other_side(side.key), passes=passes)
        summary = f"{side.label} passed."
    return Step(new, summary, writes=frozenset({"match:strategy", "match:phase"}), reads=_PHASE)


def adjust_cp(state: KillTeamState, event: Event) -> Step:
    side = state.side(event["side"])
    amount = event["amount"]
    if amount == 0:
        raise RulesError("Adjust CP by at least 1 up or down.")
    check_range(abs(amount), "A CP adjustment", 1, 99)
    if side.cp + amount < 0:
        raise RulesError(f"{side.label} has {side.cp} CP: it cannot go below 0.")
    reason = " ".join(event["reason"].split())[:MAX_NAME]
    new = with_side(state, replace(side, cp=side.cp + amount))
    word = "gains" if amount > 0 else "loses"
    why = f" ({reason})" if reason else ""
    return Step(
        new,
        f"{side.label} {word} {abs(amount)} CP{why}: {side.cp + amount} CP.",
        writes=frozenset({f"{side.key}:cp"}),
    )


_TP_KEYS = frozenset(
    {"match:tp", "match:phase", "match:initiative", "match:turn", "match:strategy"}
)


def _next_turning_point(state: KillTeamState) -> tuple[KillTeamState, set[str]]:
    new = state
    writes = set(_TP_KEYS)
    if state.active is not None:
        active = state.operative(state.active)
        new = expend(new, active)
        writes.update({f"{active.id}:ready", f"{active.id}:stuns"})
    for side in new.sides:
        if side.ploys:
            new = with_side(new, replace(side, ploys=()))
        writes.add(f"{side.key}:ploys")
    new = replace(
        new,
        turning_point=state.turning_point + 1,
        phase=Phase.INITIATIVE,
        rolls=(None, None),
        decider=None,
        tie=False,
        strategy_turn=None,
        passes=0,
        last_side=None,
        active=None,
    )
    return new, writes


def turning_point_ends(result: Step) -> Step:
    tp = result.state.turning_point
    new, writes = _next_turning_point(result.state)
    return Step(
        new,
        f"{result.summary} Every operative is expended: turning point {tp} ends.",
        result.warnings,
        writes=result.writes | writes,
        reads=result.reads | _TP_KEYS,
    )


def end_turning_point(state: KillTeamState, event: Event) -> Step:
    ending = event["turning_point"]
    if ending < state.turning_point:
        raise Stale(f"Turning point {ending} was already ended{{by}}", "match:tp")
    if ending > state.turning_point:
        raise Stale(
            f"The battle is back in turning point {state.turning_point}: the end of turning "
            f"point {state.turning_point} was undone{{by}}",
            "match:tp",
        )
    waiting = [label(state, op) for side in state.sides for op in side.ready_operatives()]
    warnings: tuple[str, ...] = ()
    if waiting:
        warnings = (
            f"Turning point {ending} ended before every operative was expended: "
            f"{', '.join(waiting)}.",
        )
    new, writes = _next_turning_point(state)
    return Step(
        new,
        f"Turning point {ending} ended. Turning point {ending + 1}: roll for initiative.",
        warnings,
        writes=frozenset(writes),
        reads=_TP_KEYS,
    )


def end_match(state: KillTeamState, event: Event) -> Step:
    winner = event["winner"]
    if winner not in (*SIDES, "draw"):
        raise EventError(f"The result is a, b or draw; got {winner!r}.")
    note = " ".join(event["note"].split())
    if len(note) > MAX_NOTE:
        raise RulesError(f"A result note can be at most {MAX_NOTE} characters.")
    new = replace(state, phase=Phase.ENDED, result=winner, note=note)
    words = "a draw" if winner == "draw" else f"{state.side(winner).label} won"
    return Step(
        new,
        f"The battle ended in turning point {state.turning_point}: {words}.",
        writes=_PHASE,
        reads=_PHASE,
    )
