"""A model in play: whether it still takes part, what is worth warning about when it acts, and
the ``Step`` that records a change to it. Shared by the event handlers (play, rounds, combat)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.errors import RulesError
from rules.hgb.damage import DamageState
from rules.hgb.match.events import Step
from rules.hgb.match.state import MatchState, Phase, Speed, Unit, unit_label, with_unit


def in_play(state: MatchState, unit: Unit) -> None:
    if unit.track.overkilled:
        raise RulesError(f"{unit_label(state, unit)} was overkilled: it takes no further part.")
    if unit.track.destroyed:
        raise RulesError(f"{unit_label(state, unit)} is destroyed: it takes no further part.")


def unit_step(
    state: MatchState,
    before: Unit,
    after: Unit,
    summary: str,
    writes: Iterable[str],
    warnings: Sequence[str] = (),
    reads: Iterable[str] = (),
) -> Step:
    uid = before.id
    written = frozenset(f"{uid}:{name}" for name in writes)
    return Step(
        state=with_unit(state, after),
        summary=summary,
        warnings=tuple(warnings),
        writes=written,
        reads=written | frozenset(reads) | {"phase"},
    )


def state_words(unit: Unit) -> str:
    state = unit.state
    if state is DamageState.UNDAMAGED:
        return "undamaged"
    return f"{state.value.capitalize()} ({state.effect_text})"


def top_speed_warning(state: MatchState, unit: Unit) -> list[str]:
    if unit.speed is Speed.TOP and not unit.track.top_speed_allowed and not unit.is_out:
        return [
            f"{unit_label(state, unit)} is at {unit.state.value.capitalize()} damage and can't "
            "travel at Top Speed: slow it to Combat Speed when it next moves."
        ]
    return []


def acting_warnings(state: MatchState, unit: Unit, doing: str) -> list[str]:
    """Is it the model's turn to act? Before initiative, no model acts; during the activations a
    model acts when its combat group activates, or later with a kept action."""
    who = unit_label(state, unit)
    if state.phase is Phase.INITIATIVE:
        return [
            f"{who} {doing} before initiative was rolled for round {state.round}: both players "
            "roll first, and the winner chooses who activates first."
        ]
    if unit.kept_action or state.active_group == unit.group_id:
        return []
    if state.active_group is None:
        return [
            f"{who} {doing} before any combat group activated this round, and it has no kept "
            "action: a model acts when its combat group activates."
        ]
    active = state.group(state.active_group)
    return [
        f"{who} {doing} outside its activation, with no kept action: Combat Group "
        f"{active.number} of {state.side(active.side).label} is activating."
    ]


def action_number(seq: int | None) -> str:
    """ "#12: " before the words of an action, when the event's number is known."""
    return "" if seq is None else f"#{seq}: "
