"""Heavy Gear Blitz's datacard pages: one model's or weapon's figures in a pack, a pack as a
data file, and the pack a roster's datacards use. The library itself (``armies.pack_views``)
is every game's."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

import rules.hgb
from armies import packs
from armies.hgb import packs as hgb_packs
from armies.hgb.forms import FiguresForm, RosterPackForm
from armies.models import Roster
from armies.owners import library_url, own_pack, request_owner
from blitz_site import inputs
from blitz_site.systems import HGB
from blitz_site.text import is_token
from rules.hgb.datapack import FIELDS


@require_http_methods(["GET", "HEAD", "POST"])
def datacard_edit(request: HttpRequest, pk: int, kind: str, entry_id: str) -> HttpResponse:
    """One model's (or weapon's) figures in a pack: the data's read-only, the rest a form."""
    pack = own_pack(request, pk, HGB)
    data = rules.hgb.default_catalog()
    if kind not in FIELDS:
        raise Http404("Datacards hold models and weapons only.")
    entry = getattr(data, kind).get(entry_id) if is_token(entry_id) else None
    if entry is None:
        raise Http404("The data has no such model or weapon.")
    builtin = rules.hgb.builtin_catalog()
    fixed, open_fields = [], []
    for figure in FIELDS[kind]:
        value = rules.hgb.figure_of(data, kind, entry_id, figure.key)
        if value is None:
            open_fields.append(figure)
        else:
            source = (
                "rules text"
                if rules.hgb.figure_of(builtin, kind, entry_id, figure.key) is not None
                else "host data"
            )
            fixed.append((figure.label, value, source))
    current = (pack.figures.get(kind) or {}).get(entry_id, {})
    form = FiguresForm(
        request.POST if request.method == "POST" else None,
        fields=open_fields,
        initial_figures=current,
    )
    if request.method == "POST" and form.is_valid():
        try:
            hgb_packs.pack_set_figures(
                owner=request_owner(request),
                pack_id=pack.pk,
                kind=kind,
                entry_id=entry_id,
                figures=form.cleaned_data["figures"],
            )
        except packs.PackError as error:
            for message in error.messages:
                form.add_error(None, message)
        else:
            messages.success(request, f"Saved the figures of {entry.name} in “{pack.name}”.")
            return redirect(library_url(pack))
    context = {
        "pack": pack,
        "entry": entry,
        "kind": kind,
        "entry_id": entry_id,
        "fixed": fixed,
        "form": form,
    }
    return render(request, "armies/datacard_form.html", context)


@require_safe
def datacard_export(request: HttpRequest, pk: int) -> HttpResponse:
    pack = own_pack(request, pk, HGB)
    text = rules.hgb.pack_to_toml(
        pack.figures, rules.hgb.default_catalog(), name=pack.name, owner=pack.entered_by
    )
    response = HttpResponse(text, content_type="application/toml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="datacards-{pack.pk}.toml"'
    return response


@require_POST
def roster_pack(request: HttpRequest, pk: int) -> HttpResponse:
    """Choose the pack completing a roster's datacards ("" : my own, the first)."""
    form = RosterPackForm(request.POST)
    value = form.cleaned_data["pack"] if form.is_valid() else "x"
    pack_id = inputs.optional_id(value)
    if value and pack_id is None:
        messages.error(request, "Choose one of your own datacard packs.")
        return redirect(reverse("armies:roster-cards", args=[pk]))
    try:
        hgb_packs.roster_set_pack(owner=request_owner(request), roster_id=pk, pack_id=pack_id)
    except Roster.DoesNotExist as error:
        raise Http404 from error
    except packs.PackError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, "The datacards now use the chosen figures.")
    return redirect(reverse("armies:roster-cards", args=[pk]))
