"""What the board shows, worked out from the match state: plain dicts for the templates.

The templates only show what these give them; every number and every rule comes from
rules.hgb.match.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from math import floor

from matches.models import Match, MatchEvent
from matches.pages import actor_label, player_label
from rules.hgb.catalog import RANGE_BANDS, Mount, default_catalog, show_figure
from rules.hgb.damage import DamageState
from rules.hgb.glossary import weapon_terms
from rules.hgb.match import (
    SIDES,
    Group,
    MatchState,
    MatchWeapon,
    Mode,
    Phase,
    Speed,
    Unit,
    groups_left,
    penalised,
    tv_destroyed,
    unit_label,
    weapon_to_dict,
    whose_turn,
)

STATE_WORDS = {
    DamageState.UNDAMAGED: "Undamaged",
    DamageState.STURDY: "Sturdy",
    DamageState.LIGHT: "Light",
    DamageState.HEAVY: "Heavy",
    DamageState.CRITICAL: "Critical",
    DamageState.DESTROYED: "Destroyed",
    DamageState.OVERKILLED: "Overkilled",
}
TV_NOTE = (
    "TV per model is not printed in the quickstart: each model counts for an equal share of its "
    "squad's TV plus its own options, so TV destroyed is an estimate."
)


def whole(value: Fraction) -> int:
    """A TV for display: rounded half up."""
    return floor(value + Fraction(1, 2))


def pack_marks(match: Match) -> dict[str, str]:
    """What a card says beside a figure of each side's datacard pack ("entered by jan")."""
    return {
        side: f"entered by {name}"
        for side in ("a", "b")
        if (name := getattr(match, f"{side}_pack_by", ""))
    }


def armor_mark(unit: Unit, marks: dict[str, str]) -> str:
    """ "entered by jan" when the unit's Armor is not the data's but its side's pack's."""
    if unit.armor is None or not marks.get(unit.side):
        return ""
    model = default_catalog().models.get(unit.model)
    return marks[unit.side] if model is None or model.armor is None else ""


def unit_card(state: MatchState, unit: Unit, marks: dict[str, str] | None = None) -> dict:
    """A model's card: the facts the template draws it from (its state, out, used, each box
    marked or the wreck box) and the buttons' values; the template chooses the CSS classes."""
    track = unit.track
    out = unit.is_out
    uid = unit.id
    boxes = []
    for index, kind in enumerate(track.boxes):
        action = None
        if not track.overkilled:
            if index == track.marked:
                action = "mark"
            elif index == track.marked - 1:
                action = "clear"
        boxes.append(
            _box(uid, kind.letter, kind.value.capitalize(), index, index < track.marked, action)
        )
    wreck_action = None
    if not track.overkilled:
        if track.destroyed:
            wreck_action = "clear"
        elif track.marked == len(track.boxes):
            wreck_action = "mark"
    boxes.append(
        _box(
            uid,
            "\u2715",
            "Past Critical: Destroyed",
            len(track.boxes),
            track.destroyed,
            wreck_action,
            wreck=True,
        )
    )
    penalty = unit.penalty if not out else 0
    skills = unit.skills
    notes = []
    if unit.speed_round == state.round:
        notes.append("Speed changed this round")
    if unit.mode_round == state.round:
        notes.append("Mode changed this round")
    if unit.kept_action and not out:
        notes.append("Kept action: Used until it spends it on Reaction Fire")
    if unit.speed is Speed.TOP and not out:
        notes.append("Top Speed: its action is spent moving")
        if not track.top_speed_allowed:
            notes.append("Can't stay at Top Speed: slow to Combat")
    return {
        "id": uid,
        "live": state.phase is not Phase.ENDED,  # an ended match's cards have no buttons
        "dom_focus": f"unit-{uid}",
        "name": unit.name,
        "leader": unit.leader,
        "state": unit.state.value,
        "state_word": STATE_WORDS[unit.state],
        "effect": "No damage" if unit.state is DamageState.UNDAMAGED else track.effect_text,
        "skills": {
            "att": penalised(skills.att, penalty),
            "def": penalised(skills.defense, penalty),
            "ew": penalised(skills.ew, penalty),
            "ld": penalised(skills.ld, penalty),
        },
        "penalty": penalty,
        "armor": unit.armor,
        "armor_mark": armor_mark(unit, marks or {}),
        "boxes": boxes,
        "out": out,
        "overkilled": track.overkilled,
        "destroyed": track.destroyed,
        "speeds": [
            {
                "op": f"speed {uid} {speed.value}",
                "label": speed.label,
                "current": speed is unit.speed,
                "allowed": speed is not Speed.TOP or track.top_speed_allowed,
            }
            for speed in Speed
        ],
        "modes": [
            {"op": f"mode {uid} {m.value}", "label": m.label, "current": m is unit.mode}
            for m in Mode
        ],
        "used": unit.used,
        "kept": unit.kept_action,
        "fo": unit.fo_mark,
        "toggles": [
            _toggle(uid, "used", unit.used, "Used"),
            _toggle(
                uid,
                "keep",
                unit.kept_action,
                "Spend kept action" if unit.kept_action else "Keep action",
            ),
            # Marking asks which model observed (its action is spent): a link to that page.
            _toggle(uid, "fo", unit.fo_mark, "FO mark") | {"observe": not unit.fo_mark},
        ],
        "ammo": [
            {
                "op": f"fire {uid} {number}",
                "weapon": c.weapon,
                "name": c.name,
                "left": c.left,
                "capacity": c.capacity,
            }
            for number, c in enumerate(unit.ammo, start=1)
        ],
        "notes": " · ".join(notes),
        "weapons": [
            weapon_button(weapon, weapon_mark(unit, weapon, marks)) for weapon in unit.weapons or ()
        ],
    }


def _box(uid: str, letter: str, name: str, index: int, marked: bool, action, wreck=False) -> dict:
    return {
        "letter": letter,
        "name": name,
        "op": f"{action} {uid} {index + 1}" if action else "",
        "wreck": wreck,
        "label": f"{'Cross off' if action == 'mark' else 'Clear'} box {index + 1}, {name}",
        "marked": marked,
        "action": action,
    }


def _toggle(uid: str, word: str, on: bool, label: str) -> dict:
    """A button that turns a flag of the model on or off (its value asks for the other one)."""
    return {
        "op": f"{word} {uid} {0 if on else 1}",
        "pressed": "true" if on else "false",
        "label": label,
    }


def group_head(state: MatchState, group: Group) -> dict:
    if not group.can_activate:
        status = "Out of the game"
    elif state.active_group == group.id:
        status = "Activating"
    elif group.id in state.activated:
        status = "Activated"
    elif state.phase is Phase.ACTIVATIONS:
        status = "Waiting"
    else:
        status = ""
    return {
        "id": group.id,
        "number": group.number,
        "name": group.name,
        "tv": group.tv,
        "status": status,
    }


def side_summary(match: Match, state: MatchState, side_key: str) -> dict:
    side = state.side(side_key)
    destroyed = whole(tv_destroyed(side))
    units = side.units
    return {
        "key": side.key,
        "label": side.label,
        "roster_name": side.roster_name,
        "player": player_label(match.player_name(side_key), side_key)
        if side_key == "a" or match.b_joined
        else "not joined",
        "tv": side.tv,
        "tv_complete": side.tv_complete,
        "tv_destroyed": destroyed,
        "tv_remaining": (side.tv or 0) - destroyed,
        "models_out": sum(1 for unit in units if unit.is_out),
        "models": len(units),
    }


def turn_panel(state: MatchState) -> dict:
    turn = whose_turn(state)
    left = {key: groups_left(state, key) for key in SIDES}
    active = state.group(state.active_group) if state.active_group else None
    return {
        "round": state.round,
        "next_round": state.round + 1,
        "phase": state.phase.value,
        "sides": [
            {
                "key": key,
                "label": state.side(key).label,
                "roll": state.rolls[index],
                "left": [{"id": g.id, "number": g.number, "name": g.name} for g in left[key]],
            }
            for index, key in enumerate(SIDES)
        ],
        "ties": state.ties,
        "last_tie": state.last_tie,
        "winner": state.winner,
        "winner_label": state.side(state.winner).label if state.winner else "",
        "first_label": state.side(state.first).label if state.first else "",
        "turn": turn,
        "turn_label": state.side(turn).label if turn else "",
        "turn_groups": [{"id": g.id, "number": g.number, "name": g.name} for g in left[turn]]
        if turn
        else [],
        "active": f"Combat Group {active.number} of {state.side(active.side).label}"
        if active
        else "",
        # The side acting now (its group activating, or next to activate): a phone shows it.
        "open_side": active.side if active else (turn or ""),
        "result": state.result,
        "result_label": "A draw"
        if state.result == "draw"
        else (f"{state.side(state.result).label} won" if state.result else ""),
        "note": state.note,
        "faces": range(1, 7),
    }


def log_entry(event: MatchEvent, state: MatchState) -> dict:
    return {
        "seq": event.seq,
        "round": event.round,
        "actor": actor_label(event.actor_name, event.actor_side),
        "side_label": state.side(event.actor_side).label if event.actor_side in SIDES else "",
        "time": event.created_at,
        "summary": event.summary,
        "warnings": event.warnings,
        "effective": event.effective,
        "refused": event.refused,
        "is_undo": event.kind == "undo",
    }


def lost_line(state: MatchState, unit: Unit) -> dict:
    """A model out of the game, as the summary's "Lost" list shows it."""
    return {"label": unit_label(state, unit), "state_word": STATE_WORDS[unit.state]}


# --- Weapons: a button on each card, the rules text once per board --------------------------------


WEAPON_FIGURES = ("dm", "accuracy", "rof")
BAND_LETTERS = dict(zip(RANGE_BANDS, ("PB", "S", "M", "L", "X"), strict=True))


def pack_given(weapon: MatchWeapon) -> frozenset[str]:
    """The figures of a match's weapon the game data does not give: its side's datacard pack
    gave them when the match started ("dm", "accuracy", "rof", "ranges.short", "traits")."""
    catalog = default_catalog()
    return _pack_given(weapon, catalog.fingerprint, catalog.weapons.get(weapon.code))


@lru_cache(maxsize=1024)
def _pack_given(weapon: MatchWeapon, _fingerprint: str, data) -> frozenset[str]:
    given = {key for key in WEAPON_FIGURES if getattr(weapon, key) is not None}
    given |= {
        f"ranges.{band}"
        for band, value in zip(RANGE_BANDS, weapon.ranges, strict=False)
        if value is not None
    }
    if weapon.traits:
        given.add("traits")
    if data is None:
        return frozenset(given)
    return frozenset(
        key
        for key in given
        if (getattr(data.ranges, key[7:]) if key.startswith("ranges.") else getattr(data, key))
        is None
    )


def weapon_mark(unit: Unit, weapon: MatchWeapon, marks: dict[str, str] | None) -> str:
    """ "entered by jan" when some figure of the unit's weapon is its side's pack's, not the
    data's (the board then holds a sheet of that weapon marked so)."""
    mark = (marks or {}).get(unit.side, "")
    return mark if mark and pack_given(weapon) else ""


@lru_cache(maxsize=1024)
def weapon_sheet_id(weapon: MatchWeapon, mark: str = "") -> str:
    """The DOM id of a weapon's sheet: the same weapon mounted the same way, with the same
    figures from the same player's pack, shares one."""
    digest = hashlib.blake2s(
        json.dumps([weapon_to_dict(weapon), mark], sort_keys=True).encode(), digest_size=3
    ).hexdigest()
    code = "".join(c for c in weapon.code if c.isalnum())
    return f"w-{code}-{digest}"


def weapon_button(weapon: MatchWeapon, mark: str = "") -> dict:
    """A weapon on a card: its code and name; its sheet opens on a tap (a popover, no request)."""
    return {"code": weapon.code, "name": weapon.name, "sheet": weapon_sheet_id(weapon, mark)}


TYPED_MARK = "typed in this match"


def weapon_sheet(weapon: MatchWeapon, mark: str = "", typed: Mapping | None = None) -> dict:
    """Everything the board knows of a weapon: the figures (shown "—" when neither the game
    data nor the match has them), each marked "entered by <owner>" when its side's datacard pack
    gave it, or "typed in this match" when a player typed it into the attack helper (``typed``:
    the match's figures of this weapon, ``Match.figures``), its notes and its traits' text."""
    mount = Mount(weapon.code, weapon.arc, weapon.reloads, weapon.limited_ammo)
    ranges = dict(zip(RANGE_BANDS, weapon.ranges, strict=False))
    given = pack_given(weapon) if mark else frozenset()
    typed = typed if isinstance(typed, Mapping) else {}
    figures = {}
    for key in WEAPON_FIGURES:
        value = getattr(weapon, key)
        if value is None and isinstance(typed.get(key), int):
            figures[key] = (typed[key], TYPED_MARK)
        else:
            figures[key] = (value, mark if key in given else "")

    def by(key: str) -> str:
        return mark if key in given else ""

    packed_bands = [BAND_LETTERS[b] for b in RANGE_BANDS if f"ranges.{b}" in given]
    given_bands = [b for b in RANGE_BANDS if ranges.get(b) is not None]
    if not packed_bands:
        ranges_mark = ""
    elif len(packed_bands) == len(given_bands):
        ranges_mark = mark
    else:
        ranges_mark = f"{' / '.join(packed_bands)} {mark}"
    return {
        "id": weapon_sheet_id(weapon, mark),
        "code": weapon.code,
        "name": weapon.name,
        "figures": [
            ("Arc", f"{mount.arc_name} ({weapon.arc})" if weapon.arc else "—", ""),
            ("Ammo", mount.ammo_text if mount.ammo_text != show_figure(None) else "—", ""),
            ("DM", _figure(figures["dm"][0], "x"), figures["dm"][1]),
            ("Accuracy", _figure(figures["accuracy"][0]), figures["accuracy"][1]),
            ("RoF", _figure(figures["rof"][0]), figures["rof"][1]),
            (
                "Ranges",
                " / ".join(_figure(ranges.get(band)) for band in RANGE_BANDS)
                + " in (PB / S / M / L / X)"
                if weapon.ranges
                else "—",
                ranges_mark,
            ),
            ("Traits", ", ".join(weapon.traits) if weapon.traits else "—", by("traits")),
        ],
        "marked": bool(given),
        "typed": any(m == TYPED_MARK for _, m in figures.values()),
        "notes": weapon.notes,
        "terms": weapon_terms(weapon.arc, weapon.reloads, weapon.limited_ammo, weapon.parts),
    }


def _figure(value: int | None, before: str = "") -> str:
    return "—" if value is None else f"{before}{value}"


def weapon_sheets(
    state: MatchState, marks: dict[str, str] | None = None, figures: Mapping | None = None
) -> list[dict]:
    """One sheet per distinct weapon of the match (and pack owner), for the board to hold once,
    with the figures typed in the helper during the match (``Match.figures``) where the data and
    the pack give none."""
    typed = (figures or {}).get("weapons") if isinstance(figures, Mapping) else None
    typed = typed if isinstance(typed, Mapping) else {}
    seen: dict[str, tuple[MatchWeapon, str]] = {}
    for unit in state.units:
        for weapon in unit.weapons or ():
            mark = weapon_mark(unit, weapon, marks)
            seen.setdefault(weapon_sheet_id(weapon, mark), (weapon, mark))
    return [weapon_sheet(weapon, mark, typed.get(weapon.code)) for weapon, mark in seen.values()]


def sides(match: Match, state: MatchState) -> list[dict]:
    marks = pack_marks(match)
    return [
        {
            "summary": side_summary(match, state, side.key),
            "groups": [
                {
                    "head": group_head(state, group),
                    "units": [unit_card(state, unit, marks) for unit in group.units],
                }
                for group in side.groups
            ],
        }
        for side in state.sides
    ]


def seat_order(sides: list[dict], seat: str | None) -> list[dict]:
    """The sides in the order a device shows them: the joining player's own army (seat B) first;
    seat A and watchers see side A first."""
    return sides[::-1] if seat == "b" else sides
