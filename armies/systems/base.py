"""What the roster pages ask of a game: a ``Builder``, one per game system.

The generic views (My rosters, the editor's URL, datacards and print, copy text, exports and
imports, share links, duplicates) look the roster's builder up by ``Roster.system`` and ask it;
they never test which game it is. A game's own pages (the HGB editor's taps, the Kill Team
editor's forms) live in its package, ``armies/<game>/``, with their URLconf (``Builder.urls``),
and are scoped to its rosters. What a game does not have (a datacard library, a tracker, a
data file) it does not write: the defaults below say so.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django import forms
from django.http import HttpRequest
from django.urls import reverse

from armies.models import DataPack, Owner, Roster
from blitz_site.systems import GameSystem


def share_url(request: HttpRequest, roster: Roster) -> str:
    """The roster's read-only link, absolute (for copying and the QR code); "" when off."""
    if not roster.share_slug:
        return ""
    return request.build_absolute_uri(reverse("roster-shared", args=[roster.share_slug]))


def form_key() -> str:
    """A fresh key for a form that adds or removes something: a re-sent form applies once."""
    return secrets.token_urlsafe(12)


@dataclass(frozen=True)
class Templates:
    """A game's templates, each drawn with the context its builder gives."""

    new_roster: str  # the fields of the new-roster form on My rosters (a fragment)
    list_line: str  # one roster's line under its name on My rosters (a fragment, ``view``)
    editor: str  # the roster editor (page)
    cards: str  # datacards and print (page)
    shared: str  # the read-only share page (page)
    # A game with a datacard library (packs of figures players type in) names its two
    # fragments; a game without one leaves them "" and My datacards does not offer it.
    library: str = ""  # a pack's entries in My datacards and on its share page (fragment)
    library_notice: str = ""  # what My datacards says of the game's figures (fragment)


@dataclass(frozen=True)
class ListItem:
    """One roster on My rosters: its line (``template`` drawn with ``view``) and sort keys."""

    roster: Roster
    template: str
    view: Any
    faction_name: str  # "Sort by faction" (a game without factions names itself)
    total: int  # "Sort by TV" (0 for a game without points)


class Builder:
    """How the rosters of one game are created, edited, shown, copied, exported and imported.

    Subclasses set ``system`` and ``templates`` and implement the methods that raise
    NotImplementedError. ``copy_fields`` and ``import_fields`` return the fields of a new
    ``Roster`` row (``army``, ``name``, ``faction``, ...); ``armies.services.new_roster`` saves
    them, once per form key.
    """

    system: GameSystem
    templates: Templates
    urls: str = ""
    """The dotted path of the game's own URLconf (its editor's changes, ``urlpatterns``, under
    /armies/ in the ``armies`` namespace; its datacard pages, ``datacard_urlpatterns``, at the
    top level); "" when the game has no pages of its own."""

    # --- My rosters -------------------------------------------------------------------------

    def create_form(self, data=None) -> forms.Form:
        raise NotImplementedError

    def create(self, *, owner: Owner, form: forms.Form) -> Roster:
        """The new roster a valid ``create_form`` asks for (RosterError when it cannot be)."""
        raise NotImplementedError

    def list_item(self, roster: Roster) -> ListItem:
        raise NotImplementedError

    # --- Pages ------------------------------------------------------------------------------

    def editor_context(self, request: HttpRequest, roster: Roster) -> dict:
        raise NotImplementedError

    def cards_context(self, request: HttpRequest, roster: Roster) -> dict:
        raise NotImplementedError

    def shared_context(self, request: HttpRequest, roster: Roster) -> dict:
        """What the share page shows of the roster (the view adds the link and the owner)."""
        raise NotImplementedError

    def play_url(self, roster: Roster) -> str:
        """Where the owner starts a match with this roster; "" while the game has no tracker
        (the pages then show no "Play" button at all)."""
        return ""

    def play_against_url(self, roster: Roster) -> str:
        """Where anyone starts a match against this shared roster; "" as ``play_url``."""
        return ""

    # --- Copies, text and files -------------------------------------------------------------

    def copy_fields(self, roster: Roster, name: str) -> dict:
        raise NotImplementedError

    def markdown(self, roster: Roster) -> str:
        raise NotImplementedError

    def export(self, roster: Roster) -> dict:
        """The export's "data", "summary" and "roster" (the envelope adds format and system)."""
        raise NotImplementedError

    def import_fields(self, roster_data: Any, *, importer: str) -> dict:
        """A new roster's fields from an export's "roster", checked whole (RosterError). Who
        the file says entered any figures is kept, marked as imported by ``importer``
        (``armies.packs.imported_by``: one rule for every game's import)."""
        raise NotImplementedError

    # --- My datacards -----------------------------------------------------------------------

    @property
    def has_library(self) -> bool:
        """Whether players keep datacard packs of this game (``templates.library`` is set)."""
        return bool(self.templates.library)

    def library_context(self, pack: DataPack | None, *, yours: bool) -> dict:
        """What ``templates.library`` shows of a pack of this game (None: no pack yet)."""
        return {}

    def pack_summary(self, pack: DataPack) -> str:
        """One line under the pack's name in My datacards."""
        return ""

    def pack_fingerprint(self) -> str:
        """The fingerprint of the game data a new pack's figures are checked against."""
        return ""

    def pack_export_url(self, pack: DataPack) -> str:
        """Where the pack downloads as a data file; "" when the game has no such file yet."""
        return ""

    pack_file_suffix: str = ""
    """How the name of the game's pack file ends (".toml"); "" when it has none."""

    def pack_import(
        self, *, owner: Owner, importer: str, filename: str, raw: bytes, key: str = ""
    ) -> DataPack:
        """A new pack from one of the game's pack files, checked whole (``PackError``)."""
        raise NotImplementedError
