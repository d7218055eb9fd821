"""The tap writer every game's board goes through: one change to a match, once per client key.

A tap locks the match row (taps from two devices are applied one after the other), checks the
seat's token on it, answers a client key already applied with the event it made, asks the game's
rules for the change (or decides an undo or a redo from the end of the log), stores the event
(a refusal too: both players see it in the log) and saves the match with its snapshot. What is
the game's own comes from its ``Game``: its step, its undo planning, what a change touched, how
its state is stored and how its log is read, and the match columns its taps read. The tracker
table (``matches.systems``) names each game's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.db import IntegrityError, transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone
from django.utils.timesince import timesince

from blitz_site import inputs
from matches.models import SIDES, SNAPSHOT_EVERY, Match, MatchEvent, StateStorage
from matches.pages import player_label
from matches.push import publish_on_commit
from matches.services import NotAPlayer
from rules.errors import RulesError
from rules.eventlog import (
    Event,
    EventError,
    LogEntry,
    Stale,
    Step,
    UnknownId,
    effective_seqs,
    undo_of,
    undo_reach,
)

ALL_UNITS = "*"
UNDO_WORDS = ("undo", "redo")
APPLY_ATTEMPTS = 3
T = TypeVar("T")


@dataclass(frozen=True)
class UndoLast:
    """Undo the latest event that counts (resolved under the lock)."""


@dataclass(frozen=True)
class UndoTheirs:
    """Undo event ``seq``, which the other player made: the player said yes to "Undo Anna's
    change #12?" (an undo of the other seat's event without it is refused)."""

    seq: int


@dataclass(frozen=True)
class Redo:
    """Bring back event ``seq``, which an undo took back."""

    seq: int


Request = Event | UndoLast | UndoTheirs | Redo


@dataclass(frozen=True)
class Change:
    """What an event changed: the parts as they were and as they are (``before``, ``after``),
    the cards it changed (``units``: their ids, or ``ALL_UNITS``) and whether it changed more
    than cards (``round_level``: the round, who acts, a model leaving the game)."""

    before: dict
    after: dict
    units: tuple[str, ...]
    round_level: bool = False


@dataclass(frozen=True)
class Game:
    """What a game gives the tap writer and the match row (``system_id``: its registry id).

    ``step(state, event, seq)`` applies an event; ``plan_undo_from`` decides an undo from the end
    of the log (``rules.eventlog.GameLog``); ``changes(before, step)`` says what an event changed;
    ``storage`` reads and writes its state; ``read_event`` reads a stored event (its ``kind``
    and payload) as its rules' event; ``round_of`` and ``outcome`` say the round a state is in
    and whether it has ended (and the result: "a", "b", "draw" or ""); ``fields`` are the match
    columns its taps read besides the shared ``TAP_FIELDS``."""

    system_id: str
    step: Callable[[Any, Event, int], Step]
    plan_undo_from: Callable[..., Step]
    changes: Callable[[Any, Step], Change]
    storage: StateStorage
    read_event: Callable[[Mapping[str, Any]], Event]
    round_of: Callable[[Any], int]
    outcome: Callable[[Any], tuple[bool, str]]
    fields: tuple[str, ...] = ()

    def log_entry(self, row: MatchEvent) -> LogEntry:
        return LogEntry(row.seq, self.read_event({"kind": row.kind, **row.payload}))


@dataclass(frozen=True)
class Applied:
    """What a tap did. ``error`` is a rules refusal in words: it is in the log, nothing changed."""

    match: Match
    state: Any
    event: MatchEvent | None = None
    error: str = ""
    duplicate: bool = False
    warnings: tuple[str, ...] = ()
    units: frozenset[str] = field(default_factory=frozenset)
    round_level: bool = False
    side: str = ""  # the seat that tapped

    @property
    def all_units(self) -> bool:
        return ALL_UNITS in self.units


def apply(
    game: Game,
    *,
    match_id: int,
    side: str,
    token: str,
    client_key: str,
    request: Request,
) -> Applied:
    """Apply one change to a match of ``game`` for the player of seat ``side``, once per
    ``client_key``.

    ``token`` is the seat's token as the player's browser holds it: it is checked on the locked
    row (NotAPlayer if it does not match). A match of another game is not found
    (Match.DoesNotExist). Raises EventError (malformed; UnknownId for an unknown id); a change
    the rules refuse comes back as ``Applied.error``."""
    return apply_once(lambda: _apply_locked(game, match_id, side, token, client_key, request))


def apply_once(apply: Callable[[], T]) -> T:
    """``apply()`` (a tap: it locks the match row and stores an event under a client key) in a
    transaction, tried again when its key was stored by a request at the same moment."""
    for attempt in range(APPLY_ATTEMPTS):
        try:
            with transaction.atomic():
                return apply()
        except IntegrityError:
            # The same key sent twice at the same moment: on PostgreSQL the second request waited
            # for the row lock, but its check for the key ran on a snapshot taken before the first
            # request committed, so its insert hit the unique key. Try again: now it sees the key.
            if attempt == APPLY_ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


# The columns every tap reads: the seats' tokens and names, what the state's cache keys on, what
# the end of a match writes, the game played, whether seat B is taken (a board says so). A game
# adds its own (``Game.fields``). The others (the rosters, the snapshot) are deferred:
# ``Match.current_state`` reads the state only when this server has not parsed it yet.
TAP_FIELDS = (
    "id", "system", "seq", "state_seq", "status", "result", "ended_at", "updated_at",
    "a_token", "b_token", "a_player", "b_player", "b_user", "b_guest_key",
)  # fmt: skip


# How far back a board's log reaches (its newest lines): ``Match.undone_seq`` looks that far.
LOG_REACH = 30


def locked_match(game: Game, match_id: int, client_key: str) -> Match:
    """The match row, locked for this transaction, with ``applied_seq``: the event number this
    client key already made, or None, and ``undone_seq``: the latest undone event among the
    board's newest ``LOG_REACH`` lines, or None (a board answering a tap with one line asks
    then whether that line takes a Redo away). One query."""
    # order_by(): an event's default order is its match's (a join) and then its seq; one key
    # makes at most one event, so the subquery needs no order.
    applied = MatchEvent.objects.filter(match=OuterRef("pk"), client_key=client_key).order_by()
    undone = MatchEvent.objects.filter(
        match=OuterRef("pk"), seq__gt=OuterRef("seq") - LOG_REACH, effective=False, refused=False
    ).exclude(kind="undo")
    return (
        Match.objects.select_for_update()
        .only(*TAP_FIELDS, *game.fields)
        .annotate(
            applied_seq=Subquery(applied.values("seq")[:1]),
            undone_seq=Subquery(undone.order_by("-seq").values("seq")[:1]),
        )
        .get(pk=match_id)
    )


def _apply_locked(
    game: Game,
    match_id: int,
    side: str,
    token: str,
    client_key: str,
    request: Request,
) -> Applied:
    match = locked_match(game, match_id, client_key)
    if not token or match.token(side) != token:
        raise NotAPlayer
    if match.system != game.system_id:
        raise Match.DoesNotExist  # a match of another game takes none of this game's taps
    state = match.current_state(game.storage)
    if match.applied_seq is not None:
        event = MatchEvent.objects.get(match=match, seq=match.applied_seq)
        error = event.summary if event.refused else ""
        return Applied(match, state, event, error=error, duplicate=True, side=side)
    rows: list[MatchEvent] = []
    try:
        if isinstance(request, Event) and request.kind != "undo":
            event, result = request, game.step(state, request, match.seq + 1)
        else:
            rows, event, result = undo_step(
                match, state, request, game.log_entry, game.plan_undo_from, side=side
            )
    except EventError:
        raise
    except RulesError as error:
        # Refused: nothing changes, but the refusal goes in the log for both players to see.
        refusal = Step(state, refusal_words(match, error, side))
        return _store(game, match, [], side, client_key, state, asked(request), refusal, True)
    return _store(game, match, rows, side, client_key, state, event, result)


def refusal_words(match: Match, error: RulesError, side: str) -> str:
    """What the log says of a tap the rules refused: the rules' sentence, and for a stale tap who
    made the change the screen missed, and when."""
    if isinstance(error, Stale):
        return error.sentence(_changed_by(match, error.part, side))
    return str(error)


def asked(request: Request) -> Event:
    """The event a request stands for in the log (an undo names its target; 0: "the last")."""
    if isinstance(request, Event):
        return request
    return Event("undo", {"target": 0 if isinstance(request, UndoLast) else request.seq})


STALE_LOOKBACK = 200  # events searched for who changed what a stale tap missed


def _changed_by(match: Match, part: str, side: str) -> str:
    """ " by Anna a moment ago": who made the latest change to ``part`` ("a-1-2:damage",
    "match:round") that still counts, and when; "" when no event in reach changed it."""
    key, _, name = part.partition(":")
    rows = (
        MatchEvent.objects.filter(match=match, effective=True, refused=False)
        .order_by("-seq")
        .only("actor_side", "actor_name", "after", "created_at")[:STALE_LOOKBACK]
    )
    for row in rows:
        if name in (row.after.get(key) or {}):
            who = "you" if row.actor_side == side else player_label(row.actor_name, row.actor_side)
            seconds = (timezone.now() - row.created_at).total_seconds()
            when = "a moment ago" if seconds < 60 else f"{timesince(row.created_at)} ago"
            return f" by {who} {when}"
    return ""


# The columns an undo reads of the events it is decided from.
UNDO_FIELDS = (
    "id", "seq", "kind", "payload", "summary", "before", "effective", "actor_side", "actor_name",
)  # fmt: skip


def undo_step(
    match: Match,
    state: Any,
    request: Request,
    read: Callable[[MatchEvent], LogEntry],
    plan: Callable[..., Step],
    *,
    side: str = "",
) -> tuple[list[MatchEvent], Event, Step]:
    """An undo or redo, decided from the log from the event it takes back or brings back on
    (``plan``, the game's ``plan_undo_from``: the state before that event is the current one with
    the later changes put back), so undoing a recent event reads and replays a few rows, however
    long the match. ``read`` reads a row as the game's log entry. Returns the rows read (their
    ``effective`` flags are updated after it). An undo of an event the other seat's player made
    (``side``: the seat that tapped) is refused unless it is ``UndoTheirs``: the player said yes
    to undoing it."""
    logged = MatchEvent.objects.filter(match=match, refused=False)
    if isinstance(request, UndoLast):
        latest = logged.filter(effective=True).exclude(kind="undo").order_by("-seq")
        first = latest.values_list("seq", flat=True).first()
        if first is None:
            raise RulesError("There is nothing to undo.")
    else:
        first = request["target"] if isinstance(request, Event) else request.seq
        if not 1 <= first <= match.seq:
            raise UnknownId(f"This match has no event #{first}.")
    reading = logged.only(*UNDO_FIELDS).order_by("seq")
    rows = list(reading.filter(seq__gte=first))
    log = [read(row) for row in rows]
    if isinstance(request, Redo):
        target = undo_of(log, request.seq)
        if target is None:
            if not rows or rows[0].seq != request.seq:
                raise UnknownId(f"This match has no event #{request.seq}.")
            raise RulesError(f"Event #{request.seq} is not undone, so there is nothing to redo.")
    else:
        target = first
        if rows and rows[0].seq == target and not isinstance(request, UndoTheirs):
            refuse_theirs(rows[0], side)
    # An undo chain that reaches further back (an undo of an undo, a redo of an earlier event):
    # read the log from where it ends.
    while rows and (reach := undo_reach(log, target)) < rows[0].seq:
        earlier = list(reading.filter(seq__gte=reach, seq__lt=rows[0].seq))
        if not earlier:
            break
        rows = earlier + rows
        log = [read(row) for row in earlier] + log
    summaries = {row.seq: row.summary for row in rows}
    befores = [row.before for row in rows]
    result = plan(state, log, befores, target, summaries)
    return rows, Event("undo", {"target": target}), result


def refuse_theirs(row: MatchEvent, side: str) -> None:
    """Refuse an unconfirmed undo of ``row`` when the other seat's player made it: the board asks
    first ("Undo Anna's change #12?"), so a stale page or a stray "Undo last" cannot take back
    the opponent's change silently."""
    if row.kind == "undo" or row.actor_side not in SIDES or row.actor_side in (side, ""):
        return
    who = player_label(row.actor_name, row.actor_side)
    raise RulesError(
        f"#{row.seq} ({row.summary.rstrip('.')}) is {who}'s change: undo it with its Undo in the "
        f"log, which asks first."
    )


def parse_undo(word: str, args: list[str]) -> Event | UndoLast | UndoTheirs | Redo | None:
    """A board's undo or redo op, the same in every game: "undo last", "undo 12", "undo 12
    theirs" (the player said yes to undoing the other player's change), "redo 12"; None when
    ``word`` is neither. Malformed raises EventError."""
    if word not in UNDO_WORDS:
        return None
    if word == "undo" and args == ["last"]:
        return UndoLast()
    if not 1 <= len(args) <= (2 if word == "undo" else 1) or args[1:] not in ([], ["theirs"]):
        raise EventError(f"'{word}' takes an event number: '{word} 12'.")
    seq = inputs.whole_number(args[0], "An event number")
    if word == "redo":
        return Redo(seq)
    return UndoTheirs(seq) if args[1:] else Event("undo", {"target": seq})


def _store(
    game: Game,
    match: Match,
    rows: list[MatchEvent],
    side: str,
    client_key: str,
    before: Any,
    event: Event,
    result: Step,
    refused: bool = False,
) -> Applied:
    change = game.changes(before, result)
    row = store_event(
        match, rows, side, client_key, game.round_of(before), event, result, change, refused
    )
    if event.kind == "undo" and not refused:
        update_effective(match, [*rows, row], game.log_entry)
    ended, outcome = game.outcome(result.state)
    save_match(match, row, result.state, ended, outcome, game.storage)
    return Applied(
        match,
        result.state,
        row,
        error=result.summary if refused else "",
        warnings=result.warnings,
        units=frozenset(change.units),
        round_level=change.round_level,
        side=side,
    )


def store_event(
    match: Match,
    rows: list[MatchEvent],
    side: str,
    client_key: str,
    round: int,
    event: Event,
    result: Step,
    change: Change,
    refused: bool = False,
) -> MatchEvent:
    """Store ``event`` as the match's next event, made by the player of seat ``side`` in
    ``round``: what it did (``result``; a refusal's summary says why) and what it changed
    (``change``)."""
    row = MatchEvent(
        match=match,
        seq=match.seq + 1,
        client_key=client_key,
        actor_side=side,
        actor_name=match.player_name(side),
        round=round,
        kind=event.kind,
        payload=dict(event.data),
        summary=result.summary,
        warnings=list(result.warnings),
        before=change.before,
        after=change.after,
        units=list(change.units),
        writes=sorted(result.writes),
        reads=sorted(result.reads),
        refused=refused,
        effective=not refused,
    )
    row.save(force_insert=True)
    return row


def save_match(
    match: Match, row: MatchEvent, state: Any, ended: bool, result: str, storage: StateStorage
) -> None:
    """The match row after its event ``row``: its number, whether it has ended (``result``:
    "a", "b" or "draw") when that changes, and the whole state (``storage.write``) every
    SNAPSHOT_EVERY events and when it ends or comes back. The state is kept for the next tap on
    this server. Every open board of the match is told once the change commits."""
    match.seq = row.seq
    fields = ["seq", "updated_at"]
    if ended != (match.status == Match.Status.ENDED):
        match.status = Match.Status.ENDED if ended else Match.Status.LIVE
        match.result = result
        match.ended_at = timezone.now() if ended else None
        fields += ["status", "result", "ended_at"]
    if row.seq - match.state_seq >= SNAPSHOT_EVERY or "status" in fields:
        match.state, match.state_seq = storage.write(state), row.seq
        fields += ["state", "state_seq"]
    match.save(update_fields=fields)
    match.remember_state(state, storage)
    publish_on_commit([match.pk], row.seq)


def update_effective(
    match: Match, rows: list[MatchEvent], read: Callable[[MatchEvent], LogEntry]
) -> None:
    """Flag each row as counting or undone after an undo; ``read`` reads a row as the game's log
    entry."""
    effective = effective_seqs([LogEntry(row.seq, read(row).event) for row in rows])
    for flag in (True, False):
        flip = [row.seq for row in rows if row.effective != flag and (row.seq in effective) == flag]
        if flip:
            MatchEvent.objects.filter(match=match, seq__in=flip).update(effective=flag)
            for row in rows:
                if row.seq in flip:
                    row.effective = flag
