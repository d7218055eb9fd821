"""Each game's tracker, which the match pages and the match row ask instead of branching on the
game.

A tracker names, as import paths (so this table imports no game's module): the game's binding to
the shared tap writer and match row (a ``matches.taps.Game``: its rules' step and undo, how its
state is stored and its log read), its URLs (included by ``matches.urls``), the page that draws its
board (for a player or a watcher), and where a match of the game starts. Each game's tracker lives
in its own package beside the others (``matches/hgb/``, ``matches/killteam/``). A third game adds
its row here and its package beside them (and its packages to the import-linter contracts in
``pyproject.toml``); no other module of matches/ changes, and the match tables get no column.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils.module_loading import import_string

from blitz_site import systems
from blitz_site.systems import HGB, KILLTEAM, MECHA, GameSystem


@dataclass(frozen=True)
class Tracker:
    system_id: str
    taps_path: str  # the game's ``matches.taps.Game``
    urls_path: str  # the game's URL patterns (module), in the "matches" namespace
    board_path: str  # (request, access) -> the board page
    start_name: str  # the URL name of the page that starts a match of this game
    summary_name: str  # the URL name of a match's summary page (a player's, by ``pk``)
    # (match) -> the game's part of the stream overlay (``matches.views.match_overlay``): a dict
    # with "template" (the part's template) and what it draws. "": the game has no overlay.
    overlay_path: str = ""

    @property
    def game(self) -> GameSystem:
        return systems.get(self.system_id)

    def taps(self) -> Any:
        """The game's binding to the tap writer and the match row (a ``matches.taps.Game``)."""
        return import_string(self.taps_path)

    def board(self, request, viewer):
        return import_string(self.board_path)(request, viewer)

    def overlay(self, match) -> dict:
        return import_string(self.overlay_path)(match)


TRACKERS: dict[str, Tracker] = {
    HGB.id: Tracker(
        HGB.id,
        "matches.hgb.services.TAPS",
        "matches.hgb.urls",
        "matches.hgb.views.hgb_board",
        "matches:match-new",
        "matches:match-summary",
        overlay_path="matches.hgb.overlay.overlay",
    ),
    KILLTEAM.id: Tracker(
        KILLTEAM.id,
        "matches.killteam.services.TAPS",
        "matches.killteam.urls",
        "matches.killteam.views.board_page",
        "matches:kt-new",
        "matches:kt-summary",
        overlay_path="matches.killteam.overlay.overlay",
    ),
    "ww2": Tracker(
        "ww2",
        "matches.ww2.services.TAPS",
        "matches.ww2.urls",
        "matches.ww2.views.board_page",
        "matches:ww2-new",
        "matches:ww2-summary",
        overlay_path="matches.ww2.overlay.overlay",
    ),
    MECHA.id: Tracker(
        MECHA.id,
        "matches.mecha.services.TAPS",
        "matches.mecha.urls",
        "matches.mecha.views.board_page",
        "matches:mecha-new",
        "matches:mecha-summary",
        overlay_path="matches.mecha.overlay.overlay",
    ),
}


def every() -> list[Tracker]:
    """The trackers in the games' order (``blitz_site.systems.SYSTEMS``): the match list's
    start buttons, the first the main one."""
    return [TRACKERS[game_id] for game_id in systems.SYSTEMS if game_id in TRACKERS]


def overlay_url(match) -> str:
    """The stream overlay of ``match`` (by its watch link), or "" when its game has none."""
    if not tracker(match.system).overlay_path:
        return ""
    return reverse("matches:match-overlay", args=[match.watch_slug])


def tracker(system_id: str) -> Tracker:
    """The tracker of a match's game (every stored match names a game Blitz knows)."""
    return TRACKERS[system_id]
