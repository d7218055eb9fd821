"""Activations and actions: the order chosen on activation, AP spent up to the APL, the basic
actions' restrictions warned (never refused), Heavy, Limited and grenade counters."""

from __future__ import annotations

from dataclasses import replace

from rules.errors import RulesError
from rules.eventlog import Event, Stale, Step
from rules.killteam.changes import (
    MAX_AP,
    MAX_NAME,
    check_name,
    check_order,
    check_range,
    expend,
    in_play,
    label,
    with_operative,
    with_side,
)
from rules.killteam.profile import MELEE, RANGED, Weapon
from rules.killteam.state import (
    ORDERS,
    BattleOperative,
    KillTeamState,
    Phase,
    whose_turn,
)
from rules.killteam.weapons import read_weapon_rules

REPOSITION, DASH, FALL_BACK, CHARGE, SHOOT, FIGHT = (
    "reposition",
    "dash",
    "fall_back",
    "charge",
    "shoot",
    "fight",
)
ACTION_LABELS = {
    REPOSITION: "Reposition",
    DASH: "Dash",
    FALL_BACK: "Fall Back",
    CHARGE: "Charge",
    SHOOT: "Shoot",
    FIGHT: "Fight",
}
MOVES = frozenset({REPOSITION, DASH, FALL_BACK, CHARGE})
_NOT_TOGETHER = {
    frozenset({REPOSITION, CHARGE}),
    frozenset({REPOSITION, FALL_BACK}),
    frozenset({DASH, CHARGE}),
    frozenset({FALL_BACK, CHARGE}),
}
TABLE_CHECKS = {
    REPOSITION: "Not while within an enemy's control range, and it cannot move into one.",
    DASH: "At most 3\", no climbing; not while within an enemy's control range.",
    FALL_BACK: "Only while an enemy is within its control range; it may not end its move there.",
    CHARGE: "Not while already within an enemy's control range; it must end its move in one.",
    SHOOT: "Not while within an enemy's control range; the target must be valid and visible.",
    FIGHT: "Only while an enemy is within its control range.",
}
"""What only the table can judge of each basic action: shown as reminders, never checked."""


def activate(state: KillTeamState, event: Event) -> Step:
    operative = state.operative(event["operative"])
    order = check_order(event["order"])
    who = label(state, operative)
    if state.phase is not Phase.FIREFIGHT:
        raise RulesError(
            "Operatives activate in the firefight phase: decide the initiative and "
            "finish the strategy phase first."
        )
    in_play(state, operative)
    if state.active == operative.id:
        raise Stale(f"{who} is already active{{by}}", f"{operative.id}:ready")
    if not operative.ready:
        raise Stale(
            f"{who} was already activated in turning point {state.turning_point}{{by}}",
            f"{operative.id}:ready",
        )
    new = state
    writes = {
        "match:turn",
        f"{operative.id}:ready",
        f"{operative.id}:order",
        f"{operative.id}:activation",
        f"{operative.id}:stuns",
    }
    ended = ""
    if state.active is not None:
        previous = state.operative(state.active)
        new = expend(new, previous)
        writes.update({f"{previous.id}:ready", f"{previous.id}:stuns"})
        ended = f" {label(state, previous)} is expended."
    turn = whose_turn(new)
    if turn != operative.side:
        raise RulesError(
            f"It's {state.side(turn).label}'s turn to activate an operative."
            if turn
            else "No operative can activate now."
        )
    active = replace(
        operative,
        order=order,
        ap_spent=0,
        actions=(),
        weapons_used=(),
        stuns_held=operative.stuns,
    )
    new = replace(with_operative(new, active), active=operative.id, last_side=operative.side)
    summary = f"{who} activates on {ORDERS[order]} (APL {active.effective_apl}).{ended}"
    return Step(
        new, summary, writes=frozenset(writes), reads=frozenset({"match:phase", "match:turn"})
    )


def due_next(state: KillTeamState) -> str | None:
    """The side that activates next: ``whose_turn`` once the active operative's activation has
    ended (None when nobody can)."""
    if state.active is None:
        return whose_turn(state)
    return whose_turn(expend(state, state.operative(state.active)))


def end_activation(state: KillTeamState, event: Event) -> Step:
    operative = state.operative(event["operative"])
    who = label(state, operative)
    if state.active != operative.id:
        if not operative.ready:
            raise Stale(f"{who}'s activation already ended{{by}}", f"{operative.id}:ready")
        raise RulesError(f"{who} is not active: activate it first.")
    new = expend(state, operative)
    return Step(
        new,
        f"{who} is expended.",
        writes=frozenset({"match:turn", f"{operative.id}:ready", f"{operative.id}:stuns"}),
        reads=frozenset({f"{operative.id}:activation"}),
    )


def set_order(state: KillTeamState, event: Event) -> Step:
    operative = state.operative(event["operative"])
    order = check_order(event["order"])
    who = label(state, operative)
    in_play(state, operative)
    if operative.order == order:
        raise Stale(f"{who} already has the {ORDERS[order]} order{{by}}", f"{operative.id}:order")
    new = with_operative(state, replace(operative, order=order))
    return Step(
        new,
        f"{who}'s order is now {ORDERS[order]}.",
        writes=frozenset({f"{operative.id}:order"}),
    )


def action_key(value: str) -> str:
    """ "Fall Back", "fall back" and "fall_back" are one action."""
    return "_".join(value.casefold().replace("-", " ").split())


def _action_label(key: str) -> str:
    return ACTION_LABELS.get(key, key.replace("_", " ").capitalize())


def act(
    state: KillTeamState, operative: BattleOperative, action: str, ap: int, weapon_name: str
) -> tuple[KillTeamState, str, list[str], set[str]]:
    """An operative performs an action: (state, sentence, warnings, writes)."""
    who = label(state, operative)
    key = action_key(check_name(action, "action"))
    if len(key) > MAX_NAME:
        raise RulesError(f"An action's name can be at most {MAX_NAME} characters.")
    check_range(ap, "AP spent", 0, MAX_AP)
    in_play(state, operative)
    if state.active != operative.id:
        raise RulesError(f"{who} is not active: activate it before its actions.")
    grenade = state.side(operative.side).grenade(weapon_name) if weapon_name else None
    weapon = operative.weapon(weapon_name) if weapon_name and grenade is None else None
    warnings = _action_warnings(state, operative, key, weapon)
    writes = {f"{operative.id}:activation"}
    new = state
    if weapon_name:
        new, used, counted = use_weapon(state, operative, weapon_name)
        warnings += used
        writes |= counted
    spent = operative.ap_spent + ap
    acted = replace(
        new.operative(operative.id),
        ap_spent=spent,
        actions=(*operative.actions, key),
        weapons_used=(*operative.weapons_used, weapon_name)
        if weapon_name
        else operative.weapons_used,
    )
    if spent > acted.effective_apl:
        stunned = " (stunned: 1 less)" if acted.stuns else ""
        warnings.append(
            f"{who} has spent {spent} AP, more than its APL of {acted.effective_apl}{stunned}."
        )
    new = with_operative(new, acted)
    with_weapon = f" with {weapon_name}" if weapon_name else ""
    words = (
        f"{who}: {_action_label(key)}{with_weapon} ({ap} AP; {spent} of "
        f"{acted.effective_apl} spent)."
    )
    return new, words, warnings, writes


def use_weapon(
    state: KillTeamState, operative: BattleOperative, weapon_name: str
) -> tuple[KillTeamState, list[str], set[str]]:
    """The operative uses ``weapon_name``, one of its weapons or one of its team's explosive
    grenades: a Limited weapon's uses and the team's grenades are counted, with a warning (never
    a refusal) when they were used up already. (state, warnings, writes)."""
    side = state.side(operative.side)
    grenade = side.grenade(weapon_name)
    if grenade is not None:
        grenades = tuple(
            replace(g, used=g.used + 1) if g.key == grenade.key else g for g in side.grenades
        )
        new = with_side(state, replace(side, grenades=grenades))
        warning = grenades_used_up(state, side.key, weapon_name)
        return new, [warning] if warning else [], {f"{side.key}:grenades"}
    weapon = operative.weapon(weapon_name)
    limited = _limited(weapon)
    if limited is None:
        return state, [], set()
    used = operative.used(weapon.name)
    warnings = []
    if used >= limited:
        warnings.append(
            f"{label(state, operative)} has used {weapon.name} {used} times (Limited {limited}): "
            "it is no longer equipped with it."
        )
    uses = dict(operative.uses) | {weapon.name: used + 1}
    counted = replace(operative, uses=tuple(sorted(uses.items())))
    return with_operative(state, counted), warnings, {f"{operative.id}:uses"}


SEVERAL_TARGETS = frozenset({"blast", "torrent"})
"""Weapon rules that use a weapon at several targets in one action: each target is its own
Shoot sequence, all of them one use (docs/killteam-readings.md, 'Blast and Torrent')."""


def several_targets(weapon: Weapon) -> bool:
    """Whether the weapon is used at several targets in one action (Blast, Torrent)."""
    return any(rule.key in SEVERAL_TARGETS for rule in weapon.rules)


def another_target_likely(state: KillTeamState, operative: BattleOperative, weapon: Weapon) -> bool:
    """Whether a shot with ``weapon`` is most likely another target of the action that used it
    already: the operative is active, used the weapon in this activation, and it is Blast or
    Torrent. The helper's first answer; the player says."""
    return (
        state.active == operative.id
        and several_targets(weapon)
        and weapon.name in operative.weapons_used
    )


def grenades_used_up(state: KillTeamState, side: str, name: str) -> str:
    """The rules' warning when ``side``'s team has used its ``name`` grenades as often as it
    picked them ("" while some are left, or when the team picked none by that name)."""
    grenade = state.side(side).grenade(name)
    if grenade is None or grenade.used < grenade.picked:
        return ""
    return (
        f"{state.side(side).label} has used its {grenade.name}s as often as it picked them "
        f"({grenade.used} of {grenade.picked}): no more in this battle."
    )


def _has(weapon: Weapon | None, key: str) -> bool:
    return weapon is not None and any(rule.key == key for rule in weapon.rules)


def _heavy_allows(weapon: Weapon | None) -> frozenset[str]:
    """The move a Heavy weapon allows in the activation it is used in ("Heavy (Dash only)")."""
    rules = weapon.rules if weapon is not None else ()
    return frozenset(rule.only for rule in rules if rule.key == "heavy" and rule.only)


def _limited(weapon: Weapon | None) -> int | None:
    return None if weapon is None else read_weapon_rules(weapon.rules).limited


def _action_warnings(
    state: KillTeamState, operative: BattleOperative, key: str, weapon: Weapon | None
) -> list[str]:
    who = label(state, operative)
    done = set(operative.actions)
    name = _action_label(key)
    warnings: list[str] = []
    if key in done:
        warnings.append(
            f"{who} already performed {name} in this activation: each action once per "
            "activation, unless a rule says otherwise."
        )
    for other in sorted(done - {key}):
        if frozenset({key, other}) in _NOT_TOGETHER:
            warnings.append(
                f"{name} and {_action_label(other)} are not allowed in the same activation."
            )
    silent = _has(weapon, "silent")
    if operative.order == "conceal" and key == CHARGE:
        warnings.append(f"{who} has the Conceal order: it cannot Charge.")
    if operative.order == "conceal" and key == SHOOT and not silent:
        warnings.append(
            f"{who} has the Conceal order: it cannot Shoot (only with a Silent weapon)."
        )
    if weapon is not None and key == SHOOT and weapon.kind == MELEE:
        warnings.append(f"{weapon.name} is a melee weapon: it fights, it does not shoot.")
    if weapon is not None and key == FIGHT and weapon.kind == RANGED:
        warnings.append(f"{weapon.name} is a ranged weapon: it shoots, it does not fight.")
    own_weapons = [
        operative.weapon(name)
        for name in operative.weapons_used
        if state.side(operative.side).grenade(name) is None
    ]
    heavy_used = [_heavy_allows(used) for used in own_weapons if _has(used, "heavy")]
    if _has(weapon, "heavy") and done & MOVES - _heavy_allows(weapon):
        warnings.append(f"{who} moved in this activation: a Heavy weapon cannot be used.")
    if key in MOVES and any(key not in allowed for allowed in heavy_used):
        warnings.append(f"{who} used a Heavy weapon in this activation: it cannot move.")
    return warnings


def action(state: KillTeamState, event: Event) -> Step:
    operative = state.operative(event["operative"])
    new, words, warnings, writes = act(
        state, operative, event["action"], event["ap"], event["weapon"]
    )
    return Step(
        new, words, tuple(warnings), writes=frozenset(writes), reads=frozenset({"match:turn"})
    )
