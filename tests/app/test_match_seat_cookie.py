"""The seat cookie the board hands out: it lets a tap or a poll skip the session, and it is
only ever a shortcut: a stale or foreign cookie is never trusted on its own."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from matches.access import seat_cookie
from matches.models import Match, MatchEvent
from tests.factories import PASSWORD, make_match, make_user, tap

pytestmark = pytest.mark.django_db


@pytest.fixture
def player():
    return make_user("pilot")


def board(client, match):
    return client.get(reverse("matches:match-board", args=[match.pk]))


def test_the_board_hands_out_an_httponly_seat_cookie_scoped_to_the_match(client, player):
    client.force_login(player)
    match = make_match(player)
    response = board(client, match)
    cookie = response.cookies[seat_cookie(match.pk)]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    assert cookie["path"] == reverse("matches:match-board", args=[match.pk])
    assert cookie.value.startswith("a:")


def test_a_copied_cookie_does_not_work_in_another_browser(client, player):
    client.force_login(player)
    match = make_match(player)
    stolen = board(client, match).cookies[seat_cookie(match.pk)].value
    stranger = Client()
    stranger.force_login(make_user("eve"))
    stranger.cookies[seat_cookie(match.pk)] = stolen
    assert tap(stranger, match, "mark b-1-1").status_code == 404
    poll = reverse("matches:match-poll", args=[match.pk]) + "?seq=0"
    assert stranger.get(poll).status_code == 404
    assert Match.objects.get(pk=match.pk).seq == 0


def test_logging_out_voids_the_seat_cookie(client, player):
    client.post(reverse("login"), {"username": "pilot", "password": PASSWORD})
    match = make_match(player)
    board(client, match)
    client.post(reverse("logout"))
    assert tap(client, match, "mark b-1-1").status_code == 404
    assert Match.objects.get(pk=match.pk).seq == 0


def test_a_stale_cookie_falls_back_to_the_players_own_seat(client, player):
    client.force_login(player)
    match = make_match(player)
    board(client, match)
    # The seat's token changes (as when the seat is freed and taken again by the same player).
    Match.objects.filter(pk=match.pk).update(a_token="a-brand-new-token-000000000000")
    assert tap(client, match, "mark b-1-1").status_code == 200
    assert Match.objects.get(pk=match.pk).seq == 1


# --- Sessions and seats end when they should --------------------------------------------------


def logged_in(username="pilot", password=PASSWORD):
    browser = Client()
    response = browser.post(reverse("login"), {"username": username, "password": password})
    assert response.status_code == 302
    return browser


def copy_of(browser):
    """Another browser holding a copy of ``browser``'s cookies as they are now."""
    thief = Client()
    for name, morsel in browser.cookies.items():
        thief.cookies[name] = morsel.value
        thief.cookies[name]["path"] = morsel["path"]
    return thief


def assert_cannot_tap(browser, match):
    assert tap(browser, match, "mark b-1-1").status_code in (403, 404)
    poll = reverse("matches:match-poll", args=[match.pk]) + "?seq=0"
    assert browser.get(poll).status_code in (403, 404)
    assert Match.objects.get(pk=match.pk).seq == 0
    assert not MatchEvent.objects.filter(match=match).exists()


def change_password(browser, old=PASSWORD, new="new-" + PASSWORD):
    response = browser.post(
        reverse("password-change"),
        {"old_password": old, "new_password1": new, "new_password2": new},
    )
    assert response.status_code == 302


def test_after_logout_a_copy_of_the_old_cookies_cannot_tap(player):
    browser = logged_in()
    match = make_match(player)
    board(browser, match)
    thief = copy_of(browser)
    browser.post(reverse("logout"))
    assert_cannot_tap(thief, match)


def test_after_a_password_change_a_copy_of_the_old_cookies_cannot_tap(player):
    browser = logged_in()
    match = make_match(player)
    board(browser, match)
    thief = copy_of(browser)
    change_password(browser)
    assert_cannot_tap(thief, match)


def test_a_password_change_ends_the_seats_in_every_other_browser_of_the_account(player):
    tablet, phone = logged_in(), logged_in()
    match = make_match(player)
    board(tablet, match)
    board(phone, match)
    change_password(phone)
    assert_cannot_tap(tablet, match)


def test_a_password_set_outside_the_site_ends_the_seats_too(player):
    """An admin resets it, or ``manage.py changepassword``: no form of ours sees it."""
    tablet = logged_in()
    match = make_match(player)
    board(tablet, match)
    thief = copy_of(tablet)
    player.set_password("reset-by-an-admin-2024")
    player.save()
    assert_cannot_tap(thief, match)
    assert_cannot_tap(tablet, match)


def test_saving_an_account_without_a_new_password_keeps_the_seats(player):
    tablet = logged_in()
    match = make_match(player)
    board(tablet, match)
    player.first_name = "Anna"
    player.save()
    assert tap(tablet, match, "mark b-1-1").status_code == 200


def test_the_player_keeps_their_board_after_a_password_change_and_after_logging_in_again(player):
    browser = logged_in()
    match = make_match(player)
    board(browser, match)
    change_password(browser)
    assert tap(browser, match, "mark b-1-1").status_code == 200
    browser.post(reverse("logout"))
    browser = logged_in(password="new-" + PASSWORD)
    assert board(browser, match).status_code == 200
    assert tap(browser, match, "mark b-1-2").status_code == 200
    poll = reverse("matches:match-poll", args=[match.pk]) + "?seq=0"
    assert browser.get(poll).status_code == 200
    assert Match.objects.get(pk=match.pk).seq == 2
