"""Small pieces every Kill Team event handler uses: a state with one operative or side
changed, names and numbers checked, an operative expended, wounds in words."""

from __future__ import annotations

from dataclasses import replace

from rules.errors import RulesError
from rules.eventlog import EventError
from rules.killteam.data import core_numbers
from rules.killteam.state import (
    ORDERS,
    BattleOperative,
    BattleSide,
    KillTeamState,
)
from rules.killteam.wounds import WoundState

MAX_NAME = 60
MAX_NOTE = 500
MAX_AP = 20
MAX_DAMAGE = 999
MAX_TARGETS = 30


def with_operative(state: KillTeamState, operative: BattleOperative) -> KillTeamState:
    side = state.side(operative.side)
    operatives = tuple(operative if o.id == operative.id else o for o in side.operatives)
    return with_side(state, replace(side, operatives=operatives))


def with_side(state: KillTeamState, side: BattleSide) -> KillTeamState:
    a, b = state.sides
    return replace(
        state, sides=(side if a.key == side.key else a, side if b.key == side.key else b)
    )


def label(state: KillTeamState, operative: BattleOperative) -> str:
    """An operative named with its side: "Gunner (Anna)"."""
    return f"{operative.name} ({state.side(operative.side).label})"


def check_name(value: object, what: str) -> str:
    text = " ".join(value.split()) if isinstance(value, str) else ""
    if not text:
        raise EventError(f"Give the {what} a name.")
    if len(text) > MAX_NAME:
        raise RulesError(f"The {what}'s name can be at most {MAX_NAME} characters.")
    return text


def check_range(value: int, what: str, low: int, high: int) -> int:
    if not low <= value <= high:
        raise RulesError(f"{what} must be from {low} to {high}; got {value}.")
    return value


def in_play(state: KillTeamState, operative: BattleOperative) -> None:
    if operative.incapacitated:
        raise RulesError(f"{label(state, operative)} is incapacitated and removed.")


def expend(state: KillTeamState, operative: BattleOperative) -> KillTeamState:
    """The operative's activation ends: expended, and the stuns it held when it began end."""
    done = replace(
        operative,
        ready=False,
        stuns=operative.stuns - operative.stuns_held,
        stuns_held=0,
    )
    new = with_operative(state, done)
    return replace(new, active=None) if state.active == operative.id else new


def check_order(value: str) -> str:
    if value not in ORDERS:
        raise EventError(f"An order is engage or conceal; got {value!r}.")
    return value


def wound_words(operative: BattleOperative) -> str:
    state = operative.state
    left = f"{max(operative.current, 0)} of {operative.wounds} wounds left"
    if state is WoundState.INCAPACITATED:
        return f"{left}: incapacitated and removed"
    if state is WoundState.INJURED:
        move = core_numbers().injured_move_penalty
        return f'{left}, injured (Move {move}" less, Hit 1 worse)'
    if state is WoundState.WOUNDED:
        return f"{left}, wounded"
    return left
