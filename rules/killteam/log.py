"""The log of a Kill Team battle: replay and undo, as every game's log does (``rules.eventlog``),
with Kill Team's ``step`` and its recorded changes. An ended battle takes no undo but that of its
end."""

from __future__ import annotations

from rules.eventlog import GameLog
from rules.killteam.play import step
from rules.killteam.state import Phase
from rules.killteam.storage import apply_parts

LOG = GameLog(
    step,
    apply_parts,
    ended=lambda state: state.phase is Phase.ENDED,
    ended_words="The battle has ended: undo 'End battle' first to change anything.",
)
replay = LOG.replay
plan_undo = LOG.plan_undo
plan_undo_from = LOG.plan_undo_from
rewind = LOG.rewind
