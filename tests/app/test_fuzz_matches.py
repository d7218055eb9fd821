"""Generated bodies, queries and ids against every match form and htmx endpoint (the board, the
rounds, the end, the join link and the attack helper): never a 500, and a refused request
changes nothing."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.models import Match
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db

FIELDS = ["op", "key", "attacker", "weapon", "target", "targets", "range", "cover", "spray",
          "concentrated", "attack_roll", "defense_roll", "attack_dice", "defense_dice", "armor",
          "dm", "accuracy", "attacker_move", "defender_move", "rear", "weak", "reinforced",
          "mode", "observer", "blocker", "comm", "ecm", "first", "roll_a", "roll_b", "result",
          "note", "free_seat", "confirm", "on", "seat", "scatter", "size", "distance"]  # fmt: skip
VALUES = ["", "0", "1", "-1", "2", "6", "99", "10" * 9, "a-1-1", "b-1-1", "b-9-9", "z", "LAC",
          "MAC", "short", "medium", "extreme", "open", "full", "3,4", "1,1", "7,7", "on", "a",
          "b", "draw", "\u00e9", "<b>", "' OR 1=1", "mark a-1-1", "mark b-9-9", "clear a-9-9",
          "speed a-1-1 top", "fire b-1-1 1", "undo last", "used z-1-1 1"]  # fmt: skip
bodies = st.dictionaries(
    st.sampled_from(FIELDS), st.one_of(st.sampled_from(VALUES), st.text(max_size=20)), max_size=8
)

POSTS = [
    "matches:match-event",
    "matches:match-end-round",
    "matches:match-end",
    "matches:match-join-link",
    "matches:attack-apply",
    "matches:attack-dice",
    "matches:attack-ecm-apply",
    "matches:attack-house-rule",
    "matches:attack-designation-apply",
]
GETS = [
    "matches:match-poll",
    "matches:attack-helper",
    "matches:attack-ecm",
    "matches:attack-designation",
    "matches:match-board",
]


def snapshot(match_id: int) -> tuple:
    match = Match.objects.get(pk=match_id)
    return (match.seq, match.status, match.state, match.join_slug, match.b_token)


@pytest.fixture
def setup(db):
    user = make_user("fuzz")
    match = make_match(user)
    client = Client()
    client.force_login(user)
    client.get(reverse("matches:match-board", args=[match.pk]))
    return client, match.pk


@pytest.mark.parametrize("name", POSTS)
@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=bodies, htmx=st.booleans())
def test_generated_posts_never_500_and_refusals_change_nothing(setup, name, body, htmx):
    client, match_id = setup
    before = snapshot(match_id)
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.post(reverse(name, args=[match_id]), body, headers=headers)
    assert response.status_code < 500, (name, body, response.status_code)
    if response.status_code >= 400:
        assert snapshot(match_id) == before, (name, body)


@pytest.mark.parametrize("name", GETS)
@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(query=bodies, htmx=st.booleans())
def test_generated_queries_never_500_and_change_nothing(setup, name, query, htmx):
    client, match_id = setup
    before = snapshot(match_id)
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.get(reverse(name, args=[match_id]), query, headers=headers)
    assert response.status_code < 500, (name, query, response.status_code)
    assert snapshot(match_id) == before, (name, query)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(pk=st.integers(min_value=1, max_value=2**62), body=bodies)
def test_unknown_match_ids_are_404(setup, pk, body):
    client, match_id = setup
    if pk == match_id:
        return
    assert client.get(reverse("matches:match-board", args=[pk])).status_code == 404
    assert client.post(reverse("matches:match-event", args=[pk]), body).status_code in (400, 404)
    assert client.get(reverse("matches:attack-helper", args=[pk])).status_code == 404


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=bodies, htmx=st.booleans())
def test_generated_taps_on_an_ended_match_never_500_and_change_nothing(setup, body, htmx):
    client, match_id = setup
    end = reverse("matches:match-end", args=[match_id])
    if Match.objects.get(pk=match_id).status != Match.Status.ENDED:
        client.post(end, {"winner": "a", "key": "fuzz-end-0001"})
    before = snapshot(match_id)
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.post(reverse("matches:match-event", args=[match_id]), body, headers=headers)
    assert response.status_code < 500, (body, response.status_code)
    if "undo" not in str(body.get("op", "")) and "redo" not in str(body.get("op", "")):
        assert snapshot(match_id) == before, body
