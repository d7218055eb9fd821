"""Budgets: a damage tap costs at most 6 queries whatever the size of the match and answers under
3 KB; a poll when nothing changed costs at most 2 queries and renders no template."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.signals import template_rendered
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import make_big_roster, make_match, make_user, tap

pytestmark = pytest.mark.django_db

# The budgets are 6 and 2; with the seat cookie a tap does not load the session (the
# test counts SAVEPOINT, the locked read, INSERT, UPDATE, RELEASE) and a poll reads one row.
TAP_QUERIES = 5
TAP_BYTES = 3 * 1024
POLL_QUERIES = 1


def match_with(user, models: int):
    match = make_match(user, roster=make_big_roster(user, models // 5))
    assert len(match.current_state().side("a").units) == models
    return match


def seated(client, match):
    """The board was opened once on this device: the seat is remembered in the session."""
    assert client.get(reverse("matches:match-board", args=[match.pk])).status_code == 200


@pytest.mark.parametrize("models", [10, 60])
def test_a_damage_tap_stays_within_budget_whatever_the_size(
    client, player, models, django_assert_max_num_queries
):
    match = match_with(player, models)
    seated(client, match)
    tap(client, match, "mark a-1-1")  # warm up: the first tap of a request cycle
    with django_assert_max_num_queries(TAP_QUERIES):
        response = tap(client, match, "mark a-2-1")
    assert response.status_code == 200
    assert len(response.content) < TAP_BYTES, len(response.content)


def test_a_damage_tap_costs_the_same_for_10_and_60_models(client, player):
    counts = []
    for models in (10, 60):
        match = match_with(player, models)
        seated(client, match)
        with CaptureQueriesContext(connection) as queries:
            tap(client, match, "mark a-1-1")
        counts.append(len(queries))
    assert counts[0] == counts[1] <= TAP_QUERIES


def test_the_biggest_tap_response_is_under_3_kb(client, player):
    # The fullest card: a Hunter with a Heavy Panzerfaust, and a warning on it.
    match = make_match(player)
    seated(client, match)
    response = tap(client, match, "speed a-1-1 top")
    assert (
        "Fire HPZF" in response.content.decode() and "Top Speed costs" in response.content.decode()
    )
    assert len(response.content) < TAP_BYTES, len(response.content)


@pytest.fixture
def rendered():
    templates = []

    def record(sender, template, **kwargs):
        templates.append(template.name)

    template_rendered.connect(record)
    yield templates
    template_rendered.disconnect(record)


def test_an_unchanged_poll_costs_one_query_and_renders_nothing(
    client, player, rendered, django_assert_max_num_queries
):
    match = make_match(player)
    seated(client, match)
    tap(client, match, "mark a-1-1")
    rendered.clear()
    url = reverse("matches:match-poll", args=[match.pk]) + "?seq=1"
    with django_assert_max_num_queries(POLL_QUERIES):
        response = client.get(url)
    assert response.status_code == 204 and response.content == b""
    assert rendered == []
    assert "no-store" in response["Cache-Control"]


def test_an_unchanged_watch_poll_costs_one_query(
    client, player, rendered, django_assert_num_queries
):
    match = make_match(player)
    url = reverse("matches:match-watch-poll", args=[match.watch_slug]) + "?seq=0"
    with django_assert_num_queries(1):
        response = client.get(url)
    assert response.status_code == 204 and rendered == []


def test_a_changed_poll_sends_the_changed_cards_and_the_new_position(client, player):
    match = make_match(player)
    seated(client, match)
    tap(client, match, "mark b-1-1")
    tap(client, match, "mark b-2-2")
    response = client.get(reverse("matches:match-poll", args=[match.pk]) + "?seq=1")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="unit-b-2-2"' in html and 'id="unit-b-1-1"' not in html
    assert f'hx-get="/matches/{match.pk}/poll?seq=2&amp;joined=0"' in html
    assert '<section id="match-log" class="log" hx-swap-oob="true"' in html


def test_polling_goes_on_after_the_match_has_ended(client, player):
    """An undo of "End match" on the other device must still reach this one."""
    match = make_match(player)
    seated(client, match)
    client.post(reverse("matches:match-end", args=[match.pk]), {"winner": "a", "key": "end-00001"})
    response = client.get(reverse("matches:match-poll", args=[match.pk]) + "?seq=0")
    assert response.status_code == 200
    assert "Match over: Northern Guard won." in response.content.decode()
    poller = response.content.decode().split('id="poller"')[1]
    assert f'hx-get="/matches/{match.pk}/poll?seq=1' in poller
    response = client.get(reverse("matches:match-poll", args=[match.pk]) + "?seq=1")
    assert response.status_code == 204 and response.content == b""


@pytest.mark.parametrize("seq", ["", "x", "-1", "1" * 12])
def test_a_malformed_poll_is_400(client, player, seq):
    match = make_match(player)
    response = client.get(reverse("matches:match-poll", args=[match.pk]) + f"?seq={seq}")
    assert response.status_code == 400
    assert "?seq=<number>" in response.content.decode()


def test_polling_a_match_i_am_not_in_is_404(player):
    from django.test import Client

    match = make_match(player)
    stranger = Client()
    stranger.force_login(make_user("mallory"))
    assert (
        stranger.get(reverse("matches:match-poll", args=[match.pk]) + "?seq=0").status_code == 404
    )
    assert stranger.get(reverse("matches:match-poll", args=[9999]) + "?seq=0").status_code == 404
