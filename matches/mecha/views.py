"""The mecha tracker's pages: start a match, the board, its taps and its poll. Who may act is
``matches.access``'s decision, as for every match."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from armies.models import Owner
from matches import access, boards, logs, offers, starts
from matches.access import Access
from matches.mecha import board, ops, services
from matches.mecha.forms import MechaStartForm
from matches.mecha.services import GAME_ID
from matches.models import Match
from matches.pages import new_key, player_label
from matches.queries import poll_matches
from matches.taps import Applied
from rules.mecha.damage import FORMULAS, scope_name
from rules.mecha.state import MechaState

BOARD = "matches/mecha_board.html"
CHANGES = "matches/mecha_board.html#mecha-changes"
LOG_SHOWN = 30


def _parts(match: Match, state: MechaState, seat: str | None) -> dict:
    """Everything a tap or a poll redraws, for the device of ``seat`` (None: a watcher)."""
    controls = seat is not None
    rows = list(offers.board_log(match)[:LOG_SHOWN])
    offered = offers.offers(rows, seat, state.ended)
    log = [logs.log_line(row) | {"offer": offered[row.seq]} for row in rows]
    players = {key: player_label(match.player_name(key), key) for key in ("a", "b")}
    sides = []
    for key, label in zip(("a", "b"), state.labels, strict=True):
        drive = offers.drives(match, seat, key)
        cards = [
            board.unit_card(state, unit) | {"drive": drive, "player": players[key]}
            for unit in state.side_units(key)
        ]
        sides.append({"key": key, "label": label, "cards": cards})
    return {
        "match": match,
        "controls": controls,
        "sides": sides,
        "turn": board.turn_panel(state),
        "reading": f"{FORMULAS[state.ram_formula]} ({scope_name(state.ram_scope)})",
        "log": log,
        "undo_last": offers.undo_last(rows, seat),
        "latest": log[0] if log else None,
        "event_url": reverse("matches:mecha-event", args=[match.pk]),
        "attack_url": reverse("matches:mecha-attack", args=[match.pk]),
        "poll_url": reverse("matches:mecha-poll", args=[match.pk])
        if controls
        else reverse("matches:mecha-watch-poll", args=[match.watch_slug]),
        "summary_url": reverse("matches:mecha-summary", args=[match.pk])
        if controls
        else reverse("matches:mecha-watch-summary", args=[match.watch_slug]),
        "log_md_url": reverse("matches:mecha-log-md", args=[match.pk]) if controls else "",
        "rules_url": board.rules_url(),
        "joined": match.b_joined,
        "key": new_key(),
    }


MECHA_BOARD = boards.Board(
    game=GAME_ID,
    template=BOARD,
    changes=CHANGES,
    state=services.current_state,
    parts=_parts,
    sides=lambda state: list(zip(("a", "b"), state.labels, strict=True)),
    parse=lambda fields: ops.parse_op(fields.get("op"), fields),
    apply=services.mecha_apply,
)


def board_page(request: HttpRequest, viewer: Access) -> HttpResponse:
    """The board for a player (with its controls) or a watcher (``matches.views`` asks the
    game's tracker for it)."""
    return boards.board_page(request, viewer, MECHA_BOARD)


def player_match(request: HttpRequest, pk: int) -> Match:
    """The mecha match ``pk`` of this player (``matches.access`` decides), or 404."""
    return boards.player_match(request, pk, MECHA_BOARD)


@require_http_methods(["GET", "POST"])
def mecha_new(request: HttpRequest) -> HttpResponse:
    def start(owner: Owner, data: dict) -> Match:
        return services.mecha_match_start(
            owner=owner,
            player=data["name"],
            mine=data["mine"],
            opponent=data["opponent"],
            ram_formula=data["ram_formula"],
            ram_scope=data["ram_scope"],
            key=data["key"],
        )

    return starts.start_page(
        request,
        game=GAME_ID,
        form_class=MechaStartForm,
        template="matches/mecha_new.html",
        start=start,
    )


def tap(request: HttpRequest, pk: int, fields: ops.Fields | None = None) -> Applied | HttpResponse:
    """Read and apply the tap in ``fields`` (``request.POST`` unless given); a malformed one is a
    400, an unknown id 404."""
    return boards.tap(request, pk, MECHA_BOARD, fields)


@require_POST
def mecha_event(request: HttpRequest, pk: int) -> HttpResponse:
    """A tap on the mecha board: one change, applied once per client key."""
    return boards.event(request, pk, MECHA_BOARD)


@require_safe
@never_cache
def mecha_poll(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = access.match_for(request, pk, matches=poll_matches(), game=GAME_ID)
    return boards.poll(request, viewer, MECHA_BOARD)


@require_safe
@never_cache
def mecha_watch_poll(request: HttpRequest, slug: str) -> HttpResponse:
    viewer = access.match_for(request, slug=slug, to="watch", matches=poll_matches(), game=GAME_ID)
    return boards.poll(request, viewer, MECHA_BOARD)
