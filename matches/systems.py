"""Each game's tracker, which the match pages ask instead of branching on the game.

A tracker names, as import paths (so this table imports no view): how the game's match state is
read from a match row, the page that draws its board (for a player or a watcher), and where a
match of the game starts. Heavy Gear Blitz's board is ``matches.hgb.views``' own; Kill Team's lives
in ``matches/killteam/``. A third game adds its row here and its modules beside them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.http import Http404
from django.utils.module_loading import import_string

from blitz_site import systems
from blitz_site.systems import HGB, KILLTEAM, GameSystem
from rules.errors import RulesError


@dataclass(frozen=True)
class Tracker:
    system_id: str
    state_path: str  # (match) -> the game's state, as the rules package holds it
    board_path: str  # (request, access) -> the board page
    start_name: str  # the URL name of the page that starts a match of this game
    summary_name: str  # the URL name of a match's summary page (a player's, by ``pk``)

    @property
    def game(self) -> GameSystem:
        return systems.get(self.system_id)

    def state(self, match) -> Any:
        return import_string(self.state_path)(match)

    def board(self, request, viewer):
        return import_string(self.board_path)(request, viewer)


TRACKERS: dict[str, Tracker] = {
    HGB.id: Tracker(
        HGB.id,
        "matches.systems.hgb_state",
        "matches.hgb.views.hgb_board",
        "matches:match-new",
        "matches:match-summary",
    ),
    KILLTEAM.id: Tracker(
        KILLTEAM.id,
        "matches.killteam.services.current_state",
        "matches.killteam.views.board_page",
        "matches:kt-new",
        "matches:kt-summary",
    ),
}


def every() -> list[Tracker]:
    """The trackers in the games' order (``blitz_site.systems.SYSTEMS``): the match list's
    start buttons, the first the main one."""
    return [TRACKERS[game_id] for game_id in systems.SYSTEMS if game_id in TRACKERS]


def tracker(system_id: str) -> Tracker:
    """The tracker of a match's game (every stored match names a game Blitz knows)."""
    return TRACKERS[system_id]


def hgb_state(match):
    return match.current_state()


def heavy_gear_only(view: Callable) -> Callable:
    """A Heavy Gear Blitz page of a match (``pk`` or the watch ``slug``): a match of another
    game is not found here (404). Costs nothing on the way that works: the game is looked up
    only when the page failed to read the match's state as Heavy Gear Blitz's."""

    @wraps(view)
    def page(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except RulesError:
            from matches.models import Match

            where = {"pk": kwargs["pk"]} if "pk" in kwargs else {"watch_slug": kwargs.get("slug")}
            if Match.objects.filter(**where).exclude(system=HGB.id).exists():
                raise Http404("This page is for Heavy Gear Blitz matches.") from None
            raise

    return page
