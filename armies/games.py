"""Which game My rosters' new-roster form and My datacards lead with: the one a link asked for
(``?game=killteam``), remembered for the browser session, or the one a roster was last created
for in it; else the first game. So a Kill Team newcomer who came in by Kill Team keeps seeing
Kill Team first."""

from __future__ import annotations

from django.http import HttpRequest

from armies import systems
from armies.systems.base import Builder

SESSION_KEY = "game"


def remember_game(request: HttpRequest, builder: Builder) -> None:
    """Lead with ``builder``'s game from now on in this session (written only on a change)."""
    if request.session.get(SESSION_KEY) != builder.system.id:
        request.session[SESSION_KEY] = builder.system.id


def chosen_game(request: HttpRequest) -> Builder:
    """The game ``?game=`` names (remembered), else the session's, else the first game."""
    asked = systems.find(request.GET.get("game"))
    if asked is not None:
        remember_game(request, asked)
        return asked
    return systems.find(request.session.get(SESSION_KEY)) or systems.DEFAULT
