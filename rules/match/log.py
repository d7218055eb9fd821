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
from rules.match.storage import rewind


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


def undo_reach(tail: Sequence[LogEntry], target: int) -> int:
    """The earliest event that undoing ``target`` depends on, given ``tail`` (the log from some
    event on): the lowest event that the undo chain of ``target``, or of any undo in the tail,
    ends at. A chain that leaves the tail gives the event it names before the tail: that event
    may be an undo too, so read the log from there and ask again."""
    by_seq = {entry.seq: entry for entry in tail}
    reach = target
    for seq in [target, *(entry.seq for entry in tail if entry.event.kind == "undo")]:
        while (entry := by_seq.get(seq)) is not None and entry.event.kind == "undo":
            seq = entry.event["target"]
        reach = min(reach, seq)
    return reach


def plan_undo_from(
    current: MatchState,
    tail: Sequence[LogEntry],
    befores: Sequence[Mapping[str, Any]],
    target: int,
    summaries: Mapping[int, str] | None = None,
) -> Step:
    """``plan_undo`` decided from the end of the log, without replaying the events before it.

    ``tail`` is the log from some event on, to its end, in order; ``befores`` what each of its
    events changed, as it was (its "before" parts, in the same order); ``current`` the state
    now. Putting the befores back gives the state the match had when the tail's first event was
    applied (``rewind``). While no undo chain in the tail, nor ``target``'s, reaches an event
    before the tail (``undo_reach``), which events before the tail count is as it was then, so
    that state is still what they replay to, and ``plan_undo`` on the tail from it gives the
    same step as on the whole log. A tail that does not reach far enough is a ValueError."""
    seqs = [entry.seq for entry in tail]
    if len(befores) != len(tail):
        raise ValueError("plan_undo_from needs the 'before' of every event of the tail.")
    if target in seqs and undo_reach(tail, target) < min(seqs):
        raise ValueError(
            f"An undo of #{target} depends on events before #{min(seqs)}: "
            f"read the log from #{undo_reach(tail, target)}."
        )
    return plan_undo(rewind(current, befores), tail, target, summaries)


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
