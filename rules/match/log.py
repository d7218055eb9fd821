"""The log of a match: replaying it, and undoing (or redoing) one of its events.

Undo: an ``undo`` event names an earlier event. The effective events are those not undone by an
effective undo (undoing an undo redoes). An event can be undone only while no later effective event
touches what it changed (its ``writes``), and only if the rest of the log still replays.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.errors import RulesError
from rules.match.events import Event, Step
from rules.match.play import step
from rules.match.state import EventError, MatchState, Phase, UnknownId
from rules.match.storage import apply_parts


@dataclass(frozen=True)
class LogEntry:
    """An event of the log with its number (1, 2, 3... in the order they were applied)."""

    seq: int
    event: Event


def effective_seqs(log: Sequence[LogEntry]) -> frozenset[int]:
    """The events that count: those not undone by an undo that itself counts."""
    undone_by: dict[int, list[int]] = {}
    for entry in log:
        if entry.event.kind == "undo":
            undone_by.setdefault(entry.event["target"], []).append(entry.seq)
    effective: dict[int, bool] = {}
    for entry in sorted(log, key=lambda e: e.seq, reverse=True):
        effective[entry.seq] = not any(
            effective.get(u, False) for u in undone_by.get(entry.seq, ())
        )
    return frozenset(seq for seq, counts in effective.items() if counts)


def _replay_steps(
    initial: MatchState, log: Sequence[LogEntry], effective: frozenset[int]
) -> tuple[MatchState, dict[int, Step]]:
    state = initial
    steps: dict[int, Step] = {}
    for entry in sorted(log, key=lambda e: e.seq):
        if entry.event.kind == "undo" or entry.seq not in effective:
            continue
        result = step(state, entry.event, entry.seq)
        steps[entry.seq] = result
        state = result.state
    return state, steps


def replay(initial: MatchState, log: Sequence[LogEntry]) -> MatchState:
    """The state the log describes: the effective events applied in order to ``initial``."""
    return _replay_steps(initial, log, effective_seqs(log))[0]


def base_seq(log: Sequence[LogEntry], seq: int) -> int:
    """The event an undo chain ends at: for an undo, the event it undoes (recursively)."""
    by_seq = {entry.seq: entry for entry in log}
    while True:
        entry = by_seq.get(seq)
        if entry is None:
            raise UnknownId(f"This match has no event #{seq}.")
        if entry.event.kind != "undo":
            return seq
        seq = entry.event["target"]


def describe(log: Sequence[LogEntry], seq: int, summaries: Mapping[int, str]) -> str:
    base = base_seq(log, seq)
    return f"#{base} ({summaries.get(base, 'an earlier change').rstrip('.')})"


def plan_undo(
    initial: MatchState,
    log: Sequence[LogEntry],
    target: int,
    summaries: Mapping[int, str] | None = None,
) -> Step:
    """The step that undoes event ``target`` (an undo of an undo redoes), or a RulesError.

    ``summaries`` gives the log sentence of each event, to name them in messages.
    """
    if isinstance(target, bool) or not isinstance(target, int):
        raise EventError(f"An undo names an event by its number; got {target!r}.")
    summaries = summaries or {}
    by_seq = {entry.seq: entry for entry in log}
    if target not in by_seq:
        raise UnknownId(f"This match has no event #{target}.")
    effective = effective_seqs(log)
    if target not in effective:
        raise RulesError(f"Event #{target} is already undone.")
    base = base_seq(log, target)
    new_effective = _effective_after(log, target, effective)
    redo = base in new_effective  # an undo of an undo brings the event back
    if (base in effective) == redo:
        # Another undo of the same event still counts (#1 undone, redone, undone again: undoing
        # the redo changes nothing), so this one would change nothing.
        raise RulesError(
            f"Can't undo {describe(log, target, summaries)}: #{base} would stay "
            f"{'in effect' if redo else 'undone'} all the same, so nothing would change."
        )
    current, steps = _replay_steps(initial, log, effective)
    if current.phase is Phase.ENDED and by_seq[base].event.kind != "end_match":
        raise RulesError("The match has ended: undo 'End match' first to change anything.")
    try:
        new_state, new_steps = _replay_steps(initial, log, new_effective)
    except RulesError as error:
        raise RulesError(
            f"Can't {'redo' if redo else 'undo'} {describe(log, target, summaries)}: "
            f"the later events would not hold: {error}"
        ) from None
    changed = (new_steps if redo else steps)[base]
    for seq, later in (new_steps if redo else steps).items():
        if seq > base and changed.writes & (later.writes | later.reads):
            raise RulesError(
                f"Can't {'redo' if redo else 'undo'} {describe(log, target, summaries)}: "
                f"#{seq} ({summaries.get(seq, 'a later change').rstrip('.')}) came after and "
                f"depends on it. Undo #{seq} first."
            )
    word = "Redid" if redo else "Undid"
    return Step(
        new_state,
        f"{word} {describe(log, target, summaries)}.",
        writes=changed.writes,
        reads=changed.reads,
    )


def plan_undo_from(
    current: MatchState,
    tail: Sequence[LogEntry],
    effective: frozenset[int],
    base_before: Mapping[str, Any],
    target: int,
    summaries: Mapping[int, str] | None = None,
) -> Step | None:
    """``plan_undo`` decided from the end of the log only, without replaying it; None when it
    cannot be (then replay the whole log).

    ``tail`` is the log from the event ``target``'s undo chain ends at (its base) on,
    ``effective`` which of those events count now, ``current`` the state now and
    ``base_before`` what the base event changed, as it was before (its "before" parts). When
    every event after the base that counts belongs to the base's own undo chain, nothing else
    changed since the base was applied: the state before it is ``current`` with those parts put
    back (or ``current`` itself while the base is undone), and ``plan_undo`` on the tail from
    there gives the same step as on the whole log."""
    by_seq = {entry.seq: entry for entry in tail}
    if target not in by_seq or not tail:
        return None
    first = min(by_seq)
    try:
        if base_seq(tail, target) != first:
            return None
        if any(base_seq(tail, seq) != first for seq in effective if seq in by_seq):
            return None
    except UnknownId:  # a chain that leaves the tail
        return None
    start = apply_parts(current, base_before) if first in effective else current
    return plan_undo(start, tail, target, summaries)


def _effective_after(
    log: Sequence[LogEntry], target: int, effective: frozenset[int]
) -> frozenset[int]:
    new_seq = max((entry.seq for entry in log), default=0) + 1
    extended = list(log) + [LogEntry(new_seq, Event("undo", {"target": target}))]
    return effective_seqs(extended) - {new_seq}


def last_undoable(log: Sequence[LogEntry]) -> int | None:
    """The latest event that counts and is not itself an undo: what "Undo last" undoes."""
    effective = effective_seqs(log)
    for entry in sorted(log, key=lambda e: e.seq, reverse=True):
        if entry.seq in effective and entry.event.kind != "undo":
            return entry.seq
    return None


def undo_of(log: Sequence[LogEntry], seq: int) -> int | None:
    """The effective undo that undid ``seq`` (what "Redo" undoes), or None."""
    effective = effective_seqs(log)
    for entry in log:
        if entry.event.kind == "undo" and entry.event["target"] == seq and entry.seq in effective:
            return entry.seq
    return None
