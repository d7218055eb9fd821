"""Every write to a mecha match, asking ``rules.mecha``: starting one, and its taps (through the
shared ``matches.taps``, with the mecha ``TAPS``)."""

from __future__ import annotations

from armies.models import Owner, Roster
from blitz_site.systems import MECHA
from matches import services, taps
from matches.models import Match, MatchEvent, StateStorage
from matches.services import MatchError
from matches.taps import Applied, Change, Request
from rules.errors import RulesError
from rules.eventlog import LogEntry, Step
from rules.mecha import log, play, state, storage

GAME_ID = MECHA.id


def side_labels(a: str, b: str) -> tuple[str, str]:
    """The sides' labels: the rosters' names, told apart when they are the same."""
    return (f"{a} (A)", f"{b} (B)") if a == b else (a, b)


def _units(side: str, roster: Roster) -> tuple[state.Unit, ...]:
    try:
        return state.units_from_roster(side, roster.army)
    except RulesError as error:
        raise MatchError(f"The force {roster.name} can't be played: {error}") from None


def mecha_match_start(
    *,
    owner: Owner,
    player: str,
    mine: Roster,
    opponent: Roster,
    ram_formula: str,
    ram_scope: str,
    key: str = "",
) -> Match:
    """A mecha match between two forces, started by ``owner`` in seat A (once per ``key``), with
    the ram self-damage reading the players picked."""
    if key and (first := services.started_with(owner, key)):
        return first
    labels = side_labels(mine.name, opponent.name)
    try:
        new = state.new_match(
            labels, _units("a", mine), _units("b", opponent), ram_formula, ram_scope
        )
    except RulesError as error:
        raise MatchError(str(error)) from None
    sides = services.roster_columns(mine, opponent, MECHA.short_name)
    return services.match_create(
        system=GAME_ID,
        owner=owner,
        player=player,
        initial=storage.state_to_dict(new),
        key=key,
        **sides,
    )


# How a mecha state is stored (``matches.models``), and what its taps need.
STATE = StateStorage(storage.state_from_dict, storage.state_to_dict, storage.apply_parts)


def changes(before: state.MechaState, result: Step) -> Change:
    """What an event changed: the parts (units, the turn) as they were and are."""
    old, new = storage.changed_parts(before, result.state)
    return Change(old, new, tuple(sorted(key for key in old if key != "match")), "match" in old)


TAPS = taps.Game(
    GAME_ID,
    step=play.step,
    plan_undo_from=log.plan_undo_from,
    changes=changes,
    storage=STATE,
    read_event=play.read_event,
    round_of=lambda s: s.turn,
    outcome=lambda s: (s.ended, s.result),
)


def current_state(match: Match) -> state.MechaState:
    return match.current_state(STATE)


def log_entry(row: MatchEvent) -> LogEntry:
    return TAPS.log_entry(row)


def mecha_apply(
    *, match_id: int, side: str, token: str, client_key: str, request: Request
) -> Applied:
    """One change for the player of seat ``side``, once per ``client_key`` (``matches.taps``)."""
    return taps.apply(
        TAPS, match_id=match_id, side=side, token=token, client_key=client_key, request=request
    )
