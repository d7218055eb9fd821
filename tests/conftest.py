"""Fixtures shared by the whole suite."""

from __future__ import annotations

import pytest
from hypothesis import settings as hypothesis_settings

from tests.caches import clear_process_caches


def pytest_report_header(config):
    from django.conf import settings

    engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    return f"blitz database backend: {engine}"


# Hypothesis' per-example deadline (200 ms) measures the machine, not the rules: on a loaded CI
# machine an exact-odds example can take longer and fail a correct test. Speed is measured in
# bench/, not in tests.
hypothesis_settings.register_profile("blitz", deadline=None)
hypothesis_settings.load_profile("blitz")


@pytest.fixture(autouse=True)
def _fresh_process_caches():
    """Each test starts with every process-level cache empty (see tests/caches.py), so no test
    passes or fails because of what an earlier one left in memory."""
    clear_process_caches()
