"""What every game's match pages share: reading an event number, the name a start or join form
starts with, a tap's fresh client key, and how a player is named. (A refusal in words is
``blitz_site.inputs.refusal``.)"""

from __future__ import annotations

import uuid

from django.http import HttpRequest

from blitz_site import inputs
from matches.models import SIDES

SEQ = inputs.DIGITS  # ASCII digits only ("²".isdigit() is True; int() refuses it)


def name_initial(request: HttpRequest) -> str:
    """What "Your name" starts as: the username of a logged-in player, else empty."""
    return request.user.get_username() if request.user.is_authenticated else ""


def new_key() -> str:
    """A client key for the next tap (sending it twice applies it once)."""
    return uuid.uuid4().hex


def player_label(name: str, side: str) -> str:
    """A player as the board, the log, the summary and the export name them: the name they typed
    when starting or joining, else "Player A" / "Player B" (older matches stored "Guest")."""
    name = name.strip()
    return name if name and name != "Guest" else f"Player {side.upper()}"


def actor_label(name: str, side: str) -> str:
    """Who made a change, as the log names them: a player (``player_label``), or the app."""
    return player_label(name, side) if side in SIDES else name
