"""The builder refuses rosters bigger than Blitz keeps (rules.hgb.MAX_GROUPS...), in words."""

from __future__ import annotations

import json
from html import unescape

import pytest
from django.urls import reverse

import rules.hgb
from armies.models import Roster
from tests.factories import make_big_roster, make_roster

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def big_export(groups: int, models: int) -> str:
    """The issue's file: ``groups`` North General Purpose groups of ``models`` Hunters."""
    group = {"squad": "north_general_purpose", "models": [{"model": "hunter"}] * models}
    roster = {"faction": "north", "tv_limit": 610, "name": "Huge", "groups": [group] * groups}
    return json.dumps({"format": "blitz-roster/1", "roster": roster})


def test_a_600_group_import_is_refused_with_a_sentence(client, player):
    text = big_export(600, 6)
    assert 80_000 < len(text) < 256 * 1024  # the 96 KB file passes the size check
    response = client.post(reverse("armies:roster-import"), {"text": text})
    assert response.status_code == 400
    page = unescape(response.content.decode())
    assert "The roster has 600 combat groups; Blitz keeps at most 20 in one roster." in page
    assert not Roster.objects.exists()


def test_an_import_at_the_bound_is_accepted(client, player):
    response = client.post(reverse("armies:roster-import"), {"text": big_export(20, 5)})
    assert response.status_code == 302
    assert (
        sum(len(g["models"]) for g in Roster.objects.get().army["groups"]) == rules.hgb.MAX_MODELS
    )


@pytest.mark.parametrize("htmx", [False, True])
def test_adding_a_group_past_the_bound_is_refused_in_words(client, player, htmx):
    roster = make_big_roster(player, rules.hgb.MAX_GROUPS)
    response = client.post(
        reverse("armies:group-add", args=[roster.pk]),
        {"squad": "north_general_purpose", "key": f"add-group-{htmx}"},
        follow=not htmx,
        **(HTMX if htmx else {}),
    )
    assert "already has 20 combat groups" in unescape(response.content.decode())
    if htmx:  # drawn in the "Add a combat group" form the player tapped, not atop the groups
        form = response.content.decode().split('id="add-group"', 1)[1].split("</form>", 1)[0]
        assert "already has 20 combat groups" in unescape(form)
    roster.refresh_from_db()
    assert len(roster.army["groups"]) == rules.hgb.MAX_GROUPS


def test_adding_a_model_past_the_group_bound_is_refused_in_words(client, player):
    roster = make_roster(player)
    url = reverse("armies:model-add", args=[roster.pk, 0])
    for n in range(6):
        response = client.post(url, {"model": "hunter", "key": f"add-model-{n:04}"}, **HTMX)
    assert "already has 10 models" in unescape(response.content.decode())
    roster.refresh_from_db()
    assert len(roster.army["groups"][0]["models"]) == rules.hgb.MAX_GROUP_MODELS
