"""One direct attack against several models (Spray Fire or an Area Effect): exact odds."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.hgb.attack.inputs import (
    Attacker,
    Target,
)
from rules.hgb.attack.questions import (
    check_attacker,
    check_targets,
)
from rules.hgb.attack.summary import (
    AttackSummary,
    direct_odds,
    direct_plans,
    rof_notes,
    summarize,
)
from rules.hgb.attack.tables import (
    hits_by_attack_result,
)
from rules.hgb.dice import (
    roll_counts,
)


@dataclass(frozen=True)
class MultiTargetSummary:
    """One attack against several models (Spray Fire or an Area Effect).

    ``targets`` holds each model's own summary: its chances are its marginal odds. The attacker
    rolls once for all of them and each defender rolls separately, so the hits are not
    independent; ``targets_hit`` gives the exact chance of each number of models hit, and
    ``expected_boxes`` the expected boxes over all of them.
    """

    targets: tuple[AttackSummary, ...]
    targets_hit: dict[int, Fraction]
    expected_boxes: Fraction
    notes: tuple[str, ...]

    @property
    def expected_hits(self) -> Fraction:
        return sum((k * p for k, p in self.targets_hit.items()), Fraction(0))


def targets_hit_odds(
    attack_dice: int, rows: list[tuple[int, ...]], totals: list[int], counted: Sequence[bool]
) -> dict[int, Fraction]:
    """Exact chance of each number of targets hit, conditioning on the attacker's one roll.

    ``rows[i][j]``: rolls of target i's dice that lose to the attacker's j-th result, out of
    ``totals[i]``. ``counted[j]``: False when that result hits nobody (an indirect scatter).
    """
    weights = [0] * (len(rows) + 1)
    for j, (_, ways) in enumerate(roll_counts(attack_dice)):
        if not counted[j]:
            weights[0] += ways * _product(totals)
            continue
        poly = [1]
        for row, total_rolls in zip(rows, totals, strict=True):
            hit = row[j]
            miss = total_rolls - hit
            grown = [0] * (len(poly) + 1)
            for k, value in enumerate(poly):
                grown[k] += value * miss
                grown[k + 1] += value * hit
            poly = grown
        for k, value in enumerate(poly):
            weights[k] += ways * value
    denominator = 6**attack_dice * _product(totals)
    return {k: Fraction(value, denominator) for k, value in enumerate(weights)}


def _product(values: Iterable[int]) -> int:
    result = 1
    for value in values:
        result *= value
    return result


def multi_target_summary(attacker: Attacker, targets: Sequence[Target]) -> MultiTargetSummary:
    """The odds of one direct attack against several models: Spray Fire or an Area Effect.

    The first target is the main target (RoF can't be used if it is at Extreme range). Each model
    has its own range band, cover and defense, as "All Attacker and Defender modifiers are
    determined individually for each target"; the Concentrated Fire DM applies to all of them.
    """
    check_attacker(attacker)
    checked = check_targets(targets)
    plans = direct_plans(attacker, checked)
    notes = rof_notes(attacker)
    summaries = tuple(
        summarize(attacker, plan, direct_odds(attacker, plan), notes) for plan in plans
    )
    rows = [
        hits_by_attack_result(
            attacker.attack_dice,
            plan.attack_modifier,
            plan.target.dice,
            plan.defense_modifier,
            plan.target.weak_facing,
        )
        for plan in plans
    ]
    totals = [6**plan.target.dice for plan in plans]
    counted = [True] * len(roll_counts(attacker.attack_dice))
    return MultiTargetSummary(
        targets=summaries,
        targets_hit=targets_hit_odds(attacker.attack_dice, rows, totals, counted),
        expected_boxes=sum((summary.expected_boxes for summary in summaries), Fraction(0)),
        notes=notes,
    )
