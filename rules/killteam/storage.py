"""A Kill Team battle as plain JSON data, and in parts for the log and for sync.

``state_to_dict`` / ``state_from_dict`` write and read the whole state. ``state_parts`` splits
what events change into parts: "match" (the turning point), "a" and "b" (each player's CP,
ploys and grenades used), and one per operative ("a-3": wounds, order, readiness, AP, counters).
``changed_parts(before, after)`` records an event's change as (old, new) parts and
``apply_parts(before, new)`` puts it back: ``apply_parts(before, changed_parts(before,
after)[1]) == after`` for every event, so a second device carries every part (per-side CP
included) without replaying the rules.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from rules.errors import RulesError
from rules.eventlog import diff_parts, merge_parts
from rules.killteam.ploys import ploy_to_dict, read_ploys
from rules.killteam.profile import weapon_to_dict
from rules.killteam.state import (
    BattleOperative,
    BattleSide,
    GrenadeCount,
    KillTeamState,
    KitCount,
    Phase,
)
from rules.killteam.weapons import weapon_from_dict

_MATCH_FIELDS = (
    "turning_point",
    "phase",
    "rolls",
    "decider",
    "initiative",
    "strategy_turn",
    "passes",
    "last_side",
    "active",
    "result",
    "note",
    "tie",
)
_OPERATIVE_STATIC = ("id", "name", "apl", "move", "save", "wounds")
_OPERATIVE_DYNAMIC = (
    "current",
    "order",
    "ready",
    "ap_spent",
    "actions",
    "weapons_used",
    "uses",
    "stuns",
    "stuns_held",
)


def _match_part(state: KillTeamState) -> dict[str, Any]:
    data = {name: getattr(state, name) for name in _MATCH_FIELDS}
    data["phase"] = state.phase.value
    data["rolls"] = list(state.rolls)
    return data


def _side_part(side: BattleSide) -> dict[str, Any]:
    return {
        "cp": side.cp,
        "ploys": [list(ploy) for ploy in side.ploys],
        "grenades": {g.key: g.used for g in side.grenades},
        "kit": {k.key: [k.used, k.last_tp] for k in side.kit},
    }


def _operative_part(operative: BattleOperative) -> dict[str, Any]:
    data = {name: getattr(operative, name) for name in _OPERATIVE_DYNAMIC}
    data["actions"] = list(operative.actions)
    data["weapons_used"] = list(operative.weapons_used)
    data["uses"] = {name: count for name, count in operative.uses}
    return data


def _operative_to_dict(operative: BattleOperative) -> dict[str, Any]:
    return {
        **{name: getattr(operative, name) for name in _OPERATIVE_STATIC},
        "weapons": [weapon_to_dict(weapon) for weapon in operative.weapons],
        **_operative_part(operative),
    }


def state_to_dict(state: KillTeamState) -> dict[str, Any]:
    """The state as plain JSON types; ``state_from_dict`` reads it back exactly."""
    return {
        "match": _match_part(state),
        "sides": [
            {
                "key": side.key,
                "label": side.label,
                "team": side.team,
                "picked": {g.key: [g.name, g.picked] for g in side.grenades},
                "team_ploys": [ploy_to_dict(ploy) for ploy in side.team_ploys],
                "kit_picked": {k.key: [k.name, k.picked, k.per_tp] for k in side.kit},
                "kit_kept": list(side.kit_kept),
                **_side_part(side),
                "operatives": [_operative_to_dict(op) for op in side.operatives],
            }
            for side in state.sides
        ],
    }


@contextmanager
def _reading(what: str) -> Iterator[None]:
    try:
        yield
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        if isinstance(error, RulesError):
            raise
        raise RulesError(f"A saved {what} is malformed: {error!r}.") from None


def _operative_from_dict(data: Mapping[str, Any]) -> BattleOperative:
    return BattleOperative(
        **{name: data[name] for name in _OPERATIVE_STATIC},
        weapons=tuple(weapon_from_dict(w) for w in data["weapons"]),
        current=data["current"],
        order=data["order"],
        ready=data["ready"],
        ap_spent=data["ap_spent"],
        actions=tuple(data["actions"]),
        weapons_used=tuple(data["weapons_used"]),
        uses=tuple(sorted((str(name), int(n)) for name, n in data["uses"].items())),
        stuns=data["stuns"],
        stuns_held=data["stuns_held"],
    )


def _side_from_dict(data: Mapping[str, Any]) -> BattleSide:
    picked = data["picked"]
    return BattleSide(
        key=data["key"],
        label=data["label"],
        team=data["team"],
        operatives=tuple(_operative_from_dict(op) for op in data["operatives"]),
        cp=data["cp"],
        ploys=tuple((str(kind), str(name)) for kind, name in data["ploys"]),
        grenades=tuple(
            GrenadeCount(key, name, count, data["grenades"][key])
            for key, (name, count) in picked.items()
        ),
        team_ploys=read_ploys(data.get("team_ploys", [])),  # none in matches started before
        kit=tuple(
            KitCount(key, name, count, data["kit"][key][0], per_tp, data["kit"][key][1])
            for key, (name, count, per_tp) in data.get("kit_picked", {}).items()
        ),
        kit_kept=tuple(str(key) for key in data.get("kit_kept", ())),
    )


def _kit_used(count: KitCount, data: list[int]) -> KitCount:
    used, last_tp = data
    return replace(count, used=used, last_tp=last_tp)


def _match_from(sides: tuple[BattleSide, BattleSide], data: Mapping[str, Any]) -> KillTeamState:
    rolls = data["rolls"]
    return KillTeamState(
        sides=sides,
        turning_point=data["turning_point"],
        phase=Phase(data["phase"]),
        rolls=(rolls[0], rolls[1]),
        decider=data["decider"],
        initiative=data["initiative"],
        strategy_turn=data["strategy_turn"],
        passes=data["passes"],
        last_side=data["last_side"],
        active=data["active"],
        result=data["result"],
        note=data["note"],
        tie=data["tie"],
    )


def state_from_dict(data: Mapping[str, Any]) -> KillTeamState:
    """Read a state written by ``state_to_dict``; malformed data raises RulesError."""
    with _reading("Kill Team battle"):
        a, b = (_side_from_dict(side) for side in data["sides"])
        return _match_from((a, b), data["match"])


def state_parts(state: KillTeamState) -> dict[str, dict[str, Any]]:
    """What events change, by part: "match", "a", "b" and each operative's id."""
    parts = {"match": _match_part(state)}
    for side in state.sides:
        parts[side.key] = _side_part(side)
        for operative in side.operatives:
            parts[operative.id] = _operative_part(operative)
    return parts


def changed_parts(
    before: KillTeamState, after: KillTeamState
) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """What differs between two states, as (old, new) plain data by part."""
    return diff_parts(state_parts(before), state_parts(after))


def apply_parts(state: KillTeamState, change: Mapping[str, Any]) -> KillTeamState:
    """The state after a change recorded as ``changed_parts(before, after)[1]``; malformed
    parts raise RulesError."""
    merged = merge_parts(state_parts(state), change, "Kill Team battle")
    with _reading("change to a Kill Team battle"):
        sides = []
        for side in state.sides:
            operatives = tuple(
                _operative_from_dict({**_operative_to_dict(op), **merged[op.id]})
                if op.id in change
                else op
                for op in side.operatives
            )
            if side.key in change or operatives != side.operatives:
                side_data = merged[side.key]
                side = replace(
                    side,
                    operatives=operatives,
                    cp=side_data["cp"],
                    ploys=tuple((str(k), str(n)) for k, n in side_data["ploys"]),
                    grenades=tuple(
                        replace(g, used=side_data["grenades"][g.key]) for g in side.grenades
                    ),
                    kit=tuple(_kit_used(k, side_data["kit"][k.key]) for k in side.kit),
                )
            sides.append(side)
        return _match_from((sides[0], sides[1]), merged["match"])
