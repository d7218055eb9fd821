"""The attack helper's views: the page, applying an attack, dice on screen, figures, ECM and
the designation house rule.
"""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import reswap, retarget

import rules.hgb
from armies import packs
from armies.hgb import packs as hgb_packs
from armies.models import DataPack
from armies.owners import request_owner
from blitz_site import inputs
from blitz_site.systems import HGB
from matches import access
from matches.access import Access
from matches.forms import client_key
from matches.hgb import board, services
from matches.hgb.attack.designation import (
    designation_context,
    read_designation,
)
from matches.hgb.attack.ecm import (
    EcmReading,
    ecm_context,
    ecm_event,
    read_ecm,
)
from matches.hgb.attack.figures import (
    match_state,
    pack_figure,
    remembered_figures,
)
from matches.hgb.attack.observe import observe_context
from matches.hgb.attack.odds import (
    odds_view,
)
from matches.hgb.attack.page import (
    attack_event,
    helper_context,
    roll_on_screen,
)
from matches.hgb.attack.reading import (
    AttackReading,
    read_attack,
)
from matches.hgb.attack.who import text_of
from matches.models import HEAVY_FIELDS, Match
from matches.taps import Applied
from rules.hgb.attack import DESIGNATION_HOUSE_RULE
from rules.hgb.datapack import FIELDS, check_figure
from rules.hgb.match import Event, EventError, make_event, unit_label

HELPER = "matches/attack_helper.html"
CONFIRM = "matches/attack_apply.html"
ECM = "matches/attack_ecm.html"
DESIGNATION = "matches/attack_designation.html"
DICE_KEY = "blitz_attack_dice_on_screen"


class NobodyToAttack(Exception):
    """Fewer than two models are in play: the helper has nothing to offer."""


def _seated(request: HttpRequest, pk: int) -> Access:
    """The match and the requester's seat in it (404 for anyone who is not a player), while
    two models or more are in play."""
    player = access.match_for(request, pk, matches=Match.objects.defer(*HEAVY_FIELDS), game=HGB.id)
    if sum(1 for unit in player.match.current_state().units if not unit.is_out) < 2:
        messages.info(request, "Fewer than two models are in play: there is nobody to attack.")
        raise NobodyToAttack(reverse("matches:match-board", args=[pk]))
    return player


def helper_page(view):
    """Back to the board when nobody is left to attack (htmx follows the redirect as a page)."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except NobodyToAttack as back:
            if request.htmx:
                return HttpResponse(headers={"HX-Redirect": str(back)})
            return redirect(str(back))

    return wrapped


def _read(match: Match, seat: str, data: QueryDict, *, remember: bool) -> AttackReading:
    return read_attack(
        data,
        state=match_state(match),
        seat=seat,
        remembered=remembered_figures(match) if remember else None,
        match_id=match.pk,
        marks=board.pack_marks(match),
    )


KEPT = "kept."  # the hidden dice form's copies of the helper's fields


def figures_on_screen(data: QueryDict) -> QueryDict:
    """What the player sees: the helper's own form (htmx sends it, marked ``f``) as typed since
    the page was drawn; without JavaScript, the copies the hidden dice form kept (``kept.<name>``).
    The copies are as old as the page, so they never win over the form on screen."""
    fresh = "f" in data
    shown = QueryDict(mutable=True)
    for key in data:
        if not (fresh and key.startswith(KEPT)):
            shown.setlist(key.removeprefix(KEPT), data.getlist(key))
    return shown


def _form_data(request: HttpRequest) -> QueryDict:
    data = (request.POST if request.method == "POST" else request.GET).copy()
    data.pop("csrfmiddlewaretoken", None)
    return data


@require_safe
@helper_page
def attack_helper(request: HttpRequest, pk: int) -> HttpResponse:
    """The helper; htmx asks for the odds only (``#attack-odds``) or the whole helper."""
    player = _seated(request, pk)
    match, seat = player.match, player.seat
    part = request.htmx.target if request.htmx else ""
    data = _form_data(request)
    reading = _read(match, seat, data, remember=part != "attack-odds")
    if data.get("roll") == "screen":
        data = roll_on_screen(reading, data, match.pk)
        reading = _read(match, seat, data, remember=False)
    if part == "attack-odds":
        context = helper_context(request, match, reading) | {"oob": True}
        return render(request, f"{HELPER}#attack-odds", context)
    context = helper_context(request, match, reading, data=data, dice=_dice_on_screen(request))
    return render(request, f"{HELPER}#attack-helper" if part else HELPER, context)


def _dice_on_screen(request: HttpRequest) -> bool:
    return bool(request.session.get(DICE_KEY, False))


@require_http_methods(["GET", "POST"])
@helper_page
def attack_apply(request: HttpRequest, pk: int) -> HttpResponse:
    """GET (a browser without JavaScript): confirm; POST: apply the attack, once per key."""
    player = _seated(request, pk)
    match, seat = player.match, player.seat
    data = _form_data(request)
    if request.method == "POST" and (refusal := _bad_key(data)):
        return refusal
    reading = _read(match, seat, data, remember=False)
    odds = odds_view(reading, match.current_state())
    resolution = odds["resolution"]
    context = helper_context(request, match, reading, data=data, computed=odds)
    if not resolution or not resolution["ready"]:
        context["error"] = "Enter every roll first: there is nothing to apply yet."
        return _refused(request, context, data)
    if request.method == "GET":
        return _confirm(request, context, data, f"{HELPER}#attack-odds")
    event = attack_event(reading, resolution)
    applied = _apply(request, player, data.get("key"), event)
    if applied.error:
        context["error"] = applied.error
        return _refused(request, context, data)
    _remember(request, player, reading.typed)
    return _applied(request, match, applied, reading, panel=data.get("panel") == "1")


def _confirm(request: HttpRequest, context: dict, data: QueryDict, odds: str) -> HttpResponse:
    """Without JavaScript the Apply button is a GET: this page asks again with a POST form."""
    back = context["ecm_url"] if "ecm_url" in context else context["helper_url"]
    extra = {
        "confirming": True,
        "query": data.urlencode(),
        "odds_partial": odds,
        "back_url": back,
        "hidden": [(k, v) for k in data for v in data.getlist(k)],
    }
    return render(request, CONFIRM, context | extra)


def _refused(request: HttpRequest, context: dict, data: QueryDict) -> HttpResponse:
    """Nothing applied: the odds again with the reason (htmx swaps only 2xx, so 200)."""
    if request.htmx:
        return _odds_again(request, f"{HELPER}#attack-odds", context, "#attack-odds")
    return _confirm(request, context, data, f"{HELPER}#attack-odds")


def _odds_again(request: HttpRequest, template: str, context: dict, target: str) -> HttpResponse:
    """The Apply button swaps the whole helper; a refusal swaps only the odds, with the reason."""
    response = render(request, template, context)
    return reswap(retarget(response, target), "outerHTML")


def _bad_key(data: QueryDict) -> HttpResponse | None:
    """A change without a well-formed client key is malformed: 400, as for a board tap."""
    try:
        client_key(data.get("key"))
    except EventError as error:
        return inputs.refusal(error, 400)
    return None


def _apply(request, player: Access, key, event: Event) -> Applied:
    """One event through the match's service, once per client key."""
    match = player.match
    try:
        return access.act(
            request,
            match.pk,
            lambda claim: services.match_apply(
                match_id=match.pk,
                side=claim.side,
                token=claim.token,
                client_key=client_key(key),
                request=event,
            ),
            player=player,
        )
    except EventError as error:
        return Applied(match, match.current_state(), error=str(error))


def _applied(request, match, applied, reading, *, panel: bool = False) -> HttpResponse:
    board = reverse("matches:match-board", args=[match.pk]) + f"#unit-{reading.who.target.id}"
    if request.htmx:
        again = reverse("matches:attack-helper", args=[match.pk])
        again += f"?attacker={reading.who.attacker.id}"
        context = _applied_context(match, applied, board, again) | {"panel": panel}
        response = render(request, f"{HELPER}#attack-applied", context)
        if panel:
            # The board's panel closes (unless there is a warning to read) and polls at once;
            # its weapon sheets show the figures just typed.
            warned = "true" if applied.warnings else "false"
            response["HX-Trigger"] = f'{{"blitz:attack-applied": {{"warned": {warned}}}}}'
            response.write(_weapon_sheets(request, match))
        return response
    _flash(request, applied)
    return redirect(board)


def _weapon_sheets(request: HttpRequest, match: Match) -> str:
    """The board's weapon sheets, out of band, with the figures the match now keeps."""
    figures = Match.objects.values_list("figures", flat=True).get(pk=match.pk)
    sheets = board.weapon_sheets(match.current_state(), board.pack_marks(match), figures)
    context = {"weapon_sheets": sheets, "oob": True}
    return render_to_string("matches/match_board.html#weapon-sheets", context, request)


def _applied_context(
    match: Match, applied: Applied, board: str, again: str, *, ecm: bool = False
) -> dict:
    """The helper, swapped whole for what was applied: no stale form is left to apply twice."""
    return {
        "match": match,
        "event": applied.event,
        "board_url": board,
        "again_url": again,
        "again_label": "Another ECM contest" if ecm else "Another attack",
        "wrapper_id": "ecm-helper" if ecm else "attack-helper",
        "warnings": applied.warnings,
    }


def _flash(request: HttpRequest, applied: Applied) -> None:
    if applied.event is not None:
        messages.success(request, f"#{applied.event.seq}: {applied.event.summary}")
    for warning in applied.warnings:
        messages.warning(request, warning)


def _remember(request: HttpRequest, player: Access, typed: dict) -> None:
    """Keep typed-in figures on the match (``services.match_remember_figures``)."""
    if not typed:
        return
    access.act(
        request,
        player.match.pk,
        lambda claim: services.match_remember_figures(
            match_id=player.match.pk, side=claim.side, token=claim.token, typed=typed
        ),
        player=player,
    )


FIGURE_FORMS = ("attack", "ecm", "designation")


@require_POST
@helper_page
def attack_figure(request: HttpRequest, pk: int) -> HttpResponse:
    """Keep one datacard figure as soon as it is typed (htmx sends it at every pause in typing):
    the helper's whole form comes along, so the figure is read and checked as the helper reads
    it, with the same ranges. ``form`` says which helper (attack, ecm, designation), ``field``
    which of its fields."""
    player = _seated(request, pk)
    match, seat = player.match, player.seat
    data = _form_data(request)
    which, name = data.pop("form", [""])[-1], data.pop("field", [""])[-1]
    if which not in FIGURE_FORMS:
        return inputs.refusal("Say form=attack, form=ecm or form=designation.", 400)
    if which == "attack":
        reading = _read(match, seat, data, remember=False)
    elif which == "ecm":
        reading = _read_ecm(match, data, remember=False)
    else:
        reading = _read_designation(request, match, seat, data, remember=False)
    spec = next((s for s in reading.specs if s.name == name and s.remember), None)
    if spec is None:
        return inputs.refusal("That is not a figure the helper keeps: send the field's name.", 400)
    errors = reading.form.errors.get(name)
    value = reading.form.cleaned_data.get(name) if not errors else None
    if errors:
        context = {"ok": False, "message": f"{spec.label}: {errors[0]} Not kept."}
    elif value is None:
        context = {"ok": True, "message": ""}
    else:
        scope, key, figure = spec.remember
        _remember(request, player, {scope: {key: {figure: value}}})
        context = {"ok": True, "message": f"Kept for this match: {value}."}
    if request.htmx:
        return render(request, f"{HELPER}#figure-kept", context)
    if context["message"]:
        (messages.success if context["ok"] else messages.error)(request, context["message"])
    names = {"attack": "matches:attack-helper", "ecm": "matches:attack-ecm"}
    back = reverse(names.get(which, "matches:attack-designation"), args=[match.pk])
    return redirect(f"{back}?{data.urlencode()}")


SAVE = "matches/attack_save_figure.html"


@require_http_methods(["GET", "POST"])
@helper_page
def attack_save_figure(request: HttpRequest, pk: int) -> HttpResponse:
    """Save a figure typed in the helper to the player's own datacards (their first pack, or a
    new "My datacards"): one tap, checked as the library form checks it. The match keeps the
    figures it started with. ``save`` names the field; the helper's whole form comes along. GET
    (a browser without JavaScript) asks again with a POST form."""
    player = _seated(request, pk)
    match, seat = player.match, player.seat
    data = _form_data(request)
    name = data.pop("save", [""])[-1]
    reading = _read(match, seat, data, remember=False)
    spec = next((s for s in reading.specs if s.name == name), None)
    target = pack_figure(spec.remember) if spec else None
    if target is None:
        return inputs.refusal(
            "That is not a figure your datacards keep: send save=<field name>.", 400
        )
    errors = reading.form.errors.get(name)
    value = None if errors else reading.form.cleaned_data.get(name)
    back = reverse("matches:attack-helper", args=[match.pk]) + f"?{data.urlencode()}"
    context = {"match": match, "label": spec.label, "value": value, "back_url": back}
    if errors:
        context |= {"ok": False, "message": f"{spec.label}: {errors[0]} Not saved."}
    elif value is None:
        context |= {"ok": False, "message": f"{spec.label}: type the figure first. Not saved."}
    elif request.method == "GET":
        hidden = [(k, v) for k in data for v in data.getlist(k)] + [("save", name)]
        return render(request, SAVE, context | {"confirming": True, "hidden": hidden})
    else:
        context |= _save_figure(request, spec.label, target, value)
    if request.htmx:
        return render(request, f"{SAVE}#figure-saved", context)
    (messages.success if context["ok"] else messages.error)(request, context["message"])
    return redirect(back)


def _save_figure(request: HttpRequest, label: str, target: tuple[str, str, str], value) -> dict:
    kind, entry_id, key = target
    given = rules.hgb.figure_of(rules.hgb.default_catalog(), kind, entry_id, key)
    if given is not None:
        builtin = rules.hgb.figure_of(rules.hgb.builtin_catalog(), kind, entry_id, key)
        source = "host data" if builtin is None else "rules text"
        message = f"{label}: the {source} already gives {given}; your datacards cannot change it."
        return {"ok": False, "message": message + " Not saved."}
    field = next(f for f in FIELDS[kind] if f.key == key)
    if problem := check_figure(field, value):
        return {"ok": False, "message": f"{label} in your datacards {problem}. Not saved."}
    owner = request_owner(request, create=True)
    try:
        pack = hgb_packs.pack_save_figure(
            owner=owner,
            entered_by=packs.owner_name(request.user, owner),
            kind=kind,
            entry_id=entry_id,
            key=key,
            value=value,
        )
    except packs.PackError as error:
        return {"ok": False, "message": " ".join(error.messages) + " Not saved."}
    except DataPack.DoesNotExist:
        return {"ok": False, "message": "Your datacard pack was just deleted. Not saved."}
    return {
        "ok": True,
        "message": f"Saved to “{pack.name}”: {value}, entered by {pack.entered_by}.",
        "pack_url": reverse("datacards") + f"?pack={pack.pk}",
    }


@require_POST
@helper_page
def attack_dice(request: HttpRequest, pk: int) -> HttpResponse:
    """This device rolls on screen (``screen=1``) or the players type in their dice (``0``)."""
    player = _seated(request, pk)
    match, seat = player.match, player.seat
    screen = request.POST.get("screen")
    if screen not in ("0", "1"):
        return inputs.refusal("Say screen=1 (roll on screen) or screen=0 (type in real dice).", 400)
    request.session[DICE_KEY] = screen == "1"
    data = figures_on_screen(_form_data(request))
    data.pop("screen", None)
    if request.htmx:
        reading = _read(match, seat, data, remember=True)
        context = helper_context(request, match, reading, data=data, dice=_dice_on_screen(request))
        return render(request, f"{HELPER}#attack-helper", context)
    back = reverse("matches:attack-helper", args=[match.pk])
    return redirect(f"{back}?{data.urlencode()}" if data else back)


# --- Forward observation: who observed -----------------------------------------------------------

OBSERVE = "matches/attack_observe.html"


@require_safe
@helper_page
def attack_observe(request: HttpRequest, pk: int) -> HttpResponse:
    """Mark ``target`` for indirect fire: the player names the observer (a tap on the board's
    "FO mark…"; the choice posts the board's own tap, ``fo <target> 1 <observer>``)."""
    player = _seated(request, pk)
    state = player.match.current_state()
    asked = text_of(request.GET, "target")
    if not asked:
        return inputs.refusal("Say which model is marked: target=<a model of this match>.", 400)
    target = next((u for u in state.units if u.id == asked), None)
    if target is None:
        return inputs.refusal(f"This match has no model {inputs.shown(asked)}.", 404)
    if target.is_out:
        return inputs.refusal(f"{unit_label(state, target)} is out of the game.", 400)
    context = observe_context(player.match, state, target)
    part = request.htmx.target if request.htmx else ""
    return render(request, f"{OBSERVE}#observe-helper" if part else OBSERVE, context)


# --- ECM against a Forward Observer ---------------------------------------------------------------


def _read_ecm(match: Match, data: QueryDict, *, remember: bool) -> EcmReading:
    remembered = remembered_figures(match) if remember else None
    return read_ecm(data, state=match.current_state(), remembered=remembered)


@require_safe
@helper_page
def attack_ecm(request: HttpRequest, pk: int) -> HttpResponse:
    """ECM against a Forward Observer: the contest's odds, recomputed at every change."""
    match = _seated(request, pk).match
    part = request.htmx.target if request.htmx else ""
    data = _form_data(request)
    reading = _read_ecm(match, data, remember=part != "ecm-odds")
    if part == "ecm-odds":
        return render(request, f"{ECM}#ecm-odds", ecm_context(match, reading))
    context = ecm_context(match, reading, data=data)
    context |= {"house_rule": DESIGNATION_HOUSE_RULE, "house_rule_on": _house_rule_on(request)}
    return render(request, f"{ECM}#ecm-helper" if part else ECM, context)


@require_http_methods(["GET", "POST"])
@helper_page
def attack_ecm_apply(request: HttpRequest, pk: int) -> HttpResponse:
    """Apply the ECM contest: the blocker's kept action is spent, a win clears the mark."""
    player = _seated(request, pk)
    match = player.match
    data = _form_data(request)
    if request.method == "POST" and (refusal := _bad_key(data)):
        return refusal
    reading = _read_ecm(match, data, remember=False)
    context = ecm_context(match, reading, data=data)
    result = context["ecm"]["result"]
    if result is None or context["ecm"]["problems"]:
        context["error"] = "Enter both rolls first: there is nothing to apply yet."
        return _ecm_refused(request, context, data)
    context["apply_label"] = "Apply" + (": clear the mark" if result["blocked"] else "")
    if request.method == "GET":
        return _confirm(request, context, data, f"{ECM}#ecm-odds")
    applied = _apply(request, player, data.get("key"), ecm_event(reading, result))
    if applied.error:
        context["error"] = applied.error
        return _ecm_refused(request, context, data)
    _remember(request, player, reading.typed)
    board = reverse("matches:match-board", args=[match.pk]) + f"#unit-{reading.target.id}"
    if request.htmx:
        again = reverse("matches:attack-ecm", args=[pk])
        context = _applied_context(match, applied, board, again, ecm=True)
        return render(request, f"{HELPER}#attack-applied", context)
    _flash(request, applied)
    return redirect(board)


def _ecm_refused(request: HttpRequest, context: dict, data: QueryDict) -> HttpResponse:
    if request.htmx:
        return _odds_again(request, f"{ECM}#ecm-odds", context, "#ecm-odds")
    return _confirm(request, context, data, f"{ECM}#ecm-odds")


# --- House rule, not official: the translated edition's designation roll -----------------------

HOUSE_KEY = "blitz_house_rule_designation"


def _house_rule_on(request: HttpRequest) -> bool:
    return bool(request.session.get(HOUSE_KEY, DESIGNATION_HOUSE_RULE.on_by_default))


@require_POST
@helper_page
def attack_house_rule(request: HttpRequest, pk: int) -> HttpResponse:
    """This device turns the designation house rule on (``on=1``) or off (``0``)."""
    match = _seated(request, pk).match
    on = request.POST.get("on")
    if on not in ("0", "1"):
        return inputs.refusal("Say on=1 (use the house rule) or on=0 (do not).", 400)
    request.session[HOUSE_KEY] = on == "1"
    name = "matches:attack-designation" if on == "1" else "matches:attack-ecm"
    return redirect(name, pk=match.pk)


def _read_designation(request, match: Match, seat: str, data, *, remember: bool):
    remembered = remembered_figures(match) if remember else None
    return read_designation(data, state=match_state(match), seat=seat, remembered=remembered)


@require_safe
@helper_page
def attack_designation(request: HttpRequest, pk: int) -> HttpResponse:
    """The designation roll, only once this device has turned the house rule on."""
    player = _seated(request, pk)
    match, seat = player.match, player.seat
    if not _house_rule_on(request):
        return redirect("matches:attack-ecm", pk=match.pk)
    part = request.htmx.target if request.htmx else ""
    data = _form_data(request)
    reading = _read_designation(request, match, seat, data, remember=part != "designation-odds")
    if part == "designation-odds":
        context = designation_context(match, reading, data, full=False)
        return render(request, f"{DESIGNATION}#designation-odds", context)
    context = designation_context(match, reading, data)
    return render(request, f"{DESIGNATION}#designation-helper" if part else DESIGNATION, context)


@require_POST
@helper_page
def attack_designation_apply(request: HttpRequest, pk: int) -> HttpResponse:
    """A successful designation is a Forward Observer mark on the target (the board's event)."""
    player = _seated(request, pk)
    match, seat = player.match, player.seat
    data = _form_data(request)
    if refusal := _bad_key(data):
        return refusal
    reading = _read_designation(request, match, seat, data, remember=False)
    context = designation_context(match, reading, data)
    result = context["designation"]["result"]
    if not _house_rule_on(request) or result is None or not result["designated"]:
        context["error"] = "Only a successful designation marks the target."
        return _designation_refused(request, context)
    # The spotter is the observer: the observation spends its action (rules.hgb.match).
    event = make_event("fo_mark", unit=reading.target.id, marked=True, observer=reading.spotter.id)
    applied = _apply(request, player, data.get("key"), event)
    if applied.error:
        context["error"] = applied.error
        return _designation_refused(request, context)
    board = reverse("matches:match-board", args=[match.pk]) + f"#unit-{reading.target.id}"
    _flash(request, applied)
    if request.htmx:
        return HttpResponse(headers={"HX-Redirect": board})
    return redirect(board)


def _designation_refused(request: HttpRequest, context: dict) -> HttpResponse:
    if request.htmx:
        return render(request, f"{DESIGNATION}#designation-odds", context)
    return render(request, DESIGNATION, context)
