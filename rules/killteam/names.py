"""Operatives told apart: names that repeat within a side are numbered in team order."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence


def numbered_names(names: Sequence[str]) -> tuple[str, ...]:
    """The names of one side's operatives, in team order, with each name that repeats numbered
    from 1 ("Gunner 1", "Gunner 2"); a name given once stays as it is. A number that would give
    the name of another operative is skipped, so the names that come out are all different
    (numbering them again changes nothing)."""
    repeats = Counter(names)
    taken = {name for name in names if repeats[name] == 1}
    next_number: dict[str, int] = {}
    numbered = []
    for name in names:
        if repeats[name] == 1:
            numbered.append(name)
            continue
        number = next_number.get(name, 1)
        while f"{name} {number}" in taken:
            number += 1
        next_number[name] = number + 1
        taken.add(f"{name} {number}")
        numbered.append(f"{name} {number}")
    return tuple(numbered)
