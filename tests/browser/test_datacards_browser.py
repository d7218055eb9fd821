"""My datacards in Chromium: type the Jaguar's Armor on a tablet's numeric keypad, see it on the
roster's cards marked "yours", share the pack read-only. axe-core on each new page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.factories import PASSWORD, make_roster, make_user

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"phone": PHONE, "tablet": {"width": 820, "height": 1180}}


def assert_tappable(page, selector: str) -> None:
    for box in page.locator(selector).evaluate_all(
        "els => els.filter(e => e.offsetParent).map(e => e.getBoundingClientRect())"
        ".map(r => [r.width, r.height])"
    ):
        assert box[0] >= 44 and box[1] >= 44, f"{selector} is {box[0]}x{box[1]} px"


@pytest.mark.parametrize("size", SIZES.keys())
def test_type_the_jaguars_armor_and_see_it_on_the_cards(
    live_server, new_page, shot, assert_accessible, size
):
    base = live_server.url
    user = make_user(f"jan-{size}")
    roster = make_roster(user, preset="north_starter")
    page = new_page(SIZES[size], bypass_csp=True)
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.click("button:has-text('Log in')")

    page.goto(f"{base}/datacards/")
    expect(page.get_by_text("missing").first).to_be_visible()
    assert_accessible(page, "datacards, no pack yet")
    page.click("button:has-text('Start my datacards')")
    shot(page, f"datacards-library-{size}", full_page=True)
    assert_accessible(page, "datacards library")

    page.get_by_role("link", name="Edit the figures of Jaguar").click()
    armor = page.get_by_label("Armor", exact=True)
    assert armor.get_attribute("inputmode") == "numeric"
    assert_tappable(page, ".figures-form input[type=text], .figures-form button")
    armor.fill("100")
    page.click("button:has-text('Save figures')")
    expect(page.get_by_text("Armor must be a whole number from 1 to 99.")).to_be_visible()
    assert_accessible(page, "datacard form with an error")
    page.get_by_label("Armor", exact=True).fill("7")
    shot(page, f"datacards-form-{size}", full_page=True)
    page.click("button:has-text('Save figures')")
    expect(page.get_by_text("yours, entered by").first).to_be_visible()

    page.goto(f"{base}/armies/{roster.pk}/cards")
    card = page.locator("article.datacard", has_text="Jaguar")
    expect(card).to_contain_text("Armor 7")
    expect(card).to_contain_text(f"yours, entered by {user.username}")
    shot(page, f"datacards-roster-cards-{size}", full_page=True)
    assert_accessible(page, "roster datacards with a pack")

    page.goto(f"{base}/datacards/")
    page.click("button:has-text('Make a share link')")
    link = page.locator("a[href*='/d/']").first.get_attribute("href")
    visitor = new_page(SIZES[size], bypass_csp=True)
    visitor.goto(link)
    expect(visitor.get_by_text(f"entered by {user.username}").first).to_be_visible()
    expect(visitor.get_by_role("link", name="Edit the figures of Jaguar")).to_have_count(0)
    shot(visitor, f"datacards-shared-{size}", full_page=True)
    assert_accessible(visitor, "shared datacard pack")


@pytest.mark.parametrize("size", SIZES.keys())
def test_save_a_figure_from_the_attack_helper_to_my_datacards(
    live_server, new_page, shot, assert_accessible, size
):
    from tests.app.test_datacards import JAGUAR, start_match

    base = live_server.url
    user = make_user(f"jan-{size}")
    match = start_match(user, make_roster(user, preset="north_starter"))
    page = new_page(SIZES[size], bypass_csp=True)
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.click("button:has-text('Log in')")

    page.goto(f"{base}/matches/{match.pk}/attack/?attacker=b-1-1&target={JAGUAR}")
    armor = page.locator(f"#id_armor\\.{JAGUAR}")
    armor.fill("7")
    expect(page.get_by_text("Kept for this match: 7.")).to_be_visible()
    save = page.get_by_role("button", name=re.compile(r"^Save to my datacards\W+Armor of Jaguar"))
    expect(save).to_have_count(1)
    assert_tappable(page, ".save-fig")
    assert_accessible(page, "attack helper with Save to my datacards")
    save.click()
    expect(page.get_by_text("Saved to “My datacards”: 7, entered by")).to_be_visible()
    shot(page, f"attack-save-figure-{size}", full_page=True)
    assert_accessible(page, "attack helper, figure saved")

    page.get_by_role("link", name="See my datacards").click()
    row = page.locator("tr", has_text="Jaguar")
    expect(row).to_contain_text("7")
    expect(row).to_contain_text(f"yours, entered by {user.username}")


@pytest.mark.parametrize("size", SIZES.keys())
def test_the_library_fits_the_screen_without_a_sideways_scroll(live_server, new_page, size):
    """The figure tables scroll inside their own box; the page itself never scrolls sideways."""
    from armies import packs
    from armies.hgb.packs import data_fingerprint
    from armies.owners import Owner
    from blitz_site.systems import HGB

    user = make_user(f"wide-{size}")
    owner = Owner(user.pk, None)
    pack = packs.pack_create(
        owner=owner, entered_by=user.username, system=HGB, data_fingerprint=data_fingerprint()
    )
    page = new_page(SIZES[size])
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.click("button:has-text('Log in')")
    for path in (
        "/datacards/",
        f"/datacards/{pack.pk}/models/jaguar",
        f"/datacards/{pack.pk}/weapons/LAC",
    ):
        page.goto(live_server.url + path)
        expect(page.locator("h1")).to_be_visible()
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{path} is {overflow} px too wide"
