"""Roster pages. Views parse input, check who is asking, call one service, pick a template."""

from __future__ import annotations

import io
import json
from collections.abc import Callable

import segno
from django.contrib import messages
from django.db.models.functions import Lower
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

import rules.hgb
from armies import exports, packs, services, systems
from armies.forms import ImportForm, RenameForm, RosterListForm, TvLimitForm
from armies.models import RevokedShareSlug, Roster
from armies.owners import request_owner
from armies.services import RosterError
from armies.systems.base import share_url
from armies.systems.hgb import editor_context
from blitz_site.once import new_key, read_key
from blitz_site.systems import HGB, GameSystem
from blitz_site.text import is_token

STALE = "This roster changed in another window or tab; the editor now shows it as it is."


def _own(request: HttpRequest, pk: int, system: GameSystem | None = None) -> Roster:
    """The requester's live roster (of ``system`` only, when given), or 404 (another player's
    roster is not even confirmed)."""
    rosters = Roster.objects.live().owned_by(request_owner(request))
    return get_object_or_404(rosters.filter(system=system.id) if system else rosters, pk=pk)


def _edit_url(roster_id: int, anchor: str = "") -> str:
    url = reverse("armies:roster-edit", args=[roster_id])
    return f"{url}#{anchor}" if anchor else url


# --- My rosters ------------------------------------------------------------------------------


@require_safe
def roster_list(request: HttpRequest) -> HttpResponse:
    return render(request, "armies/roster_list.html", _list_context(request))


@require_POST
def roster_create(request: HttpRequest) -> HttpResponse:
    """A new roster of the game the form names (Heavy Gear Blitz when it names none)."""
    builder = systems.find(request.POST.get("system") or HGB.id)
    if builder is None:
        return HttpResponseBadRequest("Choose one of the games offered for the new roster.")
    form = builder.create_form(request.POST)
    if not form.is_valid():
        return _list_with_errors(request, builder, create_form=form)
    try:
        roster = builder.create(owner=request_owner(request, create=True), form=form)
    except RosterError as error:
        form.add_error(None, str(error))
        return _list_with_errors(request, builder, create_form=form)
    return redirect(_edit_url(roster.pk))


def _list_context(request: HttpRequest, new_game: systems.Builder | None = None, **forms) -> dict:
    owner = request_owner(request)
    list_form = RosterListForm(request.GET)
    query, sort = list_form.choice()
    rosters = Roster.objects.live().owned_by(owner)
    if query:
        rosters = rosters.filter(name__icontains=query)
    if sort == "name":
        rosters = rosters.order_by(Lower("name"), "pk")
    items = [systems.for_roster(roster).list_item(roster) for roster in rosters]
    if sort == "faction":
        items.sort(key=lambda v: (v.faction_name.lower(), v.roster.name.lower(), v.roster.pk))
    elif sort == "tv":
        items.sort(key=lambda v: (-v.total, v.roster.name.lower(), v.roster.pk))
    # The game of the new-roster form: the one asked for (?game=), else the default.
    new_game = new_game or systems.find(request.GET.get("game")) or systems.DEFAULT
    return {
        "rosters": items,
        "list_form": list_form,
        "query": query,
        "sort": sort,
        "trash": Roster.objects.in_trash().owned_by(owner).order_by("-deleted_at"),
        "games": [builder.system for builder in systems.every()],
        "new_game": new_game.system,
        "new_roster_template": new_game.templates.new_roster,
        "create_form": new_game.create_form(),
        "import_form": ImportForm(),
        "is_guest": owner.is_guest,
        "key": new_key,  # a fresh once-only key for each Duplicate button
        **forms,
    }


def _list_with_errors(
    request: HttpRequest, new_game: systems.Builder | None = None, **forms
) -> HttpResponse:
    context = _list_context(request, new_game, **forms)
    return render(request, "armies/roster_list.html", context, status=400)


@require_POST
def roster_import(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            owner = request_owner(request, create=True)
            roster = systems.roster_import(
                owner=owner,
                importer=packs.owner_name(request.user, owner),
                text=form.cleaned_data["json"],
                key=form.cleaned_data["key"],
            )
        except RosterError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"Imported “{roster.name}”.")
            return redirect(_edit_url(roster.pk))
    return _list_with_errors(request, import_form=form)


@require_POST
def roster_duplicate(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        copy = services.roster_duplicate(
            owner=request_owner(request),
            roster_id=pk,
            key=read_key(request.POST.get("key")),
            copy=systems.copy_fields,
        )
    except Roster.DoesNotExist as error:
        raise Http404 from error
    messages.success(request, f"Made “{copy.name}”.")
    return redirect(_edit_url(copy.pk))


def roster_delete(request: HttpRequest, pk: int) -> HttpResponse:
    roster = _own(request, pk)
    if request.method == "POST":
        services.roster_delete(owner=request_owner(request), roster_id=pk)
        messages.success(request, f"Deleted “{roster.name}”. You can restore it for 30 days.")
        return redirect("armies:roster-list")
    if request.method not in ("GET", "HEAD"):
        return HttpResponse(status=405, headers={"Allow": "GET, HEAD, POST"})
    return render(request, "armies/roster_delete.html", {"roster": roster})


@require_POST
def roster_restore(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        roster = services.roster_restore(owner=request_owner(request), roster_id=pk)
    except Roster.DoesNotExist as error:
        raise Http404 from error
    messages.success(request, f"Restored “{roster.name}”.")
    return redirect("armies:roster-list")


# --- The editor ----------------------------------------------------------------------------


@require_safe
def roster_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """The editor of the roster's game."""
    roster = _own(request, pk)
    builder = systems.for_roster(roster)
    return render(request, builder.templates.editor, builder.editor_context(request, roster))


# The Heavy Gear Blitz editor's changes, answered with the regions they changed (htmx).


def _regions(request: HttpRequest, roster: Roster, names: list[str], **extra) -> HttpResponse:
    """The changed editor regions for an htmx request: the first swaps in place, the rest OOB."""
    context = editor_context(request, roster, **extra)
    if "group_index" in extra:
        context["group"] = context["view"].groups[extra["group_index"]]
    parts = []
    for position, name in enumerate(names):
        context["oob"] = position > 0
        parts.append(render_to_string(f"armies/roster_edit.html#{name}", context, request))
    return HttpResponse("".join(parts))


def _apply(
    request: HttpRequest,
    pk: int,
    change: Callable[[rules.hgb.Roster], rules.hgb.Roster],
    *,
    group: int | None,
    keyed: bool,
) -> HttpResponse:
    """Apply one editor change and answer with the regions it changed (htmx) or a redirect."""
    key = read_key(request.POST.get("key"))  # "" for anything but a key: never stored
    if keyed and not key:
        return HttpResponseBadRequest("This form is missing its request key; reload the page.")
    owner = request_owner(request)
    error = ""
    try:
        roster = services.roster_change(owner=owner, roster_id=pk, key=key, change=change).roster
    except Roster.DoesNotExist as missing:
        raise Http404 from missing
    except RosterError as refused:
        error = str(refused)
        roster = _own(request, pk, HGB)
    anchor = f"group-{group}" if group is not None else "roster-groups"
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect(_edit_url(pk, anchor))
    if group is not None and group < len(roster.army.get("groups", [])):
        # The other groups' offers depend on the total and the army-wide limits: redraw them too.
        names = ["roster-group", "roster-summary", "roster-problems", "roster-offers"]
        return _regions(request, roster, names, group_index=group, error=error, error_at=anchor)
    names = ["roster-groups", "roster-summary", "roster-problems"]
    return _regions(request, roster, names, error=error, error_at="roster-groups")


def _expect(army: rules.hgb.Roster, group: int, model: int | None, expected: str) -> None:
    """Refuse a change aimed at a group or model that has moved since the page was drawn."""
    try:
        actual = (
            army.groups[group].squad if model is None else army.groups[group].models[model].model
        )
    except IndexError:
        actual = None
    if expected and actual != expected:
        raise rules.hgb.RulesError(STALE)


@require_POST
def group_add(request: HttpRequest, pk: int) -> HttpResponse:
    squad = request.POST.get("squad", "")
    catalog = rules.hgb.default_catalog()
    return _apply(
        request, pk, lambda army: rules.hgb.add_group(army, catalog, squad), group=None, keyed=True
    )


@require_POST
def group_remove(request: HttpRequest, pk: int, group: int) -> HttpResponse:
    expected = request.POST.get("squad", "")

    def change(army: rules.hgb.Roster) -> rules.hgb.Roster:
        _expect(army, group, None, expected)
        return rules.hgb.remove_group(army, group)

    return _apply(request, pk, change, group=None, keyed=True)


@require_POST
def model_add(request: HttpRequest, pk: int, group: int) -> HttpResponse:
    model = request.POST.get("model", "")
    catalog = rules.hgb.default_catalog()
    return _apply(
        request,
        pk,
        lambda army: rules.hgb.add_model(army, catalog, group, model),
        group=group,
        keyed=True,
    )


@require_POST
def model_remove(request: HttpRequest, pk: int, group: int, model: int) -> HttpResponse:
    expected = request.POST.get("model", "")

    def change(army: rules.hgb.Roster) -> rules.hgb.Roster:
        _expect(army, group, model, expected)
        return rules.hgb.remove_model(army, group, model)

    return _apply(request, pk, change, group=group, keyed=True)


def _chosen(request: HttpRequest) -> bool | None:
    return {"1": True, "0": False}.get(request.POST.get("chosen", ""))


@require_POST
def model_option(request: HttpRequest, pk: int, group: int, model: int) -> HttpResponse:
    option, chosen = request.POST.get("option", ""), _chosen(request)
    if chosen is None:
        return HttpResponseBadRequest("Say whether to take the option (chosen=1) or drop it (0).")
    expected = request.POST.get("model", "")
    catalog = rules.hgb.default_catalog()

    def change(army: rules.hgb.Roster) -> rules.hgb.Roster:
        _expect(army, group, model, expected)
        return rules.hgb.set_option(army, catalog, group, model, option, chosen)

    return _apply(request, pk, change, group=group, keyed=False)


@require_POST
def model_option_all(request: HttpRequest, pk: int, group: int, model: int) -> HttpResponse:
    """Take or drop an option for a model and every identical model of its group at once."""
    option, chosen = request.POST.get("option", ""), _chosen(request)
    if chosen is None:
        return HttpResponseBadRequest("Say whether to take the option (chosen=1) or drop it (0).")
    expected, count = request.POST.get("model", ""), request.POST.get("count", "")
    catalog = rules.hgb.default_catalog()

    def change(army: rules.hgb.Roster) -> rules.hgb.Roster:
        _expect(army, group, model, expected)
        if count != str(len(rules.hgb.identical_models(army, catalog, group, model))):
            raise rules.hgb.RulesError(STALE)  # the identical models the page showed have changed
        return rules.hgb.set_option_for_identical(army, catalog, group, model, option, chosen)

    return _apply(request, pk, change, group=group, keyed=False)


@require_POST
def group_upgrade(request: HttpRequest, pk: int, group: int) -> HttpResponse:
    upgrade, chosen = request.POST.get("upgrade", ""), _chosen(request)
    if chosen is None:
        return HttpResponseBadRequest("Say whether to take the upgrade (chosen=1) or drop it (0).")
    expected = request.POST.get("squad", "")
    catalog = rules.hgb.default_catalog()

    def change(army: rules.hgb.Roster) -> rules.hgb.Roster:
        _expect(army, group, None, expected)
        return rules.hgb.set_group_upgrade(army, catalog, group, upgrade, chosen)

    return _apply(request, pk, change, group=group, keyed=False)


@require_POST
def roster_rename(request: HttpRequest, pk: int) -> HttpResponse:
    form = RenameForm(request.POST)
    return _settings_change(request, pk, form, "name", services.roster_rename)


@require_POST
def roster_tv_limit(request: HttpRequest, pk: int) -> HttpResponse:
    form = TvLimitForm(request.POST)
    return _settings_change(request, pk, form, "tv_limit", services.roster_set_tv_limit)


def _settings_change(request: HttpRequest, pk: int, form, field: str, service) -> HttpResponse:
    owner = request_owner(request)
    roster = _own(request, pk, HGB)
    error = ""
    if form.is_valid():
        try:
            roster = service(owner=owner, roster_id=pk, **{field: form.cleaned_data[field]}).roster
        except RosterError as refused:
            error = str(refused)
    else:
        error = " ".join(form.errors.get(field, [])) or "Check this value."
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect(_edit_url(pk))
    names = ["roster-settings", "roster-summary", "roster-problems", "roster-offers"]
    return _regions(request, roster, names, settings_error=error)


# --- Sharing ---------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def roster_share_new(request: HttpRequest, pk: int) -> HttpResponse:
    """GET asks first (when a link exists, it stops working); POST makes the new link."""
    roster = _own(request, pk)
    if request.method != "POST":
        return render(request, "armies/roster_share_confirm.html", {"roster": roster, "new": True})
    had_link = bool(roster.share_slug)
    services.roster_share_new_link(owner=request_owner(request), roster_id=roster.pk)
    messages.success(
        request,
        "New share link made. The old link no longer works."
        if had_link
        else "Share link made: anyone with it can see the list.",
    )
    return redirect(_edit_url(pk, "share"))


@require_http_methods(["GET", "HEAD", "POST"])
def roster_share_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    """GET asks first; POST turns the link off."""
    roster = _own(request, pk)
    if request.method != "POST":
        return render(request, "armies/roster_share_confirm.html", {"roster": roster, "new": False})
    services.roster_share_revoke(owner=request_owner(request), roster_id=roster.pk)
    messages.success(request, "Share link turned off. Nobody can open the old link.")
    return redirect(_edit_url(pk, "share"))


def _shared(slug: str) -> Roster:
    roster = Roster.objects.live().filter(share_slug=slug).first() if is_token(slug) else None
    if roster is None:
        raise Http404("This roster link does not exist or has been turned off by its owner.")
    return roster


@require_safe
def roster_shared(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        roster = _shared(slug)
    except Http404:
        if not RevokedShareSlug.objects.filter(slug=slug).exists():
            raise
        return render(request, "armies/roster_share_off.html", status=404)
    builder = systems.for_roster(roster)
    context = {
        **builder.shared_context(request, roster),
        "roster": roster,
        "share_url": share_url(request, roster),
        "is_owner": request_owner(request).owns(roster),
        "key": new_key,  # the once-only key of "Copy to my rosters"
    }
    return render(request, builder.templates.shared, context)


@require_safe
def roster_shared_qr(request: HttpRequest, slug: str) -> HttpResponse:
    roster = _shared(slug)
    qr = segno.make(share_url(request, roster), error="m")
    buffer = io.BytesIO()
    qr.save(buffer, kind="svg", scale=6, dark="#1b1f24", light="#ffffff", xmldecl=False)
    return HttpResponse(buffer.getvalue(), content_type="image/svg+xml")


@require_POST
def roster_shared_copy(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        copy = services.roster_copy_shared(
            owner=request_owner(request, create=True),
            slug=slug,
            key=read_key(request.POST.get("key")),
            copy=systems.copy_fields,
        )
    except Roster.DoesNotExist as error:
        raise Http404("This roster link does not exist or has been turned off.") from error
    messages.success(request, f"Copied into your rosters as “{copy.name}”.")
    return redirect(_edit_url(copy.pk))


# --- Cards, print, export ------------------------------------------------------------------


@require_safe
def roster_cards(request: HttpRequest, pk: int) -> HttpResponse:
    """Datacards and print, as the roster's game draws them."""
    roster = _own(request, pk)
    builder = systems.for_roster(roster)
    return render(request, builder.templates.cards, builder.cards_context(request, roster))


@require_safe
def roster_export_markdown(request: HttpRequest, pk: int) -> HttpResponse:
    roster = _own(request, pk)
    response = HttpResponse(
        systems.for_roster(roster).markdown(roster), content_type="text/markdown; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{exports.filename(roster, "md")}"'
    return response


@require_safe
def roster_text(request: HttpRequest, pk: int) -> HttpResponse:
    """The Markdown in a box to select and copy (the "Copy text" link when JavaScript is off)."""
    roster = _own(request, pk)
    text = systems.for_roster(roster).markdown(roster)
    return render(request, "armies/roster_text.html", {"roster": roster, "text": text})


@require_safe
def roster_export_json(request: HttpRequest, pk: int) -> HttpResponse:
    """The export: its format and game, then what the game's builder puts in it."""
    roster = _own(request, pk)
    document = exports.envelope(roster, systems.for_roster(roster).export(roster))
    response = HttpResponse(
        json.dumps(document, indent=2, ensure_ascii=False), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="{exports.filename(roster, "json")}"'
    return response
