"""Every page that draws a whole roster or a whole match costs the same number of queries for
10 models as for 100 (the size bound), and for a short match as for a long one: no query per
model, per card or per log line."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from armies.models import Owner
from matches.hgb.services import SideChoice, match_start
from matches.models import Match
from tests.factories import make_big_roster, tap

pytestmark = pytest.mark.django_db

MOST_QUERIES = 12  # the heaviest page: session, user, match, events, seat checks


def two_armies(user, models: int) -> Match:
    """A match of two ``models``-model Northern armies (``make_big_roster``: groups of 5)."""
    mine, theirs = make_big_roster(user, models // 5), make_big_roster(user, models // 5)
    match = match_start(
        owner=Owner(user.pk, None),
        player=user.username,
        mine=SideChoice(Match.Source.ROSTER, roster=mine),
        opponent=SideChoice(Match.Source.ROSTER, roster=theirs),
    )
    assert [len(side.units) for side in match.current_state().sides] == [models, models]
    return match


def played(client, match: Match, events: int) -> Match:
    units = [unit.id for unit in match.current_state().units]
    for n in range(events):
        unit, box = units[n % len(units)], n // len(units) + 1
        assert tap(client, match, f"mark {unit} {box}").status_code == 200
    return match


def queries(client, url: str) -> int:
    client.get(url)  # warm: the first request of a cycle reads the session and the seat
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(captured)


MATCH_PAGES = [
    ("matches:match-board", ""),
    ("matches:match-summary", ""),
    ("matches:match-log-md", ""),
    ("matches:attack-helper", "?attacker=a-1-1"),
]


@pytest.mark.parametrize(("name", "query"), MATCH_PAGES)
def test_match_pages_cost_the_same_for_10_and_100_models_a_side(client, player, name, query):
    counts = []
    for models in (10, 100):
        match = played(client, two_armies(player, models), 6)
        counts.append(queries(client, reverse(name, args=[match.pk]) + query))
    assert counts[0] == counts[1] <= MOST_QUERIES, counts


@pytest.mark.parametrize(("name", "query"), MATCH_PAGES)
def test_match_pages_cost_the_same_for_a_short_and_a_long_match(client, player, name, query):
    # One event, not none: the summary pages its log, and an empty log needs no row query.
    match = played(client, two_armies(player, 10), 1)
    short = queries(client, reverse(name, args=[match.pk]) + query)
    played(client, match, 60)
    long = queries(client, reverse(name, args=[match.pk]) + query)
    assert short == long <= MOST_QUERIES, (short, long)


@pytest.mark.parametrize(
    ("name", "query"),
    [
        ("matches:match-summary", ""),
        ("matches:match-summary", "?page=2"),
        ("matches:match-summary", "?page=99"),
        ("matches:match-log-md", ""),
    ],
)
def test_the_summary_and_the_log_cost_the_same_for_any_number_of_events(
    client, player, name, query, monkeypatch, django_assert_max_num_queries
):
    monkeypatch.setattr("matches.logs.SUMMARY_PAGE", 4)  # 10 events: pages of 4, 4 and 2
    match = played(client, two_armies(player, 10), 10)
    url = reverse(name, args=[match.pk]) + query
    ten = queries(client, url)
    played(client, match, 30)  # 40 events: ten full pages
    client.get(url)
    with django_assert_max_num_queries(ten):
        response = client.get(url)
    assert response.status_code == 200
    assert ten <= MOST_QUERIES


def test_the_watch_pages_cost_the_same_for_10_and_100_models(client, player):
    counts = []
    for models in (10, 100):
        match = played(client, two_armies(player, models), 6)
        board = queries(client, reverse("matches:match-watch", args=[match.watch_slug]))
        summary = queries(client, reverse("matches:match-watch-summary", args=[match.watch_slug]))
        counts.append((board, summary))
    assert counts[0] == counts[1], counts


@pytest.mark.parametrize(
    "name", ["armies:roster-cards", "armies:roster-edit", "armies:roster-text"]
)
def test_roster_pages_cost_the_same_for_10_and_100_models(
    client, player, name, django_assert_max_num_queries
):
    counts = []
    for groups in (2, 20):
        roster = make_big_roster(player, groups)
        counts.append(queries(client, reverse(name, args=[roster.pk])))
    assert counts[0] == counts[1], counts
    with django_assert_max_num_queries(MOST_QUERIES):
        client.get(reverse(name, args=[roster.pk]))


def test_the_share_page_costs_the_same_for_10_and_100_models(client, player):
    counts = []
    for groups in (2, 20):
        roster = make_big_roster(player, groups)
        counts.append(queries(client, reverse("roster-shared", args=[roster.share_slug])))
    assert counts[0] == counts[1], counts
