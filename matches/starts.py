"""Starting a match, the same for every game that starts from two rosters: the player's own, and
the opponent's (one of theirs, or the shared one a link named). Each game gives its form class
(a ``matches.forms.StartForm``), its template and how it starts the match from the form's data."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from armies.models import Owner, Roster
from armies.owners import request_owner
from blitz_site.text import is_token
from matches import access
from matches.forms import StartForm
from matches.models import Match
from matches.pages import name_initial
from matches.services import MatchError


def start_page(
    request: HttpRequest,
    *,
    game: str,
    form_class: type[StartForm],
    template: str,
    start: Callable[[Owner, dict[str, Any]], Match],
    extra: dict[str, Any] | None = None,
) -> HttpResponse:
    """The start form of ``game`` (GET), or the match it starts (POST): ``start(owner, data)``
    with the form's cleaned data; a ``MatchError`` is the form's error in words."""
    owner = request_owner(request, create=request.method == "POST")
    live = Roster.objects.live().filter(system=game)
    slug = request.POST.get("against") or request.GET.get("against") or ""
    shared = live.filter(share_slug=slug).first() if is_token(slug) else None
    rosters = list(live.owned_by(owner).only("pk", "name"))
    initial = {"mine": f"roster:{request.GET.get('roster', '')}", "name": name_initial(request)}
    if shared is not None:
        initial |= {"opponent": f"shared:{shared.share_slug}", "against": slug}
    form = form_class(request.POST or None, initial=initial, rosters=rosters, shared=shared)
    if request.method == "POST" and form.is_valid():
        try:
            match = start(owner, form.cleaned_data)
        except MatchError as error:
            form.add_error(None, str(error))
        else:
            access.remember_seat(request, match, "a")
            return redirect("matches:match-board", pk=match.pk)
    context = {
        "form": form,
        "rosters": rosters,
        "shared": shared,
        "bad_link": bool(slug) and shared is None,
    }
    return render(request, template, context | (extra or {}))
