"""Mecha matches: started from two forces with the ram reading the players pick, every tap an
event with undo, applied once per key, the attack page's exact damage, who may act decided by
matches/access.py. Every figure is made up (the rules text gives no profiles)."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from armies.models import Owner
from matches.mecha.services import current_state, mecha_match_start
from matches.models import Match, MatchEvent
from tests.factories import make_user
from tests.mecha_forces import BLUE, make_force

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(player):
    mine = make_force(player, name="Red force")
    theirs = make_force(player, name="Blue force", army=BLUE)
    return mecha_match_start(
        owner=Owner(player.pk, None),
        player="jan",
        mine=mine,
        opponent=theirs,
        ram_formula="half_then_add",
        ram_scope="every_ram",
    )


def tap(client, match, op, key=None, *, htmx=True, **fields):
    headers = {"HX-Request": "true"} if htmx else {}
    url = reverse("matches:mecha-event", args=[match.pk])
    return client.post(url, {"op": op, "key": key or uuid.uuid4().hex, **fields}, headers=headers)


def attack(client, match, key=None, **fields):
    url = reverse("matches:mecha-attack-apply", args=[match.pk])
    return client.post(url, {"key": key or uuid.uuid4().hex, **fields})


def state_of(match):
    match.refresh_from_db()
    return current_state(match)


def test_the_start_page_asks_for_the_ram_reading_with_no_default_and_starts_a_match(client, player):
    mine = make_force(player, name="Red force")
    theirs = make_force(player, name="Blue force", army=BLUE)
    url = reverse("matches:mecha-new")
    page = client.get(url).content.decode()
    assert "Half, then add Armour" in page and "checked" not in page
    data = {"name": "jan", "mine": f"roster:{mine.pk}", "opponent": f"roster:{theirs.pk}"}
    refused = client.post(url, data | {"key": "k" * 20}).content.decode()
    assert "the rules text can be read either way" in refused and not Match.objects.exists()
    reading = {"ram_formula": "half_of_sum", "ram_scope": "weapon_ram_only"}
    response = client.post(url, data | reading | {"key": "k" * 20})
    match = Match.objects.get()
    assert match.system == "mecha"
    client.post(url, data | reading | {"key": "k" * 20})  # sent twice: one match
    assert Match.objects.count() == 1
    board = client.get(response["Location"]).content.decode()
    assert "Turn 1" in board and "Zaku" in board and "Guntank" in board
    assert "Half of the sum" in board and "weapon ram only" in board


def test_the_board_shows_each_units_counters_held_weapons_and_damage_count(client, match):
    board = client.get(reverse("matches:match-board", args=[match.pk])).content.decode()
    assert "AC 0 spent, 3 left of 3" in board
    assert "Holds: none declared" in board
    assert '<b id="damage-a-1">0</b>' in board
    assert "no damage track" in board
    assert f"{reverse('matches:mecha-attack', args=[match.pk])}?unit=b-1&amp;link=1" in board


def test_a_link_set_costs_two_action_counters_for_the_set(client, match):
    response = attack(
        client, match, op="link", unit="b-1", link="1", target="a-1", linked=["u1w1", "u1w2"]
    )
    assert response.status_code == 302
    unit = state_of(match).unit("b-1")
    assert unit.spent == 2
    page = client.get(response["Location"]).content.decode()
    assert "2 AC for the set" in page


def test_a_heavy_range_shot_after_a_move_shows_minus_4(client, match):
    tap(client, match, "declare a-1", **{"held-a-1": ["u1w2"]})
    tap(client, match, "move a-1")
    attack(client, match, op="attack", unit="a-1", weapon="u1w2", attack="range", target="b-1")
    latest = MatchEvent.objects.filter(match=match).latest("seq")
    assert not latest.refused and "Range Attack 6 -4 = 2" in latest.summary


def test_a_second_ram_is_refused_in_the_log_and_changes_nothing(client, match):
    tap(client, match, "charge a-1")
    ram = dict(op="attack", unit="a-1", attack="ram", target="b-1", front_arc="on")
    attack(client, match, **ram)
    attack(client, match, **ram)
    latest = MatchEvent.objects.filter(match=match).latest("seq")
    assert latest.refused and "only one ram attack a turn" in latest.summary
    assert state_of(match).unit("a-1").rams == 1 and state_of(match).unit("a-1").spent == 1
    html = client.get(reverse("matches:match-board", args=[match.pk])).content.decode()
    assert "Refused, nothing changed:" in html


def test_the_attack_page_shows_a_rams_damage_both_self_damage_readings_and_the_push(client, match):
    url = reverse("matches:mecha-attack", args=[match.pk])
    page = client.get(url, {"unit": "a-1", "attack": "ram", "target": "b-1"}).content.decode()
    assert "Strength 4: 4D6" in page
    assert "Average damage: <b>14</b>" in page
    for name in ("Half, then add Armour", "Half of the sum"):
        assert f"{name}: (damage dealt" in page
    assert page.count("<h5>") == 4 and "(every ram)" in page and "(weapon ram only)" in page
    assert "your reading" in page
    assert 'both units move <b>0"</b>' in page  # Strength 4 - Size Class 4
    assert "1/1296" in page  # four 1s, exactly
    assert "hit chance" in page and "%" in page


def test_damage_rolled_for_a_ram_applies_to_both_units_as_one_undoable_event(client, match):
    response = attack(client, match, op="apply b-1 a-1", amount="9", self_amount="7", unit="a-1")
    assert response.status_code == 302
    state = state_of(match)
    assert (state.unit("b-1").damage, state.unit("a-1").damage) == (9, 7)
    tap(client, match, "undo last")
    state = state_of(match)
    assert (state.unit("b-1").damage, state.unit("a-1").damage) == (0, 0)


def test_a_tap_sent_twice_applies_once(client, match):
    key = uuid.uuid4().hex
    tap(client, match, "damage a-1 3", key)
    tap(client, match, "damage a-1 3", key)
    attack(client, match, key="k" * 20, op="apply b-1", amount="2")
    attack(client, match, key="k" * 20, op="apply b-1", amount="2")
    state = state_of(match)
    assert state.unit("a-1").damage == 3 and state.unit("b-1").damage == 2


def test_the_htmx_tap_answers_with_the_cards_and_a_plain_post_redirects(client, match):
    html = tap(client, match, "counters a-2 4").content.decode()
    assert 'id="unit-a-2"' in html and "left of 4" in html and "hx-swap-oob" in html
    plain = tap(client, match, "move a-1", htmx=False)
    assert plain.status_code == 302


@pytest.mark.parametrize(
    "op,status",
    [
        ("move a-9", 404),
        ("damage z-1 2", 404),
        ("move", 400),
        ("damage a-1 ²", 400),
        ("counters a-1 -3", 400),
        ("fly a-1", 400),
        ("end-turn x", 400),
    ],
)
def test_wrong_ids_are_404_and_malformed_taps_400(client, match, op, status):
    assert tap(client, match, op).status_code == status


@pytest.mark.parametrize(
    "query,status",
    [
        ({"unit": "a-9"}, 404),
        ({"unit": "a-1", "weapon": "nope"}, 404),
        ({"unit": "a-1", "link": "7"}, 404),
        ({"unit": "a-1", "attack": "fly"}, 400),
        ({"unit": "a-1", "strength": "x"}, 400),
        ({"unit": "a-1", "target": "b-5"}, 404),
    ],
)
def test_the_attack_page_answers_wrong_ids_404_and_malformed_values_400(
    client, match, query, status
):
    assert client.get(reverse("matches:mecha-attack", args=[match.pk]), query).status_code == status


def test_another_players_match_is_not_found(match):
    stranger = Client()
    stranger.force_login(make_user("eve"))
    for name in ("mecha-attack", "mecha-summary", "mecha-log-md", "mecha-poll"):
        assert stranger.get(reverse(f"matches:{name}", args=[match.pk])).status_code == 404
    assert tap(stranger, match, "move a-1").status_code == 404
    assert state_of(match).unit("a-1").moved is False


def test_a_watcher_sees_the_board_and_summary_without_controls(match):
    watcher = Client()
    html = watcher.get(reverse("matches:match-watch", args=[match.watch_slug])).content.decode()
    assert "You are watching this match" in html and 'name="op"' not in html
    summary = reverse("matches:mecha-watch-summary", args=[match.watch_slug])
    assert watcher.get(summary).status_code == 200


def test_the_summary_and_markdown_keep_the_damage_counts(client, match):
    tap(client, match, "damage b-1 5")
    summary = client.get(reverse("matches:mecha-summary", args=[match.pk])).content.decode()
    assert "no damage track" in summary and "<td>5</td>" in summary
    md = client.get(reverse("matches:mecha-log-md", args=[match.pk])).content.decode()
    assert "| Blue force | Guntank | 5 |" in md


def test_each_tap_takes_a_bounded_number_of_queries(client, match, django_assert_max_num_queries):
    tap(client, match, "move a-1")
    with django_assert_max_num_queries(8):
        tap(client, match, "move a-2")
    for n in range(6):
        tap(client, match, f"damage b-1 {n + 1}")
    with django_assert_max_num_queries(8):
        tap(client, match, "damage a-1 1")


def test_the_join_link_names_the_sides_and_seats_the_opponent(match):
    guest = Client()
    url = reverse("matches:match-join", args=[match.join_slug])
    page = guest.get(url).content.decode()
    assert "Join as Blue force" in page
    response = guest.post(url, {"name": "ben"})
    assert response.status_code == 302
    assert tap(guest, match, "move b-1").status_code == 200
    assert state_of(match).unit("b-1").moved


def test_a_force_with_units_offers_a_match_and_the_match_list_starts_one(client, player):
    force = make_force(player)
    empty = make_force(player, name="Empty", army={"units": []})
    from armies.systems import for_roster

    assert for_roster(force).play_url(force) == f"{reverse('matches:mecha-new')}?roster={force.pk}"
    assert for_roster(empty).play_url(empty) == ""
    html = client.get(reverse("matches:match-list")).content.decode()
    assert reverse("matches:mecha-new") in html


def test_damage_rolled_here_follows_the_dice_and_the_players_reading(client, match):
    ram = {"op": "roll", "unit": "a-1", "attack": "ram", "target": "b-1"}
    assert attack(client, match, **ram).status_code == 302
    state = state_of(match)
    dealt, own = state.unit("b-1").damage, state.unit("a-1").damage
    assert 4 <= dealt <= 24 and own == dealt // 2 + 3  # half, then Armour 3 added
    latest = MatchEvent.objects.filter(match=match).latest("seq")
    assert "rolled here: 4D6 =" in latest.summary
    key = "r" * 20
    attack(
        client, match, key=key, op="roll", unit="a-1", weapon="u1w1", attack="range", target="b-1"
    )
    attack(
        client, match, key=key, op="roll", unit="a-1", weapon="u1w1", attack="range", target="b-1"
    )
    assert MatchEvent.objects.filter(match=match).count() == 2  # sent twice, rolled once
    link = attack(client, match, op="roll", unit="b-1", link="1", target="a-1")
    assert link.status_code == 400 and "rolls separately" in link.content.decode()


def test_a_long_or_odd_pick_sent_with_the_damage_is_no_500(client, match):
    response = attack(client, match, op="apply b-1", amount="1", weapon="x" * 500, unit="\x00")
    assert response.status_code == 302
    assert client.get(response["Location"]).status_code in (400, 404)


def test_a_force_typed_in_the_builder_starts_a_match(client, player):
    from tests.factories import make_force as built_force

    mine, theirs = built_force(player), built_force(player)
    match = mecha_match_start(
        owner=Owner(player.pk, None),
        player="jan",
        mine=mine,
        opponent=theirs,
        ram_formula="half_of_sum",
        ram_scope="weapon_ram_only",
    )
    state = current_state(match)
    zaku = state.unit("a-1")
    assert zaku.hands == 2 and [w.name for w in zaku.weapons] == ["Machine gun", "Heat hawk"]
    assert (
        tap(client, match, "declare a-1", **{"held-a-1": [zaku.weapons[0].id]}).status_code == 200
    )
    assert state_of(match).unit("a-1").held == (zaku.weapons[0].id,)
