"""The Heavy Gear Blitz editor's changes, answered with the regions they changed (htmx) or a
redirect to the editor (no JavaScript). The editor page itself is ``armies.views.roster_edit``."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.views.decorators.http import require_POST

import rules.hgb
from armies.hgb import services
from armies.hgb.editor import editor_context
from armies.hgb.forms import RenameForm, TvLimitForm
from armies.models import Roster
from armies.owners import edit_url, own_roster, request_owner
from armies.services import RosterError
from blitz_site.once import read_key
from blitz_site.systems import HGB

STALE = "This roster changed in another window or tab; the editor now shows it as it is."


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
    at: str = "",
) -> HttpResponse:
    """Apply one editor change and answer with the regions it changed (htmx) or a redirect;
    a refusal is drawn at ``at`` (a region's id), else at the group, else atop the groups."""
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
        roster = own_roster(request, pk, HGB)
    anchor = at or (f"group-{group}" if group is not None else "roster-groups")
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect(edit_url(pk, anchor))
    if group is not None and group < len(roster.army.get("groups", [])):
        # The other groups' offers depend on the total and the army-wide limits: redraw them too.
        names = ["roster-group", "roster-summary", "roster-problems", "roster-offers"]
        return _regions(request, roster, names, group_index=group, error=error, error_at=anchor)
    names = ["roster-groups", "roster-summary", "roster-problems"]
    return _regions(request, roster, names, error=error, error_at=at or "roster-groups")


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

    def change(army: rules.hgb.Roster) -> rules.hgb.Roster:
        return rules.hgb.add_group(army, catalog, squad)

    # A refusal (the size bound) is drawn in the "Add a combat group" form, where the tap was.
    return _apply(request, pk, change, group=None, keyed=True, at="add-group")


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
    roster = own_roster(request, pk, HGB)
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
        return redirect(edit_url(pk))
    names = ["roster-settings", "roster-summary", "roster-problems", "roster-offers"]
    response = _regions(request, roster, names, settings_error=error)
    # The tab's title follows a rename (htmx takes a <title> in a response as the page's).
    response.write(render_to_string("armies/_page_title.html", {"title": roster.name}))
    return response
