"""Sharing and the roster list in Chromium: copy buttons, confirmations, error pages, login return.

Screenshots at a phone (390x844) and a tablet (820x1180); axe-core on every page this changes.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.factories import PASSWORD, make_roster, make_user

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"phone": PHONE, "tablet": {"width": 820, "height": 1180}}
CLIPBOARD = {"permissions": ["clipboard-read", "clipboard-write"], "bypass_csp": True}


def log_in_from(page, base: str, username: str) -> None:
    """Use the nav's "Log in" link from the page the player is on."""
    page.get_by_role("link", name="Log in").click()
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button:has-text('Log in')")


def assert_tappable(page, selector: str) -> None:
    for box in page.locator(selector).evaluate_all(
        "els => els.filter(e => e.offsetParent).map(e => e.getBoundingClientRect())"
        ".map(r => [r.width, r.height])"
    ):
        assert box[0] >= 44 and box[1] >= 44, f"{selector} is {box[0]}x{box[1]} px"


@pytest.mark.parametrize("size", SIZES.keys())
def test_list_share_copy_and_error_pages(
    live_server, browser, new_page, shot, assert_accessible, size
):
    base = live_server.url
    user = make_user(f"pilot-{size}")
    roster = make_roster(user, preset="north_starter")
    make_roster(user, preset="peace_river_starter")
    make_roster(user, preset="south_starter")

    # A visitor opens the share link: no htmx on it, and logging in comes back here.
    page = new_page(SIZES[size], **CLIPBOARD)
    page.goto(f"{base}/r/{roster.share_slug}")
    expect(page.locator("h1")).to_have_text("Northern Guard starter force")
    assert page.evaluate("typeof window.htmx") == "undefined"
    page.locator(".qr-panel summary").click()
    expect(page.get_by_role("button", name="Copy link")).to_be_visible()
    assert_accessible(page, "on the shared page")
    shot(page, "shared", full_page=True)
    page.get_by_role("button", name="Copy link").click()
    expect(page.locator(".qr-panel [data-copy-status]")).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == f"{base}/r/{roster.share_slug}"
    page.get_by_role("link", name="Log in").click()
    assert_accessible(page, "on the login page")
    shot(page, "login")
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.click("button:has-text('Log in')")
    expect(page).to_have_url(f"{base}/r/{roster.share_slug}")

    # The roster list: sort and filter with a plain form.
    page.goto(base + "/armies/")
    page.select_option("#roster-sort", "name")
    page.get_by_role("button", name="Show").click()
    expect(page.locator(".roster-item h2")).to_have_text(
        [
            "Northern Guard starter force",
            "Peace River starter force",
            "Southern MILICIA starter force",
        ]
    )
    assert_tappable(page, ".list-tools button, .list-tools input, .list-tools select")
    assert_accessible(page, "on the roster list")
    shot(page, "roster-list", full_page=True)
    page.fill("#roster-q", "river")
    page.get_by_role("button", name="Show").click()
    expect(page.locator(".roster-item h2")).to_have_text(["Peace River starter force"])
    expect(page.get_by_text("1 roster with “river” in the name.")).to_be_visible()
    assert_accessible(page, "on the filtered roster list")
    shot(page, "roster-list-filtered")

    # The editor: Copy link and Copy text put the link and the Markdown on the clipboard.
    page.goto(f"{base}/armies/{roster.pk}/#share")
    page.get_by_role("button", name="Copy link").click()
    assert page.evaluate("navigator.clipboard.readText()").endswith(f"/r/{roster.share_slug}")
    page.get_by_role("link", name="Copy text").click()
    expect(page.get_by_role("link", name="Copied ✓")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()").startswith(
        "# Northern Guard starter force\n"
    )
    assert_tappable(page, ".share-panel .button, .share-panel button, .roster-actions .button")

    # Turning the link off asks first; the old link then says it was turned off.
    page.get_by_role("link", name="Turn the link off…").click()
    expect(page.locator("h1")).to_contain_text("Turn off the share link")
    page.get_by_role("button", name="Turn the link off").click()
    expect(page.get_by_text("Sharing is off")).to_be_visible()
    # The old link, and one that never existed, answer 404 (Chromium logs the document's 404
    # status as a console error, so these pages are opened outside new_page's error check).
    context = browser.new_context(viewport=SIZES[size], bypass_csp=True)
    errors = []
    gone = context.new_page()
    gone.on(
        "console",
        lambda msg: msg.type == "error" and "404" not in msg.text and errors.append(msg.text),
    )
    gone.on("pageerror", lambda err: errors.append(str(err)))
    gone.goto(f"{base}/r/{roster.share_slug}")
    expect(gone.locator("h1")).to_have_text("This share link was turned off")
    assert_accessible(gone, "on a turned-off share link")
    shot(gone, "share-turned-off")
    gone.goto(f"{base}/r/NeverExistedAtAll000000")
    expect(gone.locator("h1")).to_have_text("This page doesn’t exist")
    assert_tappable(gone, ".error-page .button")
    assert_accessible(gone, "on the 404 page")
    shot(gone, "404")
    context.close()
    assert not errors


def test_without_javascript_the_copy_fallbacks_and_confirmations_work(live_server, new_page, shot):
    base = live_server.url
    user = make_user("nojs")
    roster = make_roster(user)
    page = new_page(PHONE, java_script_enabled=False)
    page.goto(f"{base}/r/{roster.share_slug}")
    log_in_from(page, base, user.username)
    expect(page).to_have_url(f"{base}/r/{roster.share_slug}")
    page.goto(f"{base}/armies/{roster.pk}/")
    expect(page.locator("#share-url")).to_have_value(f"{base}/r/{roster.share_slug}")
    expect(page.get_by_role("button", name="Copy link")).to_be_hidden()
    page.get_by_role("link", name="Copy text").click()
    expect(page.locator("#roster-text")).to_have_value(
        re.compile(r"^# Northern Guard starter force\n")
    )
    shot(page, "text-page-nojs", full_page=True)
    page.goto(f"{base}/armies/{roster.pk}/")
    page.locator("#share > summary").click()  # the share panel opens with one tap
    page.get_by_role("link", name="Make a new link…").click()
    page.get_by_role("button", name="Make a new link").click()
    expect(page.get_by_text("New share link made")).to_be_visible()
    roster.refresh_from_db()
    assert page.locator("#share-url").input_value() == f"{base}/r/{roster.share_slug}"
