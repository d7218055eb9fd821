"""Malformed values a probe sent that once made a 500: each is now a clear refusal.

Python refuses to convert an integer of more than 4,300 digits (``ValueError``, which
``json.loads`` raises too), ``"²".isdigit()`` is True while ``int("²")`` fails, and a bare word in
``next`` is no page to return to. CI runs this file on PostgreSQL too.
"""

from __future__ import annotations

import json
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from armies.models import Roster
from tests.factories import PASSWORD, make_match, make_roster, make_user

pytestmark = pytest.mark.django_db

HUGE = "9" * 5000


def page(response) -> str:
    return unescape(response.content.decode())


def export_text(**changes) -> str:
    roster = make_roster(make_user("exporter"))
    army = json.loads(json.dumps(roster.army))
    army.update(changes)
    return json.dumps({"format": "blitz-roster/1", "roster": army})


def import_both_ways(client, text: str):
    pasted = client.post(reverse("armies:roster-import"), {"text": text})
    upload = SimpleUploadedFile("list.json", text.encode(), content_type="application/json")
    uploaded = client.post(reverse("armies:roster-import"), {"file": upload})
    return pasted, uploaded


@pytest.mark.parametrize(
    "where",
    [
        lambda text: text.replace('"tv_limit": 610', f'"tv_limit": {HUGE}'),
        lambda text: text.replace('"format": "blitz-roster/1"', f'"format": {HUGE}'),
        lambda text: text.replace('"groups": [', f'"groups": [-{HUGE}, ', 1),
        lambda text: text[:-1] + f', "extra": {{"deep": [{HUGE}]}}}}',
    ],
    ids=["tv-limit", "format", "in-groups", "deep-inside"],
)
def test_an_import_with_a_5000_digit_integer_is_refused_in_a_sentence(client, player, where):
    text = where(export_text())
    assert HUGE in text
    for response in import_both_ways(client, text):
        assert response.status_code == 400
        assert "a number too long" in page(response)
    assert not Roster.objects.filter(owner=player).exists()


@pytest.mark.parametrize("value", ["9" * 4000, "1e5000", "-1e5000", "NaN", "Infinity", "1.5"])
def test_an_import_with_an_absurd_tv_limit_is_refused_in_a_sentence(client, player, value):
    text = export_text().replace('"tv_limit": 610', f'"tv_limit": {value}')
    for response in import_both_ways(client, text):
        assert response.status_code == 400
        assert 'role="alert"' in response.content.decode()
    assert not Roster.objects.filter(owner=player).exists()


@pytest.mark.parametrize("name", ["\\ud800", "Bridge\\udfffholders", "\\ud800\\u0000"])
def test_an_import_with_a_lone_surrogate_in_the_name_is_refused(client, player, name):
    text = export_text().replace('"name": "Northern Guard starter force"', f'"name": "{name}"')
    assert name in text
    for response in import_both_ways(client, text):
        assert response.status_code == 400
        assert "can't contain control characters" in page(response)
    assert not Roster.objects.filter(owner=player).exists()


@pytest.mark.parametrize("target", ["foo", "armies", "r", "x" * 300, "²"])
def test_signing_up_with_a_bare_word_next_lands_on_my_rosters(client, target):
    response = client.post(
        reverse("signup") + f"?next={target}",
        {"username": "kim", "password1": PASSWORD, "password2": PASSWORD, "next": target},
        follow=True,
    )
    assert response.status_code == 200
    assert response.redirect_chain == [(reverse("armies:roster-list"), 302)]
    assert User.objects.filter(username="kim").exists()


@pytest.mark.parametrize(
    "cookie",
    [
        'sessionid="abcdefgh\\000ijklmnop"',  # a quoted octal escape: the parser makes a NUL
        'sessionid="\\000\\000\\000\\000\\000\\000\\000\\000"',
        "sessionid=" + "x" * 5000,
        "sessionid=ABCDEFGH-not-a-key",
    ],
)
def test_a_session_cookie_no_server_made_is_a_fresh_session(client, cookie):
    """PostgreSQL refuses NUL in a query: such a cookie is no session, never a 500."""
    user = make_user("host")
    match = make_match(user)
    pages = [
        reverse("home"),
        reverse("armies:roster-list"),
        reverse("matches:match-new"),
        reverse("matches:match-watch", args=[match.watch_slug]),
        reverse("matches:match-board", args=[match.pk]),
        reverse("login"),
    ]
    for path in pages:
        assert client.get(path, HTTP_COOKIE=cookie).status_code in (200, 404), path
    created = client.post(
        reverse("armies:roster-create"), {"start": "preset:north_starter"}, HTTP_COOKIE=cookie
    )
    assert created.status_code == 302
    assert Roster.objects.count() == 1
