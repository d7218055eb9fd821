"""The stream overlay (``matches.views.match_overlay``): a watch-link page for streaming software,
for both games, with no controls, following the match through its own poll."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import Match
from tests.factories import make_match, tap

pytestmark = pytest.mark.django_db


def overlay_url(match: Match) -> str:
    return reverse("matches:match-overlay", args=[match.watch_slug])


def kt_tap(client, match, op):
    url = reverse("matches:kt-event", args=[match.pk])
    return client.post(url, {"op": op, "key": uuid.uuid4().hex}, headers={"HX-Request": "true"})


def test_the_watch_page_links_to_the_overlay_and_says_how_to_add_it_to_obs(player):
    match = make_match(player)
    html = Client().get(reverse("matches:match-watch", args=[match.watch_slug])).content.decode()
    assert f'<a href="{overlay_url(match)}">Open the stream overlay</a>' in html
    assert "in OBS add a Browser source" in html and "1920 × 1080" in html


def test_a_players_board_leaves_the_overlay_to_the_watch_page(client, player):
    match = make_match(player)
    html = client.get(reverse("matches:match-board", args=[match.pk])).content.decode()
    assert overlay_url(match) not in html  # the first load stays small: one click more


def test_a_wrong_watch_link_has_no_overlay(client, player):
    make_match(player)
    assert Client().get(reverse("matches:match-overlay", args=["nope"])).status_code == 404
    assert Client().get(reverse("matches:match-overlay", args=["x" * 22])).status_code == 404


def test_the_heavy_gear_overlay_shows_round_tv_models_and_the_last_three_changes(player, client):
    match = make_match(player)
    for op in ("roll a 5", "roll b 2", "first a", "mark b-1-1", "mark b-1-1"):
        assert tap(client, match, op).status_code == 200
    html = Client().get(overlay_url(match)).content.decode()
    assert "Round 1 · Activation" in html and "Initiative: <b>" in html
    assert html.count("<b>TV destroyed ") == 2
    assert html.count('class="ov-model ') == len(match.current_state().units)
    assert html.count("ov-model st-undamaged") == len(match.current_state().units) - 1
    log = html.split('id="ov-log"')[1]
    assert log.count("<li") == 3 and "#5" in log and "#3" in log and "#2" not in log


def test_the_kill_team_overlay_shows_turning_point_cp_and_each_operatives_wounds(client, kt_match):
    for op in ("roll a 5", "roll b 2", "initiative a a"):
        assert kt_tap(client, kt_match, op).status_code == 200
    html = Client().get(overlay_url(kt_match)).content.decode()
    assert "Turning point 1 · Strategy" in html and "Initiative: <b>Red team</b>" in html
    assert html.count(" CP</b>") == 2
    assert html.count('class="ov-model st-unhurt"') == 4 and "8/8 W" in html


def test_the_overlay_has_no_controls(client, kt_match, player):
    hgb = make_match(player)
    for match in (hgb, kt_match):
        html = Client().get(overlay_url(match)).content.decode()
        assert "<button" not in html and "<form" not in html and "<input" not in html
        assert 'name="op"' not in html and "csrf" not in html.lower()


def test_the_overlay_polls_itself_and_answers_204_until_something_changes(client, player):
    match = make_match(player)
    watcher = Client()
    html = watcher.get(overlay_url(match)).content.decode()
    assert f'hx-get="{overlay_url(match)}?seq=0&amp;joined=0"' in html
    poll = {"HTTP_HX_REQUEST": "true"}
    assert watcher.get(overlay_url(match), {"seq": 0, "joined": 0}, **poll).status_code == 204
    tap(client, match, "roll a 5")
    answer = watcher.get(overlay_url(match), {"seq": 0, "joined": 0}, **poll)
    parts = answer.content.decode()
    assert answer.status_code == 200 and "<html" not in parts
    assert parts.count('hx-swap-oob="true"') == 3 and "seq=1&amp;" in parts and "#1" in parts


@pytest.mark.parametrize("seq", ["", "x", "²", "-1"])
def test_a_malformed_poll_is_a_400(player, seq):
    match = make_match(player)
    answer = Client().get(overlay_url(match), {"seq": seq}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 400 and b"?seq=" in answer.content


def test_the_overlay_reads_a_bounded_number_of_queries(
    client, player, django_assert_max_num_queries
):
    match = make_match(player)
    for index in range(12):
        tap(client, match, "mark b-1-1" if index % 2 == 0 else "clear b-1-1")
    watcher = Client()
    with django_assert_max_num_queries(3):
        assert watcher.get(overlay_url(match)).status_code == 200
    with django_assert_max_num_queries(3):
        poll = watcher.get(overlay_url(match), {"seq": 0}, HTTP_HX_REQUEST="true")
        assert poll.status_code == 200
    with django_assert_max_num_queries(1):
        poll = watcher.get(overlay_url(match), {"seq": 12}, HTTP_HX_REQUEST="true")
        assert poll.status_code == 204
