"""Generated bodies and ids against every roster form and htmx endpoint: never a 500, and a
refused request changes nothing.

Besides generated text, every field gets the values an outside probe used to find 500s
(tests/hostile.py): Unicode digits, NUL, lone surrogates, 5,000-digit integers, 256+ characters.
CI runs this file on PostgreSQL too, where NUL in a query is an error of its own."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armies.models import Roster
from tests import hostile
from tests.factories import make_roster, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

IDS = [
    "north_mac",
    "north_grizzly_mbzk",
    "north_veteran_command",
    "hunter",
    "grizzly",
    "north_general_purpose",
    "north_fire_support",
    "peace_river_mac",
    "",
    "0",
    "-1",
    "☃",
    "' OR 1=1 --",
    "<script>",
    "x" * 300,
    *hostile.HOSTILE,
]
values = st.one_of(st.sampled_from(IDS), st.text(max_size=40), st.integers().map(str))
bodies = st.dictionaries(
    st.sampled_from(
        [
            "squad",
            "model",
            "option",
            "upgrade",
            "chosen",
            "key",
            "name",
            "tv_limit",
            "start",
            "text",
            "count",
            "file",
            "q",
            "sort",
        ]
    ),
    values,
    max_size=6,
)
indexes = st.one_of(
    st.integers(min_value=0, max_value=3), st.integers(min_value=4, max_value=10**9)
)

ENDPOINTS = [
    ("armies:roster-rename", 0),
    ("armies:roster-tv-limit", 0),
    ("armies:group-add", 0),
    ("armies:group-remove", 1),
    ("armies:group-upgrade", 1),
    ("armies:model-add", 1),
    ("armies:model-remove", 2),
    ("armies:model-option", 2),
    ("armies:model-option-all", 2),
]


def snapshot(roster_id):
    roster = Roster.objects.get(pk=roster_id)
    return (roster.army, roster.name, roster.tv_limit, roster.deleted_at, roster.share_slug)


def refused(response) -> bool:
    html = response.content.decode(errors="replace")
    return (
        response.status_code >= 400
        or 'role="alert"' in html
        or "error" in response.get("Location", "")
    )


@pytest.fixture
def setup(db):
    user = make_user("fuzz")
    roster = make_roster(user)
    client = Client()
    client.force_login(user)
    return client, roster.pk


@pytest.mark.parametrize(("name", "arity"), ENDPOINTS)
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=bodies, ids=st.lists(indexes, min_size=2, max_size=2), htmx=st.booleans())
def test_generated_requests_never_500_and_refusals_change_nothing(
    setup, name, arity, body, ids, htmx
):
    client, roster_id = setup
    before = snapshot(roster_id)
    url = reverse(name, args=[roster_id, *ids[:arity]])
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = hostile.post(client, url, body, **extra)
    assert response.status_code < 500
    if htmx and refused(response):
        assert snapshot(roster_id) == before


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(pk=st.integers(min_value=1, max_value=2**62), body=bodies)
def test_unknown_roster_ids_are_404(setup, pk, body):
    client, roster_id = setup
    if pk == roster_id:
        return
    for name in ["armies:roster-edit", "armies:roster-cards", "armies:roster-export-json"]:
        assert client.get(reverse(name, args=[pk])).status_code == 404
    response = hostile.post(client, reverse("armies:group-add", args=[pk]), body)
    assert response.status_code in (400, 404)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=bodies)
def test_generated_creates_and_imports_never_500(setup, body):
    client, _ = setup
    body.pop("key", None)  # a key reused across examples; see test_double_submits.py
    count = Roster.objects.count()
    create = hostile.post(client, reverse("armies:roster-create"), body)
    imported = hostile.post(client, reverse("armies:roster-import"), body)
    assert create.status_code in (302, 400)
    assert imported.status_code in (302, 400)
    added = (create.status_code == 302) + (imported.status_code == 302)
    assert Roster.objects.count() == count + added


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(slug=st.text(min_size=1, max_size=60).filter(lambda s: "/" not in s and "\x00" not in s))
def test_generated_share_slugs_never_500(setup, slug):
    client, _ = setup
    response = client.get(f"/r/{slug}")
    assert response.status_code in (200, 404, 301)


# --- The probe's values, each in every field at once ---------------------------------------------

FIELDS = ["squad", "model", "option", "upgrade", "chosen", "key", "name", "tv_limit", "start",
          "text", "count", "q", "sort"]  # fmt: skip


@pytest.mark.parametrize("value", hostile.HOSTILE)
def test_hostile_values_in_every_field_never_500(setup, value):
    client, roster_id = setup
    bodies = [
        {field: value for field in FIELDS},
        {field: value for field in FIELDS if field != "key"} | {"key": "hostile-key-0001"},
        {"tv_limit": value},
        {"name": value},
    ]
    for body in bodies:
        for extra in ({}, {"HTTP_HX_REQUEST": "true"}):
            for name, arity in ENDPOINTS:
                before = snapshot(roster_id)
                url = reverse(name, args=[roster_id, *[0] * arity])
                response = hostile.post(client, url, body, **extra)
                assert response.status_code < 500, (name, value)
                if extra and refused(response):
                    assert snapshot(roster_id) == before, (name, value)
            count = Roster.objects.count()
            create = hostile.post(client, reverse("armies:roster-create"), body, **extra)
            imported = hostile.post(client, reverse("armies:roster-import"), body, **extra)
            assert create.status_code in (302, 400) and imported.status_code == 400
            assert Roster.objects.count() == count + (create.status_code == 302)


@pytest.mark.parametrize("value", hostile.HOSTILE)
def test_hostile_values_in_queries_and_share_links_never_500(setup, value):
    client, roster_id = setup
    anonymous = Client()
    for query in ({"q": value}, {"sort": value}, {"q": value, "sort": value}):
        assert hostile.get(client, reverse("armies:roster-list"), query).status_code == 200
    for name in ["armies:roster-edit", "armies:roster-cards", "armies:roster-text"]:
        assert hostile.get(client, reverse(name, args=[roster_id]), {"x": value}).status_code == 200
    quoted = hostile.encoded({"": value})[1:]  # the value as a URL path segment
    for who in (client, anonymous):
        for path in (f"/r/{quoted}", f"/r/{quoted}/qr.svg", f"/armies/{quoted}/"):
            assert who.get(path).status_code in (404, 301), path
        assert who.post(f"/r/{quoted}/copy").status_code in (404, 301)


@pytest.mark.parametrize("value", hostile.HOSTILE)
def test_hostile_values_in_an_import_never_500(setup, value):
    """Each value as the roster's name, its TV limit, a squad and a model, in a JSON export."""
    client, roster_id = setup
    army = Roster.objects.get(pk=roster_id).army
    for path in (("name",), ("tv_limit",), ("faction",), ("groups", 0, "squad"),
                 ("groups", 0, "models", 0, "model")):  # fmt: skip
        document = json.loads(json.dumps({"format": "blitz-roster/1", "roster": army}))
        place = document["roster"]
        for step in path[:-1]:
            place = place[step]
        place[path[-1]] = "@VALUE@"
        literal = value if value.lstrip("-").isdecimal() else json.dumps(value)
        text = json.dumps(document).replace('"@VALUE@"', literal)
        count = Roster.objects.count()
        response = client.post(reverse("armies:roster-import"), {"text": text})
        assert response.status_code in (302, 400), (path, value)
        assert Roster.objects.count() == count + (response.status_code == 302)
