"""Events: the changes a match is made of, read from plain data, and ``Step``, one applied
(``rules.eventlog``'s, with the models it changed)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules import eventlog
from rules.eventlog import Event as Event  # re-exported: the match's modules read it here
from rules.hgb.match.state import MatchState

_UNIT: dict[str, type | tuple[type, ...]] = {"unit": str}
EVENT_FIELDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    # ``box`` is the box the player tapped, counted from 1 (the box past Critical is the last);
    # 0 (events stored before taps named their box) means the next box, or the last crossed off.
    "mark_box": {"unit": str, "box": int},
    "clear_box": {"unit": str, "box": int},
    "destroy": _UNIT,
    "overkill": _UNIT,
    "clear_overkill": _UNIT,
    "set_speed": {"unit": str, "speed": str},
    "set_mode": {"unit": str, "mode": str},
    "set_used": {"unit": str, "used": bool},
    "keep_action": {"unit": str, "kept": bool},
    "fire": {"unit": str, "weapon": int},
    "fo_mark": {"unit": str, "marked": bool, "observer": str},
    "initiative_roll": {"side": str, "die": int, "on_screen": bool},
    "choose_first": {"side": str},
    "activate": {"group": str},
    "end_round": {"round": int},  # the round the player ended; 0 (older events): the current one
    "end_match": {"winner": str, "note": str},
    "undo": {"target": int},
    # The attack helper (see rules.hgb.match.combat).
    "attack": {
        "attacker": str,
        "targets": list,
        "ammo": int,
        "note": str,
        "figures": dict,
        "weapon": str,
        "reaction": bool,
        "autopilot": bool,
        "rof": int,
        "bands": dict,
    },
    "ecm": {
        "blocker": str,
        "target": str,
        "blocked": bool,
        "note": str,
        "figures": dict,
        "observer": str,
    },
}
OPTIONAL_FIELDS = {
    "on_screen": False,
    "note": "",
    "ammo": -1,
    "figures": {},
    "observer": "",
    "weapon": "",
    "reaction": False,
    "autopilot": False,
    "rof": 0,
    "bands": {},
    "box": 0,
    "round": 0,
}
UNIT_KINDS = frozenset(kind for kind, fields in EVENT_FIELDS.items() if "unit" in fields)


def make_event(kind: str, **data: Any) -> Event:
    """An event checked like ``parse_event``: ``make_event("mark_box", unit="a-1-1")``."""
    return parse_event({"kind": kind, **data})


def parse_event(data: object) -> Event:
    """Read an event from plain data; anything malformed raises EventError with a sentence."""
    return eventlog.parse_event(data, EVENT_FIELDS, OPTIONAL_FIELDS)


@dataclass(frozen=True)
class Step(eventlog.Step):
    """One event applied (``rules.eventlog.Step``): the new state, warnings, a sentence for the
    log, and what it touched.

    ``writes`` and ``reads`` are keys such as "a-1-2:damage", "turn", "round", "phase": a later
    event depends on this one when it reads or writes something this one wrote.
    """

    state: MatchState

    @property
    def units(self) -> frozenset[str]:
        """Ids of the models whose state this event changed."""
        return frozenset(key.split(":", 1)[0] for key in self.writes if ":" in key)


Handler = Callable[[MatchState, Event], Step]
"""Applies one kind of event to a state (``rules.hgb.match.play.step`` picks it by kind)."""

NumberedHandler = Callable[[MatchState, Event, "int | None"], Step]
"""A handler also told the number the event has in the log (None: not yet known)."""
