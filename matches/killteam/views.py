"""Kill Team's tracker pages: start a match, the board, its taps and its poll. Who may act is
``matches.access``'s decision, as for every match."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from armies.models import Roster
from armies.owners import request_owner
from blitz_site import inputs
from blitz_site.systems import KILLTEAM
from blitz_site.text import is_token
from matches import access, offers, polling, systems
from matches.access import Access
from matches.forms import client_key
from matches.killteam import board, ops, services
from matches.killteam.forms import KtStartForm
from matches.killteam.kit import kit_panel
from matches.models import HEAVY_FIELDS, Match
from matches.pages import name_initial, new_key, player_label
from matches.queries import poll_matches
from matches.services import MatchError
from matches.taps import Applied, Request
from rules import killteam as kt
from rules.eventlog import EventError, UnknownId

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
    log = [board.log_entry(row) | {"offer": offered[row.seq]} for row in rows]
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


def board_page(request: HttpRequest, viewer: Access) -> HttpResponse:
    """The board for a player (with its controls) or a watcher (``matches.views`` asks the
    game's tracker for it)."""
    match = viewer.match
    state = services.current_state(match)
    context = _parts(match, state, viewer.seat) | {"overlay_url": systems.overlay_url(match)}
    if viewer.seat is not None:
        context |= _share(request, viewer, state)
    response = render(request, BOARD, context)
    if viewer.seat is not None:
        access.set_seat_cookie(response, request, viewer)
    return response


def player_match(request: HttpRequest, pk: int) -> Match:
    """The Kill Team match ``pk`` of this player (``matches.access`` decides), or 404."""
    return access.match_for(request, pk, game=KILLTEAM.id).match


def _share(request: HttpRequest, player: Access, state: kt.KillTeamState) -> dict:
    """The players and links box (a player's board only), the same box as every game's."""
    match = player.match
    join = reverse("matches:match-join", args=[match.join_slug])
    return {
        "seat": player.seat,
        "players": [
            {"label": side.label, "player": player_label(match.player_name(side.key), side.key)}
            for side in state.sides
        ],
        "manages_link": player.manages,
        "join_url": request.build_absolute_uri(join) if player.manages else "",
        "watch_url": request.build_absolute_uri(
            reverse("matches:match-watch", args=[match.watch_slug])
        ),
    }


@require_http_methods(["GET", "POST"])
def kt_new(request: HttpRequest) -> HttpResponse:
    owner = request_owner(request, create=request.method == "POST")
    teams = Roster.objects.live().filter(system=KILLTEAM.id)
    slug = request.POST.get("against") or request.GET.get("against") or ""
    shared = teams.filter(share_slug=slug).first() if is_token(slug) else None
    rosters = list(teams.owned_by(owner).only("pk", "name"))
    initial = {"mine": f"roster:{request.GET.get('roster', '')}", "name": name_initial(request)}
    if shared is not None:
        initial |= {"opponent": f"shared:{shared.share_slug}", "against": slug}
    form = KtStartForm(request.POST or None, initial=initial, rosters=rosters, shared=shared)
    if request.method == "POST" and form.is_valid():
        try:
            match = services.kt_match_start(
                owner=owner,
                player=form.cleaned_data["name"],
                mine=form.cleaned_data["mine"],
                opponent=form.cleaned_data["opponent"],
                key=form.cleaned_data["key"],
            )
        except MatchError as error:
            form.add_error(None, str(error))
        else:
            access.remember_seat(request, match, "a")
            return redirect("matches:match-board", pk=match.pk)
    context = {
        "form": form,
        "teams": rosters,
        "shared": shared,
        "bad_link": bool(slug) and shared is None,
    }
    return render(request, "matches/killteam_new.html", context)


def kt_act(request: HttpRequest, pk: int, key: str, change: Request) -> Applied:
    """One change as the player of match ``pk`` (``access.act`` finds the seat), once per key."""
    return access.act(
        request,
        pk,
        lambda claim: services.kt_apply(
            match_id=pk, side=claim.side, token=claim.token, client_key=key, request=change
        ),
    )


@require_POST
def kt_event(request: HttpRequest, pk: int) -> HttpResponse:
    """A tap on the Kill Team board: one change, applied once per client key."""
    try:
        key = client_key(request.POST.get("key"))
        change = ops.parse_op(request.POST.get("op"), request.POST)
        applied = kt_act(request, pk, key, change)
    except UnknownId as error:
        player_match(request, pk)  # a stranger is told there is no such match first
        return inputs.refusal(error, 404)
    except EventError as error:
        player_match(request, pk)
        return inputs.refusal(error, 400)
    if not request.htmx:
        return redirect(reverse("matches:match-board", args=[pk]) + "#turn")
    match = applied.match
    context = _parts(match, applied.state, applied.side) | {
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
def kt_poll(request: HttpRequest, pk: int) -> HttpResponse:
    return _poll(request, access.match_for(request, pk, matches=poll_matches(), game=KILLTEAM.id))


@require_safe
@never_cache
def kt_watch_poll(request: HttpRequest, slug: str) -> HttpResponse:
    return _poll(
        request,
        access.match_for(request, slug=slug, to="watch", matches=poll_matches(), game=KILLTEAM.id),
    )
