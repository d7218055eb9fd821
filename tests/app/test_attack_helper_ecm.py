"""ECM against a Forward Observer, from the helper: the contest's exact odds, the mark cleared by a
win, the blocker's kept action spent either way, one event, undoable."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import MatchEvent
from tests.factories import make_match, make_user, tap

pytestmark = pytest.mark.django_db

MARKED, BLOCKER, OBSERVER = "b-1-1", "b-1-2", "a-1-1"
ODDS = {"HX-Request": "true", "HX-Target": "ecm-odds"}


@pytest.fixture
def match(client, player):
    match = make_match(player, mine="north_starter", opponent="south_starter")
    tap(client, match, f"fo {MARKED} 1")
    tap(client, match, f"keep {BLOCKER} 1")
    return match


def url(match, name="attack-ecm"):
    return reverse(f"matches:{name}", args=[match.pk])


def contest(**changes) -> dict:
    data = {
        "target": MARKED,
        "observer": OBSERVER,
        "blocker": BLOCKER,
        "ocomm": "0",
        "bcomm": "0",
        "ecm": "2",
        "key": "ecm-key-0001",
    }
    return data | changes


def state(match):
    match.refresh_from_db()
    return match.current_state()


def test_the_ecm_page_asks_for_the_ratings_the_data_lacks(client, match):
    html = client.get(url(match)).content.decode()
    assert "Enter the Jäger 2 (MILICIA CG1)&#x27;s ECM rating: the data does not give it." in html
    assert '<option value="b-1-1" selected>Jäger 1 (MILICIA CG1) · FO mark</option>' in html
    assert "Jäger 2 (MILICIA CG1) · kept action" in html


def test_the_odds_are_exact_and_a_tie_does_not_block(client, match):
    html = client.get(url(match), contest(), headers=ODDS).content.decode()
    assert html.startswith('<section id="ecm-odds"') and "<form" not in html
    # One EW die each, +2 for the ECM: it blocks unless the observer rolls 2 more (or a Fumble).
    assert '<b data-chance="block">66.7%</b>' in html and "(2/3)" in html
    assert "+2</b> Jäger 2 (MILICIA CG1)&#x27;s ECM rating" in html


def test_a_win_clears_the_mark_and_spends_the_kept_action_as_one_event(client, match):
    data = contest(oroll="3", broll="5")
    response = client.post(url(match, "attack-ecm-apply"), data, headers={"HX-Request": "true"})
    assert response.status_code == 200 and "Applied" in response.content.decode()
    now = state(match)
    assert not now.unit(MARKED).fo_mark and not now.unit(BLOCKER).kept_action
    event = MatchEvent.objects.filter(match=match).last()
    assert event.kind == "ecm" and "ECM roll 7 against the observer&#x27;s 3" not in event.summary
    assert "ECM roll 7 against the observer's 3. The observation is blocked" in event.summary
    assert event.payload["figures"] == {
        "models": {"hunter": {"comm": 0}, "jager": {"comm": 0, "ecm": 2}}
    }
    tap(client, match, "undo last")
    assert state(match).unit(MARKED).fo_mark


def test_a_loss_keeps_the_mark_but_the_action_is_spent(client, match):
    response = client.post(url(match, "attack-ecm-apply"), contest(oroll="6 ", broll="1"))
    # (a single 1 is a Fumble, 0 + 2: the observer wins)
    assert response.status_code == 302
    now = state(match)
    assert now.unit(MARKED).fo_mark and not now.unit(BLOCKER).kept_action


def test_a_blocker_without_a_kept_action_is_told_why(client, match):
    html = client.get(url(match), contest(blocker="b-1-3", oroll="3", broll="5"), headers=ODDS)
    assert (
        "has no kept action: ECM is used during the enemy&#x27;s activation"
        in html.content.decode()
    )
    response = client.post(
        url(match, "attack-ecm-apply"), contest(blocker="b-1-3", oroll="3", broll="5")
    )
    assert response.status_code == 200
    assert MatchEvent.objects.filter(match=match, kind="ecm").count() == 0


def test_without_a_mark_there_is_nothing_to_block(client, player):
    match = make_match(player)
    html = client.get(url(match)).content.decode()
    assert "No model is marked by a Forward Observer" in html


@pytest.mark.parametrize(
    "query", ["target=zzz&observer=b-1-1&blocker=a-1-1", "ecm=-3&ocomm=x&oroll=99&broll=1 1 1 1"]
)
def test_malformed_ecm_input_is_answered_never_a_500(client, match, query):
    for headers in ({}, ODDS, {"HX-Request": "true", "HX-Target": "ecm-helper"}):
        assert client.get(f"{url(match)}?{query}", headers=headers).status_code == 200
    apply = url(match, "attack-ecm-apply")
    assert client.post(apply, dict(parse_qsl(query))).status_code == 400  # no client key
    assert client.post(apply, dict(parse_qsl(query), key="ecm-key-0002")).status_code == 200


def test_only_the_players_use_it(match):
    stranger = Client()
    stranger.force_login(make_user("mallory"))
    assert stranger.get(url(match)).status_code == 404
    assert (
        stranger.post(url(match, "attack-ecm-apply"), contest(oroll="1", broll="6")).status_code
        == 404
    )


def test_applying_ecm_enforces_csrf(player, match):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    data = contest(oroll="3", broll="5")
    assert client.post(url(match, "attack-ecm-apply"), data).status_code == 403
    query = "&".join(f"{k}={v}" for k, v in data.items())
    html = client.get(f"{url(match, 'attack-ecm-apply')}?{query}").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    response = client.post(url(match, "attack-ecm-apply"), data | {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert not state(match).unit(MARKED).fo_mark
