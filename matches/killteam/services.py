"""Every write to a Kill Team match, asking ``rules.killteam``: the same row lock (and columns),
state cache, per-tap client keys, refusals kept in the log and undo/redo from the end of the log
as Heavy Gear Blitz's ``matches.hgb.services``."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction

from armies.models import Owner, Roster
from blitz_site.systems import KILLTEAM
from matches.hgb import services
from matches.hgb.services import MatchError, NotAPlayer, Redo, UndoLast
from matches.models import Match, MatchEvent, StateStorage
from rules import killteam as kt
from rules.errors import RulesError
from rules.eventlog import Event, EventError, LogEntry, Step


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


# How a Kill Team state is stored: the snapshot and each event's recorded change, as for every
# game (``matches.models``).
STATE = StateStorage(kt.state_from_dict, kt.state_to_dict, kt.apply_parts)


def current_state(match: Match) -> kt.KillTeamState:
    return match.current_state(STATE)


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
    return services.apply_once(lambda: _apply_locked(match_id, side, token, client_key, request))


def _apply_locked(match_id, side, token, client_key, request) -> KtApplied:
    match = services.locked_match(match_id, client_key)
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
            rows, event, result = services.undo_step(
                match, state, request, log_entry, kt.plan_undo_from
            )
    except EventError:
        raise
    except RulesError as error:
        refusal = Step(state, services.refusal_words(match, error, side))
        return _store(match, [], side, client_key, state, services.asked(request), refusal, True)
    return _store(match, rows, side, client_key, state, event, result)


def _store(match, rows, side, client_key, before, event, result, refused=False) -> KtApplied:
    old, new = kt.changed_parts(before, result.state)
    row = services.store_event(
        match,
        rows,
        side,
        client_key,
        before.turning_point,
        event,
        result,
        (old, new),
        sorted(old),
        refused,
        log_entry,
    )
    state = result.state
    services.save_match(match, row, state, state.phase is kt.Phase.ENDED, state.result or "", STATE)
    error = result.summary if refused else ""
    return KtApplied(match, state, row, error=error, warnings=result.warnings)
