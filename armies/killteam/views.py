"""The Kill Team editor's forms and the profiles of a Kill Team datacard pack.

Plain forms, each answered with a redirect (the editor is a page of short lists: a reload is
cheap and keeps every form working without JavaScript). Each view is scoped to the owner's Kill
Team rosters or packs: anything else is a 404, as another player's roster is.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from armies import packs
from armies.killteam import services
from armies.killteam.forms import (
    GrenadesForm,
    KitForm,
    OperativeForm,
    ProfileEditor,
    TeamRenameForm,
)
from armies.killteam.presenters import ProfileCard
from armies.models import DataPack, Roster
from armies.owners import edit_url, library_url, own_pack, own_roster, request_owner
from armies.services import Change, RosterError
from blitz_site import inputs
from blitz_site.once import new_key, read_key
from blitz_site.systems import KILLTEAM
from blitz_site.text import is_token
from rules.killteam import profile as kt
from rules.killteam import team as kteam

PROFILES_PACK = "Kill Team profiles"
PROFILES_PACK_KEY = "killteam-profiles"  # the editor makes one such pack, however often tapped


def _change(
    request: HttpRequest, pk: int, anchor: str, work: Callable[[], Change], done: str = ""
) -> HttpResponse:
    """Run one service call and go back to the editor: its refusal, or ``done``, is said above
    the editor."""
    try:
        change = work()
    except Roster.DoesNotExist as error:
        raise Http404 from error
    except RosterError as refused:
        messages.error(request, str(refused))
    else:
        if change.applied and done:
            messages.success(request, done)
    return redirect(edit_url(pk, anchor))


def _profiles(request: HttpRequest) -> list[services.LibraryProfile]:
    return services.library_profiles(packs.library(request_owner(request), KILLTEAM))


def _first_error(form) -> str:
    for errors in form.errors.values():
        return " ".join(errors)
    return "Check the form."


@require_POST
def team_rename(request: HttpRequest, pk: int) -> HttpResponse:
    own_roster(request, pk, KILLTEAM)
    form = TeamRenameForm(request.POST)
    if not form.is_valid():
        messages.error(request, _first_error(form))
        return redirect(edit_url(pk))
    return _change(
        request,
        pk,
        "",
        lambda: services.team_rename(
            owner=request_owner(request), roster_id=pk, name=form.cleaned_data["name"]
        ),
        "Renamed the roster.",
    )


@require_POST
def team_grenades(request: HttpRequest, pk: int) -> HttpResponse:
    own_roster(request, pk, KILLTEAM)
    form = GrenadesForm(request.POST)
    if not form.is_valid():
        messages.error(request, _first_error(form))
        return redirect(edit_url(pk, "equipment"))
    frag, krak = form.choice()
    return _change(
        request,
        pk,
        "equipment",
        lambda: services.team_set_grenades(
            owner=request_owner(request), roster_id=pk, frag=frag, krak=krak
        ),
        "Saved the team's grenades.",
    )


@require_POST
def team_kit(request: HttpRequest, pk: int) -> HttpResponse:
    own_roster(request, pk, KILLTEAM)
    form = KitForm(request.POST)
    if not form.is_valid():
        messages.error(request, _first_error(form))
        return redirect(edit_url(pk, "equipment"))
    return _change(
        request,
        pk,
        "equipment",
        lambda: services.team_set_kit(owner=request_owner(request), roster_id=pk, kit=form.kit()),
        "Saved the team's equipment.",
    )


@require_POST
def team_update_profiles(request: HttpRequest, pk: int) -> HttpResponse:
    """ "Update them all": every operative built from an older version of its profile."""
    own_roster(request, pk, KILLTEAM)
    return _change(
        request,
        pk,
        "operatives",
        lambda: services.team_update_profiles(
            owner=request_owner(request), roster_id=pk, key=read_key(request.POST.get("key"))
        ),
        "Updated the operatives to their latest profiles.",
    )


@require_POST
def operative_add(request: HttpRequest, pk: int) -> HttpResponse:
    own_roster(request, pk, KILLTEAM)
    form = OperativeForm(request.POST, profiles=_profiles(request))
    if not form.is_valid():
        messages.error(request, _first_error(form))
        return redirect(edit_url(pk, "add-operative"))
    return _change(
        request,
        pk,
        "operatives",
        lambda: services.operative_add(
            owner=request_owner(request),
            roster_id=pk,
            key=read_key(request.POST.get("key")),
            choice=form.cleaned_data["profile"],
            name=form.cleaned_data["name"],
        ),
        "Added the operative.",
    )


@require_POST
def operative_remove(request: HttpRequest, pk: int, operative: int) -> HttpResponse:
    own_roster(request, pk, KILLTEAM)
    return _change(
        request,
        pk,
        "operatives",
        lambda: services.operative_remove(
            owner=request_owner(request),
            roster_id=pk,
            key=read_key(request.POST.get("key")),
            operative_id=operative,
        ),
        "Removed the operative.",
    )


KEEP = "Keep its profile as it is"


@require_http_methods(["GET", "HEAD", "POST"])
def operative_edit(request: HttpRequest, pk: int, operative: int) -> HttpResponse:
    """Rename an operative, or build it from a library profile again (its figures now)."""
    roster = own_roster(request, pk, KILLTEAM)
    try:
        current = kteam.read_team(roster.army).operative(operative)
    except kt.ProfileError as error:
        raise Http404("That operative is no longer in the team.") from error
    data = request.POST if request.method == "POST" else None
    form = OperativeForm(
        data, profiles=_profiles(request), keep=KEEP, initial={"name": current.name}
    )
    if data is not None and form.is_valid():
        try:
            services.operative_change(
                owner=request_owner(request),
                roster_id=pk,
                operative_id=operative,
                name=form.cleaned_data["name"],
                choice=form.cleaned_data["profile"],
            )
        except RosterError as refused:
            form.add_error(None, str(refused))
        else:
            messages.success(request, "Saved the operative.")
            return redirect(edit_url(pk, f"operative-{operative}"))
    context = {
        "roster": roster,
        "operative": current,
        "current": ProfileCard(current.profile, current),
        "form": form,
        "key": new_key,
    }
    return render(request, "armies/killteam_operative.html", context)


@require_POST
def team_new_profile(request: HttpRequest, pk: int) -> HttpResponse:
    """ "Type in a new profile" from the editor: the profile form of the player's Kill Team
    pack (made now if they have none), coming back to this roster when saved."""
    own_roster(request, pk, KILLTEAM)
    owner = request_owner(request)
    pack = packs.first_pack(owner, KILLTEAM)
    if pack is None:
        try:
            pack = packs.pack_create(
                owner=owner,
                entered_by=packs.owner_name(request.user, owner),
                name=PROFILES_PACK,
                key=PROFILES_PACK_KEY,
                system=KILLTEAM,
                data_fingerprint=kt.data_fingerprint(),
            )
        except packs.PackError as error:
            messages.error(request, str(error))
            return redirect(edit_url(pk, "add-operative"))
    return redirect(f"{reverse('datacard-profile-new', args=[pack.pk])}?roster={pk}")


# --- Profiles in a Kill Team datacard pack ------------------------------------------------------


def _back_to(request: HttpRequest, pack: DataPack) -> tuple[str, Roster | None]:
    """Where a saved profile goes: the roster it was typed in for (``?roster=``), if it is the
    player's Kill Team roster, else the pack in My datacards."""
    asked = inputs.optional_id(request.GET.get("roster"))
    if asked is not None:
        rosters = Roster.objects.live().owned_by(request_owner(request))
        roster = rosters.filter(system=KILLTEAM.id, pk=asked).first()
        if roster is not None:
            return edit_url(roster.pk, "add-operative"), roster
    return library_url(pack), None


def _profile_page(
    request: HttpRequest, pack: DataPack, profile_id: str = "", profile=None
) -> HttpResponse:
    back, roster = _back_to(request, pack)
    editor = ProfileEditor(request.POST if request.method == "POST" else None, profile=profile)
    if request.method == "POST" and editor.is_valid():
        try:
            services.profile_save(
                owner=request_owner(request),
                pack_id=pack.pk,
                profile=editor.profile,
                profile_id=profile_id,
                key=read_key(request.POST.get("key")),
            )
        except packs.PackError as error:
            editor.figures.add_error(None, str(error))
        except DataPack.DoesNotExist as error:
            raise Http404 from error
        else:
            messages.success(request, f"Saved the profile {editor.profile.name} in “{pack.name}”.")
            return redirect(back)
    context = {
        "pack": pack,
        "editor": editor,
        "profile_id": profile_id,
        "back": back,
        "roster": roster,
        "key": request.POST.get("key") or new_key(),
        "rules_note": "The core rules give no datacards: type each figure from your own.",
    }
    return render(request, "armies/killteam_profile_form.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
def profile_new(request: HttpRequest, pk: int) -> HttpResponse:
    return _profile_page(request, own_pack(request, pk, KILLTEAM))


@require_http_methods(["GET", "HEAD", "POST"])
def profile_edit(request: HttpRequest, pk: int, profile_id: str) -> HttpResponse:
    pack = own_pack(request, pk, KILLTEAM)
    profiles = (pack.figures or {}).get("profiles") or {}
    data = profiles.get(profile_id) if is_token(profile_id) else None
    if data is None:
        raise Http404("This pack has no such profile.")
    try:
        profile = kt.read_profile(data)
    except kt.ProfileError:
        profile = None  # a stored profile that no longer reads: type it in again
    return _profile_page(request, pack, profile_id, profile)


@require_POST
def profile_delete(request: HttpRequest, pk: int, profile_id: str) -> HttpResponse:
    pack = own_pack(request, pk, KILLTEAM)
    services.profile_delete(owner=request_owner(request), pack_id=pack.pk, profile_id=profile_id)
    messages.success(request, "Deleted the profile. Rosters built from it keep their copies.")
    return redirect(library_url(pack))
