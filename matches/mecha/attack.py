"""The attack page of the mecha board: pick an attacker, a weapon (or unarmed, or a Strength
ram, or a Link set) and a target; see the exact damage distribution (for a ram: the rammer's own
damage under every reading, side by side, and the push); record the attack; apply the damage
rolled or entered as one undoable event. No hit chance: the rules text gives no hit roll."""

from __future__ import annotations

import secrets
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from blitz_site import inputs
from matches import access, logs, offers
from matches.mecha import board, services, views
from matches.mecha.services import GAME_ID
from matches.pages import new_key
from rules.errors import RulesError
from rules.eventlog import UnknownId
from rules.mecha.attacks import ATTACKS, RAM_TYPES, RANGE_TYPES
from rules.mecha.calculate import Calculation, calculate
from rules.mecha.damage import Distribution, rammer_damage, roll, scope_name
from rules.mecha.state import MechaState, Unit, Weapon

PICKS = ("unit", "weapon", "attack", "target", "link", "strength", "armour", "size")


def _default_attack(weapon: Weapon | None) -> str:
    if weapon is None:
        return "melee"
    if weapon.type in RAM_TYPES and weapon.type != "long_melee":
        return "ram"
    return "range" if weapon.type in RANGE_TYPES else "melee"


def _entered(value: str | None, what: str) -> int | None:
    return None if value in (None, "") else inputs.whole_number(value, what)


def _rows(dist: Distribution | None) -> list[dict]:
    if dist is None:
        return []
    return [
        {"value": value, "chance": chance, "percent": f"{float(chance) * 100:.1f}%"}
        for value, chance in dist.chances.items()
    ]


def _mean(dist: Distribution | None) -> str:
    if dist is None:
        return ""
    mean = dist.mean
    return str(mean) if mean.denominator == 1 else f"{mean} ≈ {float(mean):.2f}"


def _calc(calc: Calculation, state: MechaState) -> dict:
    return {
        "what": calc.what,
        "dice": str(calc.dice) if calc.dice else "",
        "missing": calc.missing,
        "rows": _rows(calc.distribution),
        "mean": _mean(calc.distribution),
        "readings": [
            {
                "name": r.name,
                "picked": (r.formula, r.scope) == (state.ram_formula, state.ram_scope),
                "rows": _rows(r.distribution),
                "mean": _mean(r.distribution),
            }
            for r in calc.readings
        ],
        "push": calc.push,
        "push_missing": calc.push_missing,
    }


def _pick(state: MechaState, query) -> dict:
    """The attacker, weapon, attack, target and entered figures the page was asked for."""
    unit = state.unit(query.get("unit") or state.units[0].id)
    weapon_id = query.get("weapon") or ""
    weapon = unit.weapon(weapon_id) if weapon_id else None
    link = query.get("link") or ""
    if link and link not in {w.link_set for w in unit.weapons if w.link_kind == "linked"}:
        raise UnknownId(f"{unit.name} has no Link set {link!r}.")
    attack = query.get("attack") or _default_attack(weapon)
    if attack not in ATTACKS:
        raise inputs.InputError(f"An attack is range, melee or ram; got {inputs.shown(attack)}.")
    others = [u for u in state.units if u.side != unit.side] or [
        u for u in state.units if u.id != unit.id
    ]
    target = state.unit(query.get("target") or others[0].id)
    figures = {
        "strength": _entered(query.get("strength"), "Strength"),
        "armour": _entered(query.get("armour"), "Armour"),
        "size_class": _entered(query.get("size"), "Size Class"),
    }
    return {"unit": unit, "weapon": weapon, "link": link, "attack": attack, "target": target} | {
        "figures": figures
    }


def _link_weapons(unit: Unit, link: str) -> list[Weapon]:
    return [w for w in unit.weapons if w.link_kind == "linked" and w.link_set == link]


@require_safe
def mecha_attack(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = access.match_for(request, pk, game=GAME_ID)
    if viewer.seat is None:
        raise Http404("Only a player of this match attacks.")
    match = viewer.match
    state = services.current_state(match)
    try:
        pick = _pick(state, request.GET)
    except UnknownId as error:
        return inputs.refusal(error, 404)
    except RulesError as error:
        return inputs.refusal(error, 400)
    unit, target, link = pick["unit"], pick["target"], pick["link"]
    try:
        if link:
            calcs = [
                _calc(calculate(state, unit, w, "range", target, **pick["figures"]), state)
                for w in _link_weapons(unit, link)
            ]
        else:
            calcs = [
                _calc(
                    calculate(
                        state, unit, pick["weapon"], pick["attack"], target, **pick["figures"]
                    ),
                    state,
                )
            ]
    except RulesError as error:
        return inputs.refusal(error, 400)
    latest = offers.board_log(match).first()
    context = {
        "match": match,
        "turn": state.turn,
        "ended": state.ended,
        "unit": board.unit_card(state, unit),
        "unit_obj": unit,
        "target": target,
        "weapon": pick["weapon"],
        "attack": pick["attack"],
        "link": link,
        "link_weapons": _link_weapons(unit, link) if link else [],
        "figures": pick["figures"],
        "units": [{"id": u.id, "label": state.label(u)} for u in state.units],
        "targets": [{"id": u.id, "label": state.label(u)} for u in state.units if u.id != unit.id],
        "attacks": list(ATTACKS.items()),
        "calcs": calcs,
        "reading": f"{scope_name(state.ram_scope)}",
        "latest": logs.log_line(latest) if latest else None,
        "rules_url": board.rules_url(),
        "apply_url": reverse("matches:mecha-attack-apply", args=[match.pk]),
        "board_url": reverse("matches:match-board", args=[match.pk]),
        "key": new_key(),
        "query": {name: request.GET.get(name, "") for name in PICKS},
    }
    return render(request, "matches/mecha_attack.html", context)


@require_POST
def mecha_attack_apply(request: HttpRequest, pk: int) -> HttpResponse:
    """Record the attack (or the Link set's), or apply the damage (typed in, or rolled here), and
    come back to the page."""
    fields = request.POST
    if fields.get("op") == "roll":
        try:
            fields = rolled(request, pk)
        except UnknownId as error:
            return inputs.refusal(error, 404)
        except RulesError as error:
            return inputs.refusal(error, 400)
    applied = views.tap(request, pk, fields)
    if isinstance(applied, HttpResponse):
        return applied
    # The page's picks, as they came (the page reads them again, one checked way).
    query = {name: request.POST.get(name, "")[:40] for name in PICKS}
    url = reverse("matches:mecha-attack", args=[pk])
    return redirect(f"{url}?{urlencode({k: v for k, v in query.items() if v})}#latest")


def rolled(request: HttpRequest, pk: int) -> QueryDict:
    """The apply form's fields with the damage rolled here: the attack's dice (the cards' figures
    and those typed in; they do not change in a match), and for a ram the rammer's own damage
    under the players' reading. A tap sent twice keeps its first roll (its key is applied once)."""
    match = views.player_match(request, pk)
    state = services.current_state(match)
    pick = _pick(state, request.POST)
    if pick["link"]:
        raise RulesError("Each weapon of a Link set rolls separately: type in what hit.")
    unit, target, weapon = pick["unit"], pick["target"], pick["weapon"]
    calc = calculate(state, unit, weapon, pick["attack"], target, **pick["figures"])
    if calc.dice is None:
        raise RulesError(calc.missing or "This attack has no damage dice: type the damage in.")
    dice = roll(calc.dice, secrets.randbelow)
    fields = request.POST.copy()
    fields["amount"] = str(sum(dice))
    fields["op"] = f"apply {target.id}"
    if pick["attack"] == "ram":
        armour = pick["figures"]["armour"]
        armour = target.armour if armour is None else armour
        if armour is None:
            raise RulesError(f"{target.name}'s Armour is not on its card: enter it.")
        own = rammer_damage(sum(dice), armour, state.ram_formula, state.ram_scope, calc.weapon_ram)
        fields["self_amount"] = str(own)
        fields["op"] += f" {unit.id}"
    shown = ", ".join(map(str, dice))
    fields["note"] = f"rolled here: {calc.dice} = {sum(dice)} ({shown})"[:120]
    return fields
