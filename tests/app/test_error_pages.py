"""404, 403 and 500 pages in Blitz's look, as served with DEBUG off; and a turned-off share link."""

from __future__ import annotations

from html import unescape

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from django.views.defaults import server_error

from armies.models import RevokedShareSlug
from tests.factories import make_roster, make_user

LAYOUT = 'class="site-header"'


def page(response) -> str:
    return unescape(response.content.decode())


@pytest.fixture
def debug_off(settings):
    settings.DEBUG = False
    return settings


@pytest.mark.django_db
def test_an_unknown_page_is_a_404_in_blitz_look(client, debug_off):
    response = client.get("/no/such/page")
    assert response.status_code == 404
    html = page(response)
    assert LAYOUT in html and "This page doesn’t exist" in html
    assert "<title>Page not found · Blitz</title>" in html
    assert "Not Found</h1>" not in html  # not Django's bare page


@pytest.mark.django_db
def test_a_never_existing_share_link_gets_the_plain_404(client, debug_off):
    response = client.get(reverse("roster-shared", args=["NeverExistedSlug0000000"]))
    assert response.status_code == 404
    html = page(response)
    assert "This page doesn’t exist" in html and "turned off" not in html


@pytest.mark.django_db
@pytest.mark.parametrize("how", ["armies:roster-share-revoke", "armies:roster-share-new"])
def test_a_turned_off_share_link_says_so_without_showing_the_roster(client, debug_off, how):
    user = make_user()
    roster = make_roster(user, preset="south_starter")
    old = roster.share_slug
    client.force_login(user)
    client.post(reverse(how, args=[roster.pk]))
    assert RevokedShareSlug.objects.filter(slug=old).exists()
    visitor = Client()
    response = visitor.get(reverse("roster-shared", args=[old]))
    assert response.status_code == 404
    html = page(response)
    assert LAYOUT in html
    assert "This share link was turned off" in html
    assert "ask its owner to send you a new link" in html
    assert roster.name not in html and "Jäger" not in html and "Jager" not in html


@pytest.mark.django_db
def test_a_deleted_rosters_link_is_a_plain_404(client, debug_off):
    user = make_user()
    roster = make_roster(user)
    client.force_login(user)
    client.post(reverse("armies:roster-delete", args=[roster.pk]))
    response = Client().get(reverse("roster-shared", args=[roster.share_slug]))
    assert response.status_code == 404 and "This page doesn’t exist" in page(response)


@pytest.mark.django_db
@pytest.mark.urls("tests.app.urls_failing")
def test_a_forbidden_page_is_a_403_in_blitz_look(client, debug_off):
    response = client.get("/test-only/forbidden")
    assert response.status_code == 403
    html = page(response)
    assert LAYOUT in html and "You can’t do that here" in html


@pytest.mark.django_db
def test_a_failed_csrf_check_is_a_403_in_blitz_look(debug_off):
    response = Client(enforce_csrf_checks=True).post(reverse("armies:roster-create"))
    assert response.status_code == 403
    assert "You can’t do that here" in page(response)


@pytest.mark.django_db
@pytest.mark.urls("tests.app.urls_failing")
def test_a_crash_is_a_500_in_blitz_look(debug_off):
    client = Client(raise_request_exception=False)
    response = client.get("/test-only/boom")
    assert response.status_code == 500
    html = page(response)
    assert LAYOUT in html and "Something went wrong on our side" in html
    assert "a bug, on purpose" not in html


def test_the_500_page_needs_no_database_and_no_request_context(debug_off):
    # No django_db mark: pytest-django makes any query here fail the test.
    response = server_error(RequestFactory().get("/anything"))
    assert response.status_code == 500
    html = page(response)
    assert LAYOUT in html and "Something went wrong on our side" in html
    assert "htmx" not in html  # no script it does not use
