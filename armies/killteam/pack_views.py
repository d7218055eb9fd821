"""Kill Team profile packs shared: a pack downloaded as a file (imported again on My
datacards, ``armies.pack_views.datacard_pack_import``), and a shared team's profiles copied into
the viewer's own datacards."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from armies.killteam import packs
from armies.models import Roster
from armies.owners import library_url, own_pack, request_owner
from armies.packs import PackError
from blitz_site.once import read_key
from blitz_site.systems import KILLTEAM


@require_safe
def profiles_export(request: HttpRequest, pk: int) -> HttpResponse:
    pack = own_pack(request, pk, KILLTEAM)
    response = HttpResponse(packs.pack_export(pack), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="killteam-profiles-{pack.pk}.json"'
    return response


@require_POST
def team_profiles_copy(request: HttpRequest, slug: str) -> HttpResponse:
    """ "Copy these profiles" on a shared kill team's page: a new pack of the viewer's."""
    try:
        pack = packs.pack_from_shared_team(
            owner=request_owner(request, create=True),
            slug=slug,
            key=read_key(request.POST.get("key")),
        )
    except Roster.DoesNotExist as error:
        raise Http404("This roster link does not exist or has been turned off.") from error
    except PackError as error:
        messages.error(request, str(error))
        return redirect(reverse("roster-shared", args=[slug]))
    messages.success(request, f"Copied the team's profiles into your datacards as “{pack.name}”.")
    return redirect(library_url(pack))
