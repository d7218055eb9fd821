"""Every write to a Heavy Gear Blitz roster: one function each, asking ``rules.hgb`` for the
result; the generic writes (create once per key, lock, change once, copy, delete, share) are
``armies.services``'."""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction

import rules.hgb
from armies.models import Owner, Roster
from armies.services import Change, RosterError, change_once, clean_name, created_with, new_roster
from blitz_site.systems import HGB


def catalog() -> rules.hgb.Catalog:
    return rules.hgb.default_catalog()


def load_army(roster: Roster) -> rules.hgb.Roster:
    return rules.hgb.roster_from_dict(roster.army, catalog())


def _store(roster: Roster, army: rules.hgb.Roster) -> None:
    for field, value in stored_fields(army).items():
        if field != "name":
            setattr(roster, field, value)
    roster.name = army.name or roster.name


def stored_fields(army: rules.hgb.Roster) -> dict:
    """The row's fields of a Heavy Gear Blitz roster (``army`` named)."""
    return {
        "system": HGB.id,
        "army": rules.hgb.roster_to_dict(army),
        "name": army.name,
        "faction": army.faction,
        "tv_limit": army.tv_limit,
        "data_fingerprint": catalog().fingerprint,
    }


def _new_roster(owner: Owner, army: rules.hgb.Roster, *, key: str = "", **extra) -> Roster:
    """Save a new Heavy Gear Blitz roster (see ``new_roster``)."""
    fields = stored_fields(army)
    fields["name"] = army.name or ""
    return new_roster(owner, key=key, **fields, **extra)


@transaction.atomic
def roster_create(
    *, owner: Owner, faction: str = "", preset: str = "", name: str = "", key: str = ""
) -> Roster:
    """A new roster from a starter force or an empty faction list, once per form ``key``."""
    if first := created_with(owner, key):
        return first
    cat = catalog()
    try:
        if preset:
            army = rules.hgb.preset_roster(cat, preset)
            if name:
                army = rules.hgb.rename(army, clean_name(name))
        else:
            if faction not in cat.factions:
                raise RosterError("Choose a faction for the new roster.")
            default_name = f"{cat.factions[faction].name} roster"
            army = rules.hgb.new_roster(cat, faction, name=clean_name(name or default_name))
    except rules.hgb.RulesError as error:
        raise RosterError(str(error)) from error
    return _new_roster(owner, army, key=key)


def roster_change(
    *,
    owner: Owner,
    roster_id: int,
    key: str,
    change: Callable[[rules.hgb.Roster], rules.hgb.Roster],
) -> Change:
    """Apply one change to a Heavy Gear Blitz roster, once per key, under a row lock."""

    def store(roster: Roster) -> None:
        _store(roster, change(load_army(roster)))

    return change_once(owner=owner, roster_id=roster_id, key=key, system=HGB, store=store)


def roster_rename(*, owner: Owner, roster_id: int, name: str) -> Change:
    clean = clean_name(name)
    return roster_change(
        owner=owner, roster_id=roster_id, key="", change=lambda army: rules.hgb.rename(army, clean)
    )


def roster_set_tv_limit(*, owner: Owner, roster_id: int, tv_limit: int) -> Change:
    return roster_change(
        owner=owner,
        roster_id=roster_id,
        key="",
        change=lambda army: rules.hgb.set_tv_limit(army, tv_limit),
    )


def copy_fields(roster: Roster, name: str) -> dict:
    """A Heavy Gear Blitz roster's fields for a copy named ``name``."""
    return stored_fields(rules.hgb.rename(load_army(roster), name))


def import_fields(data: object) -> dict:
    """A Heavy Gear Blitz roster's fields from an export's "roster", checked whole: the
    data's own checks, the size bound, and nothing the game data does not know."""
    cat = catalog()
    try:
        army = rules.hgb.roster_from_dict(data, cat)
    except rules.hgb.RulesError as error:
        raise RosterError(str(error)) from error
    refusal = rules.hgb.size_refusal(army)
    if refusal:
        raise RosterError(f"This file can't be imported. {refusal}")
    unknown = [
        p.message for p in rules.hgb.roster_problems(army, cat) if p.code.startswith("unknown")
    ]
    if unknown:
        raise RosterError("The file names things the game data does not know: " + " ".join(unknown))
    return stored_fields(rules.hgb.rename(army, clean_name(army.name or "Imported roster")))
