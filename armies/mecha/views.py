"""The mecha editor's pages: a unit card, a weapon card, removing either (asked first), and what
the rules text gives. Plain forms answered with a redirect to the editor; each view is scoped to
the owner's mecha rosters (anything else is a 404, as another player's roster is), and a card
the rules refuse comes back with the text's sentence next to its field, everything typed kept.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from armies.mecha import services
from armies.mecha.forms import RemoveForm, UnitForm, WeaponForm
from armies.mecha.gives import READINGS, TOPICS
from armies.models import Roster
from armies.owners import edit_url, own_roster, request_owner
from blitz_site.systems import MECHA
from rules.mecha import cards

GET_POST = ["GET", "HEAD", "POST"]


def _unit(roster: Roster, unit_id: str) -> cards.Unit:
    try:
        return cards.unit_by_id(services.read(roster), unit_id)
    except KeyError as error:
        raise Http404("That unit is no longer in the force.") from error


def _gone(request: HttpRequest, roster: Roster, unit_id: str) -> HttpResponse | None:
    """A removal sent again (a double tap, a retry) after its card went: back to the editor."""
    if request.method != "POST":
        return None
    try:
        cards.unit_by_id(services.read(roster), unit_id)
    except KeyError:
        messages.info(request, "That card was already removed.")
        return redirect(edit_url(roster.pk, "units"))
    return None


def _weapon(unit: cards.Unit, weapon_id: str) -> cards.Weapon:
    try:
        return cards.weapon_by_id(unit, weapon_id)
    except KeyError as error:
        raise Http404("That weapon is no longer on the unit.") from error


def _save(request: HttpRequest, form, put, done: str, anchor: str) -> HttpResponse | None:
    """Run one card's save; None (the form then shows the refusal next to its field)."""
    try:
        put()
    except Roster.DoesNotExist as error:
        raise Http404 from error
    except KeyError as error:
        raise Http404("That unit is no longer in the force.") from error
    except cards.CardError as refused:
        form.add_card_error(refused)
        return None
    messages.success(request, done)
    return redirect(edit_url(int(request.resolver_match.kwargs["pk"]), anchor))


@require_http_methods(GET_POST)
def unit_edit(request: HttpRequest, pk: int, unit: str = "") -> HttpResponse:
    roster = own_roster(request, pk, MECHA)
    current = _unit(roster, unit) if unit else None
    initial = UnitForm.initial_for(current) if current else {"kind": "mobile_suit"}
    form = UnitForm(request.POST if request.method == "POST" else None, initial=initial)
    if request.method == "POST" and form.is_valid():
        document = form.document()

        def put():
            return services.unit_put(
                owner=request_owner(request),
                roster_id=pk,
                key=form.cleaned_data["key"],
                unit_id=unit,
                document=document,
            )

        done = f"Saved {document['name']}."
        if response := _save(request, form, put, done, f"unit-{unit}" if unit else "units"):
            return response
    context = {"roster": roster, "unit": current, "form": form}
    return render(request, "armies/mecha_unit.html", context)


@require_http_methods(GET_POST)
def weapon_edit(request: HttpRequest, pk: int, unit: str, weapon: str = "") -> HttpResponse:
    roster = own_roster(request, pk, MECHA)
    holder = _unit(roster, unit)
    current = _weapon(holder, weapon) if weapon else None
    initial = WeaponForm.initial_for(current) if current else {"type": "range", "fix": "1_handed"}
    form = WeaponForm(request.POST if request.method == "POST" else None, initial=initial)
    if request.method == "POST" and form.is_valid():

        def put():
            return services.weapon_put(
                owner=request_owner(request),
                roster_id=pk,
                key=form.cleaned_data["key"],
                unit_id=unit,
                weapon_id=weapon,
                document=form.document(),
            )

        done = f"Saved {form.cleaned_data['name']} on {holder.name}."
        if response := _save(request, form, put, done, f"unit-{unit}"):
            return response
    context = {"roster": roster, "unit": holder, "weapon": current, "form": form}
    return render(request, "armies/mecha_weapon.html", context)


def _remove(request: HttpRequest, roster: Roster, what: str, remove, anchor: str):
    form = RemoveForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            remove(form.cleaned_data["key"])
        except KeyError as error:
            raise Http404 from error
        messages.success(request, f"Removed {what}.")
        return redirect(edit_url(roster.pk, anchor))
    return render(
        request, "armies/mecha_remove.html", {"roster": roster, "what": what, "form": form}
    )


@require_http_methods(GET_POST)
def unit_remove(request: HttpRequest, pk: int, unit: str) -> HttpResponse:
    roster = own_roster(request, pk, MECHA)
    if gone := _gone(request, roster, unit):
        return gone
    doomed = _unit(roster, unit)
    owner = request_owner(request)
    return _remove(
        request,
        roster,
        f"{doomed.name} and its weapons" if doomed.weapons else doomed.name,
        lambda key: services.unit_remove(owner=owner, roster_id=pk, key=key, unit_id=unit),
        "units",
    )


@require_http_methods(GET_POST)
def weapon_remove(request: HttpRequest, pk: int, unit: str, weapon: str) -> HttpResponse:
    roster = own_roster(request, pk, MECHA)
    holder = _unit(roster, unit)
    if request.method == "POST" and weapon not in {w.id for w in holder.weapons}:
        messages.info(request, "That card was already removed.")
        return redirect(edit_url(pk, f"unit-{unit}"))
    doomed = _weapon(holder, weapon)
    owner = request_owner(request)
    return _remove(
        request,
        roster,
        f"{doomed.name} from {holder.name}",
        lambda key: services.weapon_remove(
            owner=owner, roster_id=pk, key=key, unit_id=unit, weapon_id=weapon
        ),
        f"unit-{unit}",
    )


@require_http_methods(["GET", "HEAD"])
def rules_page(request: HttpRequest) -> HttpResponse:
    """What the mecha rules text gives, only mentions and does not give, and Blitz's readings."""
    return render(request, "armies/mecha_rules.html", {"topics": TOPICS, "readings": READINGS})
