"""Fixtures shared by the app tests."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from tests.factories import make_team, make_user


@pytest.fixture
def player(client):
    """A signed-in player: the test client is logged in as them."""
    user = make_user()
    client.force_login(user)
    return user


@pytest.fixture
def kt_match(player):
    """A Kill Team match the player started: Red team against Blue team, two troopers each."""
    from armies.models import Owner
    from matches.killteam.services import kt_match_start

    mine = make_team(player, name="Red team", operatives=2)
    theirs = make_team(player, name="Blue team", operatives=2)
    return kt_match_start(owner=Owner(player.pk, None), player="jan", mine=mine, opponent=theirs)


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
