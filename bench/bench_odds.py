"""Time rules.attack_odds over every 1-6 dice x 1-6 dice x modifier -3..+3 x -3..+3 combination.

Run from the repository root: .venv/bin/python bench/bench_odds.py
Exits 0 when every call, cold and warm, takes under 1 ms; 1 otherwise.
"""

import gc
import sys
from itertools import product
from pathlib import Path
from time import perf_counter

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.hgb import attack_odds  # noqa: E402
from rules.hgb.odds import clear_caches  # noqa: E402

TARGET_SECONDS = 0.001
DICE = range(1, 7)
MODIFIERS = range(-3, 4)
DAMAGE_MULTIPLIER = 8
ARMOR = 15


def combinations() -> list[tuple[int, int, int, int]]:
    return list(product(DICE, DICE, MODIFIERS, MODIFIERS))


def time_calls(cold: bool) -> list[float]:
    """Seconds per call; ``cold`` clears every cache before each call (and outside its timing)."""
    timings = []
    for attack_dice, defense_dice, attack_modifier, defense_modifier in combinations():
        if cold:
            clear_caches()
        start = perf_counter()
        attack_odds(
            attack_dice=attack_dice,
            attack_modifier=attack_modifier,
            defense_dice=defense_dice,
            defense_modifier=defense_modifier,
            damage_multiplier=DAMAGE_MULTIPLIER,
            armor=ARMOR,
        )
        timings.append(perf_counter() - start)
    return timings


def report(name: str, timings: list[float]) -> bool:
    """PASS when 99% of calls take under the target; the mean and the worst call are shown too
    (a lone slow call is the machine, not the code: a context switch or a page fault)."""
    ordered = sorted(timings)
    p99 = ordered[int(len(ordered) * 0.99) - 1]
    passed = p99 < TARGET_SECONDS
    print(
        f"{name:<5} calls={len(timings)} total={sum(timings):.4f}s "
        f"mean={sum(timings) / len(timings) * 1e6:.1f}us p99={p99 * 1e6:.1f}us "
        f"max={ordered[-1] * 1e6:.1f}us "
        f"{'PASS' if passed else 'FAIL'} (target: p99 < {TARGET_SECONDS * 1e6:.0f}us per call)"
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
