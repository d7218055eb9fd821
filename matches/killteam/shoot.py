"""Kill Team's Shoot helper: pick shooter, weapon and target; it asks only what the table decides
(cover, which of the weapon's rules apply), shows the exact odds with their policies in words,
reads the dice entered (or rolled on screen), offers the blocks (least damage first) and applies
the damage as one undoable event."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from fractions import Fraction

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
    weapon_choices,
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
    again: bool = False
    """Another target of an action that used the weapon already (Blast, Torrent): one use."""

    @property
    def pick(self) -> str:
        return f"{self.shooter.id}|{self.weapon.name}"

    @property
    def hot(self) -> bool:
        """Whether the Hot roll follows: the table says Hot applies, and this is the action's
        first target (one D6 however many targets)."""
        return "hot" in {kt.parse_weapon_rule(rule).key for rule in self.rules} and not self.again

    def profile(self) -> kt.AttackProfile:
        w = self.weapon
        return kt.attack_profile(
            attacks=w.attacks,
            hit=w.hit,
            normal_damage=w.normal_damage,
            critical_damage=w.critical_damage,
            weapon_rules=self.rules,
        )


def _shooter(state: kt.KillTeamState, data: QueryDict) -> kt.BattleOperative | None:
    """The shooter the form names (``pick`` "a-1|Bolt gun", or ``shooter``), else the active
    operative, else none: the helper starts where the player is."""
    chosen = data.get("pick", "").partition("|")[0] or data.get("shooter", "")
    if chosen:
        return state.operative(chosen)
    return state.operative(state.active) if state.active else None


def _pick(state: kt.KillTeamState, shooter: kt.BattleOperative, data: QueryDict) -> str:
    """The shooter's weapon picked as "a-1|Bolt gun": the one the form names when the shooter
    carries it (or it is one of its team's grenades), else its first ranged weapon."""
    if data.get("pick"):
        return data["pick"]
    names = [name for name, _label in weapon_choices(state, shooter, RANGED)]
    wanted = data.get("weapon", "")
    name = wanted if wanted in names else (names[0] if names else "")
    return f"{shooter.id}|{name}" if name else ""


def _choice(state: kt.KillTeamState, data: QueryDict) -> Choice | None:
    """The choice the form sent, or None while it is incomplete; a name no operative or weapon
    has raises UnknownId (a 404), a friend as the target RulesError."""
    shooter = _shooter(state, data)
    target_id = data.get("target", "")
    if shooter is None or not target_id:
        return None
    pick = _pick(state, shooter, data)
    if not pick:
        return None
    shooter, weapon = picked(state, pick)
    target = state.operative(target_id)
    if target.side == shooter.side:
        raise RulesError(f"{kt.label(state, target)} is a friend: shoot an enemy operative.")
    ticked = data.getlist("rule") if data.get("rules_sent") else None
    again = (
        data.get("again") == "1"
        if data.get("rules_sent")
        else kt.another_target_likely(state, shooter, weapon)
    )
    again = again and kt.several_targets(weapon)
    return Choice(
        shooter, weapon, target, data.get("cover") == "1", rules_chosen(weapon, ticked), again
    )


def _hot_odds(choice: Choice) -> dict:
    """The Hot roll's exact chance of damage to the shooter and its expected damage."""
    hot = kt.hot_damage_distribution(choice.weapon.hit, injured=choice.shooter.injured)
    expected = sum((damage * p for damage, p in hot.items()), Fraction(0))
    return {
        "chance": percent(1 - hot.get(0, Fraction(0))),
        "expected": f"{float(expected):.2f}",
        "exact": str(expected),
        "hit": choice.shooter.effective_hit(choice.weapon),
    }


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
        "hot": _hot_odds(choice) if choice.hot else None,
    }


def _context(request: HttpRequest, match: Match, data: QueryDict) -> dict:
    """The helper's page: the acting side's operatives to shoot with (the active one picked),
    the chosen shooter's ranged weapons and its team's grenades, the shooter's enemies as
    targets; then the odds and the dice once a target is chosen."""
    state = services.current_state(match)
    live = [op for op in state.operatives if not op.incapacitated]
    side = kt.acting_side(state)
    shooter = _shooter(state, data)
    context = {
        "match": match,
        "shooters": [(op.id, kt.label(state, op)) for op in live if side in (None, op.side)],
        "shooter": shooter,
        "acting": state.side(side).label if side else "",
        "data": data,
        "key": uuid.uuid4().hex,
        "active_id": state.active or "",
    }
    if shooter is None:
        return context
    context |= {
        "weapons": weapon_choices(state, shooter, RANGED),
        "weapon": _pick(state, shooter, data).partition("|")[2],
        "targets": [(op.id, kt.label(state, op)) for op in live if op.side != shooter.side],
    }
    try:
        choice = _choice(state, data)
    except RulesError as error:
        if isinstance(error, UnknownId):
            raise
        return context | {"error": str(error)}
    if choice is None:
        return context
    context |= {
        "choice": choice,
        "names": (kt.label(state, choice.shooter), kt.label(state, choice.target)),
        "printed": [r.text for r in choice.weapon.rules],
        "several": kt.several_targets(choice.weapon),
        "used_up": ""
        if choice.again
        else kt.grenades_used_up(state, choice.shooter.side, choice.weapon.name),
        "attack_text": data.get("attack", ""),
        "defence_text": data.get("defence", ""),
        "hot_text": data.get("hot", ""),
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
    found: dict = {}
    if choice.hot:
        found["hot_text"] = roll(1) if rolled else data.get("hot", "").strip()
    attack_text = roll(choice.weapon.attacks) if rolled else data.get("attack", "")
    found["attack_text"] = attack_text
    attack_dice = read_dice(attack_text, "attack dice")
    if not attack_dice:
        return found
    attack = kt.read_attack(profile, attack_dice, injured_attacker=choice.shooter.injured)
    found["attack"] = attack
    if rolled:
        count, _ = defence_dice_to_roll(
            profile.rules, attack.crits, defence_dice=DEFENCE_DICE, cover=choice.cover
        )
        defence_text = roll(count)
    else:
        defence_text = data.get("defence", "")
    found["defence_text"] = defence_text
    defence_dice = read_dice(defence_text, "defence dice")
    if not defence_dice:
        return found
    defence = kt.read_defence(
        profile, attack, defence_dice, save=choice.target.save, cover=choice.cover
    )
    options = kt.block_options(profile, attack, defence)
    return found | {"defence": defence, "options": options}


def _hot_die(choice: Choice, text: str) -> int:
    """The Hot roll typed (1 to 6) when Hot applies; 0 when it does not."""
    if not choice.hot:
        return 0
    die = read_dice(text, "Hot roll")
    if len(die) != 1:
        raise RulesError(
            f"Enter the Hot roll: one D6 after shooting with {choice.weapon.name} "
            "(or untick Hot if it does not apply)."
        )
    return die[0]


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
    as_action = request.POST.get("as_action") == "1" and not choice.again
    return kt.make_event(
        "resolve",
        operative=choice.shooter.id,
        action="shoot" if as_action else "",
        ap=1 if as_action else 0,
        weapon=choice.weapon.name,  # used (Limited, grenades) with or without the action
        damage={choice.target.id: result.damage},
        stun=[choice.target.id] if result.stun else [],
        note=f"Shoot with {choice.weapon.name}: {result.words}",
        again=choice.again,
        hot=_hot_die(choice, context.get("hot_text", "")),
    )
