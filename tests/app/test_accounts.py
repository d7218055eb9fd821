from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "tread-heavy-gear-42"


def test_signup_creates_the_account_and_logs_in(client):
    response = client.post(
        reverse("signup"),
        {"username": "jan", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    assert User.objects.filter(username="jan").exists()
    assert "jan" in client.get(reverse("home")).content.decode()


def test_signup_with_mismatched_passwords_says_so_and_creates_nothing(client):
    response = client.post(
        reverse("signup"),
        {"username": "jan", "password1": PASSWORD, "password2": PASSWORD + "x"},
    )
    assert response.status_code == 200
    assert "password fields didn’t match" in response.content.decode()
    assert not User.objects.exists()


def test_login_refuses_a_wrong_password_in_words(client):
    User.objects.create_user("jan", password=PASSWORD)
    response = client.post(reverse("login"), {"username": "jan", "password": "nope"})
    assert response.status_code == 200
    assert "enter a correct username and password" in response.content.decode()


def test_login_ignores_an_offsite_next_url(client):
    User.objects.create_user("jan", password=PASSWORD)
    response = client.post(
        reverse("login"),
        {"username": "jan", "password": PASSWORD, "next": "https://evil.example/"},
    )
    assert response.status_code == 302
    assert "evil.example" not in response["Location"]


def test_password_change_requires_login_and_works(client):
    assert client.get(reverse("password-change")).status_code == 302
    user = User.objects.create_user("jan", password=PASSWORD)
    client.force_login(user)
    response = client.post(
        reverse("password-change"),
        {
            "old_password": PASSWORD,
            "new_password1": "new-" + PASSWORD,
            "new_password2": "new-" + PASSWORD,
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("new-" + PASSWORD)


def test_logout_is_post_only(client):
    user = User.objects.create_user("jan", password=PASSWORD)
    client.force_login(user)
    assert client.get(reverse("logout")).status_code == 405
    assert client.post(reverse("logout")).status_code == 302


def test_signup_form_enforces_csrf():
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        reverse("signup"), {"username": "jan", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 403
    assert not User.objects.exists()


def test_repeated_wrong_passwords_are_rate_limited_then_even_the_right_one_waits(client):
    User.objects.create_user("jan", password=PASSWORD)
    for _ in range(4):
        assert (
            client.post(reverse("login"), {"username": "jan", "password": "nope"}).status_code
            == 200
        )
    fifth = client.post(reverse("login"), {"username": "jan", "password": "nope"})
    assert fifth.status_code == 429
    locked = client.post(reverse("login"), {"username": "jan", "password": PASSWORD})
    assert locked.status_code == 429
    assert "Too many login attempts" in locked.content.decode()
    assert "_auth_user_id" not in client.session


# --- Returning to the page the player was on ------------------------------------------------


def test_the_login_and_signup_links_carry_the_current_page(client):
    from tests.factories import make_roster, make_user

    roster = make_roster(make_user("kim"))
    html = client.get(reverse("roster-shared", args=[roster.share_slug])).content.decode()
    here = f"/r/{roster.share_slug}"
    assert f'href="/accounts/login/?next={here}"' in html
    assert f'href="/accounts/signup/?next={here}"' in html


def test_logging_in_returns_to_the_page_the_player_was_on(client):
    User.objects.create_user("jan", password=PASSWORD)
    page = client.get(reverse("login") + "?next=/matches/%3Fx%3D1").content.decode()
    assert 'name="next" value="/matches/?x=1"' in page
    assert 'href="/accounts/signup/?next=/matches/%3Fx%3D1"' in page
    response = client.post(
        reverse("login"), {"username": "jan", "password": PASSWORD, "next": "/matches/?x=1"}
    )
    assert response.status_code == 302 and response["Location"] == "/matches/?x=1"


def test_signing_up_returns_to_the_page_the_player_was_on(client):
    page = client.get(reverse("signup") + "?next=/armies/").content.decode()
    assert 'href="/accounts/login/?next=/armies/"' in page
    response = client.post(
        reverse("signup"),
        {"username": "jan", "password1": PASSWORD, "password2": PASSWORD, "next": "/matches/"},
    )
    assert response.status_code == 302 and response["Location"] == "/matches/"


@pytest.mark.parametrize(
    "target",
    [
        "matches",  # a bare word
        "https://evil.example/",
        "//evil.example/",
        "/\\evil.example/",
        "javascript:alert(1)",
        "/armies/\x00",
        "",
    ],
)
def test_a_next_that_is_not_a_page_here_goes_to_the_default(client, target):
    User.objects.create_user("jan", password=PASSWORD)
    login = client.post(reverse("login"), {"username": "jan", "password": PASSWORD, "next": target})
    assert login.status_code == 302 and login["Location"] == reverse("home")
    client.logout()
    signup = client.post(
        reverse("signup"),
        {"username": "kim", "password1": PASSWORD, "password2": PASSWORD, "next": target},
    )
    assert signup.status_code == 302 and signup["Location"] == reverse("armies:roster-list")


@pytest.mark.parametrize("target", ["matches", "https://evil.example/", "/x\x00"])
def test_the_login_page_never_echoes_a_bad_next(client, target):
    response = client.get(reverse("login"), {"next": target})
    assert response.status_code == 200
    assert "evil.example" not in response.content.decode()
    assert 'name="next" value=""' in response.content.decode()
