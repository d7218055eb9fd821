"""Behind nginx every request comes from one address: the login rate limit must still be per
player (nginx's X-Real-IP), and a client cannot dodge it with a header of its own otherwise."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "tread-heavy-gear-42"


def login(client, password: str, address: str):
    return client.post(
        reverse("login"),
        {"username": "jan", "password": password},
        REMOTE_ADDR="127.0.0.1",  # nginx
        HTTP_X_REAL_IP=address,
    )


def test_behind_the_proxy_five_failures_lock_out_only_the_address_they_came_from(client, settings):
    settings.BEHIND_PROXY = True
    User.objects.create_user("jan", password=PASSWORD)
    for _ in range(5):
        login(client, "nope", "203.0.113.9")
    assert login(client, PASSWORD, "203.0.113.9").status_code == 429
    assert login(client, PASSWORD, "198.51.100.7").status_code == 302


def test_without_the_proxy_a_made_up_address_header_changes_nothing(client, settings):
    settings.BEHIND_PROXY = False
    User.objects.create_user("jan", password=PASSWORD)
    for n in range(5):
        login(client, "nope", f"203.0.113.{n}")
    assert login(client, PASSWORD, "198.51.100.7").status_code == 429
