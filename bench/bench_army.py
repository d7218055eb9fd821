"""Benchmark: roster_cost + roster_problems on a 60-model roster (target: 2 ms together).

Run from the repository root: ``.venv/bin/python bench/bench_army.py [RUNS]``.
The roster is 12 Northern combat groups of 5 models (the starter force's two squads, alternating)
with weapon swaps and veteran upgrades, so that every check has work to do: it breaks several
limits on purpose.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.hgb.army import (  # noqa: E402
    Roster,
    add_group,
    new_roster,
    roster_cost,
    roster_problems,
    set_group_upgrade,
    set_option,
    set_tv_limit,
)
from rules.hgb.catalog import Catalog, load_catalog  # noqa: E402

TARGET_MS = 2.0


def build_roster(catalog: Catalog) -> Roster:
    """12 North groups of 5 (60 models) with swaps and veteran upgrades."""
    roster = set_tv_limit(new_roster(catalog, "north", "Bench"), 5000)
    for index in range(12):
        squad = "north_general_purpose" if index % 2 == 0 else "north_fire_support"
        roster = add_group(roster, catalog, squad)
        if squad == "north_general_purpose":
            roster = set_option(roster, catalog, index, 0, "north_mac", True)
            roster = set_option(roster, catalog, index, 1, "north_snub_cannon", True)
            if index % 4 == 0:
                roster = set_option(roster, catalog, index, 2, "north_fgc", True)  # a third
        else:
            roster = set_option(roster, catalog, index, 3, "north_grizzly_mbzk", True)
            if index % 3 == 0:
                roster = set_group_upgrade(roster, catalog, index, "north_veteran_command", True)
    return roster


def main(runs: int = 2000) -> int:
    catalog = load_catalog()
    roster = build_roster(catalog)
    models = sum(len(group.models) for group in roster.groups)
    for _ in range(50):  # warm up
        roster_cost(roster, catalog)
        roster_problems(roster, catalog)
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        cost = roster_cost(roster, catalog)
        problems = roster_problems(roster, catalog)
        timings.append((time.perf_counter() - start) * 1000)
    timings.sort()
    mean = statistics.fmean(timings)
    p95 = timings[int(len(timings) * 0.95) - 1]
    verdict = "PASS" if p95 <= TARGET_MS else "FAIL"
    print(
        f"roster_cost + roster_problems: {len(roster.groups)} groups, {models} models, "
        f"{cost.total} TV, {len(problems)} problems"
    )
    print(f"runs {runs}: mean {mean:.3f} ms, p95 {p95:.3f} ms, target {TARGET_MS} ms: {verdict}")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000))
