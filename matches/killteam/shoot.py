"""Kill Team's Shoot helper: pick shooter, weapon and target; it asks only what the table decides
(cover, which of the weapon's rules apply), shows the exact odds with their policies in words,
reads the dice entered (or rolled on screen), offers the blocks (least damage first) and applies
the damage as one undoable event."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.views.decorators.http import require_safe

from blitz_site import inputs
from matches.killteam import services
from matches.killteam.helper import (
    applies_event,
    percent,
    picked,
    read_dice,
    roll,
    rules_chosen,
    weapon_picks,
)
from matches.killteam.views import player_match
from matches.models import Match
from rules import killteam as kt
from rules.errors import RulesError
from rules.eventlog import Event, EventError, UnknownId
from rules.killteam.data import core_numbers
from rules.killteam.profile import RANGED
from rules.killteam.shoot import defence_dice_to_roll

TEMPLATE = "matches/killteam_shoot.html"
DEFENCE_DICE = core_numbers().defence_dice


@dataclass(frozen=True)
class Choice:
    """What the table told the helper: shooter, weapon, target, cover, the rules that apply."""

    shooter: kt.BattleOperative
    weapon: kt.Weapon
    target: kt.BattleOperative
    cover: bool
    rules: tuple[str, ...]

    def profile(self) -> kt.AttackProfile:
        w = self.weapon
        return kt.attack_profile(
            attacks=w.attacks,
            hit=w.hit,
            normal_damage=w.normal_damage,
            critical_damage=w.critical_damage,
            weapon_rules=self.rules,
        )


def _choice(state: kt.KillTeamState, data: QueryDict) -> Choice | None:
    """The choice the form sent, or None while it is incomplete; a name no operative or weapon
    has raises UnknownId (a 404)."""
    pick, target_id = data.get("pick", ""), data.get("target", "")
    if not pick or not target_id:
        return None
    shooter, weapon = picked(state, pick)
    target = state.operative(target_id)
    ticked = data.getlist("rule") if data.get("rules_sent") else None
    return Choice(shooter, weapon, target, data.get("cover") == "1", rules_chosen(weapon, ticked))


def _odds(choice: Choice) -> dict:
    w, target = choice.weapon, choice.target
    distribution = kt.shoot_damage_distribution(
        attacks=w.attacks,
        hit=w.hit,
        normal_damage=w.normal_damage,
        critical_damage=w.critical_damage,
        save=target.save,
        cover=choice.cover,
        injured_attacker=choice.shooter.injured,
        weapon_rules=choice.rules,
    )
    left = max(target.current, 0)
    return {
        "rows": [(damage, percent(p)) for damage, p in distribution.items()],
        "incapacitate": percent(kt.incapacitate_chance(distribution, left)),
        "injure": percent(kt.injure_chance(distribution, target.wounds, left)),
        "policy": kt.odds_policy(
            choice.rules, cover=choice.cover, injured_attacker=choice.shooter.injured
        ),
        "left": left,
    }


def _context(request: HttpRequest, match: Match, data: QueryDict) -> dict:
    state = services.current_state(match)
    live = [op for op in state.operatives if not op.incapacitated]
    picks = weapon_picks(state, live, RANGED)
    context = {
        "match": match,
        "picks": picks,
        "targets": [(op.id, kt.label(state, op)) for op in live],
        "data": data,
        "key": uuid.uuid4().hex,
        "active_id": state.active or "",
    }
    choice = _choice(state, data)
    if choice is None:
        return context
    context |= {
        "choice": choice,
        "printed": [r.text for r in choice.weapon.rules],
        "used_up": kt.grenades_used_up(state, choice.shooter.side, choice.weapon.name),
    }
    context["odds"] = _odds(choice)
    try:
        context |= _read_dice(choice, data)
    except RulesError as error:
        context["error"] = str(error)
    return context


def _read_dice(choice: Choice, data: QueryDict) -> dict:
    """The dice entered (or rolled on screen: as many as the rules say to roll) read, and the
    ways to block them, least damage first."""
    rolled = data.get("roll") == "1"
    profile = choice.profile()
    attack_text = roll(choice.weapon.attacks) if rolled else data.get("attack", "")
    attack_dice = read_dice(attack_text, "attack dice")
    if not attack_dice:
        return {}
    attack = kt.read_attack(profile, attack_dice, injured_attacker=choice.shooter.injured)
    found = {"attack": attack, "attack_text": attack_text}
    if rolled:
        count, _ = defence_dice_to_roll(
            profile.rules, attack.crits, defence_dice=DEFENCE_DICE, cover=choice.cover
        )
        defence_text = roll(count)
    else:
        defence_text = data.get("defence", "")
    defence_dice = read_dice(defence_text, "defence dice")
    if not defence_dice:
        return found
    defence = kt.read_defence(
        profile, attack, defence_dice, save=choice.target.save, cover=choice.cover
    )
    options = kt.block_options(profile, attack, defence)
    return found | {"defence": defence, "defence_text": defence_text, "options": options}


@require_safe
def shoot_helper(request: HttpRequest, pk: int) -> HttpResponse:
    match = player_match(request, pk)
    try:
        context = _context(request, match, request.GET)
    except UnknownId as error:
        return inputs.refusal(error, 404)
    return render(request, TEMPLATE, context)


@applies_event
def shoot_apply(request: HttpRequest, match: Match) -> Event:
    """Apply the chosen blocks' damage (and Stun) with the Shoot action, as one event."""
    context = _context(request, match, request.POST)
    if context.get("error"):
        raise RulesError(context["error"])
    options = context.get("options")
    if not options:
        raise EventError("Enter the attack and defence dice first.")
    index = inputs.choice_index(
        request.POST.get("block", "0"), len(options), "Choose one of the blocks offered."
    )
    choice, blocks = context["choice"], options[index]
    result = kt.resolve_shoot(choice.profile(), context["attack"], context["defence"], blocks)
    return kt.make_event(
        "resolve",
        operative=choice.shooter.id,
        action="shoot" if request.POST.get("as_action") == "1" else "",
        ap=1 if request.POST.get("as_action") == "1" else 0,
        weapon=choice.weapon.name,  # used (Limited, grenades) with or without the action
        damage={choice.target.id: result.damage},
        stun=[choice.target.id] if result.stun else [],
        note=f"Shoot with {choice.weapon.name}: {result.words}",
    )
