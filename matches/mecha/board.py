"""What the mecha board shows: each unit's card, the turn panel and the log lines, as plain dicts
the template prints (every word and number comes from ``rules.mecha``)."""

from __future__ import annotations

from django.urls import NoReverseMatch, reverse

from matches.models import Match
from matches.pages import player_label
from rules.mecha.attacks import RAM_TYPES
from rules.mecha.state import HAND_HELD, WEAPON_TYPES, MechaState, Unit, Weapon

FIX_WORDS = {
    "1_handed": "1 Handed",
    "2_handed": "2 Handed",
    "1_2_handed": "1/2 Handed",
    "arc": "Arc",
    "fixed_handed": "Fixed Handed",
    "turret": "Turret",
    "stand": "Stand",
}
NOT_GIVEN = "not given"


def rules_url() -> str:
    """The page "What these rules give" (the builder's, ``armies:mecha-rules``); "" while that
    page is not part of the site."""
    try:
        return reverse("armies:mecha-rules")
    except NoReverseMatch:
        return ""


def _shown(value: int | None) -> str:
    return NOT_GIVEN if value is None else str(value)


def weapon_line(weapon: Weapon) -> str:
    damage = str(weapon.damage) if weapon.damage else "Damage not given"
    link = ""
    if weapon.link_kind:
        kinds = {"attached_main": "Attached main", "attached_addon": "Attached add-on"}
        link = f" · {kinds.get(weapon.link_kind, 'Link')} {weapon.link_set}"
    rng = f"Range {_shown(weapon.range)}"
    fix = FIX_WORDS.get(weapon.fix, weapon.fix)
    return f"{WEAPON_TYPES[weapon.type]} type · {rng} · {damage} · {fix}{link}"


def unit_card(state: MechaState, unit: Unit) -> dict:
    held = [unit.weapon(w).name for w in unit.held]
    links = sorted({w.link_set for w in unit.weapons if w.link_kind == "linked"})
    return {
        "id": unit.id,
        "name": unit.name,
        "kind": unit.kind_label,
        "figures": (
            f"Size Class {_shown(unit.size_class)} · Strength {_shown(unit.strength)} · "
            f"Armour {_shown(unit.armour)} · Range Attack {_shown(unit.range_attack)} · "
            f"Melee Attack {_shown(unit.melee_attack)} · {unit.hands} hands"
        ),
        "ac": (
            f"AC {unit.spent} spent, {unit.left} left of {unit.counters}"
            if unit.counters is not None
            else f"AC {unit.spent} spent (counters not entered)"
        ),
        "counters": unit.counters,
        "over": unit.left is not None and unit.left < 0,
        "held": ", ".join(held) or "none declared",
        "declared": unit.declared,
        "moved": "Charge Move made" if unit.charged else ("moved" if unit.moved else ""),
        "no_move": unit.no_move,
        "rams": unit.rams,
        "damage": unit.damage,
        "live": not state.ended,
        "unarmed": unit.may_go_unarmed,
        "hand_held": [
            {"id": w.id, "name": w.name, "held": w.id in unit.held, "two": w.fix != "1_handed"}
            for w in unit.weapons
            if w.fix in (*HAND_HELD, "stand")
        ],
        "weapons": [
            {
                "id": w.id,
                "name": w.name,
                "line": weapon_line(w),
                "used": w.id in unit.used,
                "ram": w.type in RAM_TYPES,
            }
            for w in unit.weapons
        ],
        "links": links,
    }


def turn_panel(state: MechaState) -> dict:
    result = ""
    if state.ended:
        result = {
            "a": f"{state.labels[0]} won",
            "b": f"{state.labels[1]} won",
            "draw": "a draw",
        }.get(state.result, "ended with no result")
    return {
        "turn": state.turn,
        "ended": state.ended,
        "result": result,
        "labels": state.labels,
        "sides": [
            {"key": key, "label": label}
            for key, label in zip(("a", "b"), state.labels, strict=True)
        ],
    }


def summary_side(match: Match, state: MechaState, key: str, label: str) -> dict:
    return {
        "key": key,
        "label": label,
        "force": getattr(match, f"{key}_roster_name"),
        "player": player_label(match.player_name(key), key),
        "units": [
            {"name": u.name, "kind": u.kind_label, "damage": u.damage}
            for u in state.side_units(key)
        ],
    }
