"""The Heavy Gear Blitz pages of a match answer a Kill Team match with 404, never 500 (a quiet
poll of a match that has not changed answers 204 before it reads any state)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from armies.models import Owner
from matches.killteam.services import kt_match_start
from tests.factories import make_team

pytestmark = pytest.mark.django_db

HGB_ONLY = [
    ("matches:match-end-round", "GET"),
    ("matches:match-end", "GET"),
    ("matches:match-summary", "GET"),
    ("matches:match-log-md", "GET"),
    ("matches:match-event", "POST"),
    ("matches:match-poll", "GET"),
    ("matches:attack-helper", "GET"),
    ("matches:attack-ecm", "GET"),
    ("matches:attack-designation", "GET"),
]


@pytest.mark.parametrize(("name", "method"), HGB_ONLY)
def test_heavy_gear_pages_of_a_kill_team_match_are_404(client, player, name, method):
    team = make_team(player, operatives=1)
    match = kt_match_start(owner=Owner(player.pk, None), player="jan", mine=team, opponent=team)
    url = reverse(name, args=[match.pk])
    data = {"op": "mark a-1-1", "key": "k" * 20}
    response = client.get(url, {"seq": 5}) if method == "GET" else client.post(url, data)
    assert response.status_code == 404
