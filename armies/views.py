"""Roster pages. Views parse input, check who is asking, call one service, pick a template."""

from __future__ import annotations

import io
import json

import segno
from django.contrib import messages
from django.db.models.functions import Lower
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from armies import exports, packs, services, systems
from armies.forms import ImportForm, RosterListForm
from armies.games import chosen_game, remember_game
from armies.models import RevokedShareSlug, Roster
from armies.owners import edit_url, own_roster, request_owner
from armies.services import RosterError
from armies.systems.base import share_url
from blitz_site.once import new_key, read_key
from blitz_site.text import is_token

# --- My rosters ------------------------------------------------------------------------------


@require_safe
def roster_list(request: HttpRequest) -> HttpResponse:
    return render(request, "armies/roster_list.html", _list_context(request))


@require_POST
def roster_create(request: HttpRequest) -> HttpResponse:
    """A new roster of the game the form names (the first game when it names none)."""
    game = request.POST.get("system")
    builder = systems.find(game) if game else systems.DEFAULT
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
    remember_game(request, builder)
    return redirect(edit_url(roster.pk))


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
    # The game of the new-roster form: the one asked for (?game=), else the session's.
    new_game = new_game or chosen_game(request)
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
            return redirect(edit_url(roster.pk))
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
    return redirect(edit_url(copy.pk))


def roster_delete(request: HttpRequest, pk: int) -> HttpResponse:
    roster = own_roster(request, pk)
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


# --- The editor (each game's changes are its own: armies/<game>/views.py) ---------------------


@require_safe
def roster_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """The editor of the roster's game."""
    roster = own_roster(request, pk)
    builder = systems.for_roster(roster)
    return render(request, builder.templates.editor, builder.editor_context(request, roster))


# --- Sharing ---------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def roster_share_new(request: HttpRequest, pk: int) -> HttpResponse:
    """GET asks first (when a link exists, it stops working); POST makes the new link."""
    roster = own_roster(request, pk)
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
    return redirect(edit_url(pk, "share"))


@require_http_methods(["GET", "HEAD", "POST"])
def roster_share_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    """GET asks first; POST turns the link off."""
    roster = own_roster(request, pk)
    if request.method != "POST":
        return render(request, "armies/roster_share_confirm.html", {"roster": roster, "new": False})
    services.roster_share_revoke(owner=request_owner(request), roster_id=roster.pk)
    messages.success(request, "Share link turned off. Nobody can open the old link.")
    return redirect(edit_url(pk, "share"))


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
    return redirect(edit_url(copy.pk))


# --- Cards, print, export ------------------------------------------------------------------


@require_safe
def roster_cards(request: HttpRequest, pk: int) -> HttpResponse:
    """Datacards and print, as the roster's game draws them."""
    roster = own_roster(request, pk)
    builder = systems.for_roster(roster)
    return render(request, builder.templates.cards, builder.cards_context(request, roster))


@require_safe
def roster_export_markdown(request: HttpRequest, pk: int) -> HttpResponse:
    roster = own_roster(request, pk)
    response = HttpResponse(
        systems.for_roster(roster).markdown(roster), content_type="text/markdown; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{exports.filename(roster, "md")}"'
    return response


@require_safe
def roster_text(request: HttpRequest, pk: int) -> HttpResponse:
    """The Markdown in a box to select and copy (the "Copy text" link when JavaScript is off)."""
    roster = own_roster(request, pk)
    text = systems.for_roster(roster).markdown(roster)
    return render(request, "armies/roster_text.html", {"roster": roster, "text": text})


@require_safe
def roster_export_json(request: HttpRequest, pk: int) -> HttpResponse:
    """The export: its format and game, then what the game's builder puts in it."""
    roster = own_roster(request, pk)
    document = exports.envelope(roster, systems.for_roster(roster).export(roster))
    response = HttpResponse(
        json.dumps(document, indent=2, ensure_ascii=False), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="{exports.filename(roster, "json")}"'
    return response
