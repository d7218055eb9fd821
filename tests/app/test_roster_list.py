"""My rosters: sorted by name, faction, TV or last change, filtered by name; plain GET forms."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
from django.urls import reverse
from django.utils import timezone

import rules.hgb
from armies.hgb.services import roster_create
from armies.models import Owner, Roster
from tests.factories import make_user

pytestmark = pytest.mark.django_db

LIST = reverse("armies:roster-list")


def make(user, preset: str, name: str) -> Roster:
    return roster_create(owner=Owner(user.pk, None), preset=preset, name=name)


@pytest.fixture
def four(client, player):
    make(player, "north_starter", "Bravo")  # 610 TV, Northern Guard
    make(player, "south_starter", "alpha")  # Southern Republic
    make(player, "peace_river_starter", "Charlie")
    north = make(player, "north_starter", "Delta")
    catalog = rules.hgb.default_catalog()
    army = rules.hgb.roster_from_dict(north.army, catalog)
    army = rules.hgb.remove_group(army, 1)  # cheaper than every other
    Roster.objects.filter(pk=north.pk).update(army=rules.hgb.roster_to_dict(army))
    now = timezone.now()
    for age, name in enumerate(["Charlie", "Delta", "alpha", "Bravo"]):  # Charlie changed last
        Roster.objects.filter(name=name).update(updated_at=now - timedelta(hours=age))
    return player


def names(response) -> list[str]:
    html = response.content.decode()
    return re.findall(r'<h2><a href="/armies/\d+/">([^<]+)</a></h2>', html)


def test_the_default_is_last_changed_first(client, four):
    assert names(client.get(LIST)) == ["Charlie", "Delta", "alpha", "Bravo"]


@pytest.mark.parametrize(
    ("sort", "expected"),
    [
        ("name", ["alpha", "Bravo", "Charlie", "Delta"]),
        ("faction", ["Bravo", "Delta", "Charlie", "alpha"]),  # Northern, Peace River, Southern
        ("changed", ["Charlie", "Delta", "alpha", "Bravo"]),
    ],
)
def test_sorting_by_name_faction_and_last_change(client, four, sort, expected):
    response = client.get(LIST, {"sort": sort})
    assert names(response) == expected
    assert f'<option value="{sort}" selected>' in response.content.decode()


def test_sorting_by_tv_puts_the_biggest_first(client, four):
    order = names(client.get(LIST, {"sort": "tv"}))
    assert order[-1] == "Delta"  # one group left: the cheapest
    assert set(order[:3]) == {"alpha", "Bravo", "Charlie"}


@pytest.mark.parametrize("sort", ["nope", "-name", "name;drop", "", "tv\x00"])
def test_an_unknown_sort_falls_back_to_the_default(client, four, sort):
    response = client.get(LIST, {"sort": sort})
    assert response.status_code == 200
    assert names(response) == ["Charlie", "Delta", "alpha", "Bravo"]


def test_filtering_by_name_ignores_case(client, four):
    response = client.get(LIST, {"q": "  ALPHA ", "sort": "name"})
    html = unescape(response.content.decode())
    assert names(response) == ["alpha"]
    assert "1 roster with “ALPHA” in the name." in html
    assert 'value="ALPHA"' in html and "Clear the filter" in html


def test_a_filter_that_matches_nothing_says_so(client, four):
    html = unescape(client.get(LIST, {"q": "zzz"}).content.decode())
    assert "No roster has “zzz” in its name." in html


def test_a_filter_with_a_nul_is_a_form_error_not_a_500(client, four):
    response = client.get(LIST + "?q=al%00pha")
    assert response.status_code == 200
    assert "can't contain control characters" in unescape(response.content.decode())
    assert len(names(response)) == 4


def test_the_form_is_a_plain_get_form(client, four):
    html = client.get(LIST).content.decode()
    assert '<form class="list-tools" method="get" action="/armies/"' in html
    assert 'name="q"' in html and 'name="sort"' in html


def test_another_players_rosters_never_show(client, four):
    make(make_user("eve"), "north_starter", "Eve's alpha")
    assert "Eve" not in client.get(LIST, {"q": "alpha"}).content.decode()


@pytest.mark.parametrize("sort", ["changed", "name", "faction", "tv"])
def test_the_list_query_count_does_not_grow_with_the_rosters(
    client, player, sort, django_assert_num_queries
):
    def count() -> int:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as queries:
            assert client.get(LIST, {"sort": sort, "q": "o"}).status_code == 200
        return len(queries)

    make(player, "north_starter", "one")
    few = count()
    for n in range(8):
        make(player, "south_starter", f"roster {n}")
    assert count() == few
