"""The log of a WWII skirmish battle: replay and undo, as every game's log does
(``rules.eventlog``), with this game's ``step`` and its recorded changes. An ended battle takes no
undo but that of its end."""

from __future__ import annotations

from rules.eventlog import GameLog
from rules.ww2.play import step
from rules.ww2.storage import apply_parts

LOG = GameLog(
    step,
    apply_parts,
    ended=lambda state: state.ended,
    ended_words="The battle has ended: undo 'The battle ended' first to change anything.",
)
replay = LOG.replay
plan_undo = LOG.plan_undo
plan_undo_from = LOG.plan_undo_from
rewind = LOG.rewind
