"""Fixtures shared by the whole suite."""

from __future__ import annotations


def pytest_report_header(config):
    from django.conf import settings

    engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    return f"blitz database backend: {engine}"
