"""Nobody can lock a player out: the login limit counts per username and address, where the address
is the one the trusted proxy saw; a per-address limit catches password spraying; a lockout runs
from when it started, whatever is tried during it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import RequestFactory, override_settings
from django.urls import reverse

from blitz_site.client import client_address
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

PROXY = "127.0.0.1"  # nginx on the same host: every request connects from here
STRANGER, OWNER = "203.0.113.5", "198.51.100.7"


def login(client, username, password, *, via=None):
    """A login POST; ``via``: the X-Forwarded-For header nginx passes on."""
    headers = {"X-Forwarded-For": via} if via is not None else {}
    return client.post(
        reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=PROXY,
        headers=headers,
    )


def address(forwarded_for=None, remote=PROXY):
    meta = {"REMOTE_ADDR": remote}
    if forwarded_for is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded_for
    return client_address(RequestFactory().get("/", **meta))


# --- The client's address -------------------------------------------------------------------


@override_settings(TRUSTED_PROXY_COUNT=0)
def test_with_no_trusted_proxy_the_forwarded_header_is_ignored():
    assert address("198.51.100.7") == PROXY
    assert address(None, remote="2001:db8::1") == "2001:db8::1"


@override_settings(TRUSTED_PROXY_COUNT=1)
@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("198.51.100.7", "198.51.100.7"),
        # The client sent its own header; nginx appended the address it saw.
        ("10.9.8.7, 198.51.100.7", "198.51.100.7"),
        ("evil, 1.2.3.4,198.51.100.7", "198.51.100.7"),
        ("2001:db8::5", "2001:db8::5"),
        # No header, or one nginx did not write an address into: the connecting address.
        (None, PROXY),
        ("", PROXY),
        ("10.9.8.7, not-an-address", PROXY),
    ],
)
def test_with_one_trusted_proxy_the_address_it_appended_counts(header, expected):
    assert address(header) == expected


@override_settings(TRUSTED_PROXY_COUNT=2)
def test_with_two_trusted_proxies_the_second_address_from_the_right_counts():
    assert address("6.6.6.6, 198.51.100.7, 10.0.0.2") == "198.51.100.7"
    assert address("10.0.0.2") == PROXY  # fewer addresses than proxies: not through them all


# --- A stranger cannot lock the owner out -----------------------------------------------------


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_a_strangers_bad_guesses_from_one_address_do_not_stop_the_owner_at_another(client):
    User.objects.create_user("jan", password=PASSWORD)
    for _ in range(5):
        login(client, "jan", "nope", via=STRANGER)
    assert login(client, "jan", "nope", via=STRANGER).status_code == 429
    response = login(client, "jan", PASSWORD, via=OWNER)
    assert response.status_code == 302
    assert "_auth_user_id" in client.session


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_a_spoofed_forwarded_header_does_not_escape_the_lockout(client):
    User.objects.create_user("jan", password=PASSWORD)
    for n in range(5):
        login(client, "jan", "nope", via=f"10.0.0.{n}, {STRANGER}")
    assert login(client, "jan", PASSWORD, via=f"10.1.1.1, {STRANGER}").status_code == 429


@override_settings(TRUSTED_PROXY_COUNT=0)
def test_without_a_trusted_proxy_a_forwarded_header_does_not_escape_the_lockout(client):
    User.objects.create_user("jan", password=PASSWORD)
    for n in range(5):
        login(client, "jan", "nope", via=f"10.0.0.{n}")
    assert login(client, "jan", PASSWORD, via=OWNER).status_code == 429


# --- Password spraying from one address -------------------------------------------------------


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_one_guess_each_at_many_usernames_from_one_address_gets_locked(client, settings):
    limit = settings.LOGIN_ADDRESS_FAILURE_LIMIT
    assert 5 < limit <= 40
    for n in range(limit - 1):
        assert login(client, f"user{n}", "password1", via=STRANGER).status_code == 200
    assert login(client, "user-last", "password1", via=STRANGER).status_code == 429
    assert login(client, "someone-else", "password1", via=STRANGER).status_code == 429
    # Only that address: a player elsewhere logs in.
    User.objects.create_user("jan", password=PASSWORD)
    assert login(client, "jan", PASSWORD, via=OWNER).status_code == 302


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_logging_into_ones_own_account_does_not_reset_the_address_count(client, settings):
    User.objects.create_user("sprayer", password=PASSWORD)
    limit = settings.LOGIN_ADDRESS_FAILURE_LIMIT
    for n in range(limit - 1):
        login(client, f"user{n}", "password1", via=STRANGER)
        if n % 4 == 3:
            assert login(client, "sprayer", PASSWORD, via=STRANGER).status_code == 302
            client.post(reverse("logout"), REMOTE_ADDR=PROXY)
    assert login(client, "user-last", "password1", via=STRANGER).status_code == 429


# --- A lockout runs from when it started ------------------------------------------------------


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_retrying_during_a_lockout_does_not_extend_it(client, clock, settings):
    User.objects.create_user("jan", password=PASSWORD)
    for _ in range(5):
        login(client, "jan", "nope", via=OWNER)
    cool_off = settings.AXES_COOLOFF_TIME.total_seconds()
    elapsed = 0
    while elapsed + 20 < cool_off:  # the player retries every 20 s, right and wrong
        clock.advance(20)
        elapsed += 20
        password = "nope" if elapsed % 40 else PASSWORD
        assert login(client, "jan", password, via=OWNER).status_code == 429
    clock.advance(cool_off - elapsed + 1)
    assert login(client, "jan", PASSWORD, via=OWNER).status_code == 302


# --- Usernames no account can have ------------------------------------------------------------


@pytest.mark.parametrize("length", [151, 255, 256, 1000])
def test_an_overlong_username_is_a_failed_login_not_a_500(client, length):
    response = login(client, "u" * length, "nope")
    assert response.status_code == 200
    assert "enter a correct username and password" in response.content.decode()
