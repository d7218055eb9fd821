"""The summary of one direct attack with exact odds, and the plan behind it."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rules.hgb.attack.inputs import (
    Attacker,
    Modifier,
    Target,
    total,
)
from rules.hgb.attack.modifiers import (
    armor_parts,
    attack_modifiers,
    blast_area,
    check_rate_of_fire,
    check_several_targets,
    damage_multiplier_parts,
    defense_modifiers,
    mos_modifiers,
)
from rules.hgb.attack.questions import (
    attacker_questions,
    check_attacker,
    check_targets,
    raise_if_missing,
    target_questions,
)
from rules.hgb.damage import (
    STANDARD_BOXES,
    AttackOutcome,
)
from rules.hgb.odds import attack_odds


@dataclass(frozen=True)
class AttackSummary:
    """Everything the helper shows before the roll, for one target.

    ``odds`` has every ``AttackOutcome`` as a key; its chances add up to exactly 1.
    """

    target: Target
    attack_dice: int
    attack_dice_source: str
    attack_modifiers: tuple[Modifier, ...]
    defense_dice: int
    defense_dice_source: str
    defense_modifiers: tuple[Modifier, ...]
    mos_modifiers: tuple[Modifier, ...]
    damage_multiplier_parts: tuple[Modifier, ...]
    armor_parts: tuple[Modifier, ...]
    notes: tuple[str, ...]
    odds: dict[AttackOutcome, Fraction]
    hit_chance: Fraction
    expected_boxes: Fraction
    kill_chance: Fraction
    boxes_left: int | None

    @property
    def attack_modifier(self) -> int:
        return total(self.attack_modifiers)

    @property
    def defense_modifier(self) -> int:
        return total(self.defense_modifiers)

    @property
    def damage_multiplier(self) -> int:
        return total(self.damage_multiplier_parts)

    @property
    def armor(self) -> int:
        return total(self.armor_parts)

    @property
    def weak_facing(self) -> bool:
        return bool(self.mos_modifiers)


@dataclass(frozen=True)
class Plan:
    """One target's side of an attack, with every figure known and checked."""

    target: Target
    attack_modifiers: tuple[Modifier, ...]
    attack_modifier: int
    defense_modifiers: tuple[Modifier, ...]
    defense_modifier: int
    mos_modifiers: tuple[Modifier, ...]
    damage_multiplier_parts: tuple[Modifier, ...]
    damage_multiplier: int
    armor_parts: tuple[Modifier, ...]
    armor: int


def make_plan(
    attacker: Attacker, target: Target, given_attack: tuple[Modifier, ...] | None
) -> Plan:
    """``given_attack`` None: the direct attack's modifiers; else the attack modifiers to use
    (none for a model defending against an indirect attack's unmodified roll)."""
    if given_attack is None:
        attack, defense = attack_modifiers(attacker, target)
    else:
        attack, defense = given_attack, defense_modifiers(target)
    dm_parts = damage_multiplier_parts(attacker)
    armor = armor_parts(target)
    return Plan(
        target=target,
        attack_modifiers=attack,
        attack_modifier=total(attack),
        defense_modifiers=defense,
        defense_modifier=total(defense),
        mos_modifiers=mos_modifiers(target),
        damage_multiplier_parts=dm_parts,
        damage_multiplier=total(dm_parts),
        armor_parts=armor,
        armor=total(armor),
    )


def direct_plans(attacker: Attacker, targets: tuple[Target, ...]) -> list[Plan]:
    missing = attacker_questions(attacker, damage=True)
    for index, target in enumerate(targets):
        missing.extend(target_questions(target, index, damage=True, direct=True))
    raise_if_missing(missing)
    check_rate_of_fire(attacker, targets[0])
    check_several_targets(attacker, len(targets))
    return [make_plan(attacker, target, None) for target in targets]


def rof_notes(attacker: Attacker, *, indirect: bool = False) -> tuple[str, ...]:
    notes = []
    if attacker.spray:
        area = blast_area(
            area_effect=attacker.area_effect or 0, spray=attacker.spray, indirect=indirect
        )
        notes.append(
            f"Spray Fire: {attacker.spray} RoF point{'s' if attacker.spray != 1 else ''}, "
            f"+{attacker.spray} inch{'es' if attacker.spray != 1 else ''} of area. "
            + area.who_defends
        )
    if attacker.concentrated:
        notes.append(f"Concentrated Fire: +{attacker.concentrated} DM.")
    return tuple(notes)


def summarize(
    attacker: Attacker,
    plan: Plan,
    odds: dict[AttackOutcome, Fraction],
    notes: tuple[str, ...],
) -> AttackSummary:
    target = plan.target
    # Every chance is a whole number of the 6**(attack + defense dice) equally likely rolls:
    # add up those counts as integers and make one fraction each (the same values as
    # rules.hgb.odds.hit_chance, expected_boxes and kill_chance, several times faster).
    rolls = 6 ** (attacker.attack_dice + target.dice)
    counts = {outcome: p.numerator * (rolls // p.denominator) for outcome, p in odds.items()}
    left = len(STANDARD_BOXES) if target.boxes_left is None else target.boxes_left
    hits = boxes = kills = 0
    for outcome, count in counts.items():
        if not outcome.hit:
            continue
        hits += count
        crossed = outcome.boxes
        boxes += count * (left if crossed is None else min(crossed, left))
        if crossed is None or crossed > left:
            kills += count
    return AttackSummary(
        target=target,
        attack_dice=attacker.attack_dice,
        attack_dice_source=f"Attack Skill {attacker.attack_dice}",
        attack_modifiers=plan.attack_modifiers,
        defense_dice=target.dice,
        defense_dice_source=target.dice_source,
        defense_modifiers=plan.defense_modifiers,
        mos_modifiers=plan.mos_modifiers,
        damage_multiplier_parts=plan.damage_multiplier_parts,
        armor_parts=plan.armor_parts,
        notes=notes,
        odds=odds,
        hit_chance=Fraction(hits, rolls),
        expected_boxes=Fraction(boxes, rolls),
        kill_chance=Fraction(kills, rolls),
        boxes_left=target.boxes_left,
    )


def direct_odds(attacker: Attacker, plan: Plan) -> dict[AttackOutcome, Fraction]:
    return attack_odds(
        attack_dice=attacker.attack_dice,
        attack_modifier=plan.attack_modifier,
        defense_dice=plan.target.dice,
        defense_modifier=plan.defense_modifier,
        damage_multiplier=plan.damage_multiplier,
        armor=plan.armor,
        weak_facing=plan.target.weak_facing,
    )


def attack_summary(attacker: Attacker, target: Target) -> AttackSummary:
    """Every modifier with its source, and the exact odds, of a direct attack on one target.

    Raises ``MissingInputs`` if a figure is missing, ``RulesError`` if RoF is used at Extreme
    range.
    """
    check_attacker(attacker)
    (plan,) = direct_plans(attacker, check_targets((target,)))
    return summarize(attacker, plan, direct_odds(attacker, plan), rof_notes(attacker))
