"""Every write to a roster of any game: one function each, in a transaction. Each game's own
changes (``armies/<game>/services.py``) go through ``change_once`` and ``new_roster`` here.

Edits lock the roster row, so two tabs (or a double tap) are applied one after the other.
Requests that add or remove something carry a key: a key already applied is not applied again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from armies.models import Owner, RevokedShareSlug, Roster, new_share_slug
from blitz_site.systems import GameSystem
from rules.errors import RulesError

APPLIED_KEYS_KEPT = 50
MAX_NAME = 80


class RosterError(Exception):
    """A change the player asked for that cannot be made; the message says why."""


@dataclass(frozen=True)
class Change:
    roster: Roster
    applied: bool  # False when the request's key had already been applied


def clean_name(name: str) -> str:
    """A roster name as typed, with spaces tidied; RosterError when empty or too long."""
    name = " ".join((name or "").split())
    if not name:
        raise RosterError("Give the roster a name.")
    if len(name) > MAX_NAME:
        raise RosterError(f"A roster name can be at most {MAX_NAME} characters.")
    return name


def created_with(owner: Owner, key: str) -> Roster | None:
    """The roster a create or import form with this once-only key already made, if any."""
    if not key:
        return None
    return Roster.objects.owned_by(owner).filter(create_key=key).first()


def new_roster(owner: Owner, *, key: str = "", **fields) -> Roster:
    """Save a new roster of any game (``fields`` as a builder gives them); with a once-only
    ``key`` already used by this owner (two submits of one form, even at the same moment), the
    roster the first one made instead."""
    roster = Roster(
        owner_id=owner.user_id,
        guest_key="" if owner.user_id else owner.guest_key,
        create_key=key,
        **fields,
    )
    for _ in range(3):
        roster.share_slug = new_share_slug()
        try:
            with transaction.atomic():
                roster.save()
            return roster
        except IntegrityError:
            # The same key committed by a submit that got there first (its row is visible now
            # that the unique index has waited for it), or a slug collision: try another slug.
            if first := created_with(owner, key):
                return first
            roster.pk = None
    raise RosterError("Could not create the roster; please try again.")


def locked(owner: Owner, roster_id: int, system: GameSystem | None = None) -> Roster:
    """The owner's live roster, locked for the rest of the transaction (of ``system`` only,
    when given): Roster.DoesNotExist otherwise."""
    rosters = Roster.objects.select_for_update().live().owned_by(owner).filter(pk=roster_id)
    roster = (rosters.filter(system=system.id) if system else rosters).first()
    if roster is None:
        raise Roster.DoesNotExist
    return roster


@transaction.atomic
def change_once(
    *, owner: Owner, roster_id: int, key: str, system: GameSystem, store: Callable[[Roster], None]
) -> Change:
    """Lock the owner's live roster of ``system`` (Roster.DoesNotExist otherwise) and let
    ``store`` set its new fields, once per ``key``: a key already applied changes nothing. A
    rule's refusal (RulesError) becomes a RosterError and nothing is saved."""
    roster = locked(owner, roster_id, system)
    if key and key in roster.applied_keys:
        return Change(roster, applied=False)
    try:
        store(roster)
    except RulesError as error:
        raise RosterError(str(error)) from error
    if key:
        roster.applied_keys = [*roster.applied_keys, key][-APPLIED_KEYS_KEPT:]
    roster.save()
    return Change(roster, applied=True)


CopyFields = Callable[[Roster, str], dict]
"""A roster's fields for a copy named so (its game's ``Builder.copy_fields``)."""


@transaction.atomic
def roster_duplicate(*, owner: Owner, roster_id: int, key: str = "", copy: CopyFields) -> Roster:
    """A copy of one of the owner's rosters, once per form ``key``."""
    source = Roster.objects.live().owned_by(owner).get(pk=roster_id)
    if first := created_with(owner, key):
        return first
    return new_roster(owner, key=key, copied_from=source, **copy(source, _copy_name(source.name)))


def _copy_name(name: str) -> str:
    return (f"Copy of {name}")[:MAX_NAME]


@transaction.atomic
def roster_copy_shared(*, owner: Owner, slug: str, key: str = "", copy: CopyFields) -> Roster:
    """A copy of a shared roster in the owner's rosters, once per form ``key``."""
    source = Roster.objects.live().get(share_slug=slug)
    if first := created_with(owner, key):
        return first
    return new_roster(owner, key=key, copied_from=source, **copy(source, _copy_name(source.name)))


@transaction.atomic
def roster_delete(*, owner: Owner, roster_id: int) -> Roster:
    roster = locked(owner, roster_id)
    roster.deleted_at = timezone.now()
    roster.save(update_fields=["deleted_at", "updated_at"])
    return roster


@transaction.atomic
def roster_restore(*, owner: Owner, roster_id: int) -> Roster:
    roster = (
        Roster.objects.select_for_update().in_trash().owned_by(owner).filter(pk=roster_id).first()
    )
    if roster is None:
        raise Roster.DoesNotExist
    roster.deleted_at = None
    roster.save(update_fields=["deleted_at", "updated_at"])
    return roster


@transaction.atomic
def roster_share_new_link(*, owner: Owner, roster_id: int) -> Roster:
    """Revoke the current share link and make a new one: the old link stops working."""
    roster = locked(owner, roster_id)
    _remember_revoked(roster.share_slug)
    roster.share_slug = new_share_slug()
    roster.save(update_fields=["share_slug", "updated_at"])
    return roster


def _remember_revoked(slug: str | None) -> None:
    if slug:
        RevokedShareSlug.objects.get_or_create(slug=slug)


@transaction.atomic
def roster_share_revoke(*, owner: Owner, roster_id: int) -> Roster:
    roster = locked(owner, roster_id)
    _remember_revoked(roster.share_slug)
    roster.share_slug = None
    roster.save(update_fields=["share_slug", "updated_at"])
    return roster
