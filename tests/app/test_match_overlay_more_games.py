"""The stream overlay for the WWII skirmish and the mecha game (``matches.ww2.overlay``,
``matches.mecha.overlay``): the watch page links to it, it shows the turn, each side's units with
their state after some taps and the last three log lines, with no invented number, no controls and
a bounded number of queries."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from armies.models import Owner
from matches.mecha.services import mecha_match_start
from matches.ww2.services import ww2_match_start
from tests.mecha_forces import BLUE, make_force
from tests.ww2_factories import make_ww2_force

pytestmark = pytest.mark.django_db


@pytest.fixture
def ww2_match(player):
    return ww2_match_start(
        owner=Owner(player.pk, None),
        player="jan",
        mine=make_ww2_force(player, name="Red force"),
        opponent=make_ww2_force(player, name="Blue force"),
        running_gear_counts=False,
    )


@pytest.fixture
def mecha_match(player):
    return mecha_match_start(
        owner=Owner(player.pk, None),
        player="jan",
        mine=make_force(player, name="Red force"),
        opponent=make_force(player, name="Blue force", army=BLUE),
        ram_formula="half_then_add",
        ram_scope="every_ram",
    )


def overlay_url(match) -> str:
    return reverse("matches:match-overlay", args=[match.watch_slug])


def tap(client, match, op: str, **fields):
    url = reverse(f"matches:{match.system}-event", args=[match.pk])
    data = {"op": op, "key": uuid.uuid4().hex, **fields}
    answer = client.post(url, data, headers={"HX-Request": "true"})
    assert answer.status_code == 200
    return answer


def ww2_helper(client, match, what: str, unit: str, data: dict) -> None:
    url = reverse("matches:ww2-do", args=[match.pk, what, unit])
    assert client.post(url, {"key": uuid.uuid4().hex, "seen": 0} | data).status_code == 302


def unit_row(html: str, name: str) -> tuple[str, str]:
    """The overlay's line of the unit called ``name``: its state (the colour) and its words."""
    row = re.compile(rf'<li class="ov-model st-([\w-]+)">\s*<span class="ov-name">{name}</span>')
    found = re.search(row.pattern + r"(.*?)</li>", html, re.S)
    assert found, name
    return found[1], " ".join(re.sub(r"<[^>]+>", " ", found[2]).split())


@pytest.mark.parametrize("game", ["ww2_match", "mecha_match"])
def test_the_watch_page_links_to_the_overlay(game, request):
    match = request.getfixturevalue(game)
    html = Client().get(reverse("matches:match-watch", args=[match.watch_slug])).content.decode()
    assert f'<a href="{overlay_url(match)}">Open the stream overlay</a>' in html
    overlay = Client().get(overlay_url(match))
    assert overlay.status_code == 200 and 'class="ov-turn"' in overlay.content.decode()


@pytest.mark.parametrize("game", ["ww2_match", "mecha_match"])
def test_a_wrong_watch_link_has_no_overlay(game, request):
    match = request.getfixturevalue(game)
    slug = match.watch_slug[:-1] + ("A" if match.watch_slug[-1] != "A" else "B")
    assert Client().get(reverse("matches:match-overlay", args=[slug])).status_code == 404
    assert Client().get(f"/matches/watch/{match.pk}/overlay/").status_code == 404


def test_the_ww2_overlay_shows_the_turn_losses_and_each_vehicle_and_soldier(client, ww2_match):
    match = ww2_match
    tap(client, match, "hit a-v1 0 damaged")
    tap(client, match, "wound b-i2 wounded")
    tap(client, match, "wound b-i3 killed")
    ww2_helper(client, match, "gear", "b-v1", {"weapon": "grenade", "strength": 16})
    ticks = {"conditions": ["four_within_2", "no_friend_within_12"], "die": 12}
    ww2_helper(client, match, "capture", "b-v1", ticks)
    tap(client, match, "end-turn 1")
    html = Client().get(overlay_url(match)).content.decode()
    assert '<p class="ov-round">Turn 2</p>' in html
    assert "Initiative" not in html  # the rules text gives none
    red, blue = html.split('id="ov-side-b"')
    assert unit_row(red, "T-34 no. 1") == ("damaged", "Damaged")
    assert unit_row(red, "ZiS truck") == ("intact", "Intact")
    assert unit_row(blue, "T-34 no. 1") == (
        "captured",
        "Intact · captured",
    )  # running gear: no damage here
    assert unit_row(blue, "Kozlov") == ("wounded", "Wounded")
    assert unit_row(blue, "Belov") == ("dead", "Dead")
    assert unit_row(blue, "Ivanov") == ("prisoner", "Prisoner")  # the captured tank's crew
    assert unit_row(red, "Kozlov") == ("healthy", "Healthy")
    assert "<b>Losses: 0 soldiers (0 prisoners)</b>" in red
    assert '<span class="ov-tally">· 0 vehicles destroyed</span>' in red
    assert "<b>Losses: 3 soldiers (2 prisoners)</b>" in blue
    log = html.split('id="ov-log"')[1]
    assert log.count("<li") == 3 and "Turn 1 ended." in log
    assert "<button" not in html and "<form" not in html and "<input" not in html


def test_the_mecha_overlay_shows_the_damage_count_and_action_counters(client, mecha_match):
    match = mecha_match
    tap(client, match, "damage a-1", **{"dmg-a-1": "3"})
    tap(client, match, "move b-1", **{"ac-b-1": "1"})
    tap(client, match, "end-match draw")
    html = Client().get(overlay_url(match)).content.decode()
    assert '<p class="ov-round">Turn 1</p>' in html and "Match over: a draw" in html
    red, blue = html.split('id="ov-side-b"')
    assert unit_row(red, "Zaku") == ("hit", "Damage taken: 3 AC 0 spent, 3 left of 3")
    assert "st-destroyed" not in html and "destroyed" not in html.lower()  # no damage track
    assert "Damage taken: 0" in blue and "AC 1 spent" in blue
    assert 'class="ov-score"' not in html  # the text gives the mecha game no score
    assert html.split('id="ov-log"')[1].count("<li") == 3


@pytest.mark.parametrize("game", ["ww2_match", "mecha_match"])
def test_the_overlay_reads_a_bounded_number_of_queries(
    game, request, client, django_assert_max_num_queries
):
    match = request.getfixturevalue(game)
    for index in range(12):
        tap(client, match, f"end-turn {index + 1}")
    watcher = Client()
    with django_assert_max_num_queries(3):
        assert watcher.get(overlay_url(match)).status_code == 200
    with django_assert_max_num_queries(3):
        poll = watcher.get(overlay_url(match), {"seq": 0}, HTTP_HX_REQUEST="true")
        assert poll.status_code == 200 and "Turn 13" in poll.content.decode()
    with django_assert_max_num_queries(1):
        poll = watcher.get(overlay_url(match), {"seq": 12}, HTTP_HX_REQUEST="true")
        assert poll.status_code == 204
