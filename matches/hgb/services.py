"""Heavy Gear Blitz's writes to a match, asking ``rules.hgb.match``: starting a match, its taps
(through the shared ``matches.taps``, with HGB's ``TAPS``) and the datacard figures typed into the
attack helper."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from armies.hgb.packs import pack_catalog
from armies.models import Owner, Roster
from armies.packs import first_pack, pack_record, roster_pack
from blitz_site.systems import HGB
from matches import taps
from matches.models import Match, StateStorage
from matches.services import MatchError, NotAPlayer, match_create, started_with
from matches.taps import ALL_UNITS, Applied, Change, Request
from rules.errors import RulesError
from rules.hgb.army import preset_roster, roster_to_dict
from rules.hgb.catalog import Catalog, default_catalog
from rules.hgb.match import (
    MatchState,
    Phase,
    SideSpec,
    Step,
    apply_parts,
    changed_parts,
    new_match,
    parse_event,
    plan_undo_from,
    state_from_dict,
    state_to_dict,
    step,
)
from rules.hgb.match_build import side_from_roster


def catalog() -> Catalog:
    return default_catalog()


# --- Starting -------------------------------------------------------------------------------------


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
    return match_create(
        system=HGB.id,
        owner=owner,
        player=player,
        initial=initial,
        key=key,
        **_side_fields("a", mine, a),
        **_side_fields("b", opponent, b),
    )


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


# --- Taps -----------------------------------------------------------------------------------------


def changes(before: MatchState, result: Step) -> Change:
    """What an event changed: the models' cards (every card at the end of a match or its undo,
    which take the buttons away or bring them back), and whether the round, the initiative or the
    activations changed, or a model left the game or came back (which changes the combat groups
    left to activate)."""
    after = result.state
    old, new = changed_parts(before, after)
    units = sorted(uid for uid in old if uid != "match")
    if (len(units) == len(before.units) and len(units) > 1) or (
        (before.phase is Phase.ENDED) != (after.phase is Phase.ENDED)
    ):
        units = [ALL_UNITS]
    round_level = "match" in old or any(
        before.unit(uid).is_out != after.unit(uid).is_out for uid in units if uid != ALL_UNITS
    )
    return Change(old, new, tuple(units), round_level)


# How a Heavy Gear Blitz state is stored (``matches.models``), and what its taps need.
STATE = StateStorage(state_from_dict, state_to_dict, apply_parts)
TAPS = taps.Game(
    HGB.id,
    step=step,
    plan_undo_from=plan_undo_from,
    changes=changes,
    storage=STATE,
    read_event=parse_event,
    round_of=lambda state: state.round,
    outcome=lambda state: (state.phase is Phase.ENDED, state.result or ""),
    fields=("a_pack_by", "b_pack_by"),  # a board card marks the figures of a side's pack
)


def match_apply(
    *, match_id: int, side: str, token: str, client_key: str, request: Request
) -> Applied:
    """One change for the player of seat ``side``, once per ``client_key`` (``matches.taps``)."""
    return taps.apply(
        TAPS, match_id=match_id, side=side, token=token, client_key=client_key, request=request
    )


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
