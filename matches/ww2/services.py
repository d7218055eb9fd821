"""Every write to a WWII skirmish match, asking ``rules.ww2``: starting one, and its taps (through
the shared ``matches.taps``, with this game's ``TAPS``)."""

from __future__ import annotations

from armies.models import Owner, Roster
from blitz_site import systems
from matches import services, taps
from matches.models import Match, MatchEvent, StateStorage
from matches.services import MatchError
from matches.taps import Applied, Change, Request
from rules.errors import RulesError
from rules.eventlog import LogEntry, Step
from rules.ww2 import log, play, storage
from rules.ww2.state import Ww2State, new_battle

GAME_ID = "ww2"


def side_labels(a: str, b: str) -> tuple[str, str]:
    """The sides' labels: the forces' names, told apart when they are the same."""
    return (f"{a} (A)", f"{b} (B)") if a == b else (a, b)


def ww2_match_start(
    *,
    owner: Owner,
    player: str,
    mine: Roster,
    opponent: Roster,
    running_gear_counts: bool,
    key: str = "",
) -> Match:
    """A WWII skirmish match between two forces, started by ``owner`` in seat A (once per
    ``key``). ``running_gear_counts``: the players' choice whether running-gear damage counts as
    one of the two damages (the text does not say)."""
    if key and (first := services.started_with(owner, key)):
        return first
    for roster in (mine, opponent):
        army = roster.army if isinstance(roster.army, dict) else {}
        if not army.get("vehicles") and not army.get("infantry"):
            raise MatchError(f"The force {roster.name} has no units yet: add one first.")
    labels = side_labels(mine.name, opponent.name)
    try:
        state = new_battle(
            (mine.army, opponent.army), labels, running_gear_counts=running_gear_counts
        )
    except RulesError as error:
        raise MatchError(f"These forces can't be played: {error}") from None
    sides = services.roster_columns(mine, opponent, systems.get(GAME_ID).short_name)
    return services.match_create(
        system=GAME_ID,
        owner=owner,
        player=player,
        initial=storage.state_to_dict(state),
        key=key,
        **sides,
    )


# How a WWII skirmish state is stored (``matches.models``), and what its taps need.
STATE = StateStorage(storage.state_from_dict, storage.state_to_dict, storage.apply_parts)


def changes(before: Ww2State, result: Step) -> Change:
    """What an event changed: the parts (units, the turn) as they were and are."""
    old, new = storage.changed_parts(before, result.state)
    return Change(old, new, tuple(sorted(old)), round_level="match" in old)


TAPS = taps.Game(
    GAME_ID,
    step=play.step,
    plan_undo_from=log.plan_undo_from,
    changes=changes,
    storage=STATE,
    read_event=play.read_event,
    round_of=lambda state: state.turn,
    outcome=lambda state: (state.ended, state.result),
)


def current_state(match: Match) -> Ww2State:
    return match.current_state(STATE)


def log_entry(row: MatchEvent) -> LogEntry:
    return TAPS.log_entry(row)


def ww2_apply(
    *, match_id: int, side: str, token: str, client_key: str, request: Request
) -> Applied:
    """One change for the player of seat ``side``, once per ``client_key`` (``matches.taps``)."""
    return taps.apply(
        TAPS, match_id=match_id, side=side, token=token, client_key=client_key, request=request
    )
