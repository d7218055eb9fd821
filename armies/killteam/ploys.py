"""The team's own ploys in the Kill Team editor: name one (strategic or firefight, with its CP
cost), remove one after asking. The core rules give no faction ploys, so none is filled in."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from armies.killteam import services
from armies.killteam.forms import PloyForm
from armies.models import Roster
from armies.owners import edit_url, own_roster, request_owner
from armies.services import RosterError
from armies.systems.killteam import BUILDER
from blitz_site.once import read_key
from blitz_site.systems import KILLTEAM
from rules.killteam import ploys as kp
from rules.killteam import profile as kt
from rules.killteam import team as kteam


def _team(roster: Roster) -> kteam.Team | None:
    try:
        return kteam.read_team(roster.army)
    except kt.ProfileError:
        return None


@require_POST
def ploy_add(request: HttpRequest, pk: int) -> HttpResponse:
    """Name a ploy; a form error comes back on the editor with what was typed."""
    roster = own_roster(request, pk, KILLTEAM)
    form = PloyForm(request.POST, team=_team(roster))
    if form.is_valid():
        try:
            services.team_name_ploy(
                owner=request_owner(request),
                roster_id=pk,
                key=read_key(request.POST.get("key")),
                ploy=form.ploy,
            )
        except Roster.DoesNotExist as error:
            raise Http404 from error
        except RosterError as refused:
            form.add_error(None, str(refused))
        else:
            messages.success(request, f"Named the ploy {form.ploy.name}.")
            return redirect(edit_url(pk, "ploys"))
    context = BUILDER.editor_context(request, roster, ploy_form=form)
    return render(request, BUILDER.templates.editor, context)


@require_POST
def ploy_remove(request: HttpRequest, pk: int) -> HttpResponse:
    roster = own_roster(request, pk, KILLTEAM)
    team = _team(roster)
    ploy = kp.find_ploy(team.ploys, str(request.POST.get("name", ""))) if team else None
    if ploy is None:
        messages.error(request, "That ploy is no longer in the team.")
        return redirect(edit_url(pk, "ploys"))
    name = ploy.name
    try:
        change = services.team_drop_ploy(owner=request_owner(request), roster_id=pk, name=name)
    except Roster.DoesNotExist as error:
        raise Http404 from error
    except RosterError as refused:
        messages.error(request, str(refused))
    else:
        if change.applied:
            messages.success(request, f"Removed the ploy {name}. Matches already started keep it.")
    return redirect(edit_url(pk, "ploys"))
