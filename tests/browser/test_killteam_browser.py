"""Building a kill team in Chromium, on a tablet (820x1180) and a desktop: pick the game on the
home page, type a profile into the datacard library (a wrong APL first), add operatives, pick
grenades, rename, remove, print and share (with a match to play against). axe-core on every
new page; touch targets >= 44 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"tablet": {"width": 820, "height": 1180}, "desktop": {"width": 1440, "height": 900}}
TARGETS = (
    "main .button, main button, main select, main input[type=text], main label.choice, "
    "main summary, main .crumbs a"
)


def assert_tappable(page, selector: str = TARGETS) -> None:
    small = page.locator(selector).evaluate_all(
        """els => els.filter(e => e.offsetParent !== null)
            .map(e => [e.outerHTML.slice(0, 80), e.getBoundingClientRect()])
            .filter(([, r]) => r.width < 44 || r.height < 44)
            .map(([html, r]) => `${html} is ${r.width}x${r.height}`)"""
    )
    assert small == [], small


def assert_no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0


def check(page, assert_accessible, what: str) -> None:
    assert_accessible(page, what)
    assert_tappable(page)
    assert_no_sideways_scroll(page)


def type_weapon(page, slot: int, name: str, kind: str, figures: tuple[str, str, str, str]):
    weapon = page.locator(f"#weapon-{slot}")
    weapon.get_by_label("Weapon name").fill(name)
    weapon.get_by_label(kind, exact=True).check()
    for label, value in zip(
        ("Attacks", "Hit (x+)", "Damage, normal", "Damage, critical"), figures, strict=True
    ):
        weapon.get_by_label(label, exact=True).fill(value)


@pytest.mark.parametrize("size", SIZES.keys())
def test_build_a_kill_team_from_typed_profiles(
    live_server, new_page, shot, assert_accessible, size
):
    base = live_server.url
    page = new_page(SIZES[size], bypass_csp=True)

    # Pick the game on the home page.
    page.goto(base + "/")
    page.get_by_role("link", name="New Kill Team roster").click()
    expect(page.locator("#new-roster nav a[aria-current]")).to_have_text("Kill Team")
    check(page, assert_accessible, "My rosters, Kill Team picked")
    shot(page, f"kt-new-roster-{size}")
    page.get_by_label("Name (optional)").fill("Night patrol")
    page.click("button:has-text('Create roster')")

    # The empty editor says what Blitz checks, and offers no match to play.
    expect(page.locator("h1")).to_have_text("Night patrol")
    expect(page.locator("#rules-note")).to_contain_text("no datacards, no points")
    expect(page.get_by_role("link", name="Play a match")).to_have_count(0)
    check(page, assert_accessible, "empty Kill Team editor")
    shot(page, f"kt-editor-empty-{size}", full_page=True)

    # Type a profile in (every figure made up for the test), first with a wrong APL.
    page.click("button:has-text('Type in a new profile')")
    expect(page.locator("h1")).to_have_text("New Kill Team profile")
    check(page, assert_accessible, "new profile form")
    page.get_by_label("Profile name").fill("Test trooper")
    page.get_by_label("APL").fill("0")
    page.get_by_label("Move (inches)").fill("6")
    page.get_by_label("Save (x+)").fill("4")
    page.get_by_label("Wounds").fill("8")
    type_weapon(page, 1, "Test gun", "Ranged", ("4", "4", "3", "4"))
    picker = page.locator("#weapon-1 details.rule-picker")
    picker.locator("summary").click()
    picker.get_by_label("Lethal x+ (Tödlich)").check()
    picker.get_by_label("x of Lethal").fill("5")
    picker.get_by_label("Saturate (Hagel)").check()
    type_weapon(page, 2, "Test blade", "Melee", ("3", "4", "3", "5"))
    shot(page, f"kt-profile-form-{size}", full_page=True)
    page.click("button:has-text('Save profile')")
    expect(page.locator("#profile-errors")).to_contain_text("APL must be from 1 to 9; got 0.")
    expect(page.get_by_label("APL")).to_have_attribute("aria-invalid", "true")
    check(page, assert_accessible, "profile form with an error")
    shot(page, f"kt-profile-error-{size}", full_page=True)
    page.get_by_label("APL").fill("2")
    page.click("button:has-text('Save profile')")

    # Back in the editor: add two operatives from it, one named.
    expect(page.get_by_text("Saved the profile Test trooper")).to_be_visible()
    page.get_by_label("Profile").select_option(label="Test trooper (APL 2, Wounds 8)")
    page.get_by_label("Its own name (optional)").fill("Sergeant")
    page.click("button:has-text('Add operative')")
    expect(page.get_by_test_id("operative-count")).to_have_text("1")
    page.get_by_label("Profile").select_option(label="Test trooper (APL 2, Wounds 8)")
    page.click("button:has-text('Add operative')")
    expect(page.get_by_test_id("operative-count")).to_have_text("2")
    operatives = page.locator("#operatives li.operative")
    expect(operatives.first).to_contain_text("Sergeant")
    expect(operatives.first).to_contain_text("Lethal 5+, Saturate")

    # Grenades: one frag and one krak.
    page.get_by_label("1 frag and 1 krak grenade").check()
    page.click("button:has-text('Save grenades')")
    expect(page.get_by_test_id("team-grenades")).to_have_text("1 frag and 1 krak grenade")
    check(page, assert_accessible, "Kill Team editor with two operatives")
    shot(page, f"kt-editor-{size}", full_page=True)

    # Rename the second, remove the first.
    page.get_by_role("link", name="Edit Test trooper (operative 2)").click()
    check(page, assert_accessible, "operative page")
    page.get_by_label("Its own name (optional)").fill("Gunner")
    page.click("button:has-text('Save')")
    expect(operatives.nth(1)).to_contain_text("Gunner")
    page.get_by_role("button", name="Remove Sergeant (operative 1)").click()
    expect(page.get_by_test_id("operative-count")).to_have_text("1")
    expect(operatives.first).to_contain_text("Gunner")

    # Datacards and print.
    page.get_by_role("link", name="Datacards & print").click()
    expect(page.locator("article.datacard")).to_have_count(1)
    expect(page.locator(".kt-rules")).to_contain_text("Successes of x or more are critical.")
    check(page, assert_accessible, "Kill Team datacards")
    shot(page, f"kt-cards-{size}", full_page=True)
    page.emulate_media(media="print")
    expect(page.locator(".site-header")).to_be_hidden()
    expect(page.get_by_role("button", name="Print")).to_be_hidden()
    expect(page.locator("article.datacard")).to_be_visible()
    shot(page, f"kt-cards-print-{size}", full_page=True)
    page.emulate_media(media="screen")

    # The share link opens read-only for anyone, with a match to play against.
    page.go_back()
    page.locator("#share summary").click()
    link = page.locator("#share-url").input_value()
    visitor = new_page(SIZES[size], bypass_csp=True)
    visitor.goto(link)
    expect(visitor.locator("h1")).to_have_text("Night patrol")
    expect(visitor.get_by_text("Gunner")).to_be_visible()
    expect(visitor.get_by_role("link", name="Play against this list")).to_have_count(1)
    check(visitor, assert_accessible, "shared kill team")
    shot(visitor, f"kt-shared-{size}", full_page=True)

    # My datacards shows the profile in its Kill Team pack.
    page.goto(base + "/datacards/")
    expect(page.locator(".kt-profile h3")).to_have_text("Test trooper")
    check(page, assert_accessible, "Kill Team datacard pack")
    shot(page, f"kt-library-{size}", full_page=True)
