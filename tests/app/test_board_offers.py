"""What a board offers each device, in both games (``matches.offers``): an undo of the other
player's change asks first (and the tap writer refuses it without the yes), each device is given
its own side's turn controls (the other side's behind "… for anna"), an ended board offers only
the undo of its end, and a Redo that a later change depends on is not offered."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from matches.killteam.services import current_state
from matches.models import Match, MatchEvent
from tests.factories import make_match, make_user, tap

pytestmark = pytest.mark.django_db

FOR_OTHER = re.compile(r'<details class="for-other">.*?</details>', re.S)


def joined(match: Match) -> Client:
    """Player B (anna) on their own device, joined with the join link."""
    device = Client()
    device.force_login(make_user("anna"))
    device.post(reverse("matches:match-join", args=[match.join_slug]), {"name": "anna"})
    match.refresh_from_db()
    assert match.b_joined
    return device


def board(device: Client, match: Match) -> str:
    return device.get(reverse("matches:match-board", args=[match.pk])).content.decode()


def offered_plainly(html: str, value: str) -> bool:
    """A button with ``value`` outside the other side's "… for anna" disclosures."""
    return f'value="{value}"' in FOR_OTHER.sub("", html)


def kt_tap(device: Client, match: Match, op: str):
    url = reverse("matches:kt-event", args=[match.pk])
    return device.post(url, {"op": op, "key": uuid.uuid4().hex}, headers={"HX-Request": "true"})


def undone(match: Match, seq: int) -> bool:
    return not MatchEvent.objects.get(match=match, seq=seq).effective


# --- Heavy Gear Blitz -----------------------------------------------------------------------------


@pytest.fixture
def match(player):
    return make_match(player)


def test_undo_of_the_other_players_change_asks_first_and_the_server_insists(client, match):
    anna = joined(match)
    assert tap(anna, match, "mark b-1-1 1").status_code == 200  # #1, anna's
    html = board(client, match)
    assert "Undo anna's change #1?" in html and 'value="undo 1 theirs"' in html
    assert 'value="undo 1"' not in html  # no one-tap undo of anna's change
    assert "Undo last…" in html  # the bar asks too
    # A stale page (or a stray "Undo last") cannot take it back without the yes.
    for op in ("undo 1", "undo last"):
        refused = tap(client, match, op).content.decode()
        assert "is anna&#x27;s change: undo it with its Undo in the log, which asks" in refused
        assert not undone(match, 1)
    tap(client, match, "undo 1 theirs")
    assert undone(match, 1)


def test_undo_of_ones_own_change_stays_one_tap_on_both_devices(client, match):
    anna = joined(match)
    tap(client, match, "mark a-1-1 1")  # #1, jan's
    tap(anna, match, "mark b-1-1 1")  # #2, anna's
    mine = board(client, match)
    assert 'value="undo 1"' in mine and "Undo anna's change #1" not in mine
    theirs = board(anna, match)
    assert 'value="undo 2"' in theirs and 'value="undo 1 theirs"' in theirs
    assert 'value="undo last"' in theirs  # anna's last change is her own: one tap
    tap(anna, match, "undo last")
    assert undone(match, 2)


def test_a_seated_player_is_given_only_their_own_sides_initiative_and_activations(client, match):
    anna = joined(match)
    mine, theirs = board(client, match), board(anna, match)
    assert offered_plainly(mine, "roll a 4") and not offered_plainly(mine, "roll b 4")
    assert "Roll for anna…" in mine and 'value="roll b 4"' in mine  # behind the disclosure
    assert offered_plainly(theirs, "roll b 4") and not offered_plainly(theirs, "roll a 4")
    assert "Roll for jan…" in theirs
    tap(client, match, "roll a 5")
    tap(anna, match, "roll b 2")
    mine, theirs = board(client, match), board(anna, match)
    assert offered_plainly(mine, "first a") and not offered_plainly(theirs, "first a")
    assert "Choose for jan…" in theirs
    tap(client, match, "first b")  # anna's side goes first
    mine, theirs = board(client, match), board(anna, match)
    assert offered_plainly(theirs, "activate b-1") and not offered_plainly(mine, "activate b-1")
    assert "Activate for anna…" in mine and 'value="activate b-1"' in mine


def test_one_device_for_both_players_plays_both_sides_in_one_tap(client, match):
    html = board(client, match)  # nobody joined: jan's tablet plays both sides
    assert offered_plainly(html, "roll a 4") and offered_plainly(html, "roll b 4")
    assert "for-other" not in html


def test_an_ended_board_offers_only_the_undo_of_its_end(client, match):
    tap(client, match, "mark a-1-1 1")
    tap(client, match, "mark b-1-1 1")
    tap(client, match, "undo 2")
    end_page = reverse("matches:match-end", args=[match.pk])
    client.post(end_page, {"winner": "a", "key": "end-the-match-01"})
    end = MatchEvent.objects.get(match=match, kind="end_match").seq
    html = board(client, match)
    assert re.findall(r'value="(?:undo|redo) (\d+)', html) == [str(end)]
    tap(client, match, f"undo {end}")
    html = board(client, match)
    assert 'value="undo 1"' in html and 'value="redo 2"' in html  # back in play


def test_a_redo_a_later_change_depends_on_is_not_offered(client, match):
    tap(client, match, "mark a-1-1 1")  # 1
    tap(client, match, "mark b-1-1 1")  # 2
    tap(client, match, "undo 1")  # 3
    tap(client, match, "undo 2")  # 4
    tap(client, match, "mark a-1-1 1")  # 5: box 1 again, which #1 wrote
    html = board(client, match)
    assert 'value="redo 1"' not in html  # it would be refused: #5 depends on it
    assert 'value="redo 2"' in html  # nothing later touched Warrior 1's boxes
    refused = tap(client, match, "redo 1").content.decode()
    assert "Can&#x27;t redo #1" in refused


def test_a_tap_that_takes_a_redo_away_redraws_the_log_without_it(client, match):
    tap(client, match, "mark a-1-1 1")  # 1
    tap(client, match, "undo 1")  # 2
    elsewhere = tap(client, match, "mark b-1-1 1").content.decode()  # 3: another model
    assert 'id="match-log"' not in elsewhere  # one new line, the Redo of #1 still holds
    answer = tap(client, match, "mark a-1-1 1").content.decode()  # 4: box 1 again
    assert 'id="match-log"' in answer and 'value="redo 1"' not in answer
    assert 'value="undo 4"' in answer and 'value="undo 3"' in answer


@pytest.mark.parametrize("op", ["undo 1 yes", "undo 1 theirs more", "redo 1 theirs", "undo"])
def test_a_malformed_undo_is_a_400(client, match, op):
    assert tap(client, match, op).status_code == 400


# --- Kill Team ------------------------------------------------------------------------------------


def test_kill_team_undo_of_the_other_players_change_asks_first(client, kt_match):
    anna = joined(kt_match)
    assert kt_tap(anna, kt_match, "roll b 3").status_code == 200  # #1, anna's
    html = board(client, kt_match)
    assert "Undo anna's change #1?" in html and 'value="undo 1"' not in html
    refused = kt_tap(client, kt_match, "undo last").content.decode()
    assert "is anna&#x27;s change" in refused and not undone(kt_match, 1)
    kt_tap(client, kt_match, "undo 1 theirs")
    assert undone(kt_match, 1)


def test_kill_team_gives_each_device_its_own_sides_rolls_choice_and_activations(client, kt_match):
    anna = joined(kt_match)
    mine, theirs = board(client, kt_match), board(anna, kt_match)
    assert offered_plainly(mine, "roll a 4") and not offered_plainly(mine, "roll b 4")
    assert "Roll for anna…" in mine
    assert offered_plainly(theirs, "roll b 4") and "Roll for jan…" in theirs
    kt_tap(client, kt_match, "roll a 5")
    kt_tap(anna, kt_match, "roll b 2")
    mine, theirs = board(client, kt_match), board(anna, kt_match)
    assert offered_plainly(mine, "initiative b a") and not offered_plainly(theirs, "initiative b a")
    assert "Decide for jan…" in theirs
    for op in ("initiative b a", "pass b", "pass a"):
        assert kt_tap(client, kt_match, op).status_code == 200
    assert current_state(Match.objects.get(pk=kt_match.pk)).phase.value == "firefight"
    mine, theirs = board(client, kt_match), board(anna, kt_match)
    assert offered_plainly(theirs, "activate b-1 engage")
    assert not offered_plainly(mine, "activate b-1 engage") and "Activate for anna…" in mine


def test_kill_team_wound_buttons_name_their_visible_text(client, kt_match):
    for _ in range(2):
        html = board(client, kt_match)
    assert 'aria-label="−1 wound: ' in html and ">−1</button>" in html
