"""Datacard packs of every game: create, copy, share, delete and restore (one function each, in a
transaction). What a pack holds, and the writes that check it, are its game's
(``armies/hgb/packs.py``, ``armies/killteam/services.py``)."""

from __future__ import annotations

import re
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from armies.models import TRASH_DAYS, DataPack, Owner, RevokedPackSlug, Roster, new_share_slug
from blitz_site.systems import GameSystem
from blitz_site.text import UNSTORABLE

MAX_PACKS = 20
MAX_NAME = 80
LIBRARY_NAME = "My datacards"


class PackError(Exception):
    """A change to a pack that cannot be made; ``messages`` holds one sentence per problem."""

    def __init__(self, *messages: str) -> None:
        self.messages = messages
        super().__init__(" ".join(messages))


IMPORTED = re.compile(r"\s*\(imported from a file by [^()]*\)$")
MAX_ENTERED_BY = DataPack._meta.get_field("entered_by").max_length


def imported_by(claimed: object, importer: str) -> str:
    """Who entered figures that came in a file, one rule for every game's import: the file's
    own author (a genuine export names who typed the figures) marked "imported from a file by"
    the importer, so a page never shows a file's unverified claim as if the importer typed it,
    and never loses who did. A file that names nobody says only who imported it."""
    mark = f"imported from a file by {importer}"
    claimed = " ".join(UNSTORABLE.sub("", claimed).split()) if isinstance(claimed, str) else ""
    claimed = IMPORTED.sub("", claimed)[: MAX_ENTERED_BY - len(mark) - 3].strip()
    return f"{claimed} ({mark})" if claimed else mark[:MAX_ENTERED_BY]


def owner_name(request_user, owner: Owner) -> str:
    """Who "entered" a pack's figures: the username, or "a guest"."""
    return request_user.get_username() if owner.user_id is not None else "a guest"


def library(owner: Owner, system: GameSystem | None = None) -> list[DataPack]:
    """The owner's packs (of one game, when given)."""
    packs = DataPack.objects.owned_by(owner)
    return list(packs.of(system) if system else packs)


def first_pack(owner: Owner, system: GameSystem) -> DataPack | None:
    """The owner's own pack of a game: their first."""
    return DataPack.objects.owned_by(owner).of(system).first()


def roster_pack(roster: Roster) -> DataPack | None:
    """The pack completing a roster's figures: the one it chose (unless deleted), else its
    owner's first."""
    if roster.pack_id is not None and roster.pack.deleted_at is None:
        return roster.pack
    owner = Owner(roster.owner_id, roster.guest_key or None)
    return DataPack.objects.owned_by(owner).filter(system=roster.system).first()


def pack_record(pack: DataPack | None) -> dict:
    """What a match keeps of the pack a side starts with: a copy, never a link."""
    if pack is None or not pack.figures:
        return {}
    return {"name": pack.name, "entered_by": pack.entered_by, "figures": pack.figures}


def pack_name(text: str, fallback: str) -> str:
    """A pack name as typed (spaces tidied, at most ``MAX_NAME``), or ``fallback``."""
    name = " ".join((text or "").split())[:MAX_NAME]
    return name or fallback


def created_with(owner: Owner, key: str) -> DataPack | None:
    if not key:
        return None
    return DataPack.objects.owned_by(owner).filter(create_key=key).first()


def new_pack(owner: Owner, *, key: str, **fields) -> DataPack:
    """Save a new pack, once per form ``key`` (as ``armies.services.new_roster``); ``fields``
    name its game (``system``) and the fingerprint of the data it is checked against."""
    if owner.user_id is None and not owner.guest_key:
        raise PackError("Your browser session is needed to keep your datacards: allow cookies.")
    if first := created_with(owner, key):
        return first
    if DataPack.objects.owned_by(owner).count() >= MAX_PACKS:
        raise PackError(f"You have {MAX_PACKS} packs, the most Blitz keeps: delete one first.")
    pack = DataPack(
        owner_id=owner.user_id,
        guest_key="" if owner.user_id else owner.guest_key,
        create_key=key,
        **fields,
    )
    try:
        with transaction.atomic():
            pack.save()
    except IntegrityError:
        if first := created_with(owner, key):
            return first
        raise
    return pack


def pack_create(
    *,
    owner: Owner,
    entered_by: str,
    system: GameSystem,
    data_fingerprint: str,
    name: str = "",
    key: str = "",
) -> DataPack:
    """A new, empty pack of a game (``data_fingerprint``: the game data it is checked against)."""
    return new_pack(
        owner,
        key=key,
        name=pack_name(name, LIBRARY_NAME),
        entered_by=entered_by,
        system=system.id,
        data_fingerprint=data_fingerprint,
    )


def locked(owner: Owner, pack_id: int, system: GameSystem | None = None) -> DataPack:
    """The owner's pack (of ``system`` only, when given), locked: DataPack.DoesNotExist else."""
    packs = DataPack.objects.select_for_update().owned_by(owner).filter(pk=pack_id)
    pack = (packs.of(system) if system else packs).first()
    if pack is None:
        raise DataPack.DoesNotExist
    return pack


def shared_pack(slug: str) -> DataPack:
    return DataPack.objects.get(share_slug=slug)


def pack_copy_shared(*, owner: Owner, slug: str, key: str = "") -> DataPack:
    """A copy of a shared pack in the owner's library; its figures stay "entered by" whoever
    typed them."""
    source = shared_pack(slug)
    if first := created_with(owner, key):
        return first
    return new_pack(
        owner,
        key=key,
        name=pack_name(f"Copy of {source.name}", "Copied datacards"),
        entered_by=source.entered_by,
        figures=source.figures,
        copied_from=source,
        system=source.system,
        data_fingerprint=source.data_fingerprint,
    )


@transaction.atomic
def pack_share_new_link(*, owner: Owner, pack_id: int) -> DataPack:
    """A new share link (the old one, if any, stops working)."""
    pack = locked(owner, pack_id)
    if pack.share_slug:
        RevokedPackSlug.objects.get_or_create(slug=pack.share_slug)
    pack.share_slug = new_share_slug()
    pack.save(update_fields=["share_slug", "updated_at"])
    return pack


@transaction.atomic
def pack_share_revoke(*, owner: Owner, pack_id: int) -> DataPack:
    pack = locked(owner, pack_id)
    if pack.share_slug:
        RevokedPackSlug.objects.get_or_create(slug=pack.share_slug)
    pack.share_slug = None
    pack.save(update_fields=["share_slug", "updated_at"])
    return pack


@transaction.atomic
def pack_delete(*, owner: Owner, pack_id: int) -> DataPack:
    """Move a pack to "Recently deleted" (restorable for ``TRASH_DAYS`` days, as a roster is);
    its share link stops working. Packs deleted longer ago than that are removed for good."""
    pack = locked(owner, pack_id)
    if pack.share_slug:
        RevokedPackSlug.objects.get_or_create(slug=pack.share_slug)
    pack.share_slug = None
    pack.deleted_at = timezone.now()
    pack.save(update_fields=["share_slug", "deleted_at", "updated_at"])
    cutoff = pack.deleted_at - timedelta(days=TRASH_DAYS)
    DataPack.objects.any_owned_by(owner).filter(deleted_at__lt=cutoff).delete()
    return pack


@transaction.atomic
def pack_restore(*, owner: Owner, pack_id: int) -> DataPack:
    """A pack deleted in the last ``TRASH_DAYS`` days back in the library, with every figure
    (its share link stays off). DataPack.DoesNotExist when there is no such pack to restore."""
    pack = DataPack.objects.select_for_update().in_trash(owner).filter(pk=pack_id).first()
    if pack is None:
        raise DataPack.DoesNotExist
    if DataPack.objects.owned_by(owner).count() >= MAX_PACKS:
        raise PackError(f"You have {MAX_PACKS} packs, the most Blitz keeps: delete one first.")
    pack.deleted_at = None
    pack.save(update_fields=["deleted_at", "updated_at"])
    return pack


def trash(owner: Owner) -> list[DataPack]:
    """The owner's packs deleted in the last ``TRASH_DAYS`` days, the latest first."""
    return list(DataPack.objects.in_trash(owner).order_by("-deleted_at", "-pk"))


def owns_pack(owner: Owner, pack_id: int, system: GameSystem) -> bool:
    return DataPack.objects.owned_by(owner).of(system).filter(pk=pack_id).exists()
