"""Wounds as one-tap steps, stuns, and a Shoot or Fight result applied as one event."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rules.errors import RulesError
from rules.eventlog import Event, EventError, Stale, Step
from rules.killteam.actions import act, use_weapon
from rules.killteam.changes import (
    MAX_DAMAGE,
    MAX_NOTE,
    MAX_TARGETS,
    check_range,
    in_play,
    label,
    with_operative,
    wound_words,
)
from rules.killteam.state import (
    BattleOperative,
    KillTeamState,
)
from rules.killteam.weapons import hot_damage, read_weapon_rules


def _damage(
    state: KillTeamState, operative: BattleOperative, amount: int
) -> tuple[KillTeamState, set[str]]:
    hurt = replace(operative, current=operative.current - amount)
    writes = {f"{operative.id}:wounds"}
    if hurt.incapacitated:
        hurt = replace(hurt, ready=False)
        writes.update({f"{operative.id}:ready", "match:turn"})
    new = with_operative(state, hurt)
    if hurt.incapacitated and state.active == operative.id:
        new = replace(new, active=None)
    return new, writes


def _check_seen(state: KillTeamState, operative: BattleOperative, seen: int) -> None:
    if operative.current != seen:
        raise Stale(
            f"{label(state, operative)} has {operative.current} wounds left, not {seen}: they "
            "changed{by}",
            f"{operative.id}:wounds",
        )


def wound(state: KillTeamState, event: Event) -> Step:
    operative = state.operative(event["operative"])
    amount = check_range(event["amount"], "Damage", 1, MAX_DAMAGE)
    _check_seen(state, operative, event["current"])
    in_play(state, operative)
    new, writes = _damage(state, operative, amount)
    hurt = new.operative(operative.id)
    plural = "s" if amount > 1 else ""
    return Step(
        new,
        f"{label(state, operative)} loses {amount} wound{plural}: {wound_words(hurt)}.",
        writes=frozenset(writes),
    )


def heal(state: KillTeamState, event: Event) -> Step:
    operative = state.operative(event["operative"])
    amount = check_range(event["amount"], "Wounds regained", 1, MAX_DAMAGE)
    _check_seen(state, operative, event["current"])
    if operative.current + amount > operative.wounds:
        raise RulesError(
            f"{label(state, operative)} has {operative.current} of {operative.wounds} wounds: "
            f"it cannot regain {amount}."
        )
    healed = replace(operative, current=operative.current + amount)
    plural = "s" if amount > 1 else ""
    return Step(
        with_operative(state, healed),
        f"{label(state, operative)} regains {amount} wound{plural}: {wound_words(healed)}.",
        writes=frozenset({f"{operative.id}:wounds"}),
    )


def _stunned(state: KillTeamState, operative: BattleOperative) -> KillTeamState:
    return with_operative(state, replace(operative, stuns=operative.stuns + 1))


def stun(state: KillTeamState, event: Event) -> Step:
    operative = state.operative(event["operative"])
    in_play(state, operative)
    new = _stunned(state, operative)
    apl = new.operative(operative.id).effective_apl
    return Step(
        new,
        f"{label(state, operative)} is stunned: APL {apl} until the end of its next activation.",
        writes=frozenset({f"{operative.id}:stuns"}),
    )


def resolve(state: KillTeamState, event: Event) -> Step:
    """A Shoot or Fight worked out by the helper, applied at once: the action (when named),
    each operative's damage, the stuns, and a Hot weapon's damage to its user (``hot``: the D6
    rolled, 0 for none). The weapon named is used even without the action (its Limited uses, or
    the team's grenades, are counted), except for ``again``: another target of the same action
    (Blast, Torrent), which counts as the one use, with no second action or Hot roll.
    ``seen`` names the wounds left the helper worked with ({"a-1": 8}): when they changed since,
    the result is stale and nothing changes."""
    operative = state.operative(event["operative"])
    seen = _seen(state, event["seen"])
    damage = _targets(state, event["damage"])
    stunned = _stun_targets(state, event["stun"])
    note = " ".join(event["note"].split())
    if len(note) > MAX_NOTE:
        raise RulesError(f"A note can be at most {MAX_NOTE} characters.")
    new = state
    warnings: list[str] = []
    writes: set[str] = set()
    words: list[str] = []
    again = event["again"]
    if again and (event["action"] or event["hot"]):
        raise RulesError(
            "Another target of the same action counts no second action and rolls no second Hot die."
        )
    if again:
        words.append(_again_words(state, operative, event["weapon"]))
    elif event["action"]:
        new, sentence, warnings, writes = act(
            state, operative, event["action"], event["ap"], event["weapon"]
        )
        words.append(sentence)
    elif event["weapon"]:
        new, warnings, writes = use_weapon(state, operative, event["weapon"])
    for target_id, amount in damage.items():
        target = new.operative(target_id)
        if amount:
            in_play(new, target)
            new, hurt = _damage(new, target, amount)
            writes |= hurt
            left = wound_words(new.operative(target_id))
            words.append(f"{label(state, target)}: {amount} damage, {left}.")
        else:
            words.append(f"{label(state, target)}: no damage.")
    if event["hot"]:
        new, hot_words, hot_writes = _hot(new, state, operative, event["weapon"], event["hot"])
        words.append(hot_words)
        writes |= hot_writes
    for target_id in stunned:
        target = new.operative(target_id)
        if not target.incapacitated:
            new = _stunned(new, target)
            writes.add(f"{target_id}:stuns")
            words.append(f"{label(state, target)} is stunned.")
    if note:
        words.append(note)
    return Step(
        new,
        " ".join(words) or "Nothing happened.",
        tuple(warnings),
        writes=frozenset(writes),
        reads=frozenset({"match:turn", *(f"{key}:wounds" for key in seen)}),
    )


def _seen(state: KillTeamState, value: Mapping[str, Any]) -> dict[str, int]:
    if len(value) > MAX_TARGETS:
        raise RulesError(f"At most {MAX_TARGETS} operatives take damage at once.")
    for key, current in value.items():
        if isinstance(current, bool) or not isinstance(current, int):
            raise EventError(f"Wounds seen are a whole number; got {current!r}.")
        _check_seen(state, state.operative(key), current)
    return dict(value)


def _targets(state: KillTeamState, value: Mapping[str, Any]) -> dict[str, int]:
    if len(value) > MAX_TARGETS:
        raise RulesError(f"At most {MAX_TARGETS} operatives take damage at once.")
    damage = {}
    for key, amount in value.items():
        state.operative(key)
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise EventError(f"Damage is a whole number; got {amount!r}.")
        damage[key] = check_range(amount, "Damage", 0, MAX_DAMAGE)
    return damage


def _stun_targets(state: KillTeamState, value: list[Any]) -> list[str]:
    if len(value) > MAX_TARGETS:
        raise RulesError(f"At most {MAX_TARGETS} operatives are stunned at once.")
    for key in value:
        state.operative(key)
    if len(set(value)) != len(value):
        raise EventError("An operative is stunned once per attack.")
    return list(value)


def _again_words(state: KillTeamState, operative: BattleOperative, weapon_name: str) -> str:
    if not weapon_name:
        raise EventError("Another target of the same action names the weapon used.")
    state.side(operative.side).grenade(weapon_name) or operative.weapon(weapon_name)
    return (
        f"{label(state, operative)}: another target of the same action with {weapon_name} "
        "(one use)."
    )


def _hot(
    new: KillTeamState,
    before: KillTeamState,
    operative: BattleOperative,
    weapon_name: str,
    die: int,
) -> tuple[KillTeamState, str, set[str]]:
    """The Hot roll after the weapon's use: twice the roll to its user when below the Hit,
    with the Hit as it was when the user fired (an injured user's is one worse)."""
    weapon = operative.weapon(weapon_name) if weapon_name else None
    if weapon is None or not read_weapon_rules(weapon.rules).hot:
        raise RulesError(f"{weapon_name or 'No weapon'} is not Hot: there is no Hot roll.")
    amount = hot_damage(weapon.hit, die, operative.injured)
    who = label(before, operative)
    shooter = new.operative(operative.id)
    if not amount:
        return new, f"{who}: Hot roll {die}, no damage.", set()
    if shooter.incapacitated:
        return new, f"{who}: Hot roll {die}, {amount} damage (already incapacitated).", set()
    new, hurt = _damage(new, shooter, amount)
    left = wound_words(new.operative(operative.id))
    return new, f"{who}: Hot roll {die}, {amount} damage to itself, {left}.", hurt


def damage_operative(
    state: KillTeamState, operative: BattleOperative, amount: int
) -> tuple[KillTeamState, set[str], str]:
    """``amount`` damage on an operative outside a Shoot or Fight (a mine): (state, writes, its
    wounds in words)."""
    new, writes = _damage(state, operative, amount)
    return new, writes, wound_words(new.operative(operative.id))


def stun_operative(state: KillTeamState, operative: BattleOperative) -> KillTeamState:
    """One more stun on an operative (a stun test it failed)."""
    return _stunned(state, operative)
