"""Every write to a mecha force: one function each, in a transaction, asking
``rules.mecha.cards`` (reading and checking) and ``rules.mecha.force`` (the change) for the
result. A card the rules refuse raises ``cards.CardError`` (naming the field) and stores nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction

from armies.models import Owner, Roster
from armies.services import Change, RosterError, change_once, clean_name, created_with, new_roster
from blitz_site.systems import MECHA
from rules.mecha import cards
from rules.mecha import force as edits

DEFAULT_NAME = "Mecha force"


def stored_fields(force: cards.Force, name: str) -> dict:
    """The row's fields of a mecha force."""
    army = cards.force_to_dict(force)
    return {"system": MECHA.id, "army": army, "name": name, "faction": "", "data_fingerprint": ""}


def read(roster: Roster) -> cards.Force:
    """The roster's force (an unreadable one reads as empty: it was stored by this code)."""
    try:
        return cards.read_force(roster.army)
    except cards.CardError:
        return cards.Force()


@transaction.atomic
def force_create(*, owner: Owner, name: str = "", key: str = "") -> Roster:
    """A new, empty force, once per form ``key``."""
    if first := created_with(owner, key):
        return first
    return new_roster(
        owner, key=key, **stored_fields(cards.Force(), clean_name(name or DEFAULT_NAME))
    )


def force_change(
    *, owner: Owner, roster_id: int, key: str = "", change: Callable[[cards.Force], cards.Force]
) -> Change:
    """Apply one change to the owner's force, once per key, under a row lock (Roster.DoesNotExist
    for anything but the owner's live mecha roster; the rules' CardError passes through so a
    form can put it next to its field)."""

    def store(roster: Roster) -> None:
        roster.army = cards.force_to_dict(change(read(roster)))

    try:
        return change_once(owner=owner, roster_id=roster_id, key=key, system=MECHA, store=store)
    except RosterError as error:
        if isinstance(error.__cause__, cards.CardError):
            raise error.__cause__ from None
        raise


def unit_put(*, owner: Owner, roster_id: int, key: str, unit_id: str, document: dict) -> Change:
    """Save a unit card ("" as ``unit_id``: a new one), once per key; its weapons stay."""
    unit = cards.read_unit({**document, "id": unit_id}, weapons=False)
    return force_change(
        owner=owner, roster_id=roster_id, key=key, change=lambda force: edits.put_unit(force, unit)
    )


def weapon_put(
    *, owner: Owner, roster_id: int, key: str, unit_id: str, weapon_id: str, document: dict
) -> Change:
    """Save a weapon card on a unit ("" as ``weapon_id``: a new one), once per key."""
    weapon = cards.read_weapon({**document, "id": weapon_id})
    return force_change(
        owner=owner,
        roster_id=roster_id,
        key=key,
        change=lambda force: edits.put_weapon(force, unit_id, weapon),
    )


def unit_remove(*, owner: Owner, roster_id: int, key: str, unit_id: str) -> Change:
    return force_change(
        owner=owner,
        roster_id=roster_id,
        key=key,
        change=lambda force: edits.remove_unit(force, unit_id),
    )


def weapon_remove(
    *, owner: Owner, roster_id: int, key: str, unit_id: str, weapon_id: str
) -> Change:
    return force_change(
        owner=owner,
        roster_id=roster_id,
        key=key,
        change=lambda force: edits.remove_weapon(force, unit_id, weapon_id),
    )


def copy_fields(roster: Roster, name: str) -> dict:
    return stored_fields(read(roster), name)


def import_fields(data: object, *, importer: str) -> dict:
    """A force's fields from an export's "roster", checked whole: a broken file names the unit,
    weapon and field, and nothing is stored."""
    try:
        force = cards.read_force(data)
    except cards.CardError as error:
        raise RosterError(f"This file can't be imported. {error}") from error
    name = data.get("name") if isinstance(data, dict) else None
    return stored_fields(
        force, clean_name(name if isinstance(name, str) and name.strip() else "Imported force")
    )
