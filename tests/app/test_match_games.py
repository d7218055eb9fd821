"""A game's pages serve only its own matches: walking each game's URLs (matches/hgb/urls.py,
matches/killteam/urls.py) with a match of the other game, its player is told there is no such
page (404), whatever they send, and nothing is stored. The board and the watch page, which every
match has, draw the match's own game."""

from __future__ import annotations

import pytest
from django.urls import URLPattern, reverse

from matches.hgb import urls as hgb_urls
from matches.killteam import urls as kt_urls
from matches.models import Match, MatchEvent
from tests.factories import make_match

pytestmark = pytest.mark.django_db

# Well formed for each game's taps and helpers, so a refusal is about the game, not the input.
BODY = {"op": "mark b-1-1", "key": "games-walk-key-0001", "round": "1", "screen": "1", "on": "1"}
QUERY = "?seq=0"


def pages(patterns: list[URLPattern], converter: str) -> list[URLPattern]:
    return [p for p in patterns if converter in p.pattern.converters]


def url_of(pattern: URLPattern, match: Match) -> str:
    if "slug" in pattern.pattern.converters:
        return reverse(f"matches:{pattern.name}", kwargs={"slug": match.watch_slug}) + QUERY
    return reverse(f"matches:{pattern.name}", kwargs={"pk": match.pk}) + QUERY


def assert_untouched(match: Match) -> None:
    after = Match.objects.get(pk=match.pk)
    assert (after.seq, after.updated_at) == (match.seq, match.updated_at)
    assert not MatchEvent.objects.filter(match=match).exists()


HGB_PAGES = pages(hgb_urls.urlpatterns, "pk") + pages(hgb_urls.urlpatterns, "slug")
KT_PAGES = pages(kt_urls.urlpatterns, "pk") + pages(kt_urls.urlpatterns, "slug")


def test_the_walk_finds_each_games_pages():
    assert {"match-event", "match-poll", "attack-helper", "match-watch-poll"} <= {
        p.name for p in HGB_PAGES
    }
    assert {"kt-event", "kt-poll", "kt-shoot", "kt-watch-poll"} <= {p.name for p in KT_PAGES}


@pytest.mark.parametrize("pattern", HGB_PAGES, ids=[p.name for p in HGB_PAGES])
def test_a_heavy_gear_page_of_a_kill_team_match_does_not_exist(pattern, client, kt_match):
    url = url_of(pattern, kt_match)
    statuses = {client.get(url).status_code, client.post(url, BODY).status_code}
    assert statuses <= {400, 404, 405} and 404 in statuses, statuses
    assert_untouched(kt_match)


@pytest.mark.parametrize("pattern", KT_PAGES, ids=[p.name for p in KT_PAGES])
def test_a_kill_team_page_of_a_heavy_gear_match_does_not_exist(pattern, client, player):
    match = make_match(player)
    url = url_of(pattern, match)
    statuses = {client.get(url).status_code, client.post(url, BODY).status_code}
    assert statuses <= {400, 404, 405} and 404 in statuses, statuses
    assert_untouched(match)


def test_the_board_draws_the_matchs_own_game(client, player, kt_match):
    hgb = make_match(player)
    for match, mine, other in (
        (hgb, "matches:match-event", "matches:kt-event"),
        (kt_match, "matches:kt-event", "matches:match-event"),
    ):
        board = client.get(reverse("matches:match-board", args=[match.pk])).content.decode()
        assert reverse(mine, args=[match.pk]) in board
        assert reverse(other, args=[match.pk]) not in board
