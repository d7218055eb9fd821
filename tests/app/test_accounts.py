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
