"""Roster exports: the JSON envelope every game's export shares (each game's body is its own:
``armies/<game>/exports.py`` or its builder).

An export states its format and its game: ``{"format": "blitz-roster/2", "system": "hgb",
...}``; the rest (``data``, ``summary``, ``roster``) is the game's own (``Builder.export``).
Format 1, from before there were two games, has no "system": it is Heavy Gear Blitz and still
imports.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.text import slugify

from armies.models import Roster
from armies.services import RosterError
from blitz_site.systems import HGB
from blitz_site.text import MESSAGE as UNSTORABLE_MESSAGE
from blitz_site.text import storable
from rules.files import FileError, read_json

EXPORT_FORMAT = "blitz-roster/2"
FORMATS_BEFORE_SYSTEMS = {"blitz-roster/1": HGB.id}


def filename(roster: Roster, extension: str) -> str:
    return f"{slugify(roster.name) or 'roster'}.{extension}"


def envelope(roster: Roster, body: dict) -> dict:
    """The export of ``roster``: its format, game and time, then its game's ``body``."""
    return {
        "format": EXPORT_FORMAT,
        "system": roster.system,
        "exported_at": timezone.now().isoformat(timespec="seconds"),
        **body,
    }


def read_export(text: str) -> tuple[str, Any]:
    """The game id and the "roster" of an exported file; RosterError with a sentence when it
    is not one. The game's builder checks the roster itself."""
    try:
        document = read_json("The roster export", text)
    except FileError as error:
        raise RosterError(str(error)) from error
    if not storable(document):
        raise RosterError(f"This file can't be imported. {UNSTORABLE_MESSAGE}")
    if not isinstance(document, dict):
        raise RosterError(
            'This is not a Blitz roster export: its "format" field is missing or wrong.'
        )
    format_ = document.get("format")
    if isinstance(format_, str) and format_ in FORMATS_BEFORE_SYSTEMS:
        return FORMATS_BEFORE_SYSTEMS[format_], document.get("roster")
    if format_ != EXPORT_FORMAT:
        raise RosterError(
            'This is not a Blitz roster export: its "format" field is missing or wrong.'
        )
    system = document.get("system")
    if not isinstance(system, str) or not system:
        raise RosterError('This roster export does not say which game it is for ("system").')
    return system, document.get("roster")
