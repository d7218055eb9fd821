"""The log of a Kill Team battle: replay and undo, as every game's log does (``rules.eventlog``),
with Kill Team's ``step``. An ended battle takes no undo but that of its end."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules import eventlog
from rules.eventlog import Event, LogEntry, Step
from rules.killteam.play import step
from rules.killteam.state import KillTeamState, Phase
from rules.killteam.storage import apply_parts


def _locked(state: KillTeamState, base: Event) -> str | None:
    if state.phase is Phase.ENDED and base.kind != "end_match":
        return "The battle has ended: undo 'End battle' first to change anything."
    return None


def replay(initial: KillTeamState, log: Sequence[LogEntry]) -> KillTeamState:
    """The state the log describes: its effective events applied in order to ``initial``."""
    return eventlog.replay(step, initial, log)


def plan_undo(
    initial: KillTeamState,
    log: Sequence[LogEntry],
    target: int,
    summaries: Mapping[int, str] | None = None,
) -> Step:
    """The step that undoes event ``target`` (an undo of an undo redoes), or a RulesError."""
    return eventlog.plan_undo(step, initial, log, target, summaries, locked=_locked)


def plan_undo_from(
    current: KillTeamState,
    tail: Sequence[LogEntry],
    effective: frozenset[int],
    base_before: Mapping[str, Any],
    target: int,
    summaries: Mapping[int, str] | None = None,
) -> Step | None:
    """``plan_undo`` from the end of the log only (see ``rules.eventlog.plan_undo_from``)."""
    return eventlog.plan_undo_from(
        step, apply_parts, current, tail, effective, base_before, target, summaries, locked=_locked
    )
