"""Time rules.killteam.shoot_damage_distribution for attacks 1..6 with every pair of two weapon
rules (all 22 rules in their 24 printed forms, with the figures below), cold and warm.

Run from the repository root: .venv/bin/python bench/bench_killteam.py
Exits 0 when the 95th percentile of calls, cold and warm, is under 5 ms; 1 otherwise. Each
call is timed three times and the fastest kept.
The figures are made up for timing: the core rules give no datacards.
"""

import gc
import sys
from itertools import combinations
from pathlib import Path
from time import perf_counter

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.killteam import clear_caches, shoot_damage_distribution  # noqa: E402
from rules.killteam.profile import weapon_rules  # noqa: E402

TARGET_SECONDS = 0.005
ATTACKS = range(1, 7)


def rule_texts() -> list[str]:
    """Each weapon rule as a profile prints it, with the text's own example x where it has one
    (Lethal 5+, Piercing 1, Devastating 3, Blast 2")."""
    return [kind.example for kind in weapon_rules()]


def calls() -> list[dict]:
    pairs = [
        list(pair)
        for pair in combinations(rule_texts(), 2)
        if pair[0].split()[0] != pair[1].split()[0]  # Piercing with Piercing Crits is kept
        or pair[0].startswith("Piercing")
    ]
    return [
        {
            "attacks": attacks,
            "hit": 3,
            "normal_damage": 3,
            "critical_damage": 4,
            "save": 4,
            "cover": True,
            "weapon_rules": pair,
        }
        for attacks in ATTACKS
        for pair in pairs
    ]


REPEATS = 3


def time_calls(cold: bool) -> list[float]:
    """Seconds per call, the fastest of ``REPEATS`` (as timeit does: a slower run measures the
    machine's other work, not the code); ``cold`` forgets every cached distribution before
    each run (outside its timing); the data files stay loaded, as in a running server."""
    timings = []
    for kwargs in calls():
        fastest = float("inf")
        for _ in range(REPEATS):
            if cold:
                clear_caches()
            start = perf_counter()
            shoot_damage_distribution(**kwargs)
            fastest = min(fastest, perf_counter() - start)
        timings.append(fastest)
    return timings


def report(name: str, timings: list[float]) -> bool:
    ordered = sorted(timings)
    p95 = ordered[int(len(ordered) * 0.95) - 1]
    passed = p95 < TARGET_SECONDS
    print(
        f"{name:<5} calls={len(timings)} mean={sum(timings) / len(timings) * 1e3:.3f}ms "
        f"p50={ordered[len(ordered) // 2] * 1e3:.3f}ms p95={p95 * 1e3:.3f}ms "
        f"max={ordered[-1] * 1e3:.3f}ms "
        f"{'PASS' if passed else 'FAIL'} (target: p95 < {TARGET_SECONDS * 1e3:.0f} ms per call)"
    )
    return passed


def main() -> int:
    gc.disable()  # time the code, not the collector
    cold = report("cold", time_calls(cold=True))
    time_calls(cold=False)  # fill the caches
    warm = report("warm", time_calls(cold=False))
    return 0 if cold and warm else 1


if __name__ == "__main__":
    sys.exit(main())
