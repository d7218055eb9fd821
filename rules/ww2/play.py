"""The events of a WWII skirmish battle and the rules they follow.

``step(state, event)`` applies one event and says what it did (``rules.eventlog.Step``); illegal
input raises RulesError with a sentence, a tap made on an out-of-date screen raises ``Stale`` and
changes nothing. What the text forbids but only the table can judge is a warning, never a refusal.
The handlers are in ``rules.ww2.vehicles`` and ``rules.ww2.infantry``; the turn is one counter the
players advance (the text never defines a turn)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.eventlog import Event, EventError, Stale, Step, parse_event
from rules.ww2 import infantry, vehicles
from rules.ww2.infantry import far_soldiers
from rules.ww2.state import SIDES, Ww2State
from rules.ww2.storage import changed_parts, state_parts

EVENT_FIELDS: dict[str, dict[str, Any]] = {
    "end_turn": {"turn": int},
    "end_match": {"winner": str},
    "hit": {"vehicle": str, "seen": int, "result": str, "gun_class": int, "armour_class": int},
    "running_gear": {"vehicle": str, "weapon": str, "strength": int, "gun_class": int},
    "mine_trawl": {"vehicle": str},
    "napalm": {"vehicle": str, "hit": bool, "destroyed": list},
    "smoke": {"vehicle": str, "how": str},
    "clear_smoke": {"vehicle": str},
    "capture": {"vehicle": str, "die": int, "conditions": list},
    "use_enemy": {"vehicle": str, "side": str, "soldiers": list},
    "move": {"vehicle": str},
    "fire": {"vehicle": str, "weapon": str},
    "hitch": {"vehicle": str, "tow": str},
    "unhitch": {"vehicle": str},
    "embark": {"soldier": str, "vehicle": str},
    "dismount": {"soldier": str},
    "wound": {"soldier": str, "outcome": str},
    "wound_test": {"soldier": str, "result": str},
    "prisoner": {"soldier": str, "captor": str, "conditions": list},
    "carry": {"soldier": str, "wounded": str},
    "attack": {"soldier": str},
    "fight": {"soldier": str, "enemy": str, "die": int, "enemy_die": int, "outcome": str},
    "mark_far": {"soldier": str, "far": bool},
    "morale": {"soldier": str, "result": str},
    "undo": {"target": int},
}
OPTIONAL_FIELDS: dict[str, Any] = {
    "gun_class": 0,
    "armour_class": 0,
    "destroyed": [],
    "conditions": [],
    "soldiers": [],
    "far": True,
}


def make_event(kind: str, **data: Any) -> Event:
    """An event checked as ``read_event`` checks it: ``make_event("move", vehicle="a-v1")``."""
    return parse_event({"kind": kind, **data}, EVENT_FIELDS, OPTIONAL_FIELDS)


def read_event(data: object) -> Event:
    """An event from plain data; anything malformed raises EventError with a sentence."""
    return parse_event(data, EVENT_FIELDS, OPTIONAL_FIELDS)


def end_turn(state: Ww2State, event: Event) -> tuple[Ww2State, str, tuple[str, ...]]:
    if event["turn"] != state.turn:
        raise Stale(f"Turn {event['turn']} was already ended{{by}}", "match:turn")
    far = far_soldiers(state)
    warnings: tuple[str, ...] = ()
    if far:
        names = ", ".join(s.name for s in far)
        warnings = (
            f'Morale test for soldiers beyond 12" of a commander or officer: {names} '
            "(the test is not in the rules text: enter its result).",
        )
    return replace(state, turn=state.turn + 1), f"Turn {state.turn} ended.", warnings


def end_match(state: Ww2State, event: Event) -> tuple[Ww2State, str, tuple[str, ...]]:
    winner = event["winner"]
    if winner not in (*SIDES, "draw"):
        raise EventError(f"The winner is a, b or draw; got {winner!r}.")
    words = "a draw" if winner == "draw" else f"{state.label(winner)} won"
    return replace(state, ended=True, result=winner), f"The battle ended: {words}.", ()


_HANDLERS = {
    "end_turn": end_turn,
    "end_match": end_match,
    "hit": vehicles.hit,
    "running_gear": vehicles.running_gear,
    "mine_trawl": vehicles.mine_trawl,
    "napalm": vehicles.napalm,
    "smoke": vehicles.smoke,
    "clear_smoke": vehicles.clear_smoke,
    "capture": vehicles.capture,
    "use_enemy": vehicles.use_enemy,
    "move": vehicles.move,
    "fire": vehicles.fire,
    "hitch": vehicles.hitch,
    "unhitch": vehicles.unhitch,
    "embark": vehicles.embark,
    "dismount": vehicles.dismount,
    "wound": infantry.wound,
    "wound_test": infantry.wound_test,
    "prisoner": infantry.take_prisoner,
    "carry": infantry.carry,
    "attack": infantry.attack,
    "fight": infantry.fight,
    "mark_far": infantry.mark_far,
    "morale": infantry.morale,
}


def _named(state: Ww2State, event: Event) -> set[str]:
    """The units an event names (its reads reach every field of them)."""
    names: set[str] = set()
    for value in event.data.values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and state.has(item):
                names.add(item)
    return names


def step(state: Ww2State, event: Event, seq: int | None = None) -> Step:
    """Apply one event (not an undo: see ``rules.ww2.log.plan_undo``) and say what it did."""
    if not isinstance(event, Event):
        raise EventError(f"Not an event: {event!r}.")
    handler = _HANDLERS.get(event.kind)
    if handler is None:
        raise EventError(f"Unknown event kind {event.kind!r}; an undo is applied to the whole log.")
    if state.ended:
        if event.kind == "end_match":
            raise Stale("The battle was already ended{by}", "match:ended")
        raise Stale(
            "The battle was ended{by}: undo 'The battle ended' to change anything", "match:ended"
        )
    new, summary, warnings = handler(state, event)
    parts = state_parts(state)
    writes = frozenset(
        f"{part}:{name}" for part, values in changed_parts(state, new)[1].items() for name in values
    )
    reads = {"match:turn"}
    for unit in _named(state, event):
        reads |= {f"{unit}:{name}" for name in parts[unit]}
    return Step(new, summary, warnings, writes, frozenset(reads))
