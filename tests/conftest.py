"""Fixtures shared by the whole suite."""

from __future__ import annotations

import pytest

from tests.caches import clear_process_caches, stop_push_listener
from tests.examples import load_profile


def pytest_report_header(config):
    from django.conf import settings

    engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    return f"blitz database backend: {engine}"


# The full Hypothesis profile, or the inner loop's with HYPOTHESIS_PROFILE=dev (tests/examples.py).
load_profile()


@pytest.fixture(autouse=True)
def _fresh_process_caches():
    """Each test starts with every process-level cache empty (see tests/caches.py), so no test
    passes or fails because of what an earlier one left in memory; and none leaves the push's
    listening connection open."""
    clear_process_caches()
    yield
    stop_push_listener()
