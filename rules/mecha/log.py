"""The log of a mecha match: replay and undo, as every game's log does (``rules.eventlog``),
with the mecha ``step`` and its recorded changes. An ended match takes no undo but that of its
end."""

from __future__ import annotations

from rules.eventlog import GameLog
from rules.mecha.play import step
from rules.mecha.storage import apply_parts

LOG = GameLog(
    step,
    apply_parts,
    ended=lambda state: state.ended,
    ended_words="The match has ended: undo its end first to change anything.",
)
replay = LOG.replay
plan_undo = LOG.plan_undo
plan_undo_from = LOG.plan_undo_from
rewind = LOG.rewind
