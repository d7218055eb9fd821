"""A mecha match as plain JSON data, and in parts for the log and for sync: "match" (the turn,
its end) and one part per unit ("a-1": its counters, what it did this turn, its damage).
``apply_parts(before, changed_parts(before, after)[1]) == after`` for every event."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, replace
from typing import Any

from rules.errors import RulesError
from rules.eventlog import diff_parts, merge_parts
from rules.mecha.damage import Dice
from rules.mecha.state import MechaState, Unit, Weapon

_MATCH = ("turn", "ended", "result", "note")
_DYNAMIC = (
    "counters",
    "spent",
    "held",
    "declared",
    "moved",
    "charged",
    "rams",
    "used",
    "no_move",
    "damage",
)
_TUPLES = ("held", "used")


def _unit_part(unit: Unit) -> dict[str, Any]:
    data = {name: getattr(unit, name) for name in _DYNAMIC}
    for name in _TUPLES:
        data[name] = list(data[name])
    return data


def _weapon_to_dict(weapon: Weapon) -> dict[str, Any]:
    data = asdict(weapon)
    data["damage"] = asdict(weapon.damage) if weapon.damage else None
    return data


def _unit_to_dict(unit: Unit) -> dict[str, Any]:
    data = asdict(unit)
    data["weapons"] = [_weapon_to_dict(w) for w in unit.weapons]
    return {**data, **_unit_part(unit)}


def state_to_dict(state: MechaState) -> dict[str, Any]:
    """The state as plain JSON types; ``state_from_dict`` reads it back exactly."""
    return {
        "labels": list(state.labels),
        "ram_formula": state.ram_formula,
        "ram_scope": state.ram_scope,
        "match": {name: getattr(state, name) for name in _MATCH},
        "units": [_unit_to_dict(unit) for unit in state.units],
    }


@contextmanager
def _reading(what: str) -> Iterator[None]:
    try:
        yield
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        if isinstance(error, RulesError):
            raise
        raise RulesError(f"A saved {what} is malformed: {error!r}.") from None


def _weapon_from_dict(data: Mapping[str, Any]) -> Weapon:
    damage = data["damage"]
    return Weapon(**{**data, "damage": Dice(damage["count"], damage["die"]) if damage else None})


def _unit_from_dict(data: Mapping[str, Any]) -> Unit:
    values = dict(data)
    values["weapons"] = tuple(_weapon_from_dict(w) for w in data["weapons"])
    for name in _TUPLES:
        values[name] = tuple(str(item) for item in data[name])
    return Unit(**values)


def state_from_dict(data: Mapping[str, Any]) -> MechaState:
    """Read a state written by ``state_to_dict``; malformed data raises RulesError."""
    with _reading("mecha match"):
        a, b = data["labels"]
        return MechaState(
            labels=(str(a), str(b)),
            units=tuple(_unit_from_dict(unit) for unit in data["units"]),
            ram_formula=data["ram_formula"],
            ram_scope=data["ram_scope"],
            **{name: data["match"][name] for name in _MATCH},
        )


def state_parts(state: MechaState) -> dict[str, dict[str, Any]]:
    """What events change, by part: "match" and each unit's id."""
    parts: dict[str, dict[str, Any]] = {"match": {name: getattr(state, name) for name in _MATCH}}
    for unit in state.units:
        parts[unit.id] = _unit_part(unit)
    return parts


def changed_parts(
    before: MechaState, after: MechaState
) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """What differs between two states, as (old, new) plain data by part."""
    return diff_parts(state_parts(before), state_parts(after))


def apply_parts(state: MechaState, change: Mapping[str, Any]) -> MechaState:
    """The state after a change recorded as ``changed_parts(before, after)[1]``; malformed
    parts raise RulesError."""
    merged = merge_parts(state_parts(state), change, "mecha match")
    with _reading("change to a mecha match"):
        units = tuple(
            _unit_from_dict({**_unit_to_dict(unit), **merged[unit.id]})
            if unit.id in change
            else unit
            for unit in state.units
        )
        return replace(state, units=units, **{name: merged["match"][name] for name in _MATCH})
