"""A roster's match history, served by matches/ so that armies/ never imports matches/.

The roster editor loads it with ``hx-get`` (a plain link to the same URL without JavaScript):
an htmx request gets the fragment, any other the page around it.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from armies.models import Roster
from armies.owners import request_owner
from armies.systems import for_roster
from matches.queries import matches_for_roster


@require_safe
def roster_history(request: HttpRequest, pk: int) -> HttpResponse:
    """The matches the requester's roster ``pk`` was played in; another player's roster is 404."""
    owner = request_owner(request)
    roster = get_object_or_404(Roster.objects.live().owned_by(owner), pk=pk)
    context = {
        "roster": roster,
        "matches": matches_for_roster(roster, viewer=owner),
        "start_url": for_roster(roster).play_url(roster),  # "" while its game has no tracker
    }
    if request.htmx:
        return render(request, "matches/_roster_history.html", context)
    return render(request, "matches/roster_history.html", context)
