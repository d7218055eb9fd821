"""A tap does what its button said: box N, a speed, "end round 3". A tap made on a screen that
was out of date changes nothing and says who changed it; refusals are in both players' logs; the
board keeps polling after the end; the tapping device does not fetch its own change again."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import Match, MatchEvent
from tests.factories import make_match, make_user, tap

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(player):
    return make_match(player)


@pytest.fixture
def opponent(match) -> Client:
    """Player B on their own device, joined with the join link."""
    device = Client()
    device.force_login(make_user("anna"))
    device.post(reverse("matches:match-join", args=[match.join_slug]), {"name": "anna"})
    match.refresh_from_db()
    assert match.b_joined
    return device


def state_of(match: Match):
    match.refresh_from_db()
    return match.current_state()


def test_both_players_tapping_the_same_box_cross_it_off_once(client, match, opponent):
    first = tap(opponent, match, "mark b-1-1 1")
    assert first.status_code == 200
    second = tap(client, match, "mark b-1-1 1").content.decode()
    assert state_of(match).unit("b-1-1").track.marked == 1
    assert (
        "Box 1 of Warrior 1 (PRDF CG1) was already crossed off by anna a moment ago. "
        "Nothing was changed."
    ) in second
    assert 'role="alert"' in second  # on the card the player tapped
    refusal = MatchEvent.objects.get(match=match, seq=2)
    assert (refusal.refused, refusal.actor_name, refusal.after) == (True, "jan", {})
    # The other device sees the refusal in its log at its next poll.
    poll = tap_poll(opponent, match, seen=1)
    assert "Refused, nothing changed:" in poll and "already crossed off by jan" not in poll
    assert "already crossed off by anna" in poll


def tap_poll(device: Client, match: Match, seen: int) -> str:
    response = device.get(reverse("matches:match-poll", args=[match.pk]) + f"?seq={seen}")
    assert response.status_code == 200
    return response.content.decode()


def test_a_tap_on_your_own_stale_screen_says_you_did_it(client, match):
    tap(client, match, "mark b-1-1 1")
    html = tap(client, match, "mark b-1-1 1").content.decode()
    assert "already crossed off by you a moment ago" in html


def test_a_stale_clear_changes_nothing_and_names_who_cleared(client, match, opponent):
    tap(client, match, "mark b-1-1 1")
    tap(opponent, match, "clear b-1-1 1")
    html = tap(client, match, "clear b-1-1 1").content.decode()
    assert "Box 1 of Warrior 1 (PRDF CG1) was already cleared by anna a moment ago" in html
    html = tap(client, match, "mark b-1-1 2").content.decode()
    assert "was cleared by anna a moment ago, so box 2 is not the next one" in html
    assert state_of(match).unit("b-1-1").track.marked == 0


def test_a_retried_refused_tap_is_refused_once(client, match):
    tap(client, match, "mark b-1-1 1")
    first = tap(client, match, "mark b-1-1 1", key="stale-retry-0001").content.decode()
    again = tap(client, match, "mark b-1-1 1", key="stale-retry-0001").content.decode()
    assert "already crossed off" in first and "already crossed off" in again
    assert MatchEvent.objects.filter(match=match).count() == 2


def test_speed_taps_set_a_value_and_a_stale_one_names_who_set_it(client, match, opponent):
    tap(opponent, match, "speed b-1-1 top")
    html = tap(client, match, "speed b-1-1 top").content.decode()
    assert "Warrior 1 (PRDF CG1) was already set to Top Speed by anna a moment ago" in html
    assert MatchEvent.objects.filter(match=match, refused=False).count() == 1


def test_end_round_from_two_open_pages_ends_one_round(client, match, opponent):
    url = reverse("matches:match-end-round", args=[match.pk])
    page = client.get(url).content.decode()
    assert '<input type="hidden" name="round" value="1">' in page
    opponent.post(url, {"key": "end-round-b-0001", "round": "1"})
    response = client.post(url, {"key": "end-round-a-0001", "round": "1"}, follow=True)
    assert state_of(match).round == 2
    assert "Round 1 was already ended by anna a moment ago. Nothing was changed." in (
        response.content.decode()
    )
    assert tap(client, match, "end-round 1").status_code == 200
    assert state_of(match).round == 2


@pytest.mark.parametrize("word", ["end-round ²", "mark b-1-1 ²", "undo ①", "mark b-1-1 99"])
def test_malformed_numbers_in_a_tap_are_400(client, match, word):
    assert tap(client, match, word).status_code == 400


def test_the_answer_moves_the_poller_on_only_when_the_device_was_up_to_date(client, match):
    url = reverse("matches:match-event", args=[match.pk])
    headers = {"HX-Request": "true"}
    html = client.post(
        url, {"op": "mark b-1-1 1", "key": "seen-key-0001", "seen": "0"}, headers=headers
    ).content.decode()
    poller = html.split('id="poller"')[1]
    assert 'data-seq="1"' in poller and "?seq=1&amp;joined=0" in poller
    # A device that missed event 2 keeps its poller: the next poll brings event 2 and its own.
    tap(client, match, "mark b-2-1 1")
    html = client.post(
        url, {"op": "mark b-1-1 2", "key": "seen-key-0002", "seen": "1"}, headers=headers
    ).content.decode()
    assert 'id="poller"' not in html


def test_the_end_of_the_match_locks_every_card_and_its_undo_unlocks_them(client, match, opponent):
    end = reverse("matches:match-end", args=[match.pk])
    client.post(end, {"winner": "a", "key": "end-the-match-01"})
    board = opponent.get(reverse("matches:match-board", args=[match.pk])).content.decode()
    assert 'value="mark ' not in board and "Attack…" not in board
    assert "undo &quot;End match&quot; in the log" in board or 'undo "End match"' in board
    # The end is the other player's change: this device's "Undo last" asks first.
    assert "Undo last…" in board and 'value="undo 1 theirs"' in board
    html = tap(client, match, "undo last").content.decode()
    assert html.count('<article id="unit-') == len(state_of(match).units)  # every card
    # The other device, still polling, gets every card back with its buttons.
    poll = tap_poll(opponent, match, seen=1)
    assert poll.count('<article id="unit-') == len(state_of(match).units)
    assert 'value="mark b-1-1 1"' in poll
    assert match.status == "live"


def test_the_first_player_sees_the_opponent_join_in_the_players_box(client, match):
    board = client.get(reverse("matches:match-board", args=[match.pk])).content.decode()
    assert "nobody has joined yet" in board
    poll = re.search(r'hx-get="([^"]+)"', board.split('id="poller"')[1]).group(1)
    device = Client()
    device.force_login(make_user("anna"))
    device.post(reverse("matches:match-join", args=[match.join_slug]), {"name": "anna"})
    html = client.get(poll.replace("&amp;", "&")).content.decode()
    share = html.split('<section id="share"')[1]
    assert 'hx-swap-oob="true"' in share.split(">")[0]
    assert "anna" in share and "nobody has joined yet" not in share
    assert "Join link for your opponent" not in share
