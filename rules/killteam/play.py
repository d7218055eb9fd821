"""The events of a Kill Team battle and the rules they follow.

``step(state, event)`` applies one event and says what it did (``rules.eventlog.Step``);
illegal input raises RulesError with a sentence, a tap made on an out-of-date screen raises
``Stale`` and changes nothing. What the text forbids but only the table can judge, or a player
may have a rule for, is a warning beside the new state, never a refusal (as in HGB's tracker).

From the text, read as docs/killteam-readings.md says:

- Initiative: each player rolls a D6; the higher roll decides who has the initiative; on a tie
  the player without the initiative decides; after a tie in the first turning point nobody
  holds it, so the players pick who decides ('First initiative tie': the event names the decider).
- Strategy phase: CP gained ('Command points'), every operative readied, then from the player with
  the initiative the players take turns using a strategic manoeuvre or passing, until both
  pass in succession. A strategic manoeuvre at most once per turning point per player; a
  firefight ploy likewise, except Command Re-roll; ploys are told apart by name. Ploys cost 1 CP,
  a team's own named ploy its own cost (``rules.killteam.ploys``); refused without the CP.
- Firefight phase: sides take turns activating ready operatives from the player with the
  initiative; a side with none ready is skipped ('Turning point end'). An activation starts with an
  order (Engage or Conceal); actions spend AP (costs are the players' figures) up to the APL,
  each action at most once per activation; activating the next operative ends the last
  one's activation. When no operative is ready or active, the turning point ends.
- The basic actions' restrictions that the state knows are warned: Reposition with Charge or
  Fall Back, Dash with Charge, Fall Back with Charge, in one activation; Charge or Shoot on a
  Conceal order (Silent weapons may Shoot); a Heavy weapon and moving in one activation; a
  Limited weapon used more often than x; grenades used more often than picked. Control range
  and visibility are the table's (``TABLE_CHECKS`` says them in words).
"""

from __future__ import annotations

from typing import Any

from rules.eventlog import Event, EventError, Stale, Step, parse_event
from rules.killteam.actions import action, activate, end_activation, set_order
from rules.killteam.kit import use_kit
from rules.killteam.rounds import (
    adjust_cp,
    end_match,
    end_turning_point,
    give_initiative,
    initiative_roll,
    pass_strategy,
    turning_point_ends,
    use_ploy,
)
from rules.killteam.state import (
    KillTeamState,
    Phase,
    all_expended,
)
from rules.killteam.wounding import heal, resolve, stun, wound

EVENT_FIELDS: dict[str, dict[str, Any]] = {
    "initiative_roll": {"side": str, "die": int, "on_screen": bool},
    "give_initiative": {"side": str, "decider": str},
    "use_ploy": {"side": str, "ploy": str, "ploy_kind": str},
    "pass_strategy": {"side": str},
    "adjust_cp": {"side": str, "amount": int, "reason": str},
    "activate": {"operative": str, "order": str},
    "set_order": {"operative": str, "order": str},
    "action": {"operative": str, "action": str, "ap": int, "weapon": str},
    "end_activation": {"operative": str},
    "wound": {"operative": str, "amount": int, "current": int},
    "heal": {"operative": str, "amount": int, "current": int},
    "stun": {"operative": str},
    "resolve": {
        "operative": str,
        "action": str,
        "ap": int,
        "weapon": str,
        "damage": dict,
        "stun": list,
        "note": str,
        "seen": dict,
        "again": bool,
        "hot": int,
    },
    "end_turning_point": {"turning_point": int},
    "end_match": {"winner": str, "note": str},
    "use_kit": {"side": str, "item": str, "dice": dict},
    "undo": {"target": int},
}
OPTIONAL_FIELDS: dict[str, Any] = {
    "on_screen": False,
    "decider": "",
    "reason": "",
    "weapon": "",
    "ap": 0,
    "action": "",
    "damage": {},
    "stun": [],
    "note": "",
    "amount": 1,
    "seen": {},
    "again": False,
    "hot": 0,
    "dice": {},
}


def make_event(kind: str, **data: Any) -> Event:
    """An event checked as ``read_event`` checks it: ``make_event("stun", operative="a-1")``."""
    return parse_event({"kind": kind, **data}, EVENT_FIELDS, OPTIONAL_FIELDS)


def read_event(data: object) -> Event:
    """An event from plain data; anything malformed raises EventError with a sentence."""
    return parse_event(data, EVENT_FIELDS, OPTIONAL_FIELDS)


def step(state: KillTeamState, event: Event, seq: int | None = None) -> Step:
    """Apply one event (not an undo: see ``rules.killteam.log.plan_undo``) and say what it did."""
    if not isinstance(event, Event):
        raise EventError(f"Not an event: {event!r}.")
    if event.kind == "undo":
        raise EventError("An undo is applied to the whole log: use plan_undo.")
    handler = _HANDLERS.get(event.kind)
    if handler is None:
        raise EventError(f"Unknown event kind {event.kind!r}.")
    if state.phase is Phase.ENDED:
        if event.kind == "end_match":
            raise Stale("The battle was already ended{by}", "match:phase")
        raise Stale(
            "The battle was ended{by}: undo 'End battle' in the log to change anything",
            "match:phase",
        )
    result = handler(state, event)
    if result.state.phase is Phase.FIREFIGHT and all_expended(result.state):
        return turning_point_ends(result)
    return result


_HANDLERS = {
    "initiative_roll": initiative_roll,
    "give_initiative": give_initiative,
    "use_ploy": use_ploy,
    "pass_strategy": pass_strategy,
    "adjust_cp": adjust_cp,
    "activate": activate,
    "set_order": set_order,
    "action": action,
    "end_activation": end_activation,
    "wound": wound,
    "heal": heal,
    "stun": stun,
    "resolve": resolve,
    "end_turning_point": end_turning_point,
    "end_match": end_match,
    "use_kit": use_kit,
}
