"""Heavy Gear Blitz's datacard figures: the catalog a roster's pack completes, and every write
that checks figures against its game data (one function each, in a transaction). The packs
themselves (create, copy, share, delete) are ``armies.packs``', every game's."""

from __future__ import annotations

from django.db import transaction

import rules.hgb
from armies.models import DataPack, Owner, Roster
from armies.packs import (
    LIBRARY_NAME,
    PackError,
    created_with,
    first_pack,
    imported_by,
    locked,
    new_pack,
    owns_pack,
    pack_name,
)
from blitz_site.systems import HGB
from blitz_site.text import MESSAGE as UNSTORABLE_MESSAGE
from blitz_site.text import UNSTORABLE, storable


def data_fingerprint() -> str:
    """The fingerprint of the game data a pack's figures are checked against."""
    return rules.hgb.default_catalog().fingerprint


SAVED_FIGURE_KEY = "saved-from-a-match"
"""The create key of the pack a figure saved from the attack helper makes: one pack, however
often (or however concurrently) the first figure is saved."""


def pack_catalog(figures: dict | None) -> rules.hgb.Catalog:
    """The game data completed by a pack's figures (the data's own figures always win)."""
    return rules.hgb.complete_catalog(rules.hgb.default_catalog(), figures or {})


def pack_set_figures(
    *, owner: Owner, pack_id: int, kind: str, entry_id: str, figures: dict
) -> DataPack:
    """Replace the figures of one model or weapon; the whole pack is checked before saving."""
    return pack_set_entries(owner=owner, pack_id=pack_id, entries={(kind, entry_id): figures})


@transaction.atomic
def pack_set_entries(*, owner: Owner, pack_id: int, entries: dict) -> DataPack:
    """Replace the figures of several models and weapons at once (``entries``: (kind, id) to
    figures; a card's model and its weapons), the whole pack checked before saving: all or
    nothing. Saving the same figures again changes nothing."""
    pack = locked(owner, pack_id, HGB)
    content = {k: dict(v) for k, v in (pack.figures or {}).items()}
    for (kind, entry_id), figures in entries.items():
        kept = {key: value for key, value in figures.items() if value is not None}
        content.setdefault(kind, {})[entry_id] = kept
    return _save_checked(pack, content)


def _save_checked(pack: DataPack, content: dict) -> DataPack:
    try:
        figures = rules.hgb.check_pack(content, rules.hgb.default_catalog())
    except rules.hgb.PackError as error:
        raise PackError(*error.messages) from error
    if figures == pack.figures:
        return pack
    pack.figures = figures
    pack.data_fingerprint = data_fingerprint()
    pack.save(update_fields=["figures", "data_fingerprint", "updated_at"])
    return pack


@transaction.atomic
def pack_paste_table(*, owner: Owner, pack_id: int, text: str) -> tuple[DataPack, int, int]:
    """Put a pasted table of figures into a pack (``rules.hgb.read_figure_table``), checked
    whole: one bad cell and nothing is kept. The table's figures replace the pack's; returns
    the pack and how many figures were new and how many replaced. Pasting the same table again
    changes nothing."""
    pack = locked(owner, pack_id, HGB)
    try:
        table = rules.hgb.read_figure_table(text, rules.hgb.default_catalog())
    except rules.hgb.PackError as error:
        raise PackError(*error.messages) from error
    if not storable(table):
        raise PackError(f"The table: {UNSTORABLE_MESSAGE}")
    merged, added, replaced = rules.hgb.merge_figures(pack.figures or {}, table)
    return _save_checked(pack, merged), added, replaced


def pack_save_figure(
    *, owner: Owner, entered_by: str, kind: str, entry_id: str, key: str, value
) -> DataPack:
    """One figure into the owner's own pack (their first; "My datacards" is made when they have
    none), checked whole as the library form checks it. Saving the same value again changes
    nothing, so a retried tap is harmless."""
    pack = first_pack(owner, HGB)
    if pack is None:
        pack = new_pack(
            owner,
            key=SAVED_FIGURE_KEY,
            name=LIBRARY_NAME,
            entered_by=entered_by,
            system=HGB.id,
            data_fingerprint=data_fingerprint(),
        )
    return _set_figure(owner, pack.pk, kind, entry_id, key, value)


@transaction.atomic
def _set_figure(owner: Owner, pack_id: int, kind: str, entry_id: str, key: str, value) -> DataPack:
    pack = locked(owner, pack_id, HGB)
    content = {k: {e: dict(f) for e, f in v.items()} for k, v in (pack.figures or {}).items()}
    content.setdefault(kind, {}).setdefault(entry_id, {})[key] = value
    return _save_checked(pack, content)


def pack_import(
    *, owner: Owner, importer: str, filename: str, raw: bytes, key: str = ""
) -> DataPack:
    """A new pack from a host data file, checked whole: nothing of a bad file is kept. It is
    named as the file's heading names it (else after the file), and its figures are marked as
    the file's author's, imported by ``importer`` (``imported_by``)."""
    if first := created_with(owner, key):
        return first
    try:
        figures = rules.hgb.read_pack_file(filename, raw, rules.hgb.default_catalog())
    except rules.hgb.PackError as error:
        raise PackError(*error.messages) from error
    if not storable(figures):
        raise PackError(f"{filename}: {UNSTORABLE_MESSAGE}")
    stem = filename.rsplit(".", 1)[0]
    named = UNSTORABLE.sub("", rules.hgb.pack_file_name(raw))
    return new_pack(
        owner,
        key=key,
        name=pack_name(named or stem, "Imported datacards"),
        entered_by=imported_by(rules.hgb.pack_file_author(raw), importer),
        figures=figures,
        system=HGB.id,
        data_fingerprint=data_fingerprint(),
    )


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
