"""The match pages every game shares: a player's matches, joining one (and its join link and QR
code), and a match's board and watch page, drawn by the match's game (``matches.systems``)."""

from __future__ import annotations

import io

import segno
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe

from armies.owners import request_owner
from blitz_site import inputs
from matches import access, logs, polling, services, systems
from matches.forms import MatchJoinForm
from matches.pages import actor_label, name_initial
from matches.queries import my_matches
from rules.eventlog import EventError

OVERLAY = "matches/match_overlay.html"
OVERLAY_LOG = 3  # the log lines the stream overlay shows, newest first


@require_safe
def match_list(request: HttpRequest) -> HttpResponse:
    matches = my_matches(request_owner(request))
    context = {"matches": matches, "trackers": systems.every()}
    return render(request, "matches/match_list.html", context)


@require_http_methods(["GET", "POST"])
def match_join(request: HttpRequest, slug: str) -> HttpResponse:
    joining = access.match_for(request, slug=slug, to="join")
    match = joining.match
    if joining.seat is not None:
        return redirect("matches:match-board", pk=match.pk)
    error = ""
    data = request.POST if request.method == "POST" else None
    form = MatchJoinForm(data, initial={"name": name_initial(request)})
    if request.method == "POST" and form.is_valid():
        owner = request_owner(request, create=True)
        name = form.cleaned_data["name"]
        try:
            match, seat = services.match_join(slug=slug, owner=owner, player=name)
        except services.MatchError as problem:
            error = str(problem)
        else:
            access.remember_seat(request, match, seat)
            return redirect("matches:match-board", pk=match.pk)
    state = match.current_state()  # as the match's game reads it
    context = {"match": match, "error": error, "form": form, "state": state}
    return render(request, "matches/match_join.html", context)


@require_http_methods(["GET", "POST"])
def match_join_link(request: HttpRequest, pk: int) -> HttpResponse:
    """Confirm, then revoke the join link (and free seat B if asked)."""
    match = access.match_for(request, pk, to="manage").match
    if request.method == "POST":
        free = request.POST.get("free_seat") == "1"
        services.match_new_join_link(
            match_id=match.pk, owner=request_owner(request), free_seat=free
        )
        messages.success(request, "The old join link no longer works. Here is the new one.")
        return redirect(reverse("matches:match-board", args=[match.pk]) + "#share")
    return render(request, "matches/match_join_link.html", {"match": match})


@require_safe
@never_cache
def match_join_qr(request: HttpRequest, pk: int) -> HttpResponse:
    """The join link as a QR code, for the opponent's tablet to scan."""
    match = access.match_for(request, pk, to="manage").match
    url = request.build_absolute_uri(reverse("matches:match-join", args=[match.join_slug]))
    buffer = io.BytesIO()
    segno.make(url, error="m").save(
        buffer, kind="svg", scale=6, dark="#1b1f24", light="#ffffff", xmldecl=False
    )
    return HttpResponse(buffer.getvalue(), content_type="image/svg+xml")


# --- The board ------------------------------------------------------------------------------------


@require_safe
def match_board(request: HttpRequest, pk: int) -> HttpResponse:
    player = access.match_for(request, pk)
    return systems.tracker(player.match.system).board(request, player)


@require_safe
def match_watch(request: HttpRequest, slug: str) -> HttpResponse:
    watching = access.match_for(request, slug=slug, to="watch")
    return systems.tracker(watching.match.system).board(request, watching)


@require_safe
def match_overlay(request: HttpRequest, slug: str) -> HttpResponse:
    """The stream overlay (by the watch link): the match for streaming software, no controls.
    Its poller asks this view again (htmx, ``?seq=``): 204 when nothing changed, else the
    overlay's parts."""
    match = access.match_for(request, slug=slug, to="watch").match
    tracker = systems.tracker(match.system)
    if not tracker.overlay_path:
        raise Http404("This game has no stream overlay.")
    if request.htmx:
        try:
            unchanged = polling.unchanged(request, match, polling.seen(request))
        except EventError as error:
            return inputs.refusal(error, 400)
        if unchanged is not None:
            return unchanged
    rows = logs.newest_first(match).filter(refused=False)[:OVERLAY_LOG]
    context = {
        "match": match,
        "game": tracker.overlay(match),
        "log": [
            {
                "seq": row.seq,
                "actor": actor_label(row.actor_name, row.actor_side),
                "summary": row.summary,
                "undone": not row.effective,
            }
            for row in rows
        ],
        "poll_url": reverse("matches:match-overlay", args=[slug]),
        "joined": match.b_joined,
        "oob": bool(request.htmx),
    }
    return render(request, OVERLAY + ("#overlay-parts" if request.htmx else ""), context)
