from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import VIEWPORTS

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_manifest_lets_a_tablet_add_blitz_to_its_home_screen(live_server, new_page):
    page = new_page(VIEWPORTS["tablet-landscape"])
    page.goto(live_server.url + "/")
    href = page.locator("link[rel=manifest]").get_attribute("href")
    manifest = json.loads(page.request.get(live_server.url + href).text())
    assert manifest["display"] == "fullscreen" and manifest["start_url"].startswith("/")
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        url = live_server.url + href.rsplit("/", 1)[0] + "/" + icon["src"]
        assert page.request.get(url).ok, icon["src"]


def test_offline_the_service_worker_shows_a_clear_page(live_server, new_page, shot):
    page = new_page(VIEWPORTS["tablet-portrait"])
    page.goto(live_server.url + "/")
    # The worker installs, caches the static files and takes control of the open page.
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.reload()
    page.context.set_offline(True)
    page.goto(live_server.url + "/accounts/login/")
    expect(page.locator("h1")).to_have_text("You are offline")
    expect(page.locator(".site-header")).to_be_visible()  # styled: the CSS came from the device
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != "rgba(0, 0, 0, 0)"
    shot(page, "offline")
    # No page is kept on the device, not even one seen before: pages can be private.
    page.goto(live_server.url + "/")
    expect(page.locator("h1")).to_have_text("You are offline")
    page.context.set_offline(False)
    page.goto(live_server.url + "/accounts/login/")
    expect(page.locator("h1")).to_have_text("Log in")
