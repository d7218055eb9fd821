from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import VIEWPORTS
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = VIEWPORTS


def sign_up(page, base: str, username: str) -> None:
    page.goto(base + "/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("button:has-text('Create account')")


@pytest.mark.parametrize("size", SIZES.keys())
def test_guest_builds_swaps_signs_up_shares_and_another_player_copies(
    live_server, new_page, shot, size
):
    base = live_server.url
    page = new_page(SIZES[size])
    page.goto(base + "/armies/")
    expect(page.get_by_text("Create an account")).to_be_visible()
    page.select_option("#id_start", "preset:north_starter")
    page.click("button:has-text('Create roster')")
    expect(page.get_by_test_id("roster-tv")).to_have_text("610")
    expect(page.locator("#roster-summary .badge")).to_have_text("Legal")
    page.evaluate("window.__noReload = true")

    fire_support = page.locator("section.group", has_text="Fire Support Squad")
    second_grizzly = fire_support.locator("details.model-details").filter(
        has=page.locator("summary .weapon", has_text=re.compile(r"^HAC$"))
    )
    second_grizzly.locator("summary").click()  # each model's options are one tap away
    swap = second_grizzly.get_by_role("button", name="Swap HAC for MBZK")
    expect(swap).to_have_attribute("aria-pressed", "false")
    swap.click()
    expect(page.get_by_test_id("roster-tv")).to_have_text("620")
    expect(page.locator("#roster-summary .badge")).to_have_text("Not legal")
    expect(page.locator("#roster-problems")).to_contain_text("over its 610 TV limit")
    assert page.evaluate("window.__noReload") is True  # no page reload happened
    shot(page, "editor", full_page=True)
    shot(page, "editor-viewport")

    # Undo the swap: back to 610 and legal.
    swap = page.locator("#g1-m3-opt-north_grizzly_mbzk")
    expect(swap).to_be_focused()  # the tapped button's replacement, in the still open model
    expect(swap).to_have_attribute("aria-pressed", "true")
    swap.click()
    expect(page.get_by_test_id("roster-tv")).to_have_text("610")
    assert page.evaluate("window.__noReload") is True

    sign_up(page, base, f"pilot-{size}")
    page.goto(base + "/armies/")
    expect(page.get_by_role("link", name="Northern Guard starter force")).to_be_visible()
    page.get_by_role("link", name="Northern Guard starter force").click()
    share_url = page.locator(".share-link a").get_attribute("href")
    assert re.search(r"/r/[A-Za-z0-9_-]{22,}$", share_url)
    qr = page.locator("img.qr")
    qr.scroll_into_view_if_needed()
    page.wait_for_function("() => document.querySelector('img.qr').complete")
    assert page.evaluate("document.querySelector('img.qr').naturalWidth") > 100

    page.goto(page.url.split("#")[0] + "cards")
    expect(page.locator(".datacard")).to_have_count(10)
    shot(page, "datacards", full_page=True)
    page.emulate_media(media="print")
    expect(page.locator(".site-header")).to_be_hidden()
    shot(page, "print", full_page=True)
    for paper in ("A4", "Letter"):
        pdf = page.pdf(format=paper, print_background=True)
        assert pdf.startswith(b"%PDF") and len(pdf) > 10_000
        (shot.folder / f"{size}-{paper}.pdf").write_bytes(pdf)
    page.emulate_media(media="screen")

    # A stranger opens the link logged out: read-only, with cards.
    stranger = new_page(SIZES[size])
    stranger.goto(share_url)
    expect(stranger.locator("h1")).to_have_text("Northern Guard starter force")
    expect(stranger.get_by_test_id("roster-tv")).to_have_text("610")
    expect(stranger.locator("button.toggle")).to_have_count(0)
    expect(stranger.locator(".datacard")).to_have_count(10)
    shot(stranger, "shared", full_page=True)

    # ...signs up and copies it into their own rosters.
    sign_up(stranger, base, f"rival-{size}")
    stranger.goto(share_url)
    stranger.click("button:has-text('Copy to my rosters')")
    expect(stranger.locator("h1.roster-name")).to_have_text("Copy of Northern Guard starter force")
    expect(stranger.get_by_test_id("roster-tv")).to_have_text("610")
