"""My datacards: the figures of every model and weapon, their sources, and the player's packs."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from armies import packs, systems
from armies.forms import PackCreateForm, PackImportForm
from armies.games import chosen_game
from armies.models import DataPack, RevokedPackSlug
from armies.owners import library_url, own_pack, request_owner
from blitz_site import inputs
from blitz_site.once import new_key, read_key
from blitz_site.text import is_token


def _pack_context(pack: DataPack | None, *, yours: bool) -> dict:
    """What My datacards and a pack's share page show of a pack, as its game's builder says."""
    builder = systems.for_pack(pack)
    return {
        **builder.library_context(pack, yours=yours),
        "library_template": builder.templates.library,
        "library_notice": builder.templates.library_notice,
        "pack_summary": builder.pack_summary(pack) if pack else "",
        "pack_export_url": builder.pack_export_url(pack) if pack else "",
        "pack_file_suffix": builder.pack_file_suffix,
    }


def _game_context(builder: systems.Builder) -> dict:
    """What My datacards shows before the player has a pack: the game's own words."""
    return {
        **builder.library_context(None, yours=True),
        "library_template": builder.templates.library,
        "library_notice": builder.templates.library_notice,
        "pack_summary": "",
        "pack_export_url": "",
        "pack_file_suffix": builder.pack_file_suffix,
    }


def _entered_by(request: HttpRequest) -> str:
    owner = request_owner(request)
    return packs.owner_name(request.user, owner)


@require_safe
def datacard_library(request: HttpRequest) -> HttpResponse:
    return render(request, "armies/datacard_library.html", _library_context(request))


def _library_context(request: HttpRequest, **forms) -> dict:
    owner = request_owner(request)
    mine = packs.library(owner)
    asked = inputs.optional_id(request.GET.get("pack"))
    game = chosen_game(request)  # without ?pack=, lead with a pack of the game the player came by
    first = next((p for p in mine if p.system == game.system.id), mine[0] if mine else None)
    pack = next((p for p in mine if p.pk == asked), first)
    context = _pack_context(pack, yours=True) if pack else _game_context(game)
    trash = packs.trash(owner)
    deleted = inputs.optional_id(request.GET.get("deleted"))
    return {
        "packs": mine,
        "pack": pack,
        "trash": trash,
        "just_deleted": next((p for p in trash if p.pk == deleted), None),
        **context,
        "share_url": request.build_absolute_uri(reverse("datacard-shared", args=[pack.share_slug]))
        if pack and pack.share_slug
        else "",
        "create_form": forms.get("create_form")
        or PackCreateForm(initial={"system": game.system.id}),
        "import_form": forms.get("import_form") or PackImportForm(),
        "import_errors": forms.get("import_errors", ()),
    }


@require_POST
def datacard_pack_create(request: HttpRequest) -> HttpResponse:
    form = PackCreateForm(request.POST)
    if not form.is_valid():
        return render(
            request, "armies/datacard_library.html", _library_context(request, create_form=form)
        )
    game = form.cleaned_data["system"]
    try:
        pack = packs.pack_create(
            owner=request_owner(request, create=True),
            entered_by=_entered_by(request),
            name=form.cleaned_data["name"],
            key=form.cleaned_data["key"],
            system=game,
            data_fingerprint=systems.BUILDERS[game.id].pack_fingerprint(),
        )
    except packs.PackError as error:
        form.add_error(None, str(error))
        return render(
            request, "armies/datacard_library.html", _library_context(request, create_form=form)
        )
    return redirect(library_url(pack))


@require_POST
def datacard_pack_import(request: HttpRequest) -> HttpResponse:
    form = PackImportForm(request.POST, request.FILES)
    errors: tuple[str, ...] = ()
    if form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            pack = systems.for_pack_file(upload.name).pack_import(
                owner=request_owner(request, create=True),
                importer=_entered_by(request),
                filename=upload.name[:120],
                raw=upload.read(),
                key=form.cleaned_data["key"],
            )
        except packs.PackError as error:
            errors = error.messages
        else:
            messages.success(request, f"Imported the datacard pack “{pack.name}”.")
            return redirect(library_url(pack))
    context = _library_context(request, import_form=form, import_errors=errors)
    return render(request, "armies/datacard_library.html", context)


@require_POST
def datacard_share_new(request: HttpRequest, pk: int) -> HttpResponse:
    pack = own_pack(request, pk)
    packs.pack_share_new_link(owner=request_owner(request), pack_id=pack.pk)
    messages.success(request, "Made a share link: anyone with it can see and copy this pack.")
    return redirect(library_url(pack))


@require_http_methods(["GET", "HEAD", "POST"])
def datacard_share_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    """GET asks first (as a roster's link does); POST turns the link off."""
    pack = own_pack(request, pk)
    if request.method != "POST":
        return render(request, "armies/datacard_share_revoke.html", {"pack": pack})
    packs.pack_share_revoke(owner=request_owner(request), pack_id=pack.pk)
    messages.success(request, "Share link turned off. Nobody can open the old link.")
    return redirect(library_url(pack))


@require_http_methods(["GET", "HEAD", "POST"])
def datacard_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """GET asks first; POST moves the pack to "Recently deleted" (restorable for 30 days) and
    shows the library with an Undo for it."""
    pack = own_pack(request, pk)
    if request.method != "POST":
        summary = systems.for_pack(pack).pack_summary(pack)
        return render(
            request, "armies/datacard_delete.html", {"pack": pack, "pack_summary": summary}
        )
    packs.pack_delete(owner=request_owner(request), pack_id=pack.pk)
    return redirect(f"{library_url()}?deleted={pack.pk}")


@require_POST
def datacard_restore(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        pack = packs.pack_restore(owner=request_owner(request), pack_id=pk)
    except DataPack.DoesNotExist as error:
        raise Http404(
            "No deleted datacard pack to restore here (after 30 days it is gone)."
        ) from error
    except packs.PackError as error:
        messages.error(request, str(error))
        return redirect(library_url())
    messages.success(request, f"Restored the datacard pack “{pack.name}” with all its figures.")
    return redirect(library_url(pack))


def _shared(slug: str) -> DataPack:
    pack = DataPack.objects.filter(share_slug=slug).first() if is_token(slug) else None
    if pack is None:
        raise Http404("This datacard link does not exist or has been turned off by its owner.")
    return pack


@require_safe
def datacard_shared(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        pack = _shared(slug)
    except Http404:
        if not RevokedPackSlug.objects.filter(slug=slug).exists():
            raise
        return render(request, "armies/datacard_share_off.html", status=404)
    yours = request_owner(request).owns(pack)
    context = {
        "pack": pack,
        **_pack_context(pack, yours=yours),
        "is_owner": yours,
        "key": new_key,
    }
    return render(request, "armies/datacard_shared.html", context)


@require_POST
def datacard_shared_copy(request: HttpRequest, slug: str) -> HttpResponse:
    _shared(slug)
    try:
        copy = packs.pack_copy_shared(
            owner=request_owner(request, create=True),
            slug=slug,
            key=read_key(request.POST.get("key")),
        )
    except DataPack.DoesNotExist as error:
        raise Http404("This datacard link does not exist or has been turned off.") from error
    except packs.PackError as error:
        messages.error(request, str(error))
        return redirect(reverse("datacard-shared", args=[slug]))
    messages.success(request, f"Copied into your datacards as “{copy.name}”.")
    return redirect(library_url(copy))
