"""A roster's match history: a fragment matches/ serves, loaded by the roster editor."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_match, make_roster, make_user, seat_guest

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def history_url(roster) -> str:
    return reverse("matches:roster-history", args=[roster.pk])


def test_it_serves_the_owner_the_fragment_to_htmx(client, player):
    roster = make_roster(player)
    html = client.get(history_url(roster), **HTMX).content.decode()
    assert html.lstrip().startswith('<section class="roster-history"')
    assert "<html" not in html
    assert "has not been played in a match yet" in html
    match = make_match(player, roster=roster)
    html = client.get(history_url(roster), **HTMX).content.decode()
    assert "against Peace River starter force" in html and "In progress" in html
    assert f'href="{reverse("matches:match-summary", args=[match.pk])}"' in html


def test_it_serves_a_whole_page_without_javascript(client, player):
    roster = make_roster(player)
    make_match(player, roster=roster)
    response = client.get(history_url(roster))
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html and "Match history" in html
    assert "against Peace River starter force" in html
    assert f'href="{reverse("armies:roster-edit", args=[roster.pk])}"' in html


def test_it_is_404_for_another_players_roster(client, player):
    roster = make_roster(make_user("sam"))
    assert client.get(history_url(roster), **HTMX).status_code == 404
    assert client.get(history_url(roster)).status_code == 404


def test_it_is_404_for_a_deleted_roster(client, player):
    roster = make_roster(player)
    client.post(reverse("armies:roster-delete", args=[roster.pk]))
    assert client.get(history_url(roster), **HTMX).status_code == 404


def test_a_guest_sees_the_history_of_their_own_roster_only():
    guest = Client()
    seat_guest(guest, "guest-key-0001")
    roster = make_roster(guest_key="guest-key-0001")
    make_match(roster=roster, guest_key="guest-key-0001")
    html = guest.get(history_url(roster), **HTMX).content.decode()
    assert "against Peace River starter force" in html
    stranger = Client()
    assert stranger.get(history_url(roster), **HTMX).status_code == 404
    seat_guest(stranger, "guest-key-0002")
    assert stranger.get(history_url(roster), **HTMX).status_code == 404


def test_it_answers_only_reads(client, player):
    roster = make_roster(player)
    assert client.post(history_url(roster)).status_code == 405
