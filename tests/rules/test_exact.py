"""rules.exact: the whole-number dice distributions every game's odds are built on."""

from __future__ import annotations

from itertools import product
from math import prod

import pytest

from rules.exact import category_counts


def brute_force(dice: int, weights: tuple[int, ...]) -> dict[tuple[int, ...], int]:
    """Every roll of ``dice`` dice whose faces fall in the categories by ``weights``, counted."""
    counts: dict[tuple[int, ...], int] = {}
    for roll in product(range(len(weights)), repeat=dice):
        split = tuple(roll.count(category) for category in range(len(weights)))
        counts[split] = counts.get(split, 0) + prod(weights[category] for category in roll)
    return {split: count for split, count in counts.items() if count}


@pytest.mark.parametrize("weights", [(), (6,), (3, 3), (1, 4, 1), (2, 0, 4), (0, 6, 0)])
@pytest.mark.parametrize("dice", [0, 1, 2, 3])
def test_category_counts_match_every_roll(dice, weights):
    counts = category_counts(dice, weights)
    assert dict(counts) == brute_force(dice, weights)
    assert sum(count for _, count in counts) == sum(weights) ** dice
