"""Exact distributions of dice, shared by every game: whole-number counts out of a known total.

A die is a set of categories with a whole-number weight each (a D6 read against a "4+" is
fail 3, success 3: three faces each). Rolling n such dice lands ``counts`` dice in each
category in ``multinomial(n; counts) * prod(weight ** count)`` of the ``sum(weights) ** n``
equally likely rolls. Working in whole numbers keeps combining distributions exact and fast;
a Fraction is made only for an answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Any, Protocol, TypeVar


class _Sortable(Protocol):
    def __lt__(self, other: Any, /) -> bool: ...


Key = TypeVar("Key", bound=_Sortable)


@lru_cache(maxsize=1024)
def category_counts(dice: int, weights: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """How many of the ``sum(weights) ** dice`` rolls land each split of ``dice`` dice among the
    categories, as (split, count) pairs: counts per category, in the order of ``weights``.
    Splits that cannot happen (a weight of 0) are left out; the counts add up to
    ``sum(weights) ** dice``."""
    if not weights:
        return (((), 1),) if dice == 0 else ()
    first, rest = weights[0], weights[1:]
    if not rest:
        return (((dice,), first**dice),) if first or not dice else ()
    result = []
    for number in range(dice, -1, -1):
        if number and not first:
            continue
        ways = comb(dice, number) * first**number
        for split, count in category_counts(dice - number, rest):
            result.append(((number, *split), ways * count))
    return tuple(result)


@lru_cache(maxsize=1024)
def most_alike_counts(dice: int, faces: int) -> tuple[int, ...]:
    """``dice`` dice that each show one of ``faces`` equally likely faces: in how many of the
    ``faces ** dice`` rolls the most common face shows exactly m times, for m = 0 .. dice.

    (For a re-roll of "all the dice showing one result".) No dice: m is 0 in the one roll."""
    if dice == 0:
        return (1,)
    at_most = [_at_most(dice, faces, cap) for cap in range(dice + 1)]
    return (0, *(at_most[m] - at_most[m - 1] for m in range(1, dice + 1)))


def _at_most(dice: int, faces: int, cap: int) -> int:
    """Rolls of ``dice`` dice on ``faces`` faces in which no face shows more than ``cap`` times."""
    ways = [1] + [0] * dice  # ways[d]: d of the dice placed on the faces seen so far
    for _ in range(faces):
        ways = [
            sum(comb(placed, j) * ways[placed - j] for j in range(min(cap, placed) + 1))
            for placed in range(dice + 1)
        ]
    return ways[dice]


def as_fractions(counts: Mapping[Key, int], total: int) -> dict[Key, Fraction]:
    """``counts`` out of ``total`` as exact chances, keys in sorted order, zero counts left out."""
    return {key: Fraction(counts[key], total) for key in sorted(counts) if counts[key]}


def clear_caches() -> None:
    """Forget this module's cached answers (for benchmarks; answers never change)."""
    for cached in (
        category_counts,
        most_alike_counts,
    ):
        cached.cache_clear()
