"""Heavy Gear Blitz's match pages: start a match, the board and its taps, polling, ending a round
and the match, the summary and the Markdown log. Who may act, and on which game's match, is
``matches.access``'s decision."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from armies.models import Roster
from armies.owners import request_owner
from blitz_site import inputs
from blitz_site.systems import HGB
from blitz_site.text import is_token
from matches import access, logs, offers, polling, systems, taps
from matches.access import Access
from matches.forms import client_key
from matches.hgb import board, services
from matches.hgb.forms import MatchEndForm, MatchStartForm, parse_op
from matches.models import HEAVY_FIELDS, Match, MatchEvent
from matches.pages import SEQ, name_initial, new_key, player_label
from matches.queries import poll_matches
from matches.services import MatchError
from rules.hgb.match import SIDES, Event, EventError, MatchState, Phase, UnknownId

BOARD = "matches/match_board.html"
CHANGES = "matches/match_board.html#changes"
LOG_SHOWN = taps.LOG_REACH  # the lines a board shows; a tap answer knows what they offer


def _log(match: Match, state: MatchState, seat: str | None) -> tuple[list[dict], dict]:
    """The log's newest lines, each with what it offers the device of ``seat``, and the bar's
    "Undo last" (``matches.offers``)."""
    rows = list(offers.board_log(match)[:LOG_SHOWN])
    offered = offers.offers(rows, seat, state.phase is Phase.ENDED)
    entries = [board.log_entry(row, state) | {"offer": offered[row.seq]} for row in rows]
    return entries, offers.undo_last(rows, seat)


def _turn(match: Match, state: MatchState, seat: str | None) -> dict:
    """The turn panel, with the sides whose controls this device drives (``offers.drives``):
    the other side's rolls, choice and activations sit behind "… for Anna"."""
    turn = board.turn_panel(state)
    drive = {side: offers.drives(match, seat, side) for side in SIDES}
    players = {side: player_label(match.player_name(side), side) for side in SIDES}
    for side in turn["sides"]:
        side |= {"drive": drive[side["key"]], "player": players[side["key"]]}
    return turn | {
        "drive_winner": drive.get(turn["winner"] or "", False),
        "winner_player": players.get(turn["winner"] or "", ""),
        "drive_turn": drive.get(turn["turn"] or "", False),
        "turn_player": players.get(turn["turn"] or "", ""),
    }


def _attack_url(match: Match) -> str:
    """The attack helper's address; each card adds its model (one reverse a page, not a card)."""
    return reverse("matches:attack-helper", args=[match.pk])


def _share_context(request: HttpRequest, player: Access, state: MatchState) -> dict:
    """The players and links box (a player's board only)."""
    match = player.match
    return {
        "players": [board.side_summary(match, state, side) for side in SIDES],
        "seat": player.seat,
        "manages_link": player.manages,
        # Only the player who started the match is given the join link to share.
        "join_url": request.build_absolute_uri(
            reverse("matches:match-join", args=[match.join_slug])
        )
        if player.manages
        else "",
        "watch_url": request.build_absolute_uri(
            reverse("matches:match-watch", args=[match.watch_slug])
        ),
        "overlay_url": systems.overlay_url(match),
    }


def _poll_url(match: Match, controls: bool) -> str:
    if controls:
        return reverse("matches:match-poll", args=[match.pk])
    return reverse("matches:match-watch-poll", args=[match.watch_slug])


def _board_context(request: HttpRequest, viewer: Access) -> dict:
    """The board for a player (``viewer.seat``: with its controls) or a watcher."""
    match = viewer.match
    state = match.current_state()
    controls = viewer.seat is not None
    sides, (log, undo_last) = board.sides(match, state), _log(match, state, viewer.seat)
    return {
        "match": match,
        "controls": controls,
        "attack_url": _attack_url(match),
        "sides": sides,
        "shown_sides": board.seat_order(sides, viewer.seat),
        "weapon_sheets": board.weapon_sheets(state, board.pack_marks(match), match.figures),
        "turn": _turn(match, state, viewer.seat),
        "log": log,
        "undo_last": undo_last,
        "latest": log[0] if log else None,
        "key": new_key(),
        "event_url": reverse("matches:match-event", args=[match.pk]),
        "poll_url": _poll_url(match, controls),
        "joined": match.b_joined,
        "tv_note": board.TV_NOTE,
    } | _share_context(request, viewer, state)


# --- Starting a match ----------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def match_new(request: HttpRequest) -> HttpResponse:
    owner = request_owner(request, create=request.method == "POST")
    slug = request.POST.get("against") or request.GET.get("against") or ""
    # The tracker plays Heavy Gear Blitz: a roster of another game is not offered.
    playable = Roster.objects.live().filter(system=HGB.id)
    shared = playable.filter(share_slug=slug).first() if is_token(slug) else None
    rosters = list(playable.owned_by(owner).only("pk", "name"))
    initial = {
        "against": slug,
        "mine": f"roster:{request.GET.get('roster', '')}",
        "name": name_initial(request),
    }
    if shared is not None:
        initial["opponent"] = f"shared:{shared.share_slug}"
    form = MatchStartForm(
        request.POST or None,
        initial=initial,
        rosters=rosters,
        catalog=services.catalog(),
        shared=shared,
    )
    if request.method == "POST" and form.is_valid():
        try:
            match = services.match_start(
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
    context = {"form": form, "shared": shared, "bad_link": bool(slug) and shared is None}
    return render(request, "matches/match_new.html", context)


# --- The board ------------------------------------------------------------------------------------


def hgb_board(request: HttpRequest, viewer: Access) -> HttpResponse:
    """Heavy Gear Blitz's board, for a player (with its seat cookie) or a watcher."""
    response = render(request, BOARD, _board_context(request, viewer))
    if viewer.seat is not None:
        access.set_seat_cookie(response, request, viewer)
    return response


def _apply(request: HttpRequest, pk: int, change, key: str) -> taps.Applied:
    """One change as the player of match ``pk`` (``access.act`` finds the seat)."""
    return access.act(
        request,
        pk,
        lambda claim: services.match_apply(
            match_id=pk, side=claim.side, token=claim.token, client_key=key, request=change
        ),
    )


@require_POST
def match_event(request: HttpRequest, pk: int) -> HttpResponse:
    """A tap on the board: one change, applied once per client key."""
    try:
        key = client_key(request.POST.get("key"))
        change = parse_op(request.POST.get("op"))
        applied = _apply(request, pk, change, key)
    except UnknownId as error:
        return inputs.refusal(error, 404)
    except EventError as error:
        return inputs.refusal(error, 400)
    if applied.duplicate and applied.event is not None:
        change = services.TAPS.log_entry(
            applied.event
        ).event  # what that key applied the first time
    if request.htmx:
        seen = request.POST.get("seen", "")
        up_to_date = (
            SEQ.fullmatch(seen) is not None
            and applied.event is not None
            and not applied.duplicate
            and int(seen) == applied.event.seq - 1
        )
        return _changes_response(request, applied, focus=change, up_to_date=up_to_date)
    _flash(request, applied)
    return redirect(reverse("matches:match-board", args=[pk]) + "#" + _focus(change))


def _flash(request: HttpRequest, applied: taps.Applied) -> None:
    if applied.error:
        messages.error(request, applied.error)
    for warning in applied.warnings:
        messages.warning(request, warning)


def _focus(change: object) -> str:
    """Where a change's answer is shown: on the model's card, in the log, or the turn panel."""
    if isinstance(change, Event) and "unit" in change.data:
        return f"unit-{change['unit']}"
    if isinstance(change, taps.UndoLast | taps.UndoTheirs | taps.Redo) or (
        isinstance(change, Event) and change.kind == "undo"
    ):
        return "log"
    return "turn"


def _changes_response(
    request: HttpRequest, applied: taps.Applied, *, focus: object, up_to_date: bool = False
) -> HttpResponse:
    """The parts of the board a change touched, each swapped in by id (htmx out-of-band).

    ``up_to_date``: the device had seen every event before this one (it says so in ``seen``),
    so the answer moves its poller on to this event: its next poll does not fetch the change it
    just made a second time."""
    match, state = applied.match, applied.state
    where = _focus(focus)
    units = set(applied.units) - {taps.ALL_UNITS}
    # The log is drawn afresh after an undo or redo, and when this change takes a Redo away.
    whole_log = where == "log" or (
        applied.event is not None and not applied.duplicate
        and offers.takes_a_redo(match, applied.event)
    )  # fmt: skip
    if where.startswith("unit-"):
        try:
            units.add(state.unit(where.removeprefix("unit-")).id)
        except UnknownId:  # a refused change naming no such model: answer in the turn panel
            where = "turn"
    event, seat = applied.event, applied.side
    ended = state.phase is Phase.ENDED
    entry = None
    if event:
        entry = board.log_entry(event, state) | {
            "offer": offers.offers([event], seat, ended)[event.seq]
        }
    log, undo_last = _log(match, state, seat) if whole_log else (None, None)
    if undo_last is None and match.b_token and entry and not (applied.error or applied.duplicate):
        # The tapper's own change is the last now: "Undo last" is one tap again (it asks only
        # for the other player's, so only once seat B is taken).
        undo_last = offers.undo_last([event], seat)
    context = {
        "match": match,
        "controls": True,
        "attack_url": _attack_url(match),
        "oob": True,
        "cards": _cards(match, state, units, applied.all_units),
        # A side's summary (TV destroyed, models out) changes only when a model leaves the game
        # or comes back, which makes the change round-level too.
        "summaries": [
            board.side_summary(match, state, side)
            for side in SIDES
            if applied.round_level
            and (applied.all_units or any(uid.startswith(side) for uid in units))
        ],
        "turn": _turn(match, state, seat) if applied.round_level or where == "turn" else None,
        "heads": _heads(state) if applied.round_level else [],
        "entries": [entry] if entry and not applied.duplicate and not whole_log else [],
        "log": log,
        "undo_last": undo_last,
        # The bar's latest change: the new event (a refusal too: it is in the log), or the
        # log's first line after an undo (and the undo's refusal, said in the bar that holds
        # "Undo last").
        "bar": where == "log" or (entry is not None and not applied.duplicate),
        "latest": _latest(log, skip_refused=bool(applied.error)) if where == "log" else entry,
        "message": applied.error or " ".join(applied.warnings),
        "message_class": "error" if applied.error else "warning",
        "focus": where,
        # A fresh key for the next tap, for a board where htmx runs without match.js.
        "key": new_key(),
        "poller": up_to_date,
        "poll_url": _poll_url(match, True),
        "joined": bool(match.b_token),  # the tap's row has the seat tokens, not the seat owners
    }
    return render(request, CHANGES, context)


def _latest(log: list[dict] | None, skip_refused: bool = False) -> dict | None:
    """The bar's latest line; ``skip_refused`` when the bar says the refusal already."""
    return next((e for e in log or [] if not (skip_refused and e["refused"])), None)


def _cards(match: Match, state: MatchState, units: set[str], everything: bool) -> list[dict]:
    marks = board.pack_marks(match)
    if everything:
        return [board.unit_card(state, unit, marks) for unit in state.units]
    return [board.unit_card(state, state.unit(uid), marks) for uid in sorted(units)]


def _heads(state: MatchState) -> list[dict]:
    return [board.group_head(state, g) for side in state.sides for g in side.groups]


# --- Polling --------------------------------------------------------------------------------------


@require_safe
@never_cache
def match_poll(request: HttpRequest, pk: int) -> HttpResponse:
    """What changed since event ``seq``: 204 (nothing, no rendering), or the changed parts."""
    try:
        seen = polling.seen(request)
    except EventError as error:
        return inputs.refusal(error, 400)
    player = access.match_for(request, pk, matches=poll_matches(), game=HGB.id)
    return polling.unchanged(request, player.match, seen) or _poll_changes(
        request, player, seen, share=polling.joined_changed(request, player.match)
    )


@require_safe
@never_cache
def match_watch_poll(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        seen = polling.seen(request)
    except EventError as error:
        return inputs.refusal(error, 400)
    watching = access.match_for(request, slug=slug, to="watch", matches=poll_matches(), game=HGB.id)
    return polling.unchanged(request, watching.match, seen) or _poll_changes(
        request, watching, seen
    )


def _poll_changes(
    request: HttpRequest, viewer: Access, seen: int, *, share: bool = False
) -> HttpResponse:
    """What changed since event ``seen``; ``share``: the players box too (someone joined or
    left since the board was drawn). ``viewer.match`` holds only what a poll reads: the board's
    parts read the match again."""
    controls = viewer.seat is not None
    match = get_object_or_404(Match.objects.defer(*HEAVY_FIELDS), pk=viewer.match.pk)
    state = match.current_state()
    touched = MatchEvent.objects.filter(match=match, seq__gt=seen).values_list("units", flat=True)
    units = {uid for ids in touched for uid in ids}
    everything = seen > match.seq or taps.ALL_UNITS in units
    log, undo_last = _log(match, state, viewer.seat)
    context = {
        "match": match,
        "controls": controls,
        "attack_url": _attack_url(match),
        "oob": True,
        "cards": _cards(match, state, units - {taps.ALL_UNITS}, everything),
        "summaries": [board.side_summary(match, state, side) for side in SIDES],
        "turn": _turn(match, state, viewer.seat),
        "heads": _heads(state),
        "entries": [],
        "log": log,
        "undo_last": undo_last if controls else None,
        "bar": True,
        "latest": log[0] if log else None,
        "poller": True,
        "poll_url": _poll_url(match, controls),
        "joined": match.b_joined,
        "share": share and controls,
    }
    if share and controls:
        context |= _share_context(request, Access(match, viewer.seat), state)
    return render(request, CHANGES, context)


# --- Rounds and the end ---------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def match_end_round(request: HttpRequest, pk: int) -> HttpResponse:
    """Confirm, then end the round."""
    match = access.match_for(request, pk, game=HGB.id).match
    if request.method == "POST":
        try:
            ending = parse_op(f"end-round {request.POST.get('round', '')}".strip())
            applied = _apply(request, pk, ending, client_key(request.POST.get("key")))
        except EventError as error:
            return inputs.refusal(error, 400)
        _flash(request, applied)
        return redirect("matches:match-board", pk=pk)
    state = match.current_state()
    context = {"match": match, "turn": board.turn_panel(state), "key": new_key()}
    return render(request, "matches/match_end_round.html", context)


@require_http_methods(["GET", "POST"])
def match_end(request: HttpRequest, pk: int) -> HttpResponse:
    """Record the result and end the match."""
    match = access.match_for(request, pk, game=HGB.id).match
    state = match.current_state()
    labels = {side.key: side.label for side in state.sides}
    form = MatchEndForm(request.POST or None, labels=labels)
    error = ""
    if request.method == "POST" and form.is_valid():
        try:
            applied = _apply(request, pk, form.event(), client_key(request.POST.get("key")))
        except EventError as problem:
            return inputs.refusal(problem, 400)
        if not applied.error:
            return redirect("matches:match-summary", pk=pk)
        error = applied.error
    context = {"match": match, "form": form, "error": error, "key": new_key()}
    return render(request, "matches/match_end.html", context)


def _summary_context(match: Match, state: MatchState) -> dict:
    return {
        "match": match,
        "turn": board.turn_panel(state),
        "sides": [
            {
                "summary": board.side_summary(match, state, side.key),
                "lost": [board.lost_line(state, unit) for unit in side.units if unit.is_out],
            }
            for side in state.sides
        ],
        "tv_note": board.TV_NOTE,
    }


def _summary(request: HttpRequest, match: Match, seat: str | None) -> HttpResponse:
    """The summary page: the result, the TV destroyed, and the log a page at a time, newest
    first (``?page=2`` goes back in time; the Markdown download has the whole log at once)."""
    state = match.current_state()
    page = logs.log_page(match, request.GET.get("page"))
    context = _summary_context(match, state) | {
        "seat": seat,
        "page": page,
        "log": [board.log_entry(event, state) for event in page],
    }
    return render(request, "matches/match_summary.html", context)


@require_safe
def match_summary(request: HttpRequest, pk: int) -> HttpResponse:
    player = access.match_for(request, pk, game=HGB.id)
    return _summary(request, player.match, player.seat)


@require_safe
def match_watch_summary(request: HttpRequest, slug: str) -> HttpResponse:
    return _summary(
        request, access.match_for(request, slug=slug, to="watch", game=HGB.id).match, None
    )


@require_safe
def match_log_markdown(request: HttpRequest, pk: int) -> HttpResponse:
    match = access.match_for(request, pk, game=HGB.id).match
    state = match.current_state()
    context = _summary_context(match, state) | {"log_rows": logs.markdown_log(match)}
    text = render_to_string("matches/match_log.md", context, request=request)
    return logs.markdown_download(match, text)
