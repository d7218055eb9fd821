"""Budgets of the odds update, the request the helper sends at every input change: a fixed number
of queries whatever the size of the match (one, once the board has handed out the seat cookie),
and a small answer."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import make_big_roster, make_match

pytestmark = pytest.mark.django_db

ODDS_QUERIES = 1
ODDS_BYTES = 4 * 1024
ODDS = {"HX-Request": "true", "HX-Target": "attack-odds"}


def match_with(client, user, models: int):
    match = make_match(user, roster=make_big_roster(user, models // 5))
    assert len(match.current_state().side("a").units) == models
    client.get(reverse("matches:match-board", args=[match.pk]))  # the seat cookie
    return match


def odds_update(client, match, cover: str = "open"):
    data = {
        "f": "1",
        "attacker": "a-1-1",
        "weapon": "0",
        "target": "b-1-1",
        "amove": "0",
        "acc": "0",
        "dm": "9",
        "dmove.b-1-1": "-1",
        "armor.b-1-1": "13",
        "band.b-1-1": "medium",
        "cover.b-1-1": cover,
        "att": "5 3",
        "def.b-1-1": "4 2",
    }
    url = reverse("matches:attack-helper", args=[match.pk])
    return client.get(url, data, headers=ODDS)


@pytest.mark.parametrize("models", [10, 60])
def test_an_odds_update_stays_within_budget_whatever_the_size(
    client, player, models, django_assert_max_num_queries
):
    match = match_with(client, player, models)
    odds_update(client, match)  # the helper's first answer reads the state and the weapons once
    with django_assert_max_num_queries(ODDS_QUERIES):
        response = odds_update(client, match, cover="partial")
    html = response.content.decode()
    assert response.status_code == 200 and "Partial cover" in html and "to hit" in html
    assert len(response.content) < ODDS_BYTES, len(response.content)


def test_an_odds_update_costs_the_same_for_10_and_60_models(client, player):
    counts, sizes = [], []
    for models in (10, 60):
        match = match_with(client, player, models)
        odds_update(client, match)
        with CaptureQueriesContext(connection) as queries:
            response = odds_update(client, match, cover="full")
        counts.append(len(queries))
        sizes.append(len(response.content))
    assert counts[0] == counts[1] <= ODDS_QUERIES
    assert sizes[0] == sizes[1]
