"""Kill Team's Fight helper: pick the attacker and its melee weapon, the enemy and its melee
weapon; it asks only what the table decides (which of each weapon's rules apply), shows the
fight odds with their policy in words, reads both players' attack dice (typed in or rolled on
screen), lets the players resolve them die by die in turn (strike or block, as the rules allow)
and applies both operatives' damage as one undoable event.

The page is a function of the state and its query: the choices made so far travel as ``step``
values ("strike-critical", "block-critical-normal"), so every step works without JavaScript; with
htmx each answer swaps only the helper and pushes its address."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, replace
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe

from blitz_site import inputs
from matches.killteam import helper, services
from matches.killteam.views import player_match
from matches.models import Match
from rules import killteam as kt
from rules.errors import RulesError
from rules.eventlog import Event, UnknownId
from rules.killteam.fight import ATTACKER, BLOCK, DEFENDER
from rules.killteam.profile import MELEE

TEMPLATE = "matches/killteam_fight.html"
HELPER = f"{TEMPLATE}#kt-fight-helper"
ACTION_AP = 1
"""The Fight action counts 1 AP, as every action button of the board (docs/killteam-readings.md,
'AP costs')."""
MAX_STEPS = 64
SEEN = {"attacker": "aseen", "target": "tseen"}


@dataclass(frozen=True)
class Pick:
    """Who fights whom with what, and the weapon rules the table says apply."""

    attacker: kt.BattleOperative
    attacker_weapon: kt.Weapon
    attacker_rules: tuple[str, ...]
    target: kt.BattleOperative
    target_weapon: kt.Weapon
    target_rules: tuple[str, ...]
    names: tuple[str, str]
    """The two operatives named with their sides: "Gunner (Red team)"."""

    def profiles(self) -> tuple[kt.AttackProfile, kt.AttackProfile]:
        return tuple(  # type: ignore[return-value]
            kt.attack_profile(
                attacks=w.attacks,
                hit=w.hit,
                normal_damage=w.normal_damage,
                critical_damage=w.critical_damage,
                weapon_rules=rules,
            )
            for w, rules in (
                (self.attacker_weapon, self.attacker_rules),
                (self.target_weapon, self.target_rules),
            )
        )


def _seen(data: QueryDict, operative: kt.BattleOperative, field: str) -> kt.BattleOperative:
    """The operative with the wounds left the page showed (an apply carries them: a fight
    resolved on other wounds is stale)."""
    lost = "The form lost the wounds it was worked out with: open the helper again."
    return replace(operative, current=inputs.choice_index(data.get(field), 10**9, lost))


def _pick(state: kt.KillTeamState, data: QueryDict, *, seen: bool) -> Pick | None:
    """The fight the form names, or None while it names none; a name no operative or weapon has
    raises UnknownId (a 404), a fight the rules refuse RulesError."""
    if not data.get("attacker") or not data.get("target"):
        return None
    attacker, attacker_weapon = helper.picked(state, data["attacker"])
    target, target_weapon = helper.picked(state, data["target"])
    if seen:
        attacker, target = (
            _seen(data, attacker, SEEN["attacker"]),
            _seen(data, target, SEEN["target"]),
        )
    kt.check_fight(state, attacker, attacker_weapon, target, target_weapon)
    return Pick(
        attacker,
        attacker_weapon,
        helper.rules_chosen(attacker_weapon, _ticked(data, "attacker", "arule")),
        target,
        target_weapon,
        helper.rules_chosen(target_weapon, _ticked(data, "target", "trule")),
        (kt.label(state, attacker), kt.label(state, target)),
    )


def _ticked(data: QueryDict, pick: str, field: str) -> list[str] | None:
    """The rules ticked for the weapon picked in ``pick``: None (all apply) until the form has
    shown that weapon's boxes (``<field>_for`` names it), so a new pick starts with all."""
    return data.getlist(field) if data.get(f"{field}_for") == data.get(pick) else None


def _odds(pick: Pick) -> dict:
    attacker, target = pick.attacker, pick.target
    mine, theirs = pick.profiles()
    odds = kt.fight_odds(
        attacker=mine,
        attacker_wounds=attacker.current,
        defender=theirs,
        defender_wounds=target.current,
        attacker_injured=attacker.injured,
        defender_injured=target.injured,
    )
    sides = []
    for operative, name, taken, fallen in (
        (attacker, pick.names[0], odds.damage_to_attacker, odds.defender_incapacitates),
        (target, pick.names[1], odds.damage_to_defender, odds.attacker_incapacitates),
    ):
        sides.append(
            {
                "operative": operative,
                "name": name,
                "incapacitated": helper.percent(fallen),
                "injured": helper.percent(
                    kt.injure_chance(taken, operative.wounds, operative.current)
                ),
                "rows": [(damage, helper.percent(p)) for damage, p in taken.items()],
            }
        )
    policy = kt.fight_policy(
        mine, theirs, names=pick.names, injured=(attacker.injured, target.injured)
    )
    return {"sides": sides, "policy": policy}


def choice_key(choice: kt.FightChoice) -> str:
    return "-".join(part for part in (choice.action, choice.die, choice.target) if part)


def _choice(key: str) -> kt.FightChoice:
    parts = key.split("-")
    if len(parts) not in (2, 3):
        raise RulesError("Resolve a die by striking or blocking with a critical or normal success.")
    return kt.FightChoice(*parts)


def _dice_left(fighter) -> int:
    return fighter.crits + fighter.normals


def _outcome(fight: kt.Fight, choice: kt.FightChoice, names: tuple[str, str]) -> str:
    """What resolving ``choice`` does, with the operatives' names: "5 damage: Ork has 3 left"."""
    after = kt.fight_choose(fight, choice)
    foe = DEFENDER if fight.turn == ATTACKER else ATTACKER
    name = names[0] if foe == ATTACKER else names[1]
    if choice.action == BLOCK:
        return f"one of {name}'s {choice.target} successes is blocked"
    left = after.side(foe).wounds
    dealt = fight.side(foe).wounds - left
    words = f"{dealt} damage: " + (
        f"{name} is incapacitated" if left <= 0 else f"{name} has {left} wounds left"
    )
    if _dice_left(after.side(foe)) < _dice_left(fight.side(foe)):
        words += f"; Shock discards one of {name}'s successes"
    return words


def _resolve(pick: Pick, data: QueryDict, found: dict) -> None:
    """Into ``found``: the dice entered (or rolled on screen), the fight from them and the dice
    resolved so far (``step``); a refusal raises RulesError and keeps what was read before it."""
    a_weapon, t_weapon = pick.attacker_weapon, pick.target_weapon
    rolled = data.get("roll") == "1"
    texts = (
        (helper.roll(a_weapon.attacks), helper.roll(t_weapon.attacks))
        if rolled
        else (data.get("adice", "").strip(), data.get("tdice", "").strip())
    )
    found["texts"] = texts
    a_dice = helper.read_dice(texts[0], f"attack dice of {pick.names[0]}")
    t_dice = helper.read_dice(texts[1], f"attack dice of {pick.names[1]}")
    if not a_dice or not t_dice:
        return
    mine, theirs = pick.profiles()
    kept = (
        kt.read_attack(mine, a_dice, injured_attacker=pick.attacker.injured),
        kt.read_attack(theirs, t_dice, injured_attacker=pick.target.injured),
    )
    fight = kt.start_fight(
        mine, kept[0], pick.attacker.current, theirs, kept[1], pick.target.current
    )
    found |= {"kept": kept, "fight": fight, "start_notes": fight.notes, "history": [], "steps": []}
    keys = [] if rolled or data.get("restart") else data.getlist("step")
    if data.get("choose") and not rolled:
        keys.append(data["choose"])
    if data.get("back") and keys:
        keys.pop()
    if len(keys) > MAX_STEPS:
        raise RulesError("More dice were resolved than were rolled: start the choices again.")
    for key in keys:
        choice = _choice(key)
        who = pick.names[0] if fight.turn == ATTACKER else pick.names[1]
        line = {"who": who, "words": choice.words, "result": _outcome(fight, choice, pick.names)}
        found["history"].append(line)
        found["steps"].append(key)
        found["fight"] = fight = kt.fight_choose(fight, choice)


def _options(fight: kt.Fight, names: tuple[str, str]) -> list[dict]:
    """The dice the player whose turn it is may resolve next, each with what it would do."""
    return [
        {"key": choice_key(choice), "words": choice.words, "result": _outcome(fight, choice, names)}
        for choice in kt.fight_choices(fight)
    ]


def _fields(pick: Pick, found: dict) -> dict[str, list[tuple[str, str]]]:
    """The form's state as hidden fields: the pick with the rules that apply, and the dice typed
    (never "roll") with the dice resolved so far."""
    a_pick = f"{pick.attacker.id}|{pick.attacker_weapon.name}"
    t_pick = f"{pick.target.id}|{pick.target_weapon.name}"
    fields = [("attacker", a_pick), ("target", t_pick), ("arule_for", a_pick)]
    fields += [("arule", rule) for rule in pick.attacker_rules] + [("trule_for", t_pick)]
    fields += [("trule", rule) for rule in pick.target_rules]
    texts = zip(("adice", "tdice"), found.get("texts", ("", "")), strict=True)
    dice = [(name, text) for name, text in texts if text]
    dice += [("step", key) for key in found.get("steps", ())]
    return {"a_pick": a_pick, "t_pick": t_pick, "pick_fields": fields, "all_fields": fields + dice}


def _result(pick: Pick, fight: kt.Fight) -> list[str]:
    """The fight's end in words, one line an operative."""
    lines = []
    for key, operative, name in (
        (ATTACKER, pick.attacker, pick.names[0]),
        (DEFENDER, pick.target, pick.names[1]),
    ):
        taken = fight.damage_to_attacker if key == ATTACKER else fight.damage_to_defender
        left = fight.side(key).wounds
        state = "incapacitated" if left <= 0 else f"{left} of {operative.wounds} wounds left"
        stunned = ", stunned" if key in fight.stunned else ""
        lines.append(f"{name} takes {taken} damage: {state}{stunned}.")
    return lines


def fight_context(
    state: kt.KillTeamState, data: QueryDict, *, seen: bool = False
) -> tuple[Pick | None, dict]:
    """The helper's pick and everything the page shows of it; a refusal is ``error`` in words."""
    found: dict = {}
    try:
        pick = _pick(state, data, seen=seen)
    except RulesError as error:
        if isinstance(error, UnknownId):
            raise
        return None, {"error": str(error)}
    if pick is None:
        return None, found
    found |= {"odds": _odds(pick)}
    try:
        _resolve(pick, data, found)
    except RulesError as error:
        found["error"] = str(error)
    found |= _fields(pick, found)
    fight = found.get("fight")
    if fight is not None and not fight.over:
        found["options"] = _options(fight, pick.names)
        found["turn_name"] = pick.names[0] if fight.turn == ATTACKER else pick.names[1]
    elif fight is not None:
        found["result"] = _result(pick, fight)
    return pick, found


def _page(match: Match, data: QueryDict) -> dict:
    state = services.current_state(match)
    pick, found = fight_context(state, data)
    return {
        "match": match,
        "fight_url": reverse("matches:kt-fight", args=[match.pk]),
        "attackers": helper.weapon_picks(state, kt.fight_attackers(state), MELEE),
        "targets": helper.weapon_picks(state, kt.fight_targets(state), MELEE),
        "acting": state.side(side).label if (side := kt.acting_side(state)) else "",
        "data": data,
        "pick": pick,
        "printed": {
            "arule": [r.text for r in pick.attacker_weapon.rules] if pick else [],
            "trule": [r.text for r in pick.target_weapon.rules] if pick else [],
        },
        "query": urlencode(
            found.get("all_fields", [])
            or [(name, data[name]) for name in ("attacker", "target") if data.get(name)]
        ),
        "key": uuid.uuid4().hex,
        "active_id": state.active or "",
    } | found


@require_safe
def fight_helper(request: HttpRequest, pk: int) -> HttpResponse:
    match = player_match(request, pk)
    try:
        context = _page(match, request.GET)
    except UnknownId as error:
        return inputs.refusal(error, 404)
    response = render(request, HELPER if request.htmx else TEMPLATE, context)
    if request.htmx:
        response["HX-Push-Url"] = f"{request.path}?{context['query']}"
    return response


@helper.applies_event
def fight_apply(request: HttpRequest, match: Match) -> Event:
    """Both operatives' damage (and Stun), with the Fight action when asked, as one event."""
    state = services.current_state(match)
    pick, found = fight_context(state, request.POST, seen=True)
    if found.get("error"):
        raise RulesError(found["error"])
    if pick is None or found.get("fight") is None:
        raise RulesError("Pick both fighters and enter both players' attack dice first.")
    return kt.fight_event(
        state,
        attacker=pick.attacker,
        weapon=pick.attacker_weapon,
        defender=pick.target,
        defender_weapon=pick.target_weapon,
        fight=found["fight"],
        action_ap=ACTION_AP if request.POST.get("as_action") == "1" else None,
    )
