"""A WWII skirmish battle as plain JSON data, and in parts for the log and for sync.

``state_to_dict`` / ``state_from_dict`` write and read the whole state. ``state_parts`` splits
what events change into parts: "match" (the turn, smoke, the end) and one per vehicle and soldier
(its id). ``changed_parts(before, after)`` records an event's change and ``apply_parts`` puts it
back: ``apply_parts(before, changed_parts(before, after)[1]) == after`` for every event."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, replace
from typing import Any

from rules.errors import RulesError
from rules.eventlog import diff_parts, merge_parts
from rules.ww2.state import Soldier, Vehicle, Ww2State, dynamic_fields

_VEHICLE_DYNAMIC = dynamic_fields(Vehicle)
_SOLDIER_DYNAMIC = dynamic_fields(Soldier)
_TUPLES = ("mgs", "specialisations")


def _match_part(state: Ww2State) -> dict[str, Any]:
    return {
        "turn": state.turn,
        "smoke": [list(note) for note in state.smoke],
        "ended": state.ended,
        "result": state.result,
    }


def _unit_part(unit: Vehicle | Soldier) -> dict[str, Any]:
    names = _VEHICLE_DYNAMIC if isinstance(unit, Vehicle) else _SOLDIER_DYNAMIC
    return {name: getattr(unit, name) for name in names}


def state_to_dict(state: Ww2State) -> dict[str, Any]:
    """The state as plain JSON types; ``state_from_dict`` reads it back exactly."""
    return {
        "labels": list(state.labels),
        "running_gear_counts": state.running_gear_counts,
        "match": _match_part(state),
        "vehicles": [
            {k: list(v) if k in _TUPLES else v for k, v in asdict(v).items()}
            for v in state.vehicles
        ],
        "soldiers": [asdict(s) for s in state.soldiers],
    }


@contextmanager
def _reading(what: str) -> Iterator[None]:
    try:
        yield
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        if isinstance(error, RulesError):
            raise
        raise RulesError(f"A saved {what} is malformed: {error!r}.") from None


def _vehicle(data: Mapping[str, Any]) -> Vehicle:
    fields: dict[str, Any] = {k: tuple(v) if k in _TUPLES else v for k, v in data.items()}
    return Vehicle(**fields)


def _with_match(state: Ww2State, data: Mapping[str, Any]) -> Ww2State:
    return replace(
        state,
        turn=data["turn"],
        smoke=tuple((int(turn), str(vid)) for turn, vid in data["smoke"]),
        ended=data["ended"],
        result=data["result"],
    )


def state_from_dict(data: Mapping[str, Any]) -> Ww2State:
    """Read a state written by ``state_to_dict``; malformed data raises RulesError."""
    with _reading("WWII skirmish battle"):
        a, b = data["labels"]
        state = Ww2State(
            (str(a), str(b)),
            tuple(_vehicle(v) for v in data["vehicles"]),
            tuple(Soldier(**s) for s in data["soldiers"]),
            bool(data["running_gear_counts"]),
        )
        return _with_match(state, data["match"])


def state_parts(state: Ww2State) -> dict[str, dict[str, Any]]:
    """What events change, by part: "match" and each vehicle's and soldier's id."""
    parts = {"match": _match_part(state)}
    units: tuple[Vehicle | Soldier, ...] = (*state.vehicles, *state.soldiers)
    for unit in units:
        parts[unit.id] = _unit_part(unit)
    return parts


def changed_parts(
    before: Ww2State, after: Ww2State
) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """What differs between two states, as (old, new) plain data by part."""
    return diff_parts(state_parts(before), state_parts(after))


def apply_parts(state: Ww2State, change: Mapping[str, Any]) -> Ww2State:
    """The state after a change recorded as ``changed_parts(before, after)[1]``; malformed
    parts raise RulesError."""
    merged = merge_parts(state_parts(state), change, "WWII skirmish battle")
    with _reading("change to a WWII skirmish battle"):
        vehicles = tuple(
            replace(v, **merged[v.id]) if v.id in change else v for v in state.vehicles
        )
        soldiers = tuple(
            replace(s, **merged[s.id]) if s.id in change else s for s in state.soldiers
        )
        return _with_match(replace(state, vehicles=vehicles, soldiers=soldiers), merged["match"])
