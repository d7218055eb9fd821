"""Typing an army's figures quickly: a model's card as one grid (with "copy figures from"), the
models of my rosters with their progress, and a pasted table of figures. The single figures
form (``armies.hgb.datacards.datacard_edit``) stays for weapons on their own."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_safe

import rules.hgb
from armies import packs
from armies.hgb import entry
from armies.hgb import packs as hgb_packs
from armies.hgb.forms import CopyFromForm, PasteForm
from armies.models import DataPack
from armies.owners import own_pack, request_owner
from blitz_site.systems import HGB
from blitz_site.text import is_token


def _rosters_url(pack: DataPack, model_id: str = "") -> str:
    url = reverse("datacard-rosters", args=[pack.pk])
    return f"{url}#model-{model_id}" if model_id else url


def _card_url(pack: DataPack, model_id: str) -> str:
    return reverse("datacard-card", args=[pack.pk, model_id])


@require_http_methods(["GET", "HEAD", "POST"])
def datacard_card(request: HttpRequest, pk: int, model_id: str) -> HttpResponse:
    """A model's card as one form: its figures, movement modes and weapons, row by row."""
    pack = own_pack(request, pk, HGB)
    catalog = rules.hgb.default_catalog()
    if not is_token(model_id) or model_id not in catalog.models:
        raise Http404("The data has no such model.")
    owner = request_owner(request)
    order = [row.id for row in entry.roster_models(owner, pack)]
    following = order[order.index(model_id) + 1] if model_id in order[:-1] else ""
    mine = packs.library(owner, HGB)
    choices = entry.copy_choices(mine, pack, model_id)
    copy_form = CopyFromForm(request.GET if "copy" in request.GET else None, choices=choices)
    initial, copy_note = None, None
    if request.method == "POST":
        grid = entry.card(pack, model_id, data=request.POST)
        if grid.is_valid():
            try:
                hgb_packs.pack_set_entries(owner=owner, pack_id=pack.pk, entries=grid.entries())
            except packs.PackError as error:
                for message in error.messages:
                    grid.form.add_error(None, message)
            else:
                name = grid.model.name
                messages.success(request, f"Saved the figures of {name} in “{pack.name}”.")
                if following and request.POST.get("then") == "next":
                    return redirect(_card_url(pack, following))
                return redirect(_rosters_url(pack, model_id))
    else:
        if copy_form.is_bound and copy_form.is_valid():
            source_id, source_model = copy_form.source()
            source = next(p for p in mine if p.pk == source_id)
            initial, count, kept = entry.copied(source, source_model, pack, model_id)
            copy_note = {"name": catalog.models[source_model].name, "count": count, "kept": kept}
        grid = entry.card(pack, model_id, initial=initial)
    context = {
        "pack": pack,
        "card": grid,
        "copy_form": copy_form,
        "copy_note": copy_note,
        "following": catalog.models[following] if following else None,
        "in_rosters": model_id in order,
    }
    return render(request, "armies/datacard_card.html", context)


@require_safe
def datacard_rosters(request: HttpRequest, pk: int) -> HttpResponse:
    """The models of my rosters, with how many of their figures are known in this pack."""
    pack = own_pack(request, pk, HGB)
    rows = entry.roster_models(request_owner(request), pack)
    known, total = entry.pack_progress(pack, rows)
    context = {
        "pack": pack,
        "rows": rows,
        "progress": entry.progress_words(known, total),
        "all_known": known == total,
    }
    return render(request, "armies/datacard_rosters.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
def datacard_paste(request: HttpRequest, pk: int) -> HttpResponse:
    """Paste a table of figures (CSV, or copied from a spreadsheet) into a pack: all or nothing."""
    pack = own_pack(request, pk, HGB)
    form = PasteForm(request.POST if request.method == "POST" else None)
    errors: tuple[str, ...] = ()
    if form.is_bound and form.is_valid():
        try:
            pack, added, replaced = hgb_packs.pack_paste_table(
                owner=request_owner(request), pack_id=pack.pk, text=form.cleaned_data["table"]
            )
        except packs.PackError as error:
            errors = error.messages
        else:
            words = f"Put {added} new figure{'' if added == 1 else 's'} into “{pack.name}”"
            if replaced:
                words += f"; {replaced} replaced a different figure you had before"
            messages.success(request, words + ".")
            return redirect(_rosters_url(pack))
    context = {"pack": pack, "form": form, "errors": errors}
    return render(request, "armies/datacard_paste.html", context)


@require_safe
def datacard_table(request: HttpRequest, pk: int) -> HttpResponse:
    """The figures of my rosters' models and their weapons as a table to fill in a spreadsheet
    and paste back: the pack's figures in it, the data's own left out (a pack cannot change
    them)."""
    pack = own_pack(request, pk, HGB)
    rows = entry.roster_models(request_owner(request), pack)
    entries = [("models", r.id) for r in rows] + [("weapons", c) for r in rows for c in r.weapons]
    text = rules.hgb.write_figure_table(pack.figures or {}, rules.hgb.default_catalog(), entries)
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="figures-{pack.pk}.csv"'
    return response
