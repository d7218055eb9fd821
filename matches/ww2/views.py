"""The WWII skirmish tracker pages: start a match, the board, its taps and its poll. Who may act
is ``matches.access``'s decision, as for every match."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import NoReverseMatch, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from armies.models import Owner
from matches import access, boards, logs, offers, starts
from matches.access import Access
from matches.models import Match
from matches.pages import new_key, player_label
from matches.queries import poll_matches
from matches.ww2 import board, ops, services
from matches.ww2.forms import Ww2StartForm
from rules.ww2.state import SIDES, Ww2State

BOARD = "matches/ww2_board.html"
CHANGES = "matches/ww2_board.html#ww2-changes"
LOG_SHOWN = 30
RULES_PAGE = "armies:ww2-rules"
"""The builder's page "What these rules give" (ww2-build names it)."""


def rules_url() -> str:
    """The "What these rules give" page, once the builder has it; "" until then."""
    try:
        return reverse(RULES_PAGE)
    except NoReverseMatch:
        return ""


def _parts(match: Match, state: Ww2State, seat: str | None) -> dict:
    """Everything a tap or a poll redraws, for the device of ``seat`` (None: a watcher)."""
    controls = seat is not None
    rows = list(offers.board_log(match)[:LOG_SHOWN])
    offered = offers.offers(rows, seat, state.ended)
    log = [logs.log_line(row) | {"offer": offered[row.seq]} for row in rows]
    sides = []
    for side in SIDES:
        cards = board.side_cards(state, side)
        cards |= {
            "drive": offers.drives(match, seat, side),
            "player": player_label(match.player_name(side), side),
        }
        sides.append(cards)
    return {
        "match": match,
        "controls": controls,
        "sides": sides,
        "turn": board.turn_panel(state),
        "log": log,
        "undo_last": offers.undo_last(rows, seat),
        "latest": log[0] if log else None,
        "event_url": reverse("matches:ww2-event", args=[match.pk]),
        "poll_url": reverse("matches:ww2-poll", args=[match.pk])
        if controls
        else reverse("matches:ww2-watch-poll", args=[match.watch_slug]),
        "summary_url": reverse("matches:ww2-summary", args=[match.pk])
        if controls
        else reverse("matches:ww2-watch-summary", args=[match.watch_slug]),
        "log_md_url": reverse("matches:ww2-log-md", args=[match.pk]) if controls else "",
        "rules_url": rules_url(),
        "joined": match.b_joined,
        "key": new_key(),
    }


WW2_BOARD = boards.Board(
    game=services.GAME_ID,
    template=BOARD,
    changes=CHANGES,
    state=services.current_state,
    parts=_parts,
    sides=lambda state: [(side, state.label(side)) for side in SIDES],
    parse=lambda fields: ops.parse_op(fields.get("op")),
    apply=services.ww2_apply,
)


def board_page(request: HttpRequest, viewer: Access) -> HttpResponse:
    """The board for a player (with its controls) or a watcher (``matches.views`` asks the
    game's tracker for it)."""
    return boards.board_page(request, viewer, WW2_BOARD)


@require_http_methods(["GET", "POST"])
def ww2_new(request: HttpRequest) -> HttpResponse:
    def start(owner: Owner, data: dict) -> Match:
        return services.ww2_match_start(
            owner=owner,
            player=data["name"],
            mine=data["mine"],
            opponent=data["opponent"],
            running_gear_counts=data["running_gear"] == "yes",
            key=data["key"],
        )

    return starts.start_page(
        request,
        game=services.GAME_ID,
        form_class=Ww2StartForm,
        template="matches/ww2_new.html",
        start=start,
        extra={"rules_url": rules_url()},
    )


@require_POST
def ww2_event(request: HttpRequest, pk: int) -> HttpResponse:
    """A tap on the WWII board: one change, applied once per client key."""
    return boards.event(request, pk, WW2_BOARD)


@require_safe
@never_cache
def ww2_poll(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = access.match_for(request, pk, matches=poll_matches(), game=services.GAME_ID)
    return boards.poll(request, viewer, WW2_BOARD)


@require_safe
@never_cache
def ww2_watch_poll(request: HttpRequest, slug: str) -> HttpResponse:
    viewer = access.match_for(
        request, slug=slug, to="watch", matches=poll_matches(), game=services.GAME_ID
    )
    return boards.poll(request, viewer, WW2_BOARD)
