"""WWII skirmish matches: started from two forces with the running-gear setting chosen, every tap
an event with undo, applied once per key, the helpers' forms, who may act decided by
matches/access.py, bad ids 404 and bad values 400. Every figure is made up."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from armies.models import Owner
from matches.models import Match, MatchEvent
from matches.ww2.services import current_state, ww2_match_start
from tests.factories import make_user
from tests.ww2_factories import make_ww2_force

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(player):
    mine = make_ww2_force(player, name="Red force")
    theirs = make_ww2_force(player, name="Blue force")
    return ww2_match_start(
        owner=Owner(player.pk, None),
        player="jan",
        mine=mine,
        opponent=theirs,
        running_gear_counts=False,
    )


def tap(client, match, op, key=None, *, htmx=True):
    headers = {"HX-Request": "true"} if htmx else {}
    url = reverse("matches:ww2-event", args=[match.pk])
    return client.post(url, {"op": op, "key": key or uuid.uuid4().hex}, headers=headers)


def state_of(match):
    match.refresh_from_db()
    return current_state(match)


def helper(client, match, what, unit, data):
    url = reverse("matches:ww2-do", args=[match.pk, what, unit])
    return client.post(url, {"key": uuid.uuid4().hex, "seen": 0} | data)


def test_the_start_page_asks_the_running_gear_setting_with_no_default(client, player):
    mine = make_ww2_force(player, name="Red force")
    theirs = make_ww2_force(player, name="Blue force")
    url = reverse("matches:ww2-new")
    page = client.get(url).content.decode()
    assert "Does running-gear damage count as a damage?" in page and "checked" not in page
    data = {"name": "jan", "mine": f"roster:{mine.pk}", "opponent": f"roster:{theirs.pk}"}
    refused = client.post(url, data | {"key": "k" * 20}).content.decode()
    assert "Choose whether running-gear damage counts" in refused and not Match.objects.exists()
    response = client.post(url, data | {"key": "k" * 20, "running_gear": "yes"})
    match = Match.objects.get()
    assert response["Location"] == reverse("matches:match-board", args=[match.pk])
    client.post(url, data | {"key": "k" * 20, "running_gear": "yes"})  # sent twice: one match
    assert Match.objects.count() == 1 and match.system == "ww2"
    board = client.get(response["Location"]).content.decode()
    assert "Turn 1" in board and "T-34 no. 1" in board and "counts as a damage: <b>yes</b>" in board


def test_the_match_list_offers_a_ww2_match(client, player):
    html = client.get(reverse("matches:match-list")).content.decode()
    assert reverse("matches:ww2-new") in html


def test_damaging_a_tank_twice_loses_its_riders_then_destroys_it_and_dismounts_its_crew(
    client, match
):
    assert tap(client, match, "end-turn 1").status_code == 200
    helper(client, match, "board", "a-i2", {"vehicle": "a-v1"})
    assert state_of(match).soldier("a-i2").vehicle == "a-v1"
    html = tap(client, match, "hit a-v1 0 damaged").content.decode()
    assert "riders lost: Kozlov" in html
    html = tap(client, match, "hit a-v1 1 damaged").content.decode()
    assert "the crew survive and dismount" in html
    state = state_of(match)
    assert state.vehicle("a-v1").destroyed and state.soldier("a-v1c1").vehicle == ""


def test_a_double_tap_applies_once(client, match):
    key = uuid.uuid4().hex
    tap(client, match, "hit b-v1 0 damaged", key)
    tap(client, match, "hit b-v1 0 damaged", key)
    assert state_of(match).vehicle("b-v1").damage == 1
    assert MatchEvent.objects.filter(match=match).count() == 1


def test_a_stale_hit_changes_nothing_and_says_so(client, match):
    tap(client, match, "hit b-v1 0 damaged")
    html = tap(client, match, "hit b-v1 0 damaged").content.decode()
    assert "Nothing was changed" in html and state_of(match).vehicle("b-v1").damage == 1


def test_undo_last_takes_the_hit_back(client, match):
    tap(client, match, "hit b-v1 0 damaged")
    tap(client, match, "undo last")
    assert state_of(match).vehicle("b-v1").damage == 0


def test_the_gun_hit_helper_refuses_a_gun_not_above_the_armour(client, match):
    page = helper(
        client, match, "hit", "b-v1", {"gun_class": 4, "armour_class": 4, "result": "damaged"}
    )
    assert (
        page.status_code == 200 and "not above armour class 4: no damage" in page.content.decode()
    )
    assert state_of(match).vehicle("b-v1").damage == 0
    done = helper(
        client, match, "hit", "b-v1", {"gun_class": 5, "armour_class": 4, "result": "destroyed"}
    )
    assert done.status_code == 302 and state_of(match).vehicle("b-v1").destroyed


def test_running_gear_then_a_capture_takes_the_crew_prisoner(client, match):
    helper(client, match, "gear", "b-v1", {"weapon": "grenade", "strength": 16})
    html = tap(client, match, "move b-v1").content.decode()
    assert "cannot move until the end of the game" in html
    ticks = {"conditions": ["four_within_2", "no_friend_within_12"], "die": 12}
    assert helper(client, match, "capture", "b-v1", ticks).status_code == 302
    state = state_of(match)
    assert state.vehicle("b-v1").captured and state.soldier("b-v1c1").status == "prisoner"


def test_napalm_hit_and_miss(client, match):
    helper(client, match, "napalm", "a-v1", {"hit": "1", "destroyed": ["b-i2", "b-i3"]})
    state = state_of(match)
    assert state.soldier("b-i2").status == "dead" and state.vehicle("a-v1").napalm_used == 1
    page = helper(client, match, "napalm", "a-v1", {"hit": "0"})
    assert "no napalm card left" in page.content.decode()


def test_hand_to_hand_and_a_wounded_soldiers_test(client, match):
    data = {"enemy": "b-i2", "die": 5, "enemy_die": 2, "outcome": "wounded"}
    assert helper(client, match, "fight", "a-i2", data).status_code == 302
    assert state_of(match).soldier("b-i2").status == "wounded"
    tap(client, match, "end-turn 1")
    html = client.get(reverse("matches:match-board", args=[match.pk])).content.decode()
    assert "Wound tests due" in html and "test b-i2 recovered" in html
    tap(client, match, "test b-i2 recovered")
    assert state_of(match).soldier("b-i2").status == "recovering"


def test_an_ended_battle_shows_its_result(client, match):
    tap(client, match, "end-battle a")
    html = client.get(reverse("matches:ww2-summary", args=[match.pk])).content.decode()
    assert "Red force won" in html
    md = client.get(reverse("matches:ww2-log-md", args=[match.pk])).content.decode()
    assert "The battle ended: Red force won." in md


@pytest.mark.parametrize("op", ["hit a-v99 0 damaged", "wound a-i99 killed", "off zz"])
def test_a_wrong_id_is_a_404(client, match, op):
    assert tap(client, match, op).status_code == 404


@pytest.mark.parametrize(
    "op",
    ["hit a-v1 x damaged", "hit a-v1 0 burnt", "end-turn ٣", "fly a-v1", "wound a-i1 maimed", ""],
)
def test_a_malformed_value_is_a_400(client, match, op):
    assert tap(client, match, op).status_code == 400


def test_a_helper_for_a_wrong_unit_or_kind_is_a_404(client, match):
    for what, unit in (("hit", "a-i1"), ("fight", "a-v1"), ("nope", "a-v1"), ("hit", "zz")):
        url = reverse("matches:ww2-do", args=[match.pk, what, unit])
        assert client.get(url).status_code == 404


def test_a_malformed_helper_value_is_a_form_error(client, match):
    page = helper(client, match, "gear", "b-v1", {"weapon": "grenade", "strength": "lots"})
    assert page.status_code == 200 and "Enter a whole number" in page.content.decode()


def test_another_players_match_is_not_found(match):
    stranger = Client()
    stranger.force_login(make_user("eve"))
    assert tap(stranger, match, "end-turn 1").status_code == 404
    url = reverse("matches:ww2-do", args=[match.pk, "hit", "a-v1"])
    assert stranger.get(url).status_code == 404
    assert stranger.get(reverse("matches:ww2-summary", args=[match.pk])).status_code == 404


def test_a_tap_without_js_redirects_to_the_board(client, match):
    response = tap(client, match, "end-turn 1", htmx=False)
    assert response.status_code == 302 and state_of(match).turn == 2


def test_a_tap_costs_a_bounded_number_of_queries(client, match, django_assert_max_num_queries):
    tap(client, match, "end-turn 1")
    with django_assert_max_num_queries(12):
        tap(client, match, "hit b-v1 0 damaged")
    for turn in range(2, 12):
        tap(client, match, f"end-turn {turn}")
    with django_assert_max_num_queries(12):
        tap(client, match, "hit b-v1 1 damaged")


def test_the_csrf_check_holds_for_a_tap(player, match):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    assert tap(client, match, "end-turn 1").status_code == 403


def test_the_join_page_names_the_forces(match):
    page = Client().get(reverse("matches:match-join", args=[match.join_slug])).content.decode()
    assert "Join as Blue force" in page and "against\n<b>Red force</b>" in page


def test_the_watch_link_shows_the_board_without_controls(client, match):
    tap(client, match, "hit b-v1 0 damaged")
    page = Client().get(reverse("matches:match-watch", args=[match.watch_slug])).content.decode()
    assert "You are watching this match" in page and "T-34 no. 1 damaged" in page
    assert 'name="op"' not in page
    poll = reverse("matches:ww2-watch-poll", args=[match.watch_slug])
    assert Client().get(poll, {"seq": 0}).status_code == 200


def test_a_helper_form_sent_twice_applies_once(client, match):
    url = reverse("matches:ww2-do", args=[match.pk, "gear", "b-v1"])
    data = {"key": "same-key-0001", "seen": 0, "weapon": "grenade", "strength": 16}
    assert client.post(url, data).status_code == 302
    assert client.post(url, data).status_code == 302
    assert MatchEvent.objects.filter(match=match, kind="running_gear").count() == 1


def test_an_ended_battle_greys_only_the_units_that_are_out(client, match):
    tap(client, match, "hit b-v1 0 destroyed")
    tap(client, match, "end-battle a")
    html = client.get(reverse("matches:match-board", args=[match.pk])).content.decode()
    assert 'class="unit ww2-v c-destroyed out"' in html
    assert 'class="unit ww2-v c-intact"' in html and "1 vehicle destroyed" in html
