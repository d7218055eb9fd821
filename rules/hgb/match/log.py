"""The log of a match: replaying it, and undoing (or redoing) one of its events, as every game's
log does (``rules.eventlog``), with Heavy Gear Blitz's ``step`` and its recorded changes. An
ended match takes no undo but that of its end.

Undo: an ``undo`` event names an earlier event. The effective events are those not undone by an
effective undo (undoing an undo redoes). An event can be undone only while no later effective event
touches what it changed (its ``writes``), and only if the rest of the log still replays.
"""

from __future__ import annotations

from rules.eventlog import (
    GameLog,
    LogEntry,
    base_seq,
    describe,
    effective_seqs,
    last_undoable,
    undo_of,
    undo_reach,
)
from rules.hgb.match.play import step
from rules.hgb.match.state import Phase
from rules.hgb.match.storage import apply_parts

LOG = GameLog(
    step,
    apply_parts,
    ended=lambda state: state.phase is Phase.ENDED,
    ended_words="The match has ended: undo 'End match' first to change anything.",
)
replay = LOG.replay
plan_undo = LOG.plan_undo
plan_undo_from = LOG.plan_undo_from
rewind = LOG.rewind

__all__ = [
    "LOG",
    "LogEntry",
    "base_seq",
    "describe",
    "effective_seqs",
    "last_undoable",
    "plan_undo",
    "plan_undo_from",
    "replay",
    "rewind",
    "undo_of",
    "undo_reach",
]
