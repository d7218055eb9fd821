"""The log of a Kill Team battle: replay and undo, as every game's log does (``rules.eventlog``),
with Kill Team's ``step`` and its recorded changes. An ended battle takes no undo but that of its
end."""

from __future__ import annotations

from rules.eventlog import Event, GameLog
from rules.killteam.play import step
from rules.killteam.state import KillTeamState, Phase
from rules.killteam.storage import apply_parts


def _locked(state: KillTeamState, base: Event) -> str | None:
    if state.phase is Phase.ENDED and base.kind != "end_match":
        return "The battle has ended: undo 'End battle' first to change anything."
    return None


LOG = GameLog(step, apply_parts, _locked)
replay = LOG.replay
plan_undo = LOG.plan_undo
plan_undo_from = LOG.plan_undo_from
rewind = LOG.rewind
