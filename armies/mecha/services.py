"""Every write to a mecha force: one function each, in a transaction, asking
``rules.mecha.cards`` for the result."""

from __future__ import annotations

from django.db import transaction

from armies.models import Owner, Roster
from armies.services import clean_name, created_with, new_roster
from blitz_site.systems import MECHA

DEFAULT_NAME = "Mecha force"


def stored_fields(army: dict, name: str) -> dict:
    """The row's fields of a mecha force."""
    return {"system": MECHA.id, "army": army, "name": name, "faction": "", "data_fingerprint": ""}


@transaction.atomic
def force_create(*, owner: Owner, name: str = "", key: str = "") -> Roster:
    """A new, empty force, once per form ``key``."""
    if first := created_with(owner, key):
        return first
    name = clean_name(name or DEFAULT_NAME)
    return new_roster(owner, key=key, **stored_fields({"units": []}, name))
