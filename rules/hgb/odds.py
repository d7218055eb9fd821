"""Exact odds of opposed rolls and of attacks, computed with fractions, never sampled.

Internally a roll of n dice is a table of counts out of 6**n equally likely rolls, so combining
two rolls is integer arithmetic; fractions are made only for the answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache

from rules.checks import check_flag, check_whole
from rules.errors import RulesError
from rules.hgb.damage import (
    STANDARD_BOXES,
    AttackOutcome,
    check_armor,
    check_damage_multiplier,
    damage_table,
    margin_of_success,
)
from rules.hgb.dice import (
    apply_modifier,
    check_dice,
    check_modifier,
    clear_roll_cache,
    roll_counts,
)


@lru_cache(maxsize=4096)
def _margin_counts(
    attack_dice: int, attack_modifier: int, defense_dice: int, defense_modifier: int
) -> tuple[tuple[tuple[int, int], ...], int]:
    """(margin, count) pairs, lowest margin first, and the number of equally likely rolls."""
    defense = [
        (apply_modifier(result, defense_modifier), count)
        for result, count in roll_counts(defense_dice)
    ]
    margins: dict[int, int] = {}
    for result, attack_count in roll_counts(attack_dice):
        attack_final = apply_modifier(result, attack_modifier)
        for defense_final, defense_count in defense:
            margin = attack_final - defense_final
            margins[margin] = margins.get(margin, 0) + attack_count * defense_count
    return tuple(sorted(margins.items())), 6 ** (attack_dice + defense_dice)


def _checked_margin_counts(
    attack_dice: object, attack_modifier: object, defense_dice: object, defense_modifier: object
) -> tuple[tuple[tuple[int, int], ...], int]:
    return _margin_counts(
        check_dice(attack_dice),
        check_modifier(attack_modifier, "The attack modifier"),
        check_dice(defense_dice),
        check_modifier(defense_modifier, "The defense modifier"),
    )


def opposed_margin_distribution(
    attack_dice: int, attack_modifier: int, defense_dice: int, defense_modifier: int
) -> dict[int, Fraction]:
    """Exact chance of every margin (attacker's final result minus defender's), lowest first.

    A final result is the roll's result plus its modifier, except that a Fumble is 0 whatever
    the modifier. The attack succeeds only when the margin is above 0 (MoS = margin); otherwise
    MoF = -margin. Only possible margins are keys; the chances add up to exactly 1.
    """
    margins, total = _checked_margin_counts(
        attack_dice, attack_modifier, defense_dice, defense_modifier
    )
    return {margin: Fraction(count, total) for margin, count in margins}


def attack_odds(
    *,
    attack_dice: int,
    defense_dice: int,
    damage_multiplier: int,
    armor: int,
    attack_modifier: int = 0,
    defense_modifier: int = 0,
    weak_facing: bool = False,
) -> dict[AttackOutcome, Fraction]:
    """Exact chance of each outcome of one direct attack; every outcome is a key, in order.

    A margin above 0 hits with MoS = margin; from a Weak Facing a tie also hits, and every hit gets
    +2 MoS. Damage is MoS x DM, read against Armor on the damage table. The chances add up to 1.
    """
    margins, total = _checked_margin_counts(
        attack_dice, attack_modifier, defense_dice, defense_modifier
    )
    check_damage_multiplier(damage_multiplier)
    check_armor(armor)
    check_flag(weak_facing, "Weak Facing")
    counts = dict.fromkeys(AttackOutcome, 0)
    for margin, count in margins:
        mos = margin_of_success(margin, weak_facing)
        if mos is None:
            counts[AttackOutcome.MISS] += count
        else:
            counts[damage_table(mos * damage_multiplier, armor)] += count
    return {outcome: Fraction(count, total) for outcome, count in counts.items()}


def _check_odds(odds: object) -> Mapping[AttackOutcome, Fraction]:
    if not isinstance(odds, Mapping) or not all(isinstance(k, AttackOutcome) for k in odds):
        raise RulesError("Odds must map attack outcomes to chances, as attack_odds gives them.")
    return odds


def _check_boxes_left(boxes_left: object) -> int:
    if boxes_left is None:
        return len(STANDARD_BOXES)
    return check_whole(boxes_left, "Boxes left must be a whole number of 0 or more", 0)


def hit_chance(odds: Mapping[AttackOutcome, Fraction]) -> Fraction:
    """Chance that the attack succeeds, whether or not its damage beats the Armor."""
    return sum(
        (Fraction(p) for outcome, p in _check_odds(odds).items() if outcome.hit), Fraction(0)
    )


def expected_boxes(
    odds: Mapping[AttackOutcome, Fraction], boxes_left: int | None = None
) -> Fraction:
    """Expected number of boxes the attack crosses off a track with ``boxes_left`` boxes left.

    A hit crosses off at most the boxes left, and an Overkill counts as all of them. Without
    ``boxes_left`` the target is taken as an undamaged standard track (S, L, H, C): 4 boxes, so an
    Overkill counts as 4.
    """
    left = _check_boxes_left(boxes_left)
    total = Fraction(0)
    for outcome, p in _check_odds(odds).items():
        boxes = outcome.boxes
        total += Fraction(p) * (left if boxes is None else min(boxes, left))
    return total


def kill_chance(odds: Mapping[AttackOutcome, Fraction], boxes_left: int | None = None) -> Fraction:
    """Chance that the attack takes the target out: Overkill, or more boxes than it has left.

    A model with no boxes left (at Critical) is destroyed by any box of damage. Without
    ``boxes_left`` the target is an undamaged standard track (4 boxes).
    """
    left = _check_boxes_left(boxes_left)
    total = Fraction(0)
    for outcome, p in _check_odds(odds).items():
        boxes = outcome.boxes
        if boxes is None or boxes > left:
            total += Fraction(p)
    return total


def clear_caches() -> None:
    """Forget every cached distribution (for benchmarks; answers never change)."""
    clear_roll_cache()
    _margin_counts.cache_clear()
