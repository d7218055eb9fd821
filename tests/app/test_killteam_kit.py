"""A kill team's kit: weapon rules typed as cards print them, the universal equipment a team
picks, Kill Team profile packs exported and imported, and teams brought up to date with a
fixed profile."""

from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse

from tests.app.test_killteam_builder import profile_post
from tests.factories import make_kt_pack

pytestmark = pytest.mark.django_db


def page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return unescape(response.content.decode())


# --- Weapon rules as cards print them -----------------------------------------------------------


def test_the_profile_form_takes_devastatings_distance_and_heavys_one_move(client, player):
    pack = make_kt_pack(player, profiles={})
    form = page(client, reverse("datacard-profile-new", args=[pack.pk]))
    assert "Devastating's distance in inches" in form and "Dash only" in form
    post = profile_post(
        **{
            "w0-rule_devastating": "on",
            "w0-x_devastating": "1",
            "w0-bracket_devastating": '1"',
            "w0-rule_heavy": "on",
            "w0-bracket_heavy": "dash",
        }
    )
    response = client.post(reverse("datacard-profile-new", args=[pack.pk]), post)
    assert response.status_code == 302
    pack.refresh_from_db()
    (stored,) = pack.figures["profiles"].values()
    assert 'Devastating 1 (1")' in stored["weapons"][0]["rules"]
    assert "Heavy (Dash only)" in stored["weapons"][0]["rules"]
    (profile_id,) = pack.figures["profiles"]
    edit = page(client, reverse("datacard-profile-edit", args=[pack.pk, profile_id]))
    assert '<option value="dash" selected>Dash only</option>' in edit


def test_a_wrong_bracket_is_a_form_error_in_words_and_nothing_is_saved(client, player):
    pack = make_kt_pack(player, profiles={})
    post = profile_post(
        **{"w0-rule_devastating": "on", "w0-x_devastating": "1", "w0-bracket_devastating": "near"}
    )
    response = client.post(reverse("datacard-profile-new", args=[pack.pk]), post)
    assert response.status_code == 200
    assert "The bracket after Devastating is a distance" in unescape(response.content.decode())
    pack.refresh_from_db()
    assert pack.figures["profiles"] == {}
