"""Generated bodies, queries and ids against every match form and htmx endpoint (the board, the
rounds, the end, the join link, polling, watching and the attack helper): never a 500, and a
refused request changes nothing.

Besides generated text, every field gets the values an outside probe used to find 500s
(tests/hostile.py): Unicode digits, NUL, lone surrogates, 5,000-digit integers, 256+ characters.
CI runs this file on PostgreSQL too, where NUL in a query is an error of its own."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.models import Match
from tests import hostile
from tests.factories import make_match, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

FIELDS = ["op", "key", "attacker", "weapon", "target", "targets", "range", "cover", "spray",
          "concentrated", "attack_roll", "defense_roll", "attack_dice", "defense_dice", "armor",
          "dm", "accuracy", "attacker_move", "defender_move", "rear", "weak", "reinforced",
          "mode", "observer", "blocker", "comm", "ecm", "first", "roll_a", "roll_b", "result",
          "note", "free_seat", "confirm", "on", "seat", "scatter", "size", "distance", "seen",
          "seq", "joined", "round", "winner", "kind", "roll", "form", "field", "screen",
          "kept", "grenade", "name"]  # fmt: skip
VALUES = ["", "0", "1", "-1", "2", "6", "99", "10" * 9, "a-1-1", "b-1-1", "b-9-9", "z", "LAC",
          "MAC", "short", "medium", "extreme", "open", "full", "3,4", "1,1", "7,7", "on", "a",
          "b", "draw", "\u00e9", "<b>", "' OR 1=1", "mark a-1-1", "mark b-9-9", "clear a-9-9",
          "speed a-1-1 top", "fire b-1-1 1", "undo last", "used z-1-1 1",
          *hostile.HOSTILE]  # fmt: skip
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
    "matches:attack-figure",
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
    "matches:attack-apply",
    "matches:match-summary",
    "matches:match-log-md",
]
# Every word an op can hold, each in turn replaced by a hostile value ("mark a-²-1", "undo ²").
OPS = ["mark {}", "mark a-{}-1", "mark a-1-{}", "mark a-1-1 {}", "clear a-1-1 {}",
       "speed a-1-1 {}", "used a-1-1 {}", "fire a-1-1 {}", "roll a {}", "roll {} 5", "first {}",
       "activate a-{}", "activate {}", "end-round {}", "undo {}", "redo {}", "{} a-1-1",
       "{}"]  # fmt: skip


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
    response = hostile.post(client, reverse(name, args=[match_id]), body, headers=headers)
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
    response = hostile.get(client, reverse(name, args=[match_id]), query, headers=headers)
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
    response = hostile.post(client, reverse("matches:match-event", args=[pk]), body)
    assert response.status_code in (400, 404)
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
    url = reverse("matches:match-event", args=[match_id])
    response = hostile.post(client, url, body, headers=headers)
    assert response.status_code < 500, (body, response.status_code)
    if "undo" not in str(body.get("op", "")) and "redo" not in str(body.get("op", "")):
        assert snapshot(match_id) == before, body


# --- The probe's values, each in every field at once and in every word of an op ---------------


@pytest.mark.parametrize("value", hostile.HOSTILE)
def test_hostile_values_in_every_field_never_500(setup, value):
    client, match_id = setup
    before = snapshot(match_id)
    for body in (
        {field: value for field in FIELDS},
        {field: value for field in FIELDS if field != "key"} | {"key": "hostile-key-0001"},
    ):
        for headers in (
            {},
            {"HX-Request": "true"},
            {"HX-Request": "true", "HX-Target": "attack-odds"},
        ):
            for name in POSTS:
                before = snapshot(match_id)
                response = hostile.post(
                    client, reverse(name, args=[match_id]), body, headers=headers
                )
                assert response.status_code < 500, (name, value, response.status_code)
                if response.status_code >= 400:
                    assert snapshot(match_id) == before, (name, value)
            for name in GETS:
                response = hostile.get(
                    client, reverse(name, args=[match_id]), body, headers=headers
                )
                assert response.status_code < 500, (name, value, response.status_code)


@pytest.mark.parametrize("value", hostile.HOSTILE)
def test_hostile_values_in_every_word_of_an_op_never_500(setup, value):
    client, match_id = setup
    url = reverse("matches:match-event", args=[match_id])
    for template in OPS:
        for headers in ({}, {"HX-Request": "true"}):
            body = {"op": template.format(value), "key": "hostile-op-key-0001", "seen": value}
            before = snapshot(match_id)
            response = hostile.post(client, url, body, headers=headers)
            assert response.status_code < 500, (body["op"], response.status_code)
            if response.status_code >= 400:
                assert snapshot(match_id) == before, body["op"]
    end_round = reverse("matches:match-end-round", args=[match_id])
    response = hostile.post(client, end_round, {"round": value, "key": "hostile-round-0001"})
    assert response.status_code < 500


@pytest.mark.parametrize("value", hostile.HOSTILE)
def test_hostile_values_in_polls_and_links_never_500(setup, value):
    """Both polls (the watch poll is anonymous), start, join and watch, and the slugs."""
    client, match_id = setup
    match = Match.objects.get(pk=match_id)
    anonymous = Client()
    poll = reverse("matches:match-poll", args=[match_id])
    watch_poll = reverse("matches:match-watch-poll", args=[match.watch_slug])
    for query in ({"seq": value}, {"seq": "0", "joined": value}, {"seq": value, "joined": "1"}):
        assert hostile.get(client, poll, query).status_code < 500, query
        assert hostile.get(anonymous, watch_poll, query).status_code < 500, query
    new = reverse("matches:match-new")
    for who in (client, anonymous):
        for query in ({"against": value}, {"roster": value}, {"against": value, "roster": value}):
            assert hostile.get(who, new, query).status_code < 500, query
        body = {"against": value, "mine": value, "opponent": value, "name": value, "key": value}
        assert hostile.post(who, new, body).status_code < 500
        join = reverse("matches:match-join", args=[match.join_slug])
        assert hostile.post(who, join, {"name": value}).status_code < 500
    quoted = hostile.encoded({"": value})[1:]  # the value as a URL path segment
    for path in (f"/matches/join/{quoted}/", f"/matches/watch/{quoted}/",
                 f"/matches/watch/{quoted}/poll?seq=0", f"/matches/watch/{quoted}/summary/",
                 f"/matches/{quoted}/", f"/matches/{quoted}/poll?seq=0"):  # fmt: skip
        assert anonymous.get(path).status_code in (404, 301, 400), path
