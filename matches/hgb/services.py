"""Every write to a match: one function each, in a transaction, asking ``rules.hgb.match``.

``match_apply`` locks the match row, so taps from two devices are applied one after the other, and
every tap carries a client key: a key already applied returns the stored event instead of applying
the change again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.db import IntegrityError, transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone
from django.utils.timesince import timesince

from armies.hgb.packs import pack_catalog
from armies.models import Owner, Roster
from armies.packs import first_pack, pack_record, roster_pack
from blitz_site.systems import HGB
from matches.models import (
    HGB_STATE,
    SIDES,
    SNAPSHOT_EVERY,
    Match,
    MatchEvent,
    StateStorage,
    new_slug,
)
from rules.errors import RulesError
from rules.hgb.army import preset_roster, roster_to_dict
from rules.hgb.catalog import Catalog, default_catalog
from rules.hgb.match import (
    Event,
    EventError,
    LogEntry,
    MatchState,
    Phase,
    SideSpec,
    Stale,
    Step,
    UnknownId,
    changed_parts,
    effective_seqs,
    new_match,
    plan_undo_from,
    state_to_dict,
    step,
    undo_of,
    undo_reach,
)
from rules.hgb.match_build import side_from_roster

ALL_UNITS = "*"
T = TypeVar("T")


class MatchError(Exception):
    """A request about a match that cannot be done; the message says why, in words."""


class NotAPlayer(Exception):
    """The seat claimed does not hold the match (freed, or never held)."""


def catalog() -> Catalog:
    return default_catalog()


# --- Starting, joining, links ---------------------------------------------------------------------


@dataclass(frozen=True)
class SideChoice:
    """Where a side's army comes from: a stored roster (mine or shared) or a starter preset."""

    source: str
    roster: Roster | None = None
    preset: str = ""


@dataclass(frozen=True)
class _Snapshot:
    army: dict
    roster_name: str
    faction: str
    fingerprint: str
    spec: SideSpec
    pack: dict  # the datacard pack the side starts with (``armies.packs.pack_record``)


def _snapshot(choice: SideChoice, owner: Owner) -> _Snapshot:
    """A side as it starts: its list, with the figures of its roster's datacard pack (a starter
    force takes those of the player who starts the match)."""
    if choice.source == Match.Source.PRESET or choice.roster is None:
        pack = first_pack(owner, HGB)  # their first Heavy Gear Blitz pack
    else:
        pack = roster_pack(choice.roster)
    record = pack_record(pack)
    data = pack_catalog(record.get("figures"))
    if choice.source == Match.Source.PRESET:
        try:
            army = roster_to_dict(preset_roster(data, choice.preset))
        except RulesError as error:
            raise MatchError(str(error)) from None
        name, faction, fingerprint = army["name"], army["faction"], data.fingerprint
    else:
        roster = choice.roster
        if roster is None:
            raise MatchError("Choose a roster for each side.")
        army = roster.army
        name, faction = roster.name, roster.faction
        fingerprint = roster.data_fingerprint
    try:
        spec = side_from_roster(army, data)
    except RulesError as error:
        raise MatchError(f"The list {name} can't be played: {error}") from None
    if not any(group.units for group in spec.groups):
        raise MatchError(f"The list {name} has no models yet: add a combat group first.")
    return _Snapshot(army, name, faction, fingerprint, spec, record)


def started_with(owner: Owner, key: str) -> Match | None:
    """The match a start form with this once-only key already started, if any."""
    if not key:
        return None
    if owner.user_id is not None:
        return Match.objects.filter(a_user_id=owner.user_id, create_key=key).first()
    return Match.objects.filter(
        a_user__isnull=True, a_guest_key=owner.guest_key, create_key=key
    ).first()


def match_start(
    *, owner: Owner, player: str, mine: SideChoice, opponent: SideChoice, key: str = ""
) -> Match:
    """A new match between ``mine`` (seat A, ``owner``) and ``opponent`` (seat B, open to join).

    Once per form ``key``: a second submit of the same form (even at the same moment) gets the
    match the first one started."""
    if owner.user_id is None and not owner.guest_key:
        raise MatchError("Your browser session is needed to keep your seat: allow cookies.")
    if first := started_with(owner, key):
        return first
    a, b = _snapshot(mine, owner), _snapshot(opponent, owner)
    try:
        initial = state_to_dict(new_match(a.spec, b.spec))
    except RulesError as error:
        raise MatchError(str(error)) from None
    try:
        with transaction.atomic():
            return Match.objects.create(
                a_user_id=owner.user_id,
                a_guest_key="" if owner.user_id else owner.guest_key,
                a_player=player,
                **_side_fields("a", mine, a),
                **_side_fields("b", opponent, b),
                initial=initial,
                state=initial,
                create_key=key,
            )
    except IntegrityError:
        # The same key committed by a submit that got there first: the unique index waited for
        # it, so its row is visible now. (Anything else is a real error.)
        if first := started_with(owner, key):
            return first
        raise


def _side_fields(side: str, choice: SideChoice, snap: _Snapshot) -> dict:
    return {
        f"{side}_roster": choice.roster,
        f"{side}_source": choice.source,
        f"{side}_army": snap.army,
        f"{side}_roster_name": snap.roster_name[:200],
        f"{side}_faction": snap.faction,
        f"{side}_fingerprint": snap.fingerprint,
        f"{side}_tv": snap.spec.tv,
        f"{side}_pack": snap.pack,
        f"{side}_pack_by": snap.pack.get("entered_by", "")[:150],
    }


def match_join(*, slug: str, owner: Owner, player: str) -> tuple[Match, str]:
    """Take seat B of the match whose join link is ``slug``; returns the match and the seat."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(join_slug=slug)
        seat = match.seat_of(owner)
        if seat is not None:
            return match, seat
        if not match.is_live:
            raise MatchError("This match has ended: there is no seat to take.")
        if match.b_joined:
            raise MatchError(
                f"{match.b_player or 'Another player'} has already joined this match as "
                f"{match.b_roster_name}."
            )
        match.b_user_id = owner.user_id
        match.b_guest_key = "" if owner.user_id else owner.guest_key
        match.b_player = player
        match.b_token = new_slug()
        match.save(update_fields=["b_user", "b_guest_key", "b_player", "b_token", "updated_at"])
        return match, "b"


def match_new_join_link(*, match_id: int, owner: Owner, free_seat: bool = False) -> Match:
    """Revoke the join link (the old one stops working) and, if asked, free seat B."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.seat_of(owner) != "a":
            raise MatchError("Only the player who started the match can change its join link.")
        match.join_slug = new_slug()
        fields = ["join_slug", "updated_at"]
        if free_seat:
            match.b_user_id, match.b_guest_key, match.b_player, match.b_token = None, "", "", ""
            fields += ["b_user", "b_guest_key", "b_player", "b_token"]
        match.save(update_fields=fields)
        return match


def match_seats_end(
    *, user_id: int | None = None, seats: Iterable[tuple[int, str, str]] = ()
) -> int:
    """End access to seats: every seat of account ``user_id``, and each ``(match id, side,
    token)`` in ``seats`` still held with that token. Each gets a new token, so every seat cookie
    and session claim naming the old one stops working (a browser still logged in to the account
    finds its seat again through the account). Returns how many seats were ended."""
    ended = 0
    with transaction.atomic():
        for side in SIDES if user_id is not None else ():
            held = Match.objects.filter(**{f"{side}_user_id": user_id}).values_list("pk", flat=True)
            for pk in held:
                ended += Match.objects.filter(pk=pk).update(**{f"{side}_token": new_slug()})
        for pk, side, token in seats:
            if side in SIDES and token:
                ended += Match.objects.filter(pk=pk, **{f"{side}_token": token}).update(
                    **{f"{side}_token": new_slug()}
                )
    return ended


# --- Events --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class UndoLast:
    """Undo the latest event that counts (resolved under the lock)."""


@dataclass(frozen=True)
class Redo:
    """Bring back event ``seq``, which an undo took back."""

    seq: int


@dataclass(frozen=True)
class Applied:
    """What a request did. ``error`` is a rules refusal in words: nothing was stored then."""

    match: Match
    state: MatchState
    event: MatchEvent | None = None
    error: str = ""
    duplicate: bool = False
    warnings: tuple[str, ...] = ()
    units: frozenset[str] = field(default_factory=frozenset)
    round_level: bool = False
    """True when the round, the initiative or the activations changed, or a model left the game
    or came back (which changes the combat groups left to activate)."""

    @property
    def all_units(self) -> bool:
        return ALL_UNITS in self.units


APPLY_ATTEMPTS = 3


def match_apply(
    *, match_id: int, side: str, token: str, client_key: str, request: Event | UndoLast | Redo
) -> Applied:
    """Apply one change to the match for the player of seat ``side``, once per ``client_key``.

    ``token`` is the seat's token as the player's browser holds it: it is checked on the locked
    row (NotAPlayer if it does not match). Raises Match.DoesNotExist and EventError (malformed;
    UnknownId for an unknown id); a change the rules refuse comes back as ``Applied.error``.
    """
    return apply_once(lambda: _apply_locked(match_id, side, token, client_key, request))


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


# The columns a tap reads, for every game: the seats' tokens and names, what the state's cache
# keys on, what the end of a match writes, the game played, whether seat B is taken (a Kill Team
# board says so). The others (the rosters, the snapshot) are deferred: ``Match.current_state``
# reads the state only when this server has not parsed it yet.
TAP_FIELDS = (
    "id", "system", "seq", "state_seq", "status", "result", "ended_at", "updated_at",
    "a_token", "b_token", "a_player", "b_player", "a_pack_by", "b_pack_by",
    "b_user", "b_guest_key",
)  # fmt: skip


def locked_match(match_id: int, client_key: str) -> Match:
    """The match row, locked for this transaction, with ``applied_seq``: the event number this
    client key already made, or None (one query)."""
    applied = MatchEvent.objects.filter(match=OuterRef("pk"), client_key=client_key)
    return (
        Match.objects.select_for_update()
        .only(*TAP_FIELDS)
        .annotate(applied_seq=Subquery(applied.values("seq")[:1]))
        .get(pk=match_id)
    )


def _apply_locked(
    match_id: int, side: str, token: str, client_key: str, request: Event | UndoLast | Redo
) -> Applied:
    match = locked_match(match_id, client_key)
    if not token or match.token(side) != token:
        raise NotAPlayer
    if match.applied_seq is not None:
        event = MatchEvent.objects.get(match=match, seq=match.applied_seq)
        error = event.summary if event.refused else ""
        return Applied(match, match.current_state(), event, error=error, duplicate=True)
    state = match.current_state()
    rows: list[MatchEvent] = []
    try:
        if isinstance(request, Event) and request.kind != "undo":
            event, result = request, step(state, request, match.seq + 1)
        else:
            rows, event, result = undo_step(
                match, state, request, MatchEvent.log_entry, plan_undo_from
            )
    except EventError:
        raise
    except RulesError as error:
        # Refused: nothing changes, but the refusal goes in the log for both players to see.
        refusal = Step(state, refusal_words(match, error, side))
        return _store(match, [], side, client_key, state, asked(request), refusal, True)
    return _store(match, rows, side, client_key, state, event, result)


def refusal_words(match: Match, error: RulesError, side: str) -> str:
    """What the log says of a tap the rules refused: the rules' sentence, and for a stale tap who
    made the change the screen missed, and when."""
    if isinstance(error, Stale):
        return error.sentence(_changed_by(match, error.part, side))
    return str(error)


def asked(request: Event | UndoLast | Redo) -> Event:
    """The event a request stands for in the log (an undo names its target; 0: "the last")."""
    if isinstance(request, Event):
        return request
    return Event("undo", {"target": request.seq if isinstance(request, Redo) else 0})


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


def player_label(name: str, side: str) -> str:
    """The name a player gave, or "Player A" / "Player B"."""
    return name if name and name != "Guest" else f"Player {side.upper()}"


# The columns an undo reads of the events it is decided from.
UNDO_FIELDS = ("id", "seq", "kind", "payload", "summary", "before", "effective")


def undo_step(
    match: Match,
    state: Any,
    request: Event | UndoLast | Redo,
    read: Callable[[MatchEvent], LogEntry],
    plan: Callable[..., Step],
) -> tuple[list[MatchEvent], Event, Step]:
    """An undo or redo, decided from the log from the event it takes back or brings back on
    (``plan``, the game's ``plan_undo_from``: the state before that event is the current one with
    the later changes put back), so undoing a recent event reads and replays a few rows, however
    long the match. ``read`` reads a row as the game's log entry. Returns the rows read (their
    ``effective`` flags are updated after it)."""
    logged = MatchEvent.objects.filter(match=match, refused=False)
    if isinstance(request, UndoLast):
        latest = logged.filter(effective=True).exclude(kind="undo").order_by("-seq")
        first = latest.values_list("seq", flat=True).first()
        if first is None:
            raise RulesError("There is nothing to undo.")
    else:
        first = request.seq if isinstance(request, Redo) else request["target"]
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


def _store(
    match: Match,
    rows: list[MatchEvent],
    side: str,
    client_key: str,
    before: MatchState,
    event: Event,
    result: Step,
    refused: bool = False,
) -> Applied:
    old, new = changed_parts(before, result.state)
    units = sorted(uid for uid in old if uid != "match")
    if (len(units) == len(before.units) and len(units) > 1) or (
        (before.phase is Phase.ENDED) != (result.state.phase is Phase.ENDED)
    ):
        # Every card changes (the end of a match, or its undo, takes the buttons away or
        # brings them back).
        units = [ALL_UNITS]
    row = store_event(
        match, rows, side, client_key, before.round, event, result, (old, new), units, refused
    )
    ended = result.state.phase is Phase.ENDED
    save_match(match, row, result.state, ended, result.state.result or "")
    return Applied(
        match,
        result.state,
        row,
        error=result.summary if refused else "",
        warnings=result.warnings,
        units=frozenset(units),
        round_level="match" in old
        or any(
            before.unit(uid).is_out != result.state.unit(uid).is_out
            for uid in units
            if uid != ALL_UNITS
        ),
    )


def store_event(
    match: Match,
    rows: list[MatchEvent],
    side: str,
    client_key: str,
    round: int,
    event: Event,
    result: Step,
    change: tuple[dict, dict],
    units: list[str],
    refused: bool = False,
    read: Callable[[MatchEvent], LogEntry] = MatchEvent.log_entry,
) -> MatchEvent:
    """Store ``event`` as the match's next event, made by the player of seat ``side`` in
    ``round``: what it did (``result``; a refusal's summary says why), what it changed
    (``change``: its "before" and "after" parts) and the cards it changed (``units``). After an
    undo, ``rows`` (the events it was decided from, read as log entries by ``read``) are flagged
    as counting or undone."""
    old, new = change
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
        before=old,
        after=new,
        units=units,
        writes=sorted(result.writes),
        reads=sorted(result.reads),
        refused=refused,
        effective=not refused,
    )
    row.save(force_insert=True)
    if event.kind == "undo" and not refused:
        update_effective(match, [*rows, row], read)
    return row


def save_match(
    match: Match,
    row: MatchEvent,
    state: Any,
    ended: bool,
    result: str,
    storage: StateStorage = HGB_STATE,
) -> None:
    """The match row after its event ``row``: its number, whether it has ended (``result``:
    "a", "b" or "draw") when that changes, and the whole state (``storage.write``) every
    SNAPSHOT_EVERY events and when it ends or comes back. The state is kept for the next tap on
    this server."""
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


def update_effective(match: Match, rows: list[MatchEvent], read=MatchEvent.log_entry) -> None:
    """Flag each row as counting or undone after an undo; ``read`` reads a row as a log entry
    (the game's own reader: ``MatchEvent.log_entry`` is Heavy Gear Blitz's)."""
    effective = effective_seqs([LogEntry(row.seq, read(row).event) for row in rows])
    for flag in (True, False):
        flip = [row.seq for row in rows if row.effective != flag and (row.seq in effective) == flag]
        if flip:
            MatchEvent.objects.filter(match=match, seq__in=flip).update(effective=flag)
            for row in rows:
                if row.seq in flip:
                    row.effective = flag


def match_remember_figures(*, match_id: int, side: str, token: str, typed: dict) -> None:
    """Keep datacard figures typed into the attack helper for the rest of the match (the latest
    value of each figure wins). ``typed`` is ``{"models" or "weapons": {id: {figure: int}}}``,
    already checked by the helper's form. Raises Match.DoesNotExist and NotAPlayer."""
    match = Match.objects.only("id", "a_token", "b_token", "figures").get(pk=match_id)
    if not token or match.token(side) != token:
        raise NotAPlayer
    if not _figures_change(match.figures, typed):
        return  # kept already: no write (the helper sends a figure at every pause in typing)
    with transaction.atomic():
        match = Match.objects.select_for_update().only("id", "a_token", "b_token", "figures")
        match = match.get(pk=match_id)
        if not token or match.token(side) != token:
            raise NotAPlayer
        figures = match.figures if isinstance(match.figures, dict) else {}
        changed = False
        for scope, entries in typed.items():
            kept = figures.setdefault(scope, {})
            for key, values in entries.items():
                current = kept.setdefault(key, {})
                for name, value in values.items():
                    if current.get(name) != value:
                        current[name] = value
                        changed = True
        if changed:
            match.figures = figures
            match.save(update_fields=["figures"])


def _figures_change(figures: object, typed: dict) -> bool:
    kept = figures if isinstance(figures, dict) else {}
    return any(
        (kept.get(scope) or {}).get(key, {}).get(name) != value
        for scope, entries in typed.items()
        for key, values in entries.items()
        for name, value in values.items()
    )
