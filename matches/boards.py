"""A game's board views, the same for every game that draws its board in parts: the board page,
the players box, a tap and the poll. Each game gives a ``Board``: its id, its templates, how it
reads its state, draws its parts, names its sides, reads a tap and applies it. Who may act is
``matches.access``'s decision, as for every match."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from blitz_site import inputs
from matches import access, polling, systems
from matches.access import Access
from matches.forms import client_key
from matches.models import HEAVY_FIELDS, Match
from matches.pages import player_label
from matches.taps import Applied, Request
from rules.eventlog import EventError, UnknownId

Fields = Mapping[str, Any]


@dataclass(frozen=True)
class Board:
    """What differs between the games' boards (the rest is this module's)."""

    game: str
    template: str
    """The board page."""
    changes: str
    """The partial a tap or a poll redraws (``"<board>.html#<game>-changes"``)."""
    state: Callable[[Match], Any]
    """The match's current state (the game's ``services.current_state``)."""
    parts: Callable[[Match, Any, str | None], dict]
    """Everything a tap or a poll redraws, for the device of a seat (None: a watcher)."""
    sides: Callable[[Any], list[tuple[str, str]]]
    """The sides of a state as ``(key, label)``, for the players box."""
    parse: Callable[[Fields], Request]
    """The change a tap's fields ask for; ``EventError`` when malformed."""
    apply: Callable[..., Applied]
    """The game's ``services.<game>_apply(match_id=, side=, token=, client_key=, request=)``."""


def player_match(request: HttpRequest, pk: int, board: Board) -> Match:
    """The match ``pk`` of this player in ``board``'s game (``matches.access`` decides), or 404."""
    return access.match_for(request, pk, game=board.game).match


def share(request: HttpRequest, player: Access, board: Board, state: Any) -> dict:
    """The players and links box (a player's board only), the same box as every game's."""
    match = player.match
    join = reverse("matches:match-join", args=[match.join_slug])
    return {
        "seat": player.seat,
        "players": [
            {"label": label, "player": player_label(match.player_name(key), key)}
            for key, label in board.sides(state)
        ],
        "manages_link": player.manages,
        "join_url": request.build_absolute_uri(join) if player.manages else "",
        "watch_url": request.build_absolute_uri(
            reverse("matches:match-watch", args=[match.watch_slug])
        ),
    }


def board_page(request: HttpRequest, viewer: Access, board: Board) -> HttpResponse:
    """The board for a player (with its controls) or a watcher, and the stream overlay's link
    when the game has one."""
    match = viewer.match
    state = board.state(match)
    context = board.parts(match, state, viewer.seat) | {"overlay_url": systems.overlay_url(match)}
    if viewer.seat is not None:
        context |= share(request, viewer, board, state)
    response = render(request, board.template, context)
    if viewer.seat is not None:
        access.set_seat_cookie(response, request, viewer)
    return response


def act(request: HttpRequest, pk: int, board: Board, key: str, change: Request) -> Applied:
    """One change as the player of match ``pk`` (``access.act`` finds the seat), once per key."""
    return access.act(
        request,
        pk,
        lambda claim: board.apply(
            match_id=pk, side=claim.side, token=claim.token, client_key=key, request=change
        ),
    )


def tap(
    request: HttpRequest, pk: int, board: Board, fields: Fields | None = None
) -> Applied | HttpResponse:
    """Read and apply the tap in ``fields`` (``request.POST`` unless given); a malformed one is a
    400, an unknown id 404 (a stranger is told there is no such match first)."""
    fields = request.POST if fields is None else fields
    try:
        key = client_key(fields.get("key"))
        change = board.parse(fields)
        return act(request, pk, board, key, change)
    except UnknownId as error:
        player_match(request, pk, board)
        return inputs.refusal(error, 404)
    except EventError as error:
        player_match(request, pk, board)
        return inputs.refusal(error, 400)


def event(request: HttpRequest, pk: int, board: Board) -> HttpResponse:
    """A tap on the board: one change, applied once per client key; the redrawn parts for htmx,
    else back to the board."""
    applied = tap(request, pk, board)
    if isinstance(applied, HttpResponse):
        return applied
    if not request.htmx:
        return redirect(reverse("matches:match-board", args=[pk]) + "#turn")
    context = board.parts(applied.match, applied.state, applied.side) | {
        "message": applied.error or " ".join(applied.warnings),
        "refused": bool(applied.error),
    }
    return render(request, board.changes, context)


def poll(request: HttpRequest, viewer: Access, board: Board) -> HttpResponse:
    """204 when nothing changed (``matches.polling``), else every part of the board, and the
    players box if someone joined or left since the board was drawn."""
    try:
        seen = polling.seen(request)
    except EventError as error:
        return inputs.refusal(error, 400)
    nothing = polling.unchanged(request, viewer.match, seen)
    if nothing is not None:
        return nothing
    match = get_object_or_404(Match.objects.defer(*HEAVY_FIELDS[:3]), pk=viewer.match.pk)
    state = board.state(match)
    context = board.parts(match, state, viewer.seat)
    if viewer.seat is not None and polling.joined_changed(request, match):
        context |= share(request, Access(match, viewer.seat), board, state) | {"share": True}
    return render(request, board.changes, context)
