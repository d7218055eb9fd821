"""The translated edition's designation roll: a house rule, not official, off by default on every
device; once turned on, its exact odds; a success marks the target as the board's FO mark does."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import MatchEvent
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db

SPOTTER, TARGET = "a-1-1", "b-1-1"
ODDS = {"HX-Request": "true", "HX-Target": "designation-odds"}


@pytest.fixture
def match(player):
    return make_match(player, mine="north_starter", opponent="south_starter")


def url(match, name: str) -> str:
    return reverse(f"matches:{name}", args=[match.pk])


def turn_on(client, match):
    return client.post(url(match, "attack-house-rule"), {"on": "1"})


def roll(**changes) -> dict:
    data = {"spotter": SPOTTER, "target": TARGET, "sensors": "0", "cover": "open"}
    return data | {"key": "designate-0001"} | changes


def test_it_is_off_by_default_and_labelled_not_official(client, match):
    ecm = client.get(url(match, "attack-ecm")).content.decode()
    assert "House rule, not official" in ecm and "Turn the house rule on for this device" in ecm
    response = client.get(url(match, "attack-designation"))
    assert response.status_code == 302 and response["Location"] == url(match, "attack-ecm")


def test_turned_on_it_shows_the_exact_odds(client, match):
    assert turn_on(client, match)["Location"] == url(match, "attack-designation")
    page = client.get(url(match, "attack-designation")).content.decode()
    assert "House rule, not official: improvised by the translator" in page
    assert "Enter Hunter 1&#x27;s Sensors rating: the data does not give it." in page
    html = client.get(url(match, "attack-designation"), roll(), headers=ODDS).content.decode()
    # One EW die, +1 for an open target, must beat 3: a 3 or more (a 1 is a Fumble).
    assert '<b data-chance="designate">66.7%</b>' in html and "(2/3)" in html
    assert "up to 1 model may fire indirectly" in html
    other = Client()
    other.force_login(match.a_user)
    assert other.get(url(match, "attack-designation")).status_code == 302  # per device


def test_a_success_marks_the_target_on_the_board(client, match):
    turn_on(client, match)
    html = client.get(url(match, "attack-designation"), roll(roll="4"), headers=ODDS)
    assert "Jäger 1 is designated" in html.content.decode()
    response = client.post(url(match, "attack-designation-apply"), roll(roll="4"))
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.current_state().unit(TARGET).fo_mark
    assert MatchEvent.objects.get(match=match).kind == "fo_mark"


def test_a_failure_marks_nothing(client, match):
    turn_on(client, match)
    response = client.post(url(match, "attack-designation-apply"), roll(roll="2"))
    assert response.status_code == 200
    assert "Only a successful designation marks the target." in response.content.decode()
    assert not MatchEvent.objects.filter(match=match).exists()


def test_malformed_input_is_answered_never_a_500(client, match):
    turn_on(client, match)
    for query in ("spotter=zzz&target=a-1-1&sensors=x&cover=mud&roll=77", "roll=1 1 1 1 1 1 1"):
        for headers in ({}, ODDS):
            response = client.get(f"{url(match, 'attack-designation')}?{query}", headers=headers)
            assert response.status_code == 200
    assert client.post(url(match, "attack-house-rule"), {"on": "yes"}).status_code == 400
    assert client.post(url(match, "attack-designation-apply"), {}).status_code == 400


def test_turning_it_on_enforces_csrf(player, match):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    assert client.post(url(match, "attack-house-rule"), {"on": "1"}).status_code == 403
    html = client.get(url(match, "attack-ecm")).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    response = client.post(
        url(match, "attack-house-rule"), {"on": "1", "csrfmiddlewaretoken": token}
    )
    assert response.status_code == 302


def test_only_the_players_use_it(match):
    stranger = Client()
    stranger.force_login(make_user("mallory"))
    assert stranger.post(url(match, "attack-house-rule"), {"on": "1"}).status_code == 404
    assert stranger.get(url(match, "attack-designation")).status_code == 404
