"""Wrong old passwords on the password-change form are limited per account (in the database, so
across app servers): a stolen session cannot guess its way to the password."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db

NEW = "new-" + PASSWORD
TOO_MANY = "Too many wrong passwords"


def change(client, old):
    return client.post(
        reverse("password-change"),
        {"old_password": old, "new_password1": NEW, "new_password2": NEW},
    )


def test_five_wrong_old_passwords_then_even_the_right_one_waits(client, settings):
    user = make_user()
    client.force_login(user)
    for n in range(settings.AXES_FAILURE_LIMIT):
        response = change(client, f"guess-{n}")
        assert response.status_code == 200
        assert "Your old password was entered incorrectly" in response.content.decode()
    for old in ("guess-x", PASSWORD):
        response = change(client, old)
        assert response.status_code == 200
        assert TOO_MANY in response.content.decode()
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def test_the_limit_holds_across_browsers_and_lifts_after_the_cool_off(client, clock, settings):
    user = make_user()
    client.force_login(user)
    for n in range(settings.AXES_FAILURE_LIMIT):
        change(client, f"guess-{n}")
    other = Client()  # another browser, maybe served by another app server
    other.force_login(user)
    assert TOO_MANY in change(other, PASSWORD).content.decode()
    clock.advance(settings.AXES_COOLOFF_TIME.total_seconds() - 60)
    assert TOO_MANY in change(other, PASSWORD).content.decode()  # refusals do not extend it
    clock.advance(61)
    assert change(other, PASSWORD).status_code == 302
    assert User.objects.get(pk=user.pk).check_password(NEW)


def test_one_accounts_wrong_guesses_do_not_limit_another(client, settings):
    client.force_login(make_user("mallory"))
    for n in range(settings.AXES_FAILURE_LIMIT + 1):
        change(client, f"guess-{n}")
    jan = Client()
    jan.force_login(make_user("jan"))
    assert change(jan, PASSWORD).status_code == 302


def test_a_right_old_password_clears_the_count(client, settings):
    user = make_user()
    client.force_login(user)
    for n in range(settings.AXES_FAILURE_LIMIT - 1):
        change(client, f"guess-{n}")
    assert change(client, PASSWORD).status_code == 302
    for n in range(settings.AXES_FAILURE_LIMIT - 1):
        change(client, f"guess-{n}")
    response = client.post(
        reverse("password-change"),
        {"old_password": NEW, "new_password1": PASSWORD + "!", "new_password2": PASSWORD + "!"},
    )
    assert response.status_code == 302
