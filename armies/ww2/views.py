"""The WWII force editor's forms and the page of what the rules text gives.

Plain forms, each answered with a redirect when it is saved; a refused form is drawn again
with its sentence beside the field and everything typed kept (status 200, as a
form error; the browser logs no failed request). Each view is scoped
to the owner's WWII rosters: anything else is a 404, as another player's roster is.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from armies.models import Roster
from armies.owners import edit_url, own_roster, request_owner
from armies.services import Change, RosterError
from armies.ww2 import services
from armies.ww2.forms import ForceRenameForm, SoldierForm, VehicleForm
from armies.ww2.presenters import RULES_NOTE
from armies.ww2.readings import GIVEN
from blitz_site.systems import WW2
from rules.ww2 import force as f


def _change(
    request: HttpRequest, pk: int, anchor: str, work: Callable[[], Change], done: str
) -> HttpResponse:
    try:
        change = work()
    except Roster.DoesNotExist as error:
        raise Http404 from error
    except RosterError as refused:
        messages.error(request, str(refused))
    else:
        if change.applied:
            messages.success(request, done)
    return redirect(edit_url(pk, anchor))


def _force(roster: Roster) -> f.Force:
    force, unreadable = services.read_or_empty(roster)
    if unreadable:
        raise Http404(unreadable)
    return force


@require_POST
def force_rename(request: HttpRequest, pk: int) -> HttpResponse:
    own_roster(request, pk, WW2)
    form = ForceRenameForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
        return redirect(edit_url(pk))
    name = form.cleaned_data["name"]
    return _change(
        request,
        pk,
        "",
        lambda: services.force_rename(owner=request_owner(request), roster_id=pk, name=name),
        "Renamed the roster.",
    )


def _vehicle_page(
    request: HttpRequest, roster: Roster, form: VehicleForm, vehicle: f.Vehicle | None
) -> HttpResponse:
    context = {"roster": roster, "form": form, "vehicle": vehicle, "rules_note": RULES_NOTE}
    return render(request, "armies/ww2_vehicle.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
def vehicle_new(request: HttpRequest, pk: int) -> HttpResponse:
    roster = own_roster(request, pk, WW2)
    if request.method != "POST":
        return _vehicle_page(
            request, roster, VehicleForm(initial=VehicleForm.initial_for(None)), None
        )
    form = VehicleForm(request.POST)
    if form.is_valid():
        try:
            services.vehicle_add(
                owner=request_owner(request),
                roster_id=pk,
                key=form.cleaned_data["key"],
                vehicle=form.vehicle("v0"),
            )
        except Roster.DoesNotExist as error:
            raise Http404 from error
        except RosterError as refused:
            form.add_error(None, str(refused))
        else:
            messages.success(request, f"Added {form.cleaned_data['name']}.")
            return redirect(edit_url(pk, "vehicles"))
    return _vehicle_page(request, roster, form, None)


@require_http_methods(["GET", "HEAD", "POST"])
def vehicle_edit(request: HttpRequest, pk: int, vehicle: str) -> HttpResponse:
    roster = own_roster(request, pk, WW2)
    try:
        current = _force(roster).vehicle(vehicle)
    except f.ForceError as error:
        raise Http404("That vehicle is no longer in the force.") from error
    if request.method != "POST":
        form = VehicleForm(initial=VehicleForm.initial_for(current))
        return _vehicle_page(request, roster, form, current)
    form = VehicleForm(request.POST)
    if form.is_valid():
        try:
            services.vehicle_change(
                owner=request_owner(request), roster_id=pk, vehicle=form.vehicle(current.id)
            )
        except Roster.DoesNotExist as error:
            raise Http404 from error
        except RosterError as refused:
            form.add_error(None, str(refused))
        else:
            messages.success(request, f"Saved {form.cleaned_data['name']}.")
            return redirect(edit_url(pk, f"vehicle-{current.id}"))
    return _vehicle_page(request, roster, form, current)


@require_POST
def vehicle_remove(request: HttpRequest, pk: int, vehicle: str) -> HttpResponse:
    own_roster(request, pk, WW2)
    return _change(
        request,
        pk,
        "vehicles",
        lambda: services.vehicle_remove(
            owner=request_owner(request), roster_id=pk, vehicle_id=vehicle
        ),
        "Removed the vehicle.",
    )


@require_POST
def soldier_add(request: HttpRequest, pk: int) -> HttpResponse:
    roster = own_roster(request, pk, WW2)
    form = SoldierForm(request.POST)
    if form.is_valid():
        return _change(
            request,
            pk,
            "infantry",
            lambda: services.soldier_add(
                owner=request_owner(request),
                roster_id=pk,
                key=form.cleaned_data["key"],
                name=form.cleaned_data["name"],
                rank=form.cleaned_data["rank"],
            ),
            f"Added {form.cleaned_data['name']}.",
        )
    context = {"roster": roster, "form": form, "soldier": None}
    return render(request, "armies/ww2_soldier.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
def soldier_edit(request: HttpRequest, pk: int, soldier: str) -> HttpResponse:
    roster = own_roster(request, pk, WW2)
    try:
        current = _force(roster).soldier(soldier)
    except f.ForceError as error:
        raise Http404("That soldier is no longer in the force.") from error
    if request.method != "POST":
        form = SoldierForm(initial={"name": current.name, "rank": current.rank})
    else:
        form = SoldierForm(request.POST)
        if form.is_valid():
            return _change(
                request,
                pk,
                f"soldier-{current.id}",
                lambda: services.soldier_change(
                    owner=request_owner(request),
                    roster_id=pk,
                    soldier_id=current.id,
                    name=form.cleaned_data["name"],
                    rank=form.cleaned_data["rank"],
                ),
                f"Saved {form.cleaned_data['name']}.",
            )
    context = {"roster": roster, "form": form, "soldier": current}
    return render(request, "armies/ww2_soldier.html", context)


@require_POST
def soldier_remove(request: HttpRequest, pk: int, soldier: str) -> HttpResponse:
    own_roster(request, pk, WW2)
    return _change(
        request,
        pk,
        "infantry",
        lambda: services.soldier_remove(
            owner=request_owner(request), roster_id=pk, soldier_id=soldier
        ),
        "Removed the soldier.",
    )


@require_safe
def rules_page(request: HttpRequest) -> HttpResponse:
    """What the rules text gives, only mentions, and leaves to the table."""
    return render(request, "armies/ww2_rules.html", {"rows": GIVEN, "system": WW2})
