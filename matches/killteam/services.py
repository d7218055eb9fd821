"""Every write to a Kill Team match, asking ``rules.killteam``: starting one, and its taps
(through the shared ``matches.taps``, with Kill Team's ``TAPS``)."""

from __future__ import annotations

from armies.models import Owner, Roster
from blitz_site.systems import KILLTEAM
from matches import services, taps
from matches.models import Match, MatchEvent, StateStorage
from matches.services import MatchError
from matches.taps import Applied, Change, Request
from rules import killteam as kt
from rules.errors import RulesError
from rules.eventlog import LogEntry, Step


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
    sides = services.roster_columns(mine, opponent, KILLTEAM.short_name)
    return services.match_create(
        system=KILLTEAM.id, owner=owner, player=player, initial=initial, key=key, **sides
    )


# How a Kill Team state is stored (``matches.models``), and what its taps need.
STATE = StateStorage(kt.state_from_dict, kt.state_to_dict, kt.apply_parts)


def changes(before: kt.KillTeamState, result: Step) -> Change:
    """What an event changed: the parts (operatives, the turning point) as they were and are."""
    old, new = kt.changed_parts(before, result.state)
    return Change(old, new, tuple(sorted(old)))


TAPS = taps.Game(
    KILLTEAM.id,
    step=kt.step,
    plan_undo_from=kt.plan_undo_from,
    changes=changes,
    storage=STATE,
    read_event=kt.read_event,
    round_of=lambda state: state.turning_point,
    outcome=lambda state: (state.phase is kt.Phase.ENDED, state.result or ""),
)


def current_state(match: Match) -> kt.KillTeamState:
    return match.current_state(STATE)


def log_entry(row: MatchEvent) -> LogEntry:
    return TAPS.log_entry(row)


def kt_apply(*, match_id: int, side: str, token: str, client_key: str, request: Request) -> Applied:
    """One change for the player of seat ``side``, once per ``client_key`` (``matches.taps``)."""
    return taps.apply(
        TAPS, match_id=match_id, side=side, token=token, client_key=client_key, request=request
    )
