"""Kill Team's tracker pages: start a match, the board, its taps and its poll. Who may act is
``matches.access``'s decision, as for every match."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from armies.models import Owner
from blitz_site.systems import KILLTEAM
from matches import access, boards, logs, offers, starts
from matches.access import Access
from matches.killteam import board, ops, services
from matches.killteam.forms import KtStartForm
from matches.killteam.kit import kit_panel
from matches.models import Match
from matches.pages import new_key, player_label
from matches.queries import poll_matches
from matches.taps import Applied, Request
from rules import killteam as kt

BOARD = "matches/killteam_board.html"
CHANGES = "matches/killteam_board.html#kt-changes"
LOG_SHOWN = 30


def _parts(match: Match, state: kt.KillTeamState, seat: str | None) -> dict:
    """Everything a tap or a poll redraws: the cards, the turning point, the log, for the device
    of ``seat`` (None: a watcher, no controls). What the log offers, and which side's turn
    controls this device drives (the other side's sit behind "… for Anna"), is
    ``matches.offers``'s."""
    controls = seat is not None
    rows = list(offers.board_log(match)[:LOG_SHOWN])
    offered = offers.offers(rows, seat, state.phase is kt.Phase.ENDED)
    log = [logs.log_line(row) | {"offer": offered[row.seq]} for row in rows]
    drive = {side.key: offers.drives(match, seat, side.key) for side in state.sides}
    players = {
        side.key: player_label(match.player_name(side.key), side.key) for side in state.sides
    }
    turn = board.turn_panel(state)
    for side in turn["sides"]:
        side |= {"drive": drive[side["key"]], "player": players[side["key"]]}
    theirs = [c for c in turn["choices"] if not drive[c["who"]]]
    turn |= {
        "my_choices": [c for c in turn["choices"] if drive[c["who"]]],
        "their_choices": theirs,
        "their_player": players[theirs[0]["who"]] if theirs else "",
    }
    return {
        "match": match,
        "controls": controls,
        "sides": [
            {
                "label": side.label,
                "key": side.key,
                "cards": [
                    board.operative_card(state, op)
                    | {"drive": drive[side.key], "player": players[side.key]}
                    for op in side.operatives
                ],
            }
            for side in state.sides
        ],
        "turn": turn,
        "kit": kit_panel(state),
        "log": log,
        "undo_last": offers.undo_last(rows, seat),
        "latest": log[0] if log else None,
        "shoot_url": reverse("matches:kt-shoot", args=[match.pk]),
        "event_url": reverse("matches:kt-event", args=[match.pk]),
        "poll_url": reverse("matches:kt-poll", args=[match.pk])
        if controls
        else reverse("matches:kt-watch-poll", args=[match.watch_slug]),
        "summary_url": reverse("matches:kt-summary", args=[match.pk])
        if controls
        else reverse("matches:kt-watch-summary", args=[match.watch_slug]),
        "log_md_url": reverse("matches:kt-log-md", args=[match.pk]) if controls else "",
        "joined": match.b_joined,
        "key": new_key(),
    }


def _sides(state: kt.KillTeamState) -> list[tuple[str, str]]:
    return [(side.key, side.label) for side in state.sides]


KT_BOARD = boards.Board(
    game=KILLTEAM.id,
    template=BOARD,
    changes=CHANGES,
    state=services.current_state,
    parts=_parts,
    sides=_sides,
    parse=lambda fields: ops.parse_op(fields.get("op"), fields),
    apply=services.kt_apply,
)


def board_page(request: HttpRequest, viewer: Access) -> HttpResponse:
    """The board for a player (with its controls) or a watcher (``matches.views`` asks the
    game's tracker for it)."""
    return boards.board_page(request, viewer, KT_BOARD)


def player_match(request: HttpRequest, pk: int) -> Match:
    """The Kill Team match ``pk`` of this player (``matches.access`` decides), or 404."""
    return boards.player_match(request, pk, KT_BOARD)


@require_http_methods(["GET", "POST"])
def kt_new(request: HttpRequest) -> HttpResponse:
    def start(owner: Owner, data: dict) -> Match:
        return services.kt_match_start(
            owner=owner,
            player=data["name"],
            mine=data["mine"],
            opponent=data["opponent"],
            key=data["key"],
        )

    return starts.start_page(
        request,
        game=KILLTEAM.id,
        form_class=KtStartForm,
        template="matches/killteam_new.html",
        start=start,
    )


def kt_act(request: HttpRequest, pk: int, key: str, change: Request) -> Applied:
    """One change as the player of match ``pk`` (``access.act`` finds the seat), once per key."""
    return boards.act(request, pk, KT_BOARD, key, change)


@require_POST
def kt_event(request: HttpRequest, pk: int) -> HttpResponse:
    """A tap on the Kill Team board: one change, applied once per client key."""
    return boards.event(request, pk, KT_BOARD)


@require_safe
@never_cache
def kt_poll(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = access.match_for(request, pk, matches=poll_matches(), game=KILLTEAM.id)
    return boards.poll(request, viewer, KT_BOARD)


@require_safe
@never_cache
def kt_watch_poll(request: HttpRequest, slug: str) -> HttpResponse:
    viewer = access.match_for(
        request, slug=slug, to="watch", matches=poll_matches(), game=KILLTEAM.id
    )
    return boards.poll(request, viewer, KT_BOARD)
