"""Every write to a WWII skirmish force: one function each, in a transaction, asking
``rules.ww2.force`` for the new force (its refusal becomes a ``RosterError``)."""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction

from armies.models import Owner, Roster
from armies.services import Change, RosterError, change_once, clean_name, created_with, new_roster
from blitz_site.systems import WW2
from rules.ww2 import force as f

DEFAULT_NAME = "WWII force"


def stored_fields(force: f.Force, name: str) -> dict:
    """The row's fields of a WWII force."""
    return {
        "system": WW2.id,
        "army": f.force_to_dict(force),
        "name": name,
        "faction": "",
        "data_fingerprint": "",
    }


@transaction.atomic
def force_create(*, owner: Owner, name: str = "", key: str = "") -> Roster:
    """A new, empty force, once per form ``key``."""
    if first := created_with(owner, key):
        return first
    return new_roster(
        owner, key=key, **stored_fields(f.new_force(), clean_name(name or DEFAULT_NAME))
    )


def force_change(
    *, owner: Owner, roster_id: int, key: str = "", change: Callable[[f.Force], f.Force]
) -> Change:
    """Apply one change to a force, once per key, under a row lock (Roster.DoesNotExist for
    anything but the owner's live WWII roster)."""

    def store(roster: Roster) -> None:
        roster.army = f.force_to_dict(change(f.read_force(roster.army)))

    return change_once(owner=owner, roster_id=roster_id, key=key, system=WW2, store=store)


def force_rename(*, owner: Owner, roster_id: int, name: str) -> Change:
    clean = clean_name(name)

    def store(roster: Roster) -> None:
        roster.name = clean

    return change_once(owner=owner, roster_id=roster_id, key="", system=WW2, store=store)


def vehicle_add(*, owner: Owner, roster_id: int, key: str, vehicle: f.Vehicle) -> Change:
    return force_change(
        owner=owner,
        roster_id=roster_id,
        key=key,
        change=lambda force: f.add_vehicle(force, vehicle)[0],
    )


def vehicle_change(*, owner: Owner, roster_id: int, vehicle: f.Vehicle) -> Change:
    return force_change(
        owner=owner, roster_id=roster_id, change=lambda force: f.change_vehicle(force, vehicle)
    )


def vehicle_remove(*, owner: Owner, roster_id: int, vehicle_id: str) -> Change:
    return force_change(
        owner=owner, roster_id=roster_id, change=lambda force: f.remove_vehicle(force, vehicle_id)
    )


def soldier_add(*, owner: Owner, roster_id: int, key: str, name: str, rank: str) -> Change:
    return force_change(
        owner=owner,
        roster_id=roster_id,
        key=key,
        change=lambda force: f.add_soldier(force, name, rank)[0],
    )


def soldier_change(
    *, owner: Owner, roster_id: int, soldier_id: str, name: str, rank: str
) -> Change:
    return force_change(
        owner=owner,
        roster_id=roster_id,
        change=lambda force: f.change_soldier(force, soldier_id, name, rank),
    )


def soldier_remove(*, owner: Owner, roster_id: int, soldier_id: str) -> Change:
    return force_change(
        owner=owner, roster_id=roster_id, change=lambda force: f.remove_soldier(force, soldier_id)
    )


def read_or_empty(roster: Roster) -> tuple[f.Force, str]:
    """The roster's force, or an empty one and the sentence saying why it could not be read."""
    try:
        return f.read_force(roster.army), ""
    except f.ForceError as error:
        return f.new_force(), f"This force can't be read: {error}"


def copy_fields(roster: Roster, name: str) -> dict:
    return stored_fields(f.read_force(roster.army), name)


def import_fields(data: object, *, importer: str) -> dict:
    """A force's fields from an export's "roster", checked whole: a broken file names the
    entry and the field, and nothing is stored."""
    try:
        force = f.read_force(data)
    except f.ForceError as error:
        raise RosterError("This file can't be imported. " + str(error)) from error
    name = data.get("name") if isinstance(data, dict) else None
    try:
        clean = clean_name(name if isinstance(name, str) else "")
    except RosterError:
        clean = "Imported WWII force"
    return stored_fields(force, clean)
