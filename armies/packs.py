"""Datacard packs: every write (one function each, in a transaction) and the catalog a roster's
pack completes. The figures themselves are checked by ``rules.hgb.check_pack``."""

from __future__ import annotations

import re

from django.db import IntegrityError, transaction

import rules.hgb
from armies.models import DataPack, Owner, RevokedPackSlug, Roster, new_share_slug
from blitz_site.systems import HGB, GameSystem
from blitz_site.text import MESSAGE as UNSTORABLE_MESSAGE
from blitz_site.text import UNSTORABLE, storable

MAX_PACKS = 20
MAX_NAME = 80
LIBRARY_NAME = "My datacards"
SAVED_FIGURE_KEY = "saved-from-a-match"
"""The create key of the pack a figure saved from the attack helper makes: one pack, however
often (or however concurrently) the first figure is saved."""


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


def first_pack(owner: Owner, system: GameSystem = HGB) -> DataPack | None:
    """The owner's own pack of a game: their first."""
    return DataPack.objects.owned_by(owner).of(system).first()


def roster_pack(roster: Roster) -> DataPack | None:
    """The pack completing a roster's figures: the one it chose, else its owner's first."""
    if roster.pack_id is not None:
        return roster.pack
    owner = Owner(roster.owner_id, roster.guest_key or None)
    return DataPack.objects.owned_by(owner).filter(system=roster.system).first()


def pack_catalog(figures: dict | None) -> rules.hgb.Catalog:
    """The game data completed by a pack's figures (the data's own figures always win)."""
    return rules.hgb.complete_catalog(rules.hgb.default_catalog(), figures or {})


def pack_record(pack: DataPack | None) -> dict:
    """What a match keeps of the pack a side starts with: a copy, never a link."""
    if pack is None or not pack.figures:
        return {}
    return {"name": pack.name, "entered_by": pack.entered_by, "figures": pack.figures}


def _name(text: str, fallback: str) -> str:
    name = " ".join((text or "").split())[:MAX_NAME]
    return name or fallback


def created_with(owner: Owner, key: str) -> DataPack | None:
    if not key:
        return None
    return DataPack.objects.owned_by(owner).filter(create_key=key).first()


def _new_pack(owner: Owner, *, key: str, **fields) -> DataPack:
    """Save a new pack, once per form ``key`` (as ``armies.services._new_roster``)."""
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
        data_fingerprint=rules.hgb.default_catalog().fingerprint,
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
    *, owner: Owner, entered_by: str, name: str = "", key: str = "", system: GameSystem = HGB
) -> DataPack:
    return _new_pack(
        owner,
        key=key,
        name=_name(name, LIBRARY_NAME),
        entered_by=entered_by,
        system=system.id,
    )


def locked(owner: Owner, pack_id: int, system: GameSystem | None = None) -> DataPack:
    """The owner's pack (of ``system`` only, when given), locked: DataPack.DoesNotExist else."""
    packs = DataPack.objects.select_for_update().owned_by(owner).filter(pk=pack_id)
    pack = (packs.of(system) if system else packs).first()
    if pack is None:
        raise DataPack.DoesNotExist
    return pack


@transaction.atomic
def pack_set_figures(
    *, owner: Owner, pack_id: int, kind: str, entry_id: str, figures: dict
) -> DataPack:
    """Replace the figures of one model or weapon; the whole pack is checked before saving."""
    pack = locked(owner, pack_id, HGB)
    content = {k: dict(v) for k, v in (pack.figures or {}).items()}
    entries = content.setdefault(kind, {})
    entries[entry_id] = {key: value for key, value in figures.items() if value is not None}
    try:
        pack.figures = rules.hgb.check_pack(content, rules.hgb.default_catalog())
    except rules.hgb.PackError as error:
        raise PackError(*error.messages) from error
    pack.data_fingerprint = rules.hgb.default_catalog().fingerprint
    pack.save(update_fields=["figures", "data_fingerprint", "updated_at"])
    return pack


def pack_save_figure(
    *, owner: Owner, entered_by: str, kind: str, entry_id: str, key: str, value
) -> DataPack:
    """One figure into the owner's own pack (their first; "My datacards" is made when they have
    none), checked whole as the library form checks it. Saving the same value again changes
    nothing, so a retried tap is harmless."""
    pack = first_pack(owner, HGB)
    if pack is None:
        pack = _new_pack(owner, key=SAVED_FIGURE_KEY, name=LIBRARY_NAME, entered_by=entered_by)
    return _set_figure(owner, pack.pk, kind, entry_id, key, value)


@transaction.atomic
def _set_figure(owner: Owner, pack_id: int, kind: str, entry_id: str, key: str, value) -> DataPack:
    pack = locked(owner, pack_id, HGB)
    content = {k: {e: dict(f) for e, f in v.items()} for k, v in (pack.figures or {}).items()}
    content.setdefault(kind, {}).setdefault(entry_id, {})[key] = value
    try:
        figures = rules.hgb.check_pack(content, rules.hgb.default_catalog())
    except rules.hgb.PackError as error:
        raise PackError(*error.messages) from error
    if figures == pack.figures:
        return pack
    pack.figures = figures
    pack.data_fingerprint = rules.hgb.default_catalog().fingerprint
    pack.save(update_fields=["figures", "data_fingerprint", "updated_at"])
    return pack


def pack_import(
    *, owner: Owner, importer: str, filename: str, raw: bytes, key: str = ""
) -> DataPack:
    """A new pack from a host data file, checked whole: nothing of a bad file is kept. Its
    figures are marked as the file's author's, imported by ``importer`` (``imported_by``)."""
    if first := created_with(owner, key):
        return first
    try:
        figures = rules.hgb.read_pack_file(filename, raw, rules.hgb.default_catalog())
    except rules.hgb.PackError as error:
        raise PackError(*error.messages) from error
    if not storable(figures):
        raise PackError(f"{filename}: {UNSTORABLE_MESSAGE}")
    stem = filename.rsplit(".", 1)[0]
    return _new_pack(
        owner,
        key=key,
        name=_name(stem, "Imported datacards"),
        entered_by=imported_by(rules.hgb.pack_file_author(raw), importer),
        figures=figures,
    )


def shared_pack(slug: str) -> DataPack:
    return DataPack.objects.get(share_slug=slug)


def pack_copy_shared(*, owner: Owner, slug: str, key: str = "") -> DataPack:
    """A copy of a shared pack in the owner's library; its figures stay "entered by" whoever
    typed them."""
    source = shared_pack(slug)
    if first := created_with(owner, key):
        return first
    return _new_pack(
        owner,
        key=key,
        name=_name(f"Copy of {source.name}", "Copied datacards"),
        entered_by=source.entered_by,
        figures=source.figures,
        copied_from=source,
        system=source.system,
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
def pack_delete(*, owner: Owner, pack_id: int) -> None:
    pack = locked(owner, pack_id)
    if pack.share_slug:
        RevokedPackSlug.objects.get_or_create(slug=pack.share_slug)
    pack.delete()


def owns_pack(owner: Owner, pack_id: int, system: GameSystem) -> bool:
    return DataPack.objects.owned_by(owner).of(system).filter(pk=pack_id).exists()


@transaction.atomic
def roster_set_pack(*, owner: Owner, roster_id: int, pack_id: int | None) -> Roster:
    """Choose the pack completing a roster's figures (None: the owner's own, the first)."""
    rosters = Roster.objects.select_for_update().live().owned_by(owner).filter(system=HGB.id)
    roster = rosters.filter(pk=roster_id).first()
    if roster is None:
        raise Roster.DoesNotExist
    if pack_id is not None and not owns_pack(owner, pack_id, HGB):
        raise PackError("Choose one of your own datacard packs.")
    roster.pack_id = pack_id
    roster.save(update_fields=["pack", "updated_at"])
    return roster
