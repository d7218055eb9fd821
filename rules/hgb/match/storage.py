"""A match state as plain JSON data and back, and the change an event made as plain data (each
event's "before" and "after" in the stored log)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

from rules.errors import RulesError
from rules.hgb.catalog import Skills
from rules.hgb.damage import DamageTrack
from rules.hgb.match.state import (
    AmmoCounter,
    Group,
    MatchState,
    MatchWeapon,
    Mode,
    ModelFigures,
    MovementFigures,
    Phase,
    Side,
    Speed,
    Unit,
    with_unit,
)


def _skills_to_dict(skills: Skills) -> dict[str, int | None]:
    return {"att": skills.att, "def": skills.defense, "ew": skills.ew, "ld": skills.ld}


def _fraction_to_json(value: Fraction | None) -> str | None:
    return None if value is None else str(value)


_WEAPON_FIELDS = ("arc", "reloads", "limited_ammo", "dm", "accuracy", "rof", "notes")
_WEAPON_LISTS = ("ranges", "traits", "parts")


def weapon_to_dict(weapon: MatchWeapon) -> dict[str, Any]:
    """A recorded weapon as plain data; figures not given are left out (a state stays small)."""
    data: dict[str, Any] = {"code": weapon.code, "name": weapon.name}
    for name in _WEAPON_FIELDS:
        value = getattr(weapon, name)
        if value is not None and value != "":
            data[name] = value
    for name in _WEAPON_LISTS:
        if getattr(weapon, name):
            data[name] = list(getattr(weapon, name))
    return data


def _weapon_from_dict(data: Mapping[str, Any]) -> MatchWeapon:
    given: dict[str, Any] = {name: data[name] for name in _WEAPON_FIELDS if name in data}
    given.update({name: tuple(data[name]) for name in _WEAPON_LISTS if name in data})
    return MatchWeapon(code=data["code"], name=data["name"], **given)


def figures_to_dict(figures: ModelFigures) -> dict[str, Any]:
    """Recorded datacard figures as plain data; figures not given are left out. A movement line
    is [mode, speed, attack modifier, defense modifier]."""
    data: dict[str, Any] = {}
    for name in ("size", "sensors"):
        if getattr(figures, name) is not None:
            data[name] = getattr(figures, name)
    if figures.movement:
        data["movement"] = [
            [line.mode, line.speed, line.attack_modifier, line.defense_modifier]
            for line in figures.movement
        ]
    if figures.perks:
        data["perks"] = list(figures.perks)
    return data


def _figures_from_dict(data: Mapping[str, Any]) -> ModelFigures:
    return ModelFigures(
        size=data.get("size"),
        sensors=data.get("sensors"),
        movement=tuple(
            MovementFigures(mode, speed, attack, defense)
            for mode, speed, attack, defense in data.get("movement", ())
        ),
        perks=tuple(data.get("perks", ())),
    )


def unit_to_dict(unit: Unit) -> dict[str, Any]:
    data = {
        "id": unit.id,
        "name": unit.name,
        "model": unit.model,
        "skills": _skills_to_dict(unit.skills),
        "track": unit.track.to_dict(),
        "leader": unit.leader,
        "armor": unit.armor,
        "tv": _fraction_to_json(unit.tv),
        "speed": unit.speed.value,
        "mode": unit.mode.value,
        "used": unit.used,
        "kept_action": unit.kept_action,
        "fo_mark": unit.fo_mark,
        "ammo": [[c.weapon, c.name, c.capacity, c.fired] for c in unit.ammo],
        "speed_round": unit.speed_round,
        "mode_round": unit.mode_round,
        "actions": [[kind, words] for kind, words in unit.actions],
    }
    if unit.weapons is not None:
        data["weapons"] = [weapon_to_dict(weapon) for weapon in unit.weapons]
    if unit.figures is not None:
        data["figures"] = figures_to_dict(unit.figures)
    return data


def _round_to_dict(state: MatchState) -> dict[str, Any]:
    return {
        "round": state.round,
        "phase": state.phase.value,
        "rolls": list(state.rolls),
        "ties": state.ties,
        "last_tie": state.last_tie,
        "winner": state.winner,
        "first": state.first,
        "turn": state.turn,
        "active_group": state.active_group,
        "activated": list(state.activated),
        "result": state.result,
        "note": state.note,
    }


def _group_to_dict(group: Group) -> dict[str, Any]:
    return {
        "id": group.id,
        "number": group.number,
        "name": group.name,
        "tv": group.tv,
        "units": [unit_to_dict(unit) for unit in group.units],
    }


def _side_to_dict(side: Side) -> dict[str, Any]:
    data: dict[str, Any] = {
        "key": side.key,
        "label": side.label,
        "roster_name": side.roster_name,
        "faction": side.faction,
        "tv": side.tv,
        "tv_complete": side.tv_complete,
        "groups": [_group_to_dict(group) for group in side.groups],
    }
    if side.grenade is not None:
        data["grenade"] = weapon_to_dict(side.grenade)
    return data


def state_to_dict(state: MatchState) -> dict[str, Any]:
    """The state as plain JSON types; ``state_from_dict`` reads it back exactly."""
    return {**_round_to_dict(state), "sides": [_side_to_dict(side) for side in state.sides]}


def state_dict_after(
    data: Mapping[str, Any], before: MatchState, after: MatchState
) -> dict[str, Any]:
    """``state_to_dict(after)``, made from ``data`` (which is ``state_to_dict(before)``) by
    converting only the models that changed: a tap on a big match stays cheap."""
    sides = []
    for side_data, side_before, side_after in zip(
        data["sides"], before.sides, after.sides, strict=True
    ):
        if side_before is side_after:
            sides.append(side_data)
            continue
        groups = []
        for group_data, group_before, group_after in zip(
            side_data["groups"], side_before.groups, side_after.groups, strict=True
        ):
            if group_before is group_after:
                groups.append(group_data)
                continue
            units = [
                unit_data if unit_before is unit_after else unit_to_dict(unit_after)
                for unit_data, unit_before, unit_after in zip(
                    group_data["units"], group_before.units, group_after.units, strict=True
                )
            ]
            groups.append({**group_data, "units": units})
        sides.append({**side_data, "groups": groups})
    return {**_round_to_dict(after), "sides": sides}


def _unit_from_dict(data: Mapping[str, Any]) -> Unit:
    skills = data["skills"]
    return Unit(
        id=data["id"],
        name=data["name"],
        model=data["model"],
        skills=Skills(att=skills["att"], defense=skills["def"], ew=skills["ew"], ld=skills["ld"]),
        track=DamageTrack.from_dict(data["track"]),
        leader=data["leader"],
        armor=data["armor"],
        tv=None if data["tv"] is None else Fraction(data["tv"]),
        speed=Speed(data["speed"]),
        mode=Mode(data["mode"]),
        used=data["used"],
        kept_action=data["kept_action"],
        fo_mark=data["fo_mark"],
        ammo=tuple(AmmoCounter(w, n, c, f) for w, n, c, f in data["ammo"]),
        speed_round=data["speed_round"],
        mode_round=data["mode_round"],
        weapons=tuple(_weapon_from_dict(weapon) for weapon in data["weapons"])
        if "weapons" in data
        else None,
        # States stored before matches recorded the figures have none.
        figures=_figures_from_dict(data["figures"]) if "figures" in data else None,
        # States stored before models recorded their actions have none.
        actions=tuple((str(kind), str(words)) for kind, words in data.get("actions", ())),
    )


def state_from_dict(data: Mapping[str, Any]) -> MatchState:
    """Read a state written by ``state_to_dict``; malformed data raises RulesError."""
    with _reading("match state"):
        a, b = (
            Side(
                key=side["key"],
                label=side["label"],
                roster_name=side["roster_name"],
                faction=side["faction"],
                tv=side["tv"],
                tv_complete=side["tv_complete"],
                groups=tuple(
                    Group(
                        id=group["id"],
                        number=group["number"],
                        name=group["name"],
                        tv=group["tv"],
                        units=tuple(_unit_from_dict(unit) for unit in group["units"]),
                    )
                    for group in side["groups"]
                ),
                grenade=_weapon_from_dict(side["grenade"]) if "grenade" in side else None,
            )
            for side in data["sides"]
        )
        return _with_round((a, b), data)


@contextmanager
def _reading(what: str) -> Iterator[None]:
    """Turn a KeyError, TypeError, ValueError or AttributeError met reading stored data into a
    RulesError."""
    try:
        yield
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        if isinstance(error, RulesError):
            raise
        raise RulesError(f"A saved {what} is malformed: {error!r}.") from None


def _with_round(sides: tuple[Side, Side], data: Mapping[str, Any]) -> MatchState:
    """A state of ``sides`` with the round part (``_round_to_dict``) read from ``data``."""
    return MatchState(
        sides=sides,
        round=data["round"],
        phase=Phase(data["phase"]),
        rolls=tuple(data["rolls"]),
        ties=data["ties"],
        last_tie=data["last_tie"],
        winner=data["winner"],
        first=data["first"],
        turn=data["turn"],
        active_group=data["active_group"],
        activated=tuple(data["activated"]),
        result=data["result"],
        note=data["note"],
    )


def changed_parts(before: MatchState, after: MatchState) -> tuple[dict[str, Any], dict[str, Any]]:
    """What differs between two states, as plain data: the models that changed and the round.

    Used to record each event's "before" and "after" in the log.
    """
    old: dict[str, Any] = {}
    new: dict[str, Any] = {}
    for side_before, side_after in zip(before.sides, after.sides, strict=True):
        if side_before is side_after:
            continue
        for unit_before, unit_after in zip(side_before.units, side_after.units, strict=True):
            if unit_before is not unit_after and unit_before != unit_after:
                a, b = _dynamic(unit_before), _dynamic(unit_after)
                keys = [k for k in a if a[k] != b[k]]
                old[unit_before.id] = {k: a[k] for k in keys}
                new[unit_after.id] = {k: b[k] for k in keys}
    round_before, round_after = _round_part(before), _round_part(after)
    keys = [k for k in round_before if round_before[k] != round_after[k]]
    if keys:
        old["match"] = {k: round_before[k] for k in keys}
        new["match"] = {k: round_after[k] for k in keys}
    return old, new


_STATIC = {"id", "name", "model", "skills", "leader", "armor", "tv", "weapons", "figures"}
_TRACK_PARTS = {"damage": "marked", "overkilled": "overkilled"}  # _dynamic's names in the track


def _dynamic(unit: Unit) -> dict[str, Any]:
    data = unit_to_dict(unit)
    track = data.pop("track")
    data["damage"] = track["marked"]
    data["overkilled"] = track["overkilled"]
    return {k: v for k, v in data.items() if k not in _STATIC}


def _round_part(state: MatchState) -> dict[str, Any]:
    return _round_to_dict(state)


def apply_parts(state: MatchState, parts: Mapping[str, Any]) -> MatchState:
    """The state after a change recorded as ``changed_parts(before, after)[1]``.

    ``apply_parts(before, changed_parts(before, after)[1]) == after``: a log that keeps each
    event's "after" can bring a stored state up to date without replaying the rules. Only the
    models named are rebuilt; malformed parts raise RulesError.
    """
    with _reading("change to a match"):
        for key, values in parts.items():
            if key == "match":
                current = _round_part(state)
                if not set(values) <= set(current):
                    raise RulesError(f"A change to the round names {sorted(values)!r}.")
                state = _with_round(state.sides, {**current, **values})
                continue
            data = unit_to_dict(state.unit(key))
            for name, value in values.items():
                if name in _TRACK_PARTS:
                    data["track"] = {**data["track"], _TRACK_PARTS[name]: value}
                elif name in _STATIC or name not in data:
                    raise RulesError(f"A model's change names {name!r}, which never changes.")
                else:
                    data[name] = value
            state = with_unit(state, _unit_from_dict(data))
    return state
