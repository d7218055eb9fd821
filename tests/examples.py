"""How many examples Hypothesis tries: the full runs, and the inner loop.

Two profiles, picked by the HYPOTHESIS_PROFILE environment variable:
- "blitz" (the default; `make test` and CI): Hypothesis' 100 examples a property, or the number
  a test asks for with ``@settings(max_examples=examples(150))``.
- "dev" (`make unit`, `make fast`): a tenth of that (at least 5), so the rules tests take
  seconds while working. The same properties run; they just try fewer cases.

Neither has Hypothesis' per-example deadline (200 ms): it measures the machine, not the rules,
and on a loaded CI machine an exact-odds example can take longer and fail a correct test. Speed
is measured in bench/, not in tests.
"""

from __future__ import annotations

import os

from hypothesis import settings

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "blitz")

settings.register_profile("blitz", deadline=None)
settings.register_profile("dev", parent=settings.get_profile("blitz"), max_examples=10)


def load_profile() -> None:
    """Make ``PROFILE`` the settings of every property test (an unknown name is an error)."""
    settings.load_profile(PROFILE)


def examples(full: int) -> int:
    """The examples a test that asks for ``full`` of them tries under ``PROFILE``."""
    return max(5, full // 10) if PROFILE == "dev" else full
