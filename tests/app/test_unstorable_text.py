"""Text the database cannot store (NUL, lone surrogates) is refused with a sentence, never a 500.

PostgreSQL refuses NUL in text and in jsonb ("DataError"), and no database takes a lone surrogate
(it cannot be encoded as UTF-8). Each entry point where a player sends text is tried here; CI runs
this file on PostgreSQL too.
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

REFUSED = "can't contain control characters"
HTMX = {"HTTP_HX_REQUEST": "true"}
# A form field can only receive NUL: a browser sends UTF-8, which has no lone surrogates (Django
# reads invalid bytes as U+FFFD). A JSON escape can hold both.
BAD_JSON = ["Bridge\\u0000holders", "Bridge\\ud800holders"]


def page(response) -> str:
    return unescape(response.content.decode())


def export_with_name(escaped_name: str) -> str:
    roster = make_roster(make_user("exporter"))
    document = {"format": "blitz-roster/1", "roster": dict(roster.army, name="@NAME@")}
    return json.dumps(document).replace("@NAME@", escaped_name)


def test_a_new_rosters_name(client):
    response = client.post(
        reverse("armies:roster-create"), {"start": "preset:north_starter", "name": "Bridge\x00"}
    )
    assert response.status_code == 400
    assert REFUSED in page(response)
    assert not Roster.objects.exists()


@pytest.mark.parametrize("htmx", [False, True])
def test_renaming_a_roster(client, player, htmx):
    roster = make_roster(player)
    url = reverse("armies:roster-rename", args=[roster.pk])
    response = client.post(
        url, {"name": "Bridge\x00holders"}, follow=True, **(HTMX if htmx else {})
    )
    assert response.status_code == 200
    assert REFUSED in page(response)
    roster.refresh_from_db()
    assert roster.name == "Northern Guard starter force"


@pytest.mark.parametrize("escaped", BAD_JSON)
def test_an_imported_name_pasted_or_uploaded(client, player, escaped):
    text = export_with_name(escaped)
    pasted = client.post(reverse("armies:roster-import"), {"text": text})
    upload = SimpleUploadedFile("list.json", text.encode(), content_type="application/json")
    uploaded = client.post(reverse("armies:roster-import"), {"file": upload})
    for response in (pasted, uploaded):
        assert response.status_code == 400
        assert REFUSED in page(response)
    assert Roster.objects.filter(owner=player).count() == 0


def test_an_import_with_nul_deep_inside(client, player):
    roster = make_roster(make_user("exporter"))
    army = json.loads(json.dumps(roster.army))
    army["groups"][0]["models"][0]["options"] = [{"id": "north_mac", "name": "M\x00AC"}]
    text = json.dumps({"format": "blitz-roster/1", "roster": army})
    response = client.post(reverse("armies:roster-import"), {"text": text})
    assert response.status_code == 400
    assert REFUSED in page(response)


def test_a_nul_in_a_raw_upload_is_not_valid_json(client, player):
    text = export_with_name("Bridge\x00holders")  # a raw control character in a JSON string
    upload = SimpleUploadedFile("list.json", text.encode(), content_type="application/json")
    response = client.post(reverse("armies:roster-import"), {"file": upload})
    assert response.status_code == 400
    assert "not valid JSON" in page(response)


def test_signing_up_with_a_nul_in_the_username(client):
    response = client.post(
        reverse("signup"),
        {"username": "jan\x00", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 200
    assert REFUSED in page(response)
    assert not User.objects.exists()


def test_logging_in_with_a_nul_in_the_username(client):
    make_user("jan")
    response = client.post(reverse("login"), {"username": "jan\x00", "password": PASSWORD})
    assert response.status_code == 200
    assert REFUSED in page(response)


def test_a_match_end_note(client, player):
    match = make_match(player)
    response = client.post(
        reverse("matches:match-end", args=[match.pk]),
        {"winner": "a", "note": "Held\x00the bridge", "key": "end-00001"},
    )
    assert response.status_code in (200, 400)
    assert REFUSED in page(response)
    match.refresh_from_db()
    assert match.status == "live"


@pytest.mark.parametrize("path", ["/r/abc%00def", "/r/abc%00def/qr.svg"])
def test_a_share_link_with_a_nul_is_a_plain_404(client, path):
    assert client.get(path).status_code == 404


def test_copying_a_share_link_with_a_nul_is_a_plain_404(client):
    assert client.post("/r/abc%00def/copy").status_code == 404


def test_play_against_a_link_with_a_nul(client, player):
    response = client.get(reverse("matches:match-new") + "?against=abc%00def")
    assert response.status_code == 200


@pytest.mark.parametrize("kind", ["join", "watch"])
def test_match_links_with_a_nul_are_404(client, kind):
    assert client.get(f"/matches/{kind}/abc%00def/").status_code == 404


def test_filtering_my_rosters_by_a_name_with_a_nul(client, player):
    make_roster(player)
    response = client.get(reverse("armies:roster-list") + "?q=North%00ern")
    assert response.status_code == 200
