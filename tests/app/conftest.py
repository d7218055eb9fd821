"""Fixtures shared by the app tests."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from tests.factories import make_user


@pytest.fixture
def player(client):
    """A signed-in player: the test client is logged in as them."""
    user = make_user()
    client.force_login(user)
    return user


@pytest.fixture
def clock():
    """Moves Django's and axes' clock: ``clock.advance(seconds)``."""
    real_now = timezone.now
    offset = {"delta": timedelta()}

    def now():
        return real_now() + offset["delta"]

    def advance(seconds):
        offset["delta"] += timedelta(seconds=seconds)

    with (
        mock.patch("django.utils.timezone.now", now),
        mock.patch("axes.handlers.proxy.now", now),
    ):
        yield mock.Mock(advance=advance)
