"""Exact counts behind the odds: for each result of the attacker's dice, how many of the
defender's rolls lose to it, or give each outcome. Cached; shared by direct and indirect fire.
"""

from __future__ import annotations

from functools import lru_cache

from rules.hgb.damage import (
    AttackOutcome,
    damage_table,
    margin_of_success,
)
from rules.hgb.dice import (
    apply_modifier,
    roll_counts,
)


@lru_cache(maxsize=8192)
def hits_by_attack_result(
    attack_dice: int,
    attack_modifier: int | None,
    defense_dice: int,
    defense_modifier: int,
    weak_facing: bool,
) -> tuple[int, ...]:
    """For each result of the attacker's dice (in ``roll_counts`` order), the number of the
    defender's 6**defense_dice rolls that lose to it. ``attack_modifier`` None: the attacker's
    roll is not modified at all (the roll a model under an indirect attack defends against).
    """
    defense = [
        (apply_modifier(result, defense_modifier), count)
        for result, count in roll_counts(defense_dice)
    ]
    hits = []
    for result, _ in roll_counts(attack_dice):
        final = result if attack_modifier is None else apply_modifier(result, attack_modifier)
        hits.append(
            sum(
                count
                for defense_final, count in defense
                if final > defense_final or (weak_facing and final == defense_final)
            )
        )
    return tuple(hits)


@lru_cache(maxsize=8192)
def outcomes_by_attack_result(
    attack_dice: int,
    defense_dice: int,
    defense_modifier: int,
    damage_multiplier: int,
    armor: int,
    weak_facing: bool,
) -> tuple[tuple[int, ...], ...]:
    """For each result of the attacker's dice, unmodified (``roll_counts`` order), the number of
    the defender's rolls giving each outcome, in ``AttackOutcome`` order."""
    order = {outcome: index for index, outcome in enumerate(AttackOutcome)}
    defense = [
        (apply_modifier(result, defense_modifier), count)
        for result, count in roll_counts(defense_dice)
    ]
    rows = []
    for attack_result, _ in roll_counts(attack_dice):
        counts = [0] * len(order)
        for defense_final, count in defense:
            mos = margin_of_success(attack_result - defense_final, weak_facing)
            if mos is None:
                counts[0] += count
            else:
                counts[order[damage_table(mos * damage_multiplier, armor)]] += count
        rows.append(tuple(counts))
    return tuple(rows)
