"""Resolving rolled direct attacks: margin, MoS x DM, outcome, against one or several models."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.checks import is_whole
from rules.errors import RulesError
from rules.hgb.attack.inputs import (
    Attacker,
    Modifier,
    Target,
    count_words,
    total,
)
from rules.hgb.attack.questions import (
    check_attacker,
    check_targets,
)
from rules.hgb.attack.summary import (
    Plan,
    direct_plans,
)
from rules.hgb.damage import (
    AttackOutcome,
    AttackResult,
    check_result,
    resolve_attack,
)
from rules.hgb.dice import Roll, check_dice, read_roll

RollEntry = int | Roll | Sequence[int]
"""What a player enters for a roll: its result (0 for a Fumble), a ``Roll``, or the dice."""


def read_result(entry: RollEntry, dice: int, whose: str) -> int:
    """The result of a roll entered as a result, a ``Roll`` or the individual dice.

    ``dice`` is how many dice the roll is made with; entered dice must match it, and a result must
    be one those dice can give. ``whose`` starts the error sentences ("The attacker's").
    """
    check_dice(dice)
    if is_whole(entry):
        result = check_result(entry, whose)
        if result > 5 + dice:
            raise RulesError(
                f"{whose} result can be at most {5 + dice} with {dice} "
                f"{'die' if dice == 1 else 'dice'}; got {result}."
            )
        return result
    roll = entry if isinstance(entry, Roll) else read_roll(entry)
    if len(roll.dice) != dice:
        raise RulesError(
            f"{whose} roll is made with {dice} {'die' if dice == 1 else 'dice'}; "
            f"{len(roll.dice)} were entered."
        )
    return roll.result


@dataclass(frozen=True)
class ResolvedAttack:
    """One target's side of a rolled attack: the rolls, every modifier, and what happened."""

    target: Target
    attack_result: int
    """The attacker's result as rolled (0 for a Fumble), before modifiers."""
    defense_result: int
    """The defender's result as rolled (0 for a Fumble), before modifiers."""
    attack_modifiers: tuple[Modifier, ...]
    defense_modifiers: tuple[Modifier, ...]
    mos_modifiers: tuple[Modifier, ...]
    damage_multiplier_parts: tuple[Modifier, ...]
    armor_parts: tuple[Modifier, ...]
    result: AttackResult

    @property
    def outcome(self) -> AttackOutcome:
        return self.result.outcome

    @property
    def hit(self) -> bool:
        return self.result.hit

    @property
    def damage_multiplier(self) -> int:
        return total(self.damage_multiplier_parts)

    @property
    def armor(self) -> int:
        return total(self.armor_parts)

    def describe(self) -> str:
        """The whole resolution in one sentence."""
        r = self.result
        attack = final_words(self.attack_result, total(self.attack_modifiers), r.attack_final)
        defense = final_words(self.defense_result, total(self.defense_modifiers), r.defense_final)
        head = f"Attack {attack} against defense {defense}"
        if not r.hit:
            return f"{head}: miss (MoF {r.mof})."
        bonus = " with Weak Facing" if self.mos_modifiers else ""
        return (
            f"{head}: MoS {r.mos}{bonus} x DM {self.damage_multiplier} = {r.damage} damage "
            f"against Armor {self.armor}: {r.outcome.label}."
        )


def final_words(result: int, modifier: int, final: int) -> str:
    if result == 0:
        return "0 (Fumble, no modifiers)"
    if modifier == 0:
        return str(final)
    return f"{result} {'+' if modifier > 0 else '-'} {abs(modifier)} = {final}"


def resolve_plan(plan: Plan, attack_result: int, defense_roll: RollEntry) -> ResolvedAttack:
    target = plan.target
    whose = f"The {target.name}'s" if target.name else "The defender's"
    defense_result = read_result(defense_roll, target.dice, whose)
    result = resolve_attack(
        attack_result=attack_result,
        defense_result=defense_result,
        damage_multiplier=plan.damage_multiplier,
        armor=plan.armor,
        attack_modifier=plan.attack_modifier,
        defense_modifier=plan.defense_modifier,
        weak_facing=target.weak_facing,
    )
    return ResolvedAttack(
        target=target,
        attack_result=attack_result,
        defense_result=defense_result,
        attack_modifiers=plan.attack_modifiers,
        defense_modifiers=plan.defense_modifiers,
        mos_modifiers=plan.mos_modifiers,
        damage_multiplier_parts=plan.damage_multiplier_parts,
        armor_parts=plan.armor_parts,
        result=result,
    )


def resolve_direct(
    attacker: Attacker, target: Target, attack_roll: RollEntry, defense_roll: RollEntry
) -> ResolvedAttack:
    """Resolve a rolled direct attack: margin, MoS x DM (+ Concentrated Fire), outcome.

    Each roll is entered as its result (0 for a Fumble), a ``Roll``, or the individual dice.
    """
    (resolved,) = resolve_multi_target(attacker, (target,), attack_roll, (defense_roll,))
    return resolved


def resolve_multi_target(
    attacker: Attacker,
    targets: Sequence[Target],
    attack_roll: RollEntry,
    defense_rolls: Sequence[RollEntry],
) -> tuple[ResolvedAttack, ...]:
    """Resolve one attack roll against several models, each with its own defense roll."""
    check_attacker(attacker)
    checked = check_targets(targets)
    if isinstance(defense_rolls, (str, bytes)) or not isinstance(defense_rolls, Sequence):
        raise RulesError("Enter one defense roll for each target.")
    if len(defense_rolls) != len(checked):
        raise RulesError(
            "Enter one defense roll for each target: "
            f"{count_words(len(checked), 'target')}, {count_words(len(defense_rolls), 'roll')}."
        )
    plans = direct_plans(attacker, checked)
    attack_result = read_result(attack_roll, attacker.attack_dice, "The attacker's")
    return tuple(
        resolve_plan(plan, attack_result, roll)
        for plan, roll in zip(plans, defense_rolls, strict=True)
    )
