"""Fixtures shared by the app tests."""

from __future__ import annotations

import pytest

from tests.factories import make_user


@pytest.fixture
def player(client):
    """A signed-in player: the test client is logged in as them."""
    user = make_user()
    client.force_login(user)
    return user
