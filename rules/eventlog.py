"""The event log every game's match keeps: events, steps, replay, undo and redo, and the state in
parts (so two devices can carry each change). Game-neutral: a game brings its own ``step``.

A game's match is an immutable state changed only by events. ``step(state, event, seq)`` applies
one event (or raises a RulesError with a sentence) and returns a ``Step``: the new state, a
sentence for the log, warnings, and the keys it ``writes`` and ``reads`` ("a-2:wounds",
"turn"). An ``undo`` event names an earlier event; the effective events are those not undone by
an effective undo (undoing an undo redoes). An event can be undone only while no later effective
event reads or writes what it wrote, and only if the rest of the log still replays. A game
binds its ``step`` (and how a recorded change is put back) in a ``GameLog``, whose ``replay``,
``plan_undo`` and ``plan_undo_from`` it exports as its own.

The state in parts: a game writes its state as a mapping of parts ("match", "a", "a-2", ...),
each a mapping of plain JSON values. ``diff_parts`` records what an event changed and
``merge_parts`` puts a recorded change back, so a stored state is brought up to date without
replaying the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rules.errors import RulesError


class EventError(RulesError):
    """The event itself is malformed (not a rules question): the request was wrong."""


class Stale(RulesError):
    """A tap made on a screen that was out of date: what it asks for is already so, or no longer
    follows from the state. Nothing changes.

    ``template`` is the sentence with a ``{by}`` slot for who made the change the screen missed
    (" by Anna a moment ago"); ``part`` names what changed ("a-2:wounds", "match:turning_point"),
    so the app can look up who changed it. ``str(error)`` is the sentence without the slot.
    """

    def __init__(self, template: str, part: str):
        self.template = template
        self.part = part
        super().__init__(self.sentence(""))

    def sentence(self, by: str) -> str:
        return self.template.replace("{by}", by) + ". Nothing was changed."


class UnknownId(EventError):
    """The event names something (an operative, a side, an event) that the match does not have."""


@dataclass(frozen=True)
class Event:
    """One change to a match: a kind and its fields."""

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Any:
        return self.data[name]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.data}


Fields = Mapping[str, Mapping[str, type | tuple[type, ...]]]


def parse_event(data: object, fields: Fields, optional: Mapping[str, Any]) -> Event:
    """Read an event from plain data against a game's ``fields`` (kind -> field -> type) and the
    defaults of its ``optional`` fields; anything malformed raises EventError with a sentence."""
    if not isinstance(data, Mapping):
        example = next(iter(fields), "undo")
        raise EventError(f"An event is an object with a kind, such as {{'kind': {example!r}}}.")
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in fields:
        known = ", ".join(fields)
        raise EventError(f"Unknown event kind {kind!r}; the kinds are: {known}.")
    kinds = fields[kind]
    extra = set(data) - set(kinds) - {"kind"}
    if extra:
        raise EventError(f"A {kind} event has no field {', '.join(sorted(map(str, extra)))}.")
    values: dict[str, Any] = {}
    for name, wanted in kinds.items():
        if name not in data:
            if name in optional:
                values[name] = optional[name]
                continue
            raise EventError(f"A {kind} event needs a {name}.")
        value = data[name]
        if wanted is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise EventError(f"The {name} of a {kind} event is a whole number; got {value!r}.")
        if not isinstance(value, wanted):
            raise EventError(f"The {name} of a {kind} event has the wrong type: {value!r}.")
        values[name] = value
    return Event(kind, values)


@dataclass(frozen=True)
class Step:
    """One event applied: the new state, warnings, a sentence for the log, and what it touched.

    ``writes`` and ``reads`` are keys such as "a-2:wounds" or "turn": a later event depends on
    this one when it reads or writes something this one wrote.
    """

    state: Any
    summary: str
    warnings: tuple[str, ...] = ()
    writes: frozenset[str] = frozenset()
    reads: frozenset[str] = frozenset()

    @property
    def parts(self) -> frozenset[str]:
        """The parts of the state the event changed: each key it writes up to its ":"."""
        return frozenset(key.split(":", 1)[0] for key in self.writes)


@dataclass(frozen=True)
class LogEntry:
    """An event of the log with its number (1, 2, 3... in the order they were applied)."""

    seq: int
    event: Event


StepFunction = Callable[[Any, Event, "int | None"], Step]


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
    step: StepFunction, initial: Any, log: Sequence[LogEntry], effective: frozenset[int]
) -> tuple[Any, dict[int, Step]]:
    """The state after the ``effective`` events of ``log``, and each one's step by number."""
    state = initial
    steps: dict[int, Step] = {}
    for entry in sorted(log, key=lambda e: e.seq):
        if entry.event.kind == "undo" or entry.seq not in effective:
            continue
        result = step(state, entry.event, entry.seq)
        steps[entry.seq] = result
        state = result.state
    return state, steps


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


@dataclass(frozen=True)
class GameLog:
    """A game's log: replay and undo with the game's ``step``.

    ``apply_parts(state, change)`` puts a recorded change (an event's "before" or "after" parts)
    into a state. ``ended(state)`` says whether the match has ended: then it takes no undo but
    that of its end (its ``end_match`` event), and an undo of anything else is refused with
    ``ended_words``. A game binds its own once and exports the methods: ``replay = LOG.replay``.
    """

    step: StepFunction
    apply_parts: Callable[[Any, Mapping[str, Any]], Any]
    ended: Callable[[Any], bool]
    ended_words: str

    def replay(self, initial: Any, log: Sequence[LogEntry]) -> Any:
        """The state the log describes: the effective events applied in order to ``initial``."""
        return _replay_steps(self.step, initial, log, effective_seqs(log))[0]

    def plan_undo(
        self,
        initial: Any,
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
            # Another undo of the same event still counts (#1 undone, redone, undone again:
            # undoing the redo changes nothing), so this one would change nothing.
            raise RulesError(
                f"Can't undo {describe(log, target, summaries)}: #{base} would stay "
                f"{'in effect' if redo else 'undone'} all the same, so nothing would change."
            )
        current, steps = _replay_steps(self.step, initial, log, effective)
        if self.ended(current) and by_seq[base].event.kind != "end_match":
            raise RulesError(self.ended_words)
        word = "redo" if redo else "undo"
        try:
            new_state, new_steps = _replay_steps(self.step, initial, log, new_effective)
        except RulesError as error:
            raise RulesError(
                f"Can't {word} {describe(log, target, summaries)}: "
                f"the later events would not hold: {error}"
            ) from None
        changed = (new_steps if redo else steps)[base]
        for seq, later in (new_steps if redo else steps).items():
            if seq > base and changed.writes & (later.writes | later.reads):
                raise RulesError(
                    f"Can't {word} {describe(log, target, summaries)}: "
                    f"#{seq} ({summaries.get(seq, 'a later change').rstrip('.')}) came after and "
                    f"depends on it. Undo #{seq} first."
                )
        # The undo touches what the event it takes back (or brings back) touched.
        return replace(
            changed,
            state=new_state,
            summary=f"{'Redid' if redo else 'Undid'} {describe(log, target, summaries)}.",
            warnings=(),
        )

    def rewind(self, state: Any, befores: Sequence[Mapping[str, Any]]) -> Any:
        """The state before a run of recorded changes, from the state after them: ``state``
        with each change's "before" put back, the latest first. Each field ends up as the
        earliest change touching it found it, so they are put back in one go."""
        earliest: dict[str, dict[str, Any]] = {}
        for parts in befores:
            if not isinstance(parts, Mapping):
                raise RulesError(f"A recorded change is an object of parts; got {parts!r}.")
            for key, values in parts.items():
                if not isinstance(values, Mapping):
                    raise RulesError(f"A recorded change to {key!r} is malformed: {values!r}.")
                kept = earliest.setdefault(key, {})
                for name, value in values.items():
                    kept.setdefault(name, value)
        return self.apply_parts(state, earliest)

    def plan_undo_from(
        self,
        current: Any,
        tail: Sequence[LogEntry],
        befores: Sequence[Mapping[str, Any]],
        target: int,
        summaries: Mapping[int, str] | None = None,
    ) -> Step:
        """``plan_undo`` decided from the end of the log, without replaying the events before it.

        ``tail`` is the log from some event on, to its end, in order; ``befores`` what each of
        its events changed, as it was (its "before" parts, in the same order); ``current`` the
        state now. Putting the befores back gives the state the match had when the tail's first
        event was applied (``rewind``). While no undo chain in the tail, nor ``target``'s,
        reaches an event before the tail (``undo_reach``), which events before the tail count
        is as it was then, so that state is still what they replay to, and ``plan_undo`` on the
        tail from it gives the same step as on the whole log. A tail that does not reach far
        enough is a ValueError."""
        seqs = [entry.seq for entry in tail]
        if len(befores) != len(tail):
            raise ValueError("plan_undo_from needs the 'before' of every event of the tail.")
        if target in seqs and undo_reach(tail, target) < min(seqs):
            raise ValueError(
                f"An undo of #{target} depends on events before #{min(seqs)}: "
                f"read the log from #{undo_reach(tail, target)}."
            )
        return self.plan_undo(self.rewind(current, befores), tail, target, summaries)


# --- The state in parts ---------------------------------------------------------------------

Parts = Mapping[str, Mapping[str, Any]]


def diff_parts(
    before: Parts, after: Parts
) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """What differs between two states written as parts: (old values, new values) of each field
    that changed, by part. Parts are never added or removed by an event."""
    old: dict[str, dict[str, Any]] = {}
    new: dict[str, dict[str, Any]] = {}
    for key, fields_after in after.items():
        fields_before = before[key]
        if fields_before is fields_after:
            continue
        changed = [name for name in fields_after if fields_before[name] != fields_after[name]]
        if changed:
            old[key] = {name: fields_before[name] for name in changed}
            new[key] = {name: fields_after[name] for name in changed}
    return old, new


def merge_parts(parts: Parts, change: Mapping[str, Any], what: str) -> dict[str, Mapping[str, Any]]:
    """``parts`` with a recorded change put in; a change naming a part or a field the state does
    not have raises RulesError (``what`` names the state: "Kill Team match")."""
    if not isinstance(change, Mapping):
        raise RulesError(f"A change to a {what} is an object of parts; got {change!r}.")
    merged = dict(parts)
    for key, values in change.items():
        if key not in parts:
            raise RulesError(f"A change to a {what} names {key!r}, which it does not have.")
        if not isinstance(values, Mapping) or not set(values) <= set(parts[key]):
            raise RulesError(f"A change to {key} of a {what} names fields it does not have.")
        merged[key] = {**parts[key], **values}
    return merged
