"""What the WWII board shows: each vehicle's and soldier's card, the turn panel and its prompts,
as plain dicts the template prints (every rule comes from ``rules.ww2``)."""

from __future__ import annotations

from rules.ww2 import helpers
from rules.ww2.infantry import condition, far_soldiers, move_only, no_combat, wound_test_due
from rules.ww2.state import CREW, RIDER, SIDES, Soldier, Vehicle, Ww2State
from rules.ww2.vehicles import MG_NAMES

SOLDIER_WORDS = {
    "healthy": "Healthy",
    "wounded": "Wounded",
    "recovering": "Recovering: move only",
    "dead": "Dead",
    "prisoner": "Prisoner",
}
RANKS = {"soldier": "", "commander": "Commander", "officer": "Officer"}
SPECIALISATIONS = {
    "spotter": "Spotter",
    "mine_trawl": "Mine trawl",
    "active_armour": "Active armour",
}


def _card_value(value: int | None) -> str:
    return "not on the card" if value is None else str(value)


def vehicle_card(state: Ww2State, vehicle: Vehicle) -> dict:
    live = not vehicle.destroyed and not state.ended
    crew = state.aboard(vehicle.id, CREW)
    riders = state.aboard(vehicle.id, RIDER)
    tow = state.vehicle(vehicle.hitched_to).name if vehicle.hitched_to else ""
    flags = []
    if vehicle.running_gear:
        flags.append("Running gear damaged: no movement for the rest of the game")
    if vehicle.captured:
        flags.append("Captured")
    if vehicle.controller != vehicle.side:
        flags.append(f"Used by {state.label(vehicle.controller)}")
    if tow:
        flags.append(f"Hitched to {tow}")
    cards = []
    if vehicle.napalm:
        cards.append(f"Napalm {vehicle.napalm - vehicle.napalm_used} of {vehicle.napalm} left")
    if vehicle.smoke:
        cards.append(f"Smoke {vehicle.smoke - vehicle.smoke_used} of {vehicle.smoke} left")
    for key in vehicle.specialisations:
        spent = (key == "mine_trawl" and vehicle.trawl_used) or (
            key == "active_armour" and vehicle.armour_used
        )
        cards.append(f"{SPECIALISATIONS.get(key, key)}{' (spent)' if spent else ''}")
    return {
        "id": vehicle.id,
        "name": vehicle.name,
        "kind": vehicle.kind_label,
        "condition": vehicle.condition,
        "damage": vehicle.damage,
        "captured": vehicle.captured,
        "stats": (
            f"Armour class {_card_value(vehicle.armour_class)} · "
            f"gun class {_card_value(vehicle.gun_class)} · seats {_card_value(vehicle.seats)}"
        ),
        "mgs": [MG_NAMES[m] for m in vehicle.mgs if m in MG_NAMES],
        "flamethrower": vehicle.flamethrower,
        "flags": flags,
        "cards": cards,
        "crew": [s.name for s in crew],
        "riders": [s.name for s in riders],
        "live": live,
        "gone": vehicle.destroyed,
        "can_move": live and not vehicle.running_gear and vehicle.kind != "gun",
        "is_gun": vehicle.kind == "gun",
        "hitched": bool(vehicle.hitched_to),
        "can_fire_gun": live and vehicle.gun_class is not None,
        "weapons": [(m, MG_NAMES[m]) for m in vehicle.mgs if m in MG_NAMES],
        "napalm_left": live and vehicle.napalm_used < vehicle.napalm,
        "smoke_left": live and vehicle.smoke_used < vehicle.smoke,
        "smoke_fires": not helpers.smoke_from_gun(vehicle.gun_class),
        "trawl": live and "mine_trawl" in vehicle.specialisations and not vehicle.trawl_used,
        "armour": live and "active_armour" in vehicle.specialisations and not vehicle.armour_used,
        "capture": live and vehicle.running_gear and not vehicle.captured,
        "smoked": any(vid == vehicle.id for _, vid in state.smoke),
    }


def soldier_card(state: Ww2State, soldier: Soldier) -> dict:
    status = condition(soldier, state.turn)
    live = not soldier.out and not state.ended
    where = ""
    if soldier.vehicle:
        seat = "crew of" if soldier.seat == CREW else "riding on"
        where = f"{seat} {state.vehicle(soldier.vehicle).name}"
    return {
        "id": soldier.id,
        "name": soldier.name,
        "rank": RANKS.get(soldier.rank, ""),
        "status": status,
        "status_word": SOLDIER_WORDS[status],
        "where": where,
        "note": no_combat(soldier, state.turn) if live and status != "wounded" else "",
        "live": live,
        "gone": soldier.out,
        "healthy": live and status in ("healthy", "recovering"),
        "wounded": live and status == "wounded",
        "test_due": live and wound_test_due(soldier, state.turn),
        "aboard": bool(soldier.vehicle),
        "far": bool(soldier.far_turn),
        "move_only": move_only(soldier, state.turn),
    }


def side_cards(state: Ww2State, side: str) -> dict:
    soldiers = [s for s in state.soldiers if s.side == side]
    return {
        "key": side,
        "label": state.label(side),
        "vehicles": [vehicle_card(state, v) for v in state.vehicles if v.side == side],
        "soldiers": [soldier_card(state, s) for s in soldiers],
        "losses": sum(s.out for s in soldiers),
        "prisoners": sum(s.status == "prisoner" for s in soldiers),
        "destroyed": sum(v.destroyed for v in state.vehicles if v.side == side),
    }


def turn_panel(state: Ww2State) -> dict:
    due = [s.name for s in state.soldiers if not s.out and wound_test_due(s, state.turn)]
    return {
        "turn": state.turn,
        "ended": state.ended,
        "result": _result(state),
        "wound_tests": due,
        "far": [s.name for s in far_soldiers(state)],
        "smoke": [
            {"turn": turn, "vehicle": state.vehicle(vid).name, "id": vid}
            for turn, vid in state.smoke
        ],
        "running_gear_counts": state.running_gear_counts,
        "sides": [(side, state.label(side)) for side in SIDES],
    }


def _result(state: Ww2State) -> str:
    if not state.ended:
        return ""
    return "a draw" if state.result == "draw" else f"{state.label(state.result)} won"
