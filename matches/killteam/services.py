"""Every write to a Kill Team match, asking ``rules.killteam``: the same row lock, per-tap client
keys, refusals kept in the log and undo/redo as Heavy Gear Blitz's ``matches.services``."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from armies.models import Owner, Roster
from blitz_site.systems import KILLTEAM
from matches import services
from matches.models import Match, MatchEvent
from matches.services import MatchError, NotAPlayer, Redo, UndoLast
from rules import eventlog
from rules import killteam as kt
from rules.errors import RulesError
from rules.eventlog import Event, EventError, LogEntry, Stale, Step, UnknownId

APPLY_ATTEMPTS = 3


def side_labels(a: str, b: str) -> tuple[str, str]:
    """The sides' labels: the teams' names, told apart when they are the same."""
    return (f"{a} (A)", f"{b} (B)") if a == b else (a, b)


def _team(roster: Roster) -> kt.Team:
    try:
        team = kt.read_team(roster.army)
    except RulesError as error:
        raise MatchError(f"The team {roster.name} can't be played: {error}") from None
    if not team.operatives:
        raise MatchError(f"The team {roster.name} has no operatives yet: add one first.")
    return team


def kt_match_start(
    *, owner: Owner, player: str, mine: Roster, opponent: Roster, key: str = ""
) -> Match:
    """A Kill Team match between two teams, started by ``owner`` in seat A (once per ``key``)."""
    if key and (first := services.started_with(owner, key)):
        return first
    teams = _team(mine), _team(opponent)
    labels = side_labels(mine.name, opponent.name)
    state = kt.new_battle(
        *(kt.side_from_team(t, label) for t, label in zip(teams, labels, strict=True))
    )
    initial = kt.state_to_dict(state)
    sides = {}
    for side, roster in (("a", mine), ("b", opponent)):
        sides |= {
            f"{side}_roster": roster,
            f"{side}_army": roster.army,
            f"{side}_roster_name": roster.name[:200],
            f"{side}_faction": KILLTEAM.short_name,
            f"{side}_fingerprint": roster.data_fingerprint,
        }
    try:
        with transaction.atomic():
            return Match.objects.create(
                system=KILLTEAM.id,
                a_user_id=owner.user_id,
                a_guest_key="" if owner.user_id else owner.guest_key,
                a_player=player,
                initial=initial,
                state=initial,
                create_key=key,
                **sides,
            )
    except IntegrityError:
        if key and (first := services.started_with(owner, key)):
            return first
        raise


def current_state(match: Match) -> kt.KillTeamState:
    return kt.state_from_dict(match.state)


def log_entry(row: MatchEvent) -> LogEntry:
    return LogEntry(row.seq, kt.read_event({"kind": row.kind, **row.payload}))


@dataclass(frozen=True)
class KtApplied:
    """What a tap did; ``error`` is a refusal in words (kept in the log, nothing changed)."""

    match: Match
    state: kt.KillTeamState
    event: MatchEvent | None = None
    error: str = ""
    duplicate: bool = False
    warnings: tuple[str, ...] = ()


def kt_apply(
    *, match_id: int, side: str, token: str, client_key: str, request: Event | UndoLast | Redo
) -> KtApplied:
    """One change for the player of seat ``side``, once per ``client_key`` (as ``match_apply``)."""
    for attempt in range(APPLY_ATTEMPTS):
        try:
            with transaction.atomic():
                return _apply_locked(match_id, side, token, client_key, request)
        except IntegrityError:
            if attempt == APPLY_ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


def _apply_locked(match_id, side, token, client_key, request) -> KtApplied:
    match = services._locked_match(match_id, client_key)
    if not token or match.token(side) != token:
        raise NotAPlayer
    if match.system != KILLTEAM.id:
        raise Match.DoesNotExist  # a Heavy Gear Blitz match takes no Kill Team taps
    state = current_state(match)
    if match.applied_seq is not None:
        event = MatchEvent.objects.get(match=match, seq=match.applied_seq)
        error = event.summary if event.refused else ""
        return KtApplied(match, state, event, error=error, duplicate=True)
    rows: list[MatchEvent] = []
    try:
        if isinstance(request, Event) and request.kind != "undo":
            event, result = request, kt.step(state, request)
        else:
            rows, event, result = _undo(match, request)
    except EventError:
        raise
    except RulesError as error:
        words = (
            error.sentence(services._changed_by(match, error.part, side))
            if isinstance(error, Stale)
            else str(error)
        )
        return _store(
            match, [], side, client_key, state, services._asked(request), Step(state, words), True
        )
    return _store(match, rows, side, client_key, state, event, result)


def _undo(match: Match, request) -> tuple[list[MatchEvent], Event, Step]:
    """An undo or redo, planned by replaying the log from the match's start."""
    rows = list(match.events.filter(refused=False).order_by("seq"))
    log = [log_entry(row) for row in rows]
    if isinstance(request, UndoLast):
        target = eventlog.last_undoable(log)
        if target is None:
            raise RulesError("There is nothing to undo.")
    elif isinstance(request, Redo):
        target = eventlog.undo_of(log, request.seq)
        if target is None:
            if request.seq not in {entry.seq for entry in log}:
                raise UnknownId(f"This match has no event #{request.seq}.")
            raise RulesError(f"Event #{request.seq} is not undone, so there is nothing to redo.")
    else:
        target = request["target"]
    summaries = {row.seq: row.summary for row in rows}
    initial = kt.state_from_dict(match.initial)
    return rows, Event("undo", {"target": target}), kt.plan_undo(initial, log, target, summaries)


def _store(match, rows, side, client_key, before, event, result, refused=False) -> KtApplied:
    old, new = kt.changed_parts(before, result.state)
    row = MatchEvent(
        match=match,
        seq=match.seq + 1,
        client_key=client_key,
        actor_side=side,
        actor_name=match.player_name(side),
        round=before.turning_point,
        kind=event.kind,
        payload=dict(event.data),
        summary=result.summary,
        warnings=list(result.warnings),
        before=old,
        after=new,
        units=sorted(old),
        writes=sorted(result.writes),
        reads=sorted(result.reads),
        refused=refused,
        effective=not refused,
    )
    row.save(force_insert=True)
    if event.kind == "undo" and not refused:
        services.update_effective(match, [*rows, row], log_entry)
    match.seq = row.seq
    fields = ["seq", "updated_at", "state"]
    ended = result.state.phase is kt.Phase.ENDED
    if ended != (match.status == Match.Status.ENDED):
        match.status = Match.Status.ENDED if ended else Match.Status.LIVE
        match.result = result.state.result or ""
        match.ended_at = timezone.now() if ended else None
        fields += ["status", "result", "ended_at"]
    match.state = kt.state_to_dict(result.state)
    match.save(update_fields=fields)
    error = result.summary if refused else ""
    return KtApplied(match, result.state, row, error=error, warnings=result.warnings)
