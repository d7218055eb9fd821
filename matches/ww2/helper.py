"""The WWII board's helpers that take several values: a hit (gun against armour), running-gear
damage, the capture test, napalm, using an enemy vehicle, hitching a gun, boarding a vehicle,
hand-to-hand, taking a prisoner, carrying the wounded. Each is a small form at
``/matches/<pk>/ww2/do/<what>/<unit>/``: it says the rule, takes the players' numbers and
applies one event through the tap writer (once per the form's key), then goes back to the
board. A refusal is shown on the form and is in the log."""

from __future__ import annotations

import secrets
from collections.abc import Callable

from django import forms
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from matches import access
from matches.forms import client_key
from matches.pages import new_key
from matches.ww2 import services
from rules.eventlog import Event, EventError
from rules.ww2 import helpers
from rules.ww2.play import read_event
from rules.ww2.state import RIDER_KINDS, Ww2State

CHOICE = forms.ChoiceField


def _radio(label: str, choices: list[tuple[str, str]]) -> forms.ChoiceField:
    return forms.ChoiceField(label=label, choices=choices, widget=forms.RadioSelect)


TEMPLATE = "matches/ww2_helper.html"


def _number(label: str, *, required: bool = True, help_text: str = "") -> forms.IntegerField:
    return forms.IntegerField(
        label=label, min_value=1, max_value=99, required=required, help_text=help_text
    )


def _ticks(options: dict[str, str], label: str) -> forms.MultipleChoiceField:
    return forms.MultipleChoiceField(
        label=label,
        choices=list(options.items()),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )


class Helper:
    """One helper: who it is for (vehicle or soldier), its title, the rule in words, its fields
    for the state and unit, and the event its cleaned values make."""

    def __init__(
        self,
        on: str,
        title: str,
        rule: str,
        fields: Callable[[Ww2State, str], dict[str, forms.Field]],
        event: Callable[[str, dict], Event],
    ) -> None:
        self.on, self.title, self.rule, self.fields, self.event = on, title, rule, fields, event


def _units(pairs) -> list[tuple[str, str]]:
    return [(unit.id, unit.name) for unit in pairs]


def _hit_fields(state: Ww2State, vid: str) -> dict:
    vehicle = state.vehicle(vid)
    results = [("damaged", "Damaged"), ("destroyed", "Destroyed")]
    if "active_armour" in vehicle.specialisations and not vehicle.armour_used:
        results.append(("cancelled", "Cancelled by active armour (spends it)"))
    return {
        "gun_class": _number("Class of the gun or howitzer that hit", required=False),
        "armour_class": forms.IntegerField(
            label="Armour class of the vehicle",
            min_value=1,
            max_value=99,
            required=False,
            initial=vehicle.armour_class,
            help_text="From the vehicle's card; blank: not checked.",
        ),
        "result": _radio("Result (the players choose)", results),
    }


def _gear_fields(state: Ww2State, vid: str) -> dict:
    return {
        "weapon": _radio("Hit by", [("grenade", "A grenade"), ("gun", "A gun")]),
        "strength": _number("Attack strength"),
        "gun_class": _number("Gun class (a gun only)", required=False),
    }


def _capture_fields(state: Ww2State, vid: str) -> dict:
    ticks = {k: w for k, w in helpers.CAPTURE_CONDITIONS.items() if k != "running_gear"}
    return {
        "conditions": _ticks(ticks, "The conditions, as the table shows them"),
        "die": _number(
            "The capture test's die", required=False, help_text="Blank: the app rolls a d20."
        ),
    }


def _napalm_fields(state: Ww2State, vid: str) -> dict:
    units = [*state.vehicles, *state.soldiers]
    live = [u for u in units if not getattr(u, "destroyed", False) and not getattr(u, "out", False)]
    return {
        "hit": _radio("The hit test", [("1", "Hit"), ("0", "Missed")]),
        "destroyed": forms.MultipleChoiceField(
            label='Units within 4" of the point of impact (either side): destroyed',
            choices=[(u.id, f"{u.name} ({state.label(u.side)})") for u in live],
            required=False,
            widget=forms.CheckboxSelectMultiple,
        ),
    }


def _use_fields(state: Ww2State, vid: str) -> dict:
    vehicle = state.vehicle(vid)
    enemy = "b" if vehicle.controller == "a" else "a"
    soldiers = [s for s in state.soldiers if s.side == enemy and not s.out]
    return {
        "soldiers": forms.MultipleChoiceField(
            label=f"{state.label(enemy)}'s soldiers placed in it",
            choices=[(s.id, f"{s.name}{' (commander)' if s.leader else ''}") for s in soldiers],
            widget=forms.CheckboxSelectMultiple,
        ),
    }


def _hitch_fields(state: Ww2State, vid: str) -> dict:
    tows = [
        v
        for v in state.vehicles
        if v.side == vid[0] and v.kind != "gun" and not v.destroyed and v.id != vid
    ]
    return {"tow": CHOICE(label="Towed by", choices=_units(tows))}


def _board_fields(state: Ww2State, sid: str) -> dict:
    rides = [v for v in state.vehicles if v.kind in RIDER_KINDS and not v.destroyed]
    return {"vehicle": CHOICE(label="Vehicle", choices=_units(rides))}


def _fight_fields(state: Ww2State, sid: str) -> dict:
    enemies = [s for s in state.soldiers if s.side != sid[0] and not s.out]
    return {
        "enemy": CHOICE(label='Enemy within 1"', choices=_units(enemies)),
        "die": _number("This soldier's dice"),
        "enemy_die": _number("The enemy's dice"),
        "outcome": _radio(
            "The winner chooses: the loser is", [("killed", "Killed"), ("wounded", "Wounded")]
        ),
    }


def _prisoner_fields(state: Ww2State, sid: str) -> dict:
    captors = [s for s in state.soldiers if s.side != sid[0] and not s.out]
    return {
        "captor": CHOICE(label="Taken by", choices=_units(captors)),
        "conditions": _ticks(
            helpers.PRISONER_CONDITIONS, "The conditions, as the table shows them"
        ),
    }


def _carry_fields(state: Ww2State, sid: str) -> dict:
    wounded = [s for s in state.soldiers if s.side == sid[0] and s.status == "wounded"]
    return {"wounded": CHOICE(label="Carries", choices=_units(wounded))}


def _ev(kind: str, **data) -> Event:
    return read_event({"kind": kind, **data})


HELPERS: dict[str, Helper] = {
    "hit": Helper(
        "vehicle",
        "A hit on a vehicle",
        "A gun or howitzer whose class is higher than the vehicle's armour class damages or "
        "destroys it; otherwise no damage. The rules' table is garbled, so the players choose "
        "damaged or destroyed. A second damage destroys. Any damage to a tank loses its riders.",
        _hit_fields,
        lambda u, d: _ev(
            "hit",
            vehicle=u,
            seen=d["seen"],
            result=d["result"],
            gun_class=d["gun_class"] or 0,
            armour_class=d["armour_class"] or 0,
        ),
    ),
    "gear": Helper(
        "vehicle",
        "Running-gear damage",
        "A grenade at attack strength 15-20, or a gun of class 2-6 at 18-19, damages running "
        "gear: the vehicle cannot move for the rest of the game.",
        _gear_fields,
        lambda u, d: _ev(
            "running_gear",
            vehicle=u,
            weapon=d["weapon"],
            strength=d["strength"],
            gun_class=d["gun_class"] or 0,
        ),
    ),
    "capture": Helper(
        "vehicle",
        "Capture test",
        'Offered once the running gear is damaged, at least 4 capturers are within 2" and no '
        'unit friendly to the vehicle is within 12". It succeeds on 11-20; the die is not named '
        "(a d20 is inferred: a 1 in 2 chance). It may be repeated in later turns; its crew are "
        "then prisoners.",
        _capture_fields,
        lambda u, d: _ev("capture", vehicle=u, die=d["die"], conditions=d["conditions"]),
    ),
    "napalm": Helper(
        "vehicle",
        "Napalm",
        'One card, one use. On a hit every unit within 4" of the point of impact is destroyed '
        "(mark them; whether vehicles and their crews count, the players decide) and terrain "
        "there becomes light cover; on a miss the card is gone with no result.",
        _napalm_fields,
        lambda u, d: _ev("napalm", vehicle=u, hit=d["hit"] == "1", destroyed=d["destroyed"]),
    ),
    "use": Helper(
        "vehicle",
        "Use an enemy vehicle",
        "Needs at least 2 soldiers placed in it, 1 of them a commander.",
        _use_fields,
        lambda u, d: _ev("use_enemy", vehicle=u, side=d["side"], soldiers=d["soldiers"]),
    ),
    "hitch": Helper(
        "vehicle",
        "Hitch the gun",
        "Turn 1: hitch (the gun does not fire), tow and stop; a later turn: unhitch, and it may "
        "fire. Towed by a vehicle with 6 or more seats, or a tracked tractor.",
        _hitch_fields,
        lambda u, d: _ev("hitch", vehicle=u, tow=d["tow"]),
    ),
    "board": Helper(
        "soldier",
        "Board a vehicle",
        "Trucks, APCs and tanks carry infantry up to their seats. He gets off in a later turn, "
        'within 4", and shows no combat activity that turn.',
        _board_fields,
        lambda u, d: _ev("embark", soldier=u, vehicle=d["vehicle"]),
    ),
    "fight": Helper(
        "soldier",
        "Hand-to-hand",
        'Between soldiers within 1", once a turn per soldier, instead of a weapon attack. Both '
        "roll at once; the higher wins and chooses killed or wounded. The die size is not in the "
        "rules text: roll your own dice and enter them. Ties are not in the rules text: a "
        "re-roll is the app's choice.",
        _fight_fields,
        lambda u, d: _ev(
            "fight",
            soldier=u,
            enemy=d["enemy"],
            die=d["die"],
            enemy_die=d["enemy_die"],
            outcome=d["outcome"],
        ),
    ),
    "prisoner": Helper(
        "soldier",
        "Take prisoner",
        'A wounded enemy soldier is taken prisoner when a soldier comes within 1" of him and no '
        'combat-capable enemy is within 4". Prisoners leave the field and count as losses.',
        _prisoner_fields,
        lambda u, d: _ev("prisoner", soldier=u, captor=d["captor"], conditions=d["conditions"]),
    ),
    "carry": Helper(
        "soldier",
        "Carry a wounded soldier",
        'A soldier with no wound carries a wounded one up to 6", within 1"; he shows no combat '
        "activity this turn.",
        _carry_fields,
        lambda u, d: _ev("carry", soldier=u, wounded=d["wounded"]),
    ),
}


def helper_form(helper: Helper, state: Ww2State, unit: str, data=None) -> forms.Form:
    form = forms.Form(data)
    form.fields.update(helper.fields(state, unit))
    form.fields["key"] = forms.CharField(widget=forms.HiddenInput, initial=new_key)
    form.fields["seen"] = forms.IntegerField(widget=forms.HiddenInput, min_value=0, max_value=2)
    return form


@require_http_methods(["GET", "POST"])
def ww2_helper(request: HttpRequest, pk: int, what: str, unit: str) -> HttpResponse:
    player = access.match_for(request, pk, game=services.GAME_ID)
    helper = HELPERS.get(what)
    state = services.current_state(player.match)
    if helper is None:
        raise Http404("No such helper.")
    units = state.vehicles if helper.on == "vehicle" else state.soldiers
    target = next((u for u in units if u.id == unit), None)
    if target is None:
        raise Http404("That helper is not for this unit.")
    seen = getattr(target, "damage", 0)
    form = helper_form(helper, state, unit, request.POST or None)
    error = ""
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        if what == "capture" and data["die"] is None:
            data["die"] = secrets.randbelow(helpers.CAPTURE_DIE) + 1
        if what == "use":
            data["side"] = "b" if state.vehicle(unit).controller == "a" else "a"
        try:
            key = client_key(data["key"])
            applied = access.act(
                request,
                pk,
                lambda claim: services.ww2_apply(
                    match_id=pk,
                    side=claim.side,
                    token=claim.token,
                    client_key=key,
                    request=helper.event(unit, data),
                ),
                player=player,
            )
        except EventError as error_:
            form.add_error(None, str(error_))
        else:
            if not applied.error:
                return redirect(reverse("matches:match-board", args=[pk]) + f"#unit-{unit}")
            error = applied.error
    context = {
        "match": player.match,
        "helper": helper,
        "what": what,
        "unit": target,
        "form": form,
        "error": error,
        "action": reverse("matches:ww2-do", args=[pk, what, unit]),
        "board_url": reverse("matches:match-board", args=[pk]),
        "key": new_key(),
        "seen": seen,
    }
    return render(request, TEMPLATE, context)
