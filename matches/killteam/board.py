"""What the Kill Team board shows: each operative's card and the turning point panel, as plain
dicts the template prints (every word and number comes from ``rules.killteam``)."""

from __future__ import annotations

from matches.models import Match
from matches.pages import player_label
from rules import killteam as kt
from rules.killteam.actions import ACTION_LABELS
from rules.killteam.rounds import FIREFIGHT, PLOY_KINDS, STRATEGIC
from rules.killteam.state import ORDERS, SIDES

STATE_WORDS = {
    kt.WoundState.UNHURT: "Unhurt",
    kt.WoundState.WOUNDED: "Wounded",
    kt.WoundState.INJURED: "Injured",
    kt.WoundState.INCAPACITATED: "Incapacitated",
}
FACES = range(1, 7)


def operative_card(state: kt.KillTeamState, op: kt.BattleOperative) -> dict:
    turn = kt.whose_turn(state)
    active = state.active == op.id
    live = not op.incapacitated and state.phase is not kt.Phase.ENDED
    busy = state.operative(state.active) if state.active and not active else None
    limited = [
        {"name": w.name, "used": op.used(w.name), "of": rule.x}
        for w in op.weapons
        for rule in w.rules
        if rule.key == "limited"
    ]
    return {
        "id": op.id,
        "name": op.name,
        "state": op.state.value,
        "state_word": STATE_WORDS[op.state],
        "current": max(op.current, 0),
        "wounds": op.wounds,
        "effects": op.effects,
        "stats": f'APL {op.effective_apl} · Move {op.effective_move}" · Save {op.save}+',
        "order": ORDERS.get(op.order or "", "No order yet"),
        "ready": "Active" if active else ("Ready" if op.ready else "Expended"),
        "expended": not active and not op.ready,
        "active": active,
        "ap": f"AP {op.ap_spent} of {op.effective_apl}",
        "limited": limited,
        "stuns": op.stuns,
        "live": live,
        "can_heal": live and op.current < op.wounds,
        "can_activate": live and op.ready and not active and turn == op.side,
        # Why its Activate buttons are not offered while another operative is active.
        "waiting": f"{kt.label(state, busy)} is still active" if busy and live and op.ready else "",
        "no_ap": no_ap_left(state) if active and live else "",
        "orders": list(ORDERS.items()),
        "actions": list(ACTION_LABELS.items()) if active and live else [],
        "weapons": [
            {"name": w.name, "hit": op.effective_hit(w), "line": _weapon_line(op, w)}
            for w in op.weapons
        ],
    }


def no_ap_left(state: kt.KillTeamState) -> str:
    """The notice when the active operative has spent its AP: "" while it has some left."""
    if state.active is None:
        return ""
    op = state.operative(state.active)
    if op.ap_spent < op.effective_apl:
        return ""
    return f"{kt.label(state, op)} has no AP left ({op.ap_spent} of {op.effective_apl} spent)"


def _ploys(state: kt.KillTeamState, side: kt.BattleSide) -> list[dict]:
    """The side's own named ploys, each with the op that uses it, or marked used this turning
    point (each once per turning point: docs/killteam-readings.md, 'Ploys')."""
    used = {(kind, name.casefold()) for kind, name in side.ploys}
    return [
        {
            "name": ploy.name,
            "kind": ploy.kind,
            "cost": ploy.cost,
            "used": (ploy.kind, ploy.name.casefold()) in used,
            "op": f"ploy {side.key} {ploy.kind} {ploy.name}",
        }
        for ploy in side.team_ploys
    ]


def _weapon_line(op: kt.BattleOperative, weapon) -> str:
    rules = ", ".join(rule.text for rule in weapon.rules)
    worse = " (injured)" if op.injured else ""
    line = (
        f"A {weapon.attacks} · Hit {op.effective_hit(weapon)}+{worse} · "
        f"Dmg {weapon.normal_damage}/{weapon.critical_damage}"
    )
    return f"{line} · {rules}" if rules else line


def turn_panel(state: kt.KillTeamState) -> dict:
    turn = kt.whose_turn(state)
    sides = []
    for index, side in enumerate(state.sides):
        sides.append(
            {
                "key": side.key,
                "label": side.label,
                "cp": side.cp,
                "roll": state.rolls[index],
                "ready": len(side.ready_operatives()),
                "ploys": [f"{name} ({PLOY_KINDS[kind]})" for kind, name in side.ploys],
                "named": _ploys(state, side),
                "names_strategic": any(p.kind == STRATEGIC for p in side.team_ploys),
                "grenades": [f"{g.name} {g.used}/{g.picked}" for g in side.grenades],
            }
        )
    decider = state.side(state.decider).label if state.decider else ""
    choices = []
    if state.phase is kt.Phase.INITIATIVE and None not in state.rolls:
        deciders = SIDES if state.tie else (state.decider,)
        for who in deciders:
            for holder in SIDES:
                choices.append(
                    {
                        "op": f"initiative {holder} {who}",
                        "who": who,
                        "label": f"{state.side(who).label} decides: "
                        f"{state.side(holder).label} has the initiative",
                    }
                )
    return {
        "tp": state.turning_point,
        "phase": state.phase.value,
        "sides": sides,
        "faces": FACES,
        "tie": state.tie,
        "decider": decider,
        "choices": choices,
        "initiative": state.side(state.initiative).label if state.initiative else "",
        "strategy_turn": state.strategy_turn or "",
        "strategy_label": state.side(state.strategy_turn).label if state.strategy_turn else "",
        "turn": turn or "",
        "turn_label": state.side(turn).label if turn else "",
        "active": kt.label(state, state.operative(state.active)) if state.active else "",
        "active_id": state.active or "",
        "no_ap": no_ap_left(state),
        "next_label": _next_label(state),
        "result": _result(state),
        "ploy_kinds": {"strategic": STRATEGIC, "firefight": FIREFIGHT},
        "command_reroll": kt.COMMAND_REROLL,
        "ploy_cost": kt.PLOY_COST,
    }


def _next_label(state: kt.KillTeamState) -> str:
    """While an operative is active: who activates once its activation ends."""
    if state.active is None or state.phase is not kt.Phase.FIREFIGHT:
        return ""
    due = kt.due_next(state)
    return state.side(due).label if due else ""


def _result(state: kt.KillTeamState) -> str:
    if state.phase is not kt.Phase.ENDED:
        return ""
    return "a draw" if state.result == "draw" else f"{state.side(state.result).label} won"


def summary_side(match: Match, state: kt.KillTeamState, side: kt.BattleSide) -> dict:
    """A side on the summary: its team, player, CP, grenades, and each operative's wounds."""
    operatives = [
        {
            "name": op.name,
            "state": op.state.value,
            "state_word": STATE_WORDS[op.state],
            "current": max(op.current, 0),
            "wounds": op.wounds,
        }
        for op in side.operatives
    ]
    return {
        "key": side.key,
        "label": side.label,
        "team": getattr(match, f"{side.key}_roster_name"),
        "player": player_label(match.player_name(side.key), side.key),
        "cp": side.cp,
        "grenades": [f"{g.name} {g.used}/{g.picked}" for g in side.grenades],
        "operatives": operatives,
        "out": sum(op.incapacitated for op in side.operatives),
    }
