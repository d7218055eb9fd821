"""The WWII skirmish tracker pages: start a match, the board, its taps and its poll. Who may act
is ``matches.access``'s decision, as for every match."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from armies.models import Roster
from armies.owners import request_owner
from blitz_site import inputs
from blitz_site.text import is_token
from matches import access, offers, polling
from matches.access import Access
from matches.forms import client_key
from matches.models import HEAVY_FIELDS, Match
from matches.pages import name_initial, new_key, player_label
from matches.queries import poll_matches
from matches.services import MatchError
from matches.ww2 import board, ops, services
from matches.ww2.forms import Ww2StartForm
from rules.eventlog import EventError, UnknownId
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
    log = [board.log_entry(row) | {"offer": offered[row.seq]} for row in rows]
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


def board_page(request: HttpRequest, viewer: Access) -> HttpResponse:
    """The board for a player (with its controls) or a watcher (``matches.views`` asks the
    game's tracker for it)."""
    match = viewer.match
    state = services.current_state(match)
    context = _parts(match, state, viewer.seat)
    if viewer.seat is not None:
        context |= _share(request, viewer, state)
    response = render(request, BOARD, context)
    if viewer.seat is not None:
        access.set_seat_cookie(response, request, viewer)
    return response


def _share(request: HttpRequest, player: Access, state: Ww2State) -> dict:
    """The players and links box (a player's board only), the same box as every game's."""
    match = player.match
    join = reverse("matches:match-join", args=[match.join_slug])
    return {
        "seat": player.seat,
        "players": [
            {"label": state.label(side), "player": player_label(match.player_name(side), side)}
            for side in SIDES
        ],
        "manages_link": player.manages,
        "join_url": request.build_absolute_uri(join) if player.manages else "",
        "watch_url": request.build_absolute_uri(
            reverse("matches:match-watch", args=[match.watch_slug])
        ),
    }


@require_http_methods(["GET", "POST"])
def ww2_new(request: HttpRequest) -> HttpResponse:
    owner = request_owner(request, create=request.method == "POST")
    forces = Roster.objects.live().filter(system=services.GAME_ID)
    slug = request.POST.get("against") or request.GET.get("against") or ""
    shared = forces.filter(share_slug=slug).first() if is_token(slug) else None
    rosters = list(forces.owned_by(owner).only("pk", "name"))
    initial = {"mine": f"roster:{request.GET.get('roster', '')}", "name": name_initial(request)}
    if shared is not None:
        initial |= {"opponent": f"shared:{shared.share_slug}", "against": slug}
    form = Ww2StartForm(request.POST or None, initial=initial, rosters=rosters, shared=shared)
    if request.method == "POST" and form.is_valid():
        try:
            match = services.ww2_match_start(
                owner=owner,
                player=form.cleaned_data["name"],
                mine=form.cleaned_data["mine"],
                opponent=form.cleaned_data["opponent"],
                running_gear_counts=form.cleaned_data["running_gear"] == "yes",
                key=form.cleaned_data["key"],
            )
        except MatchError as error:
            form.add_error(None, str(error))
        else:
            access.remember_seat(request, match, "a")
            return redirect("matches:match-board", pk=match.pk)
    context = {
        "form": form,
        "forces": rosters,
        "shared": shared,
        "bad_link": bool(slug) and shared is None,
        "rules_url": rules_url(),
    }
    return render(request, "matches/ww2_new.html", context)


@require_POST
def ww2_event(request: HttpRequest, pk: int) -> HttpResponse:
    """A tap on the WWII board: one change, applied once per client key."""
    try:
        key = client_key(request.POST.get("key"))
        change = ops.parse_op(request.POST.get("op"))
        applied = access.act(
            request,
            pk,
            lambda claim: services.ww2_apply(
                match_id=pk, side=claim.side, token=claim.token, client_key=key, request=change
            ),
        )
    except UnknownId as error:
        access.match_for(request, pk, game=services.GAME_ID)  # a stranger: no such match first
        return inputs.refusal(error, 404)
    except EventError as error:
        access.match_for(request, pk, game=services.GAME_ID)
        return inputs.refusal(error, 400)
    if not request.htmx:
        return redirect(reverse("matches:match-board", args=[pk]) + "#turn")
    context = _parts(applied.match, applied.state, applied.side) | {
        "message": applied.error or " ".join(applied.warnings),
        "refused": bool(applied.error),
    }
    return render(request, CHANGES, context)


def _poll(request: HttpRequest, viewer: Access) -> HttpResponse:
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
    state = services.current_state(match)
    context = _parts(match, state, viewer.seat)
    if viewer.seat is not None and polling.joined_changed(request, match):
        context |= _share(request, Access(match, viewer.seat), state) | {"share": True}
    return render(request, CHANGES, context)


@require_safe
@never_cache
def ww2_poll(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = access.match_for(request, pk, matches=poll_matches(), game=services.GAME_ID)
    return _poll(request, viewer)


@require_safe
@never_cache
def ww2_watch_poll(request: HttpRequest, slug: str) -> HttpResponse:
    viewer = access.match_for(
        request, slug=slug, to="watch", matches=poll_matches(), game=services.GAME_ID
    )
    return _poll(request, viewer)
