"""Building a kill team in Chromium, on a tablet (820x1180) and a desktop: pick the game on the
home page, type a profile into the datacard library (a wrong APL first), add operatives, pick
grenades, rename, remove, print and share (with a match to play against). axe-core on every
new page; touch targets >= 44 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from rules.killteam.profile import parse_weapon_rule
from tests.killteam_profiles import KT_PROFILE

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


WEAPON_FIGURES = {
    "attacks": "Attacks",
    "hit": "Hit (x+)",
    "normal_damage": "Damage, normal",
    "critical_damage": "Damage, critical",
}


def type_weapon(page, slot: int, weapon: dict) -> None:
    """Type one weapon (as tests/killteam_profiles.py writes one) into slot ``slot``, ticking
    its weapon rules in the picker and typing each one's x."""
    box = page.locator(f"#weapon-{slot}")
    box.get_by_label("Weapon name").fill(weapon["name"])
    box.get_by_label(weapon["kind"].capitalize(), exact=True).check()
    for field, label in WEAPON_FIGURES.items():
        box.get_by_label(label, exact=True).fill(str(weapon[field]))
    if not weapon["rules"]:
        return
    picker = box.locator("details.rule-picker")
    picker.locator("summary").click()
    for text in weapon["rules"]:
        rule = parse_weapon_rule(text)
        german = f" ({rule.kind.german})" if rule.kind.german else ""
        picker.get_by_label(f"{rule.kind.label}{german}", exact=True).check()
        if rule.x is not None:
            picker.get_by_label(f"x of {rule.kind.english}", exact=True).fill(str(rule.x))


def type_profile(page, profile: dict) -> None:
    """Fill the new-profile form with ``profile`` (as tests/killteam_profiles.py writes one)."""
    page.get_by_label("Profile name").fill(profile["name"])
    page.get_by_label("APL").fill(str(profile["apl"]))
    page.get_by_label("Move (inches)").fill(str(profile["move"]))
    page.get_by_label("Save (x+)").fill(str(profile["save"]))
    page.get_by_label("Wounds").fill(str(profile["wounds"]))
    for slot, weapon in enumerate(profile["weapons"], start=1):
        type_weapon(page, slot, weapon)


def profile_choice(profile: dict) -> str:
    """How the editor's Profile list names a typed profile."""
    return f"{profile['name']} (APL {profile['apl']}, Wounds {profile['wounds']})"


def add_operative(page, profile: dict, count: int, name: str = "") -> None:
    """Add an operative from ``profile``; ``count`` is how many the team then has."""
    page.get_by_label("Profile").select_option(label=profile_choice(profile))
    page.get_by_label("Its own name (optional)").fill(name)
    page.click("button:has-text('Add operative')")
    expect(page.get_by_test_id("operative-count")).to_have_text(str(count))


def pick_grenades(page, choice: str) -> None:
    page.get_by_label(choice).check()
    page.click("button:has-text('Save grenades')")
    expect(page.get_by_test_id("team-grenades")).to_have_text(choice)


def new_team(page, base: str, name: str) -> None:
    """A new kill team from the home page; the page is then its empty editor."""
    page.goto(base + "/")
    page.get_by_role("link", name="New Kill Team roster").click()
    page.get_by_label("Name (optional)").fill(name)
    page.click("button:has-text('Create roster')")
    expect(page.locator("h1")).to_have_text(name)


def build_team(
    page, base: str, name: str, profile: dict, operatives: int, grenades: str = ""
) -> None:
    """A kill team of ``operatives`` operatives from ``profile``, typed into the player's
    datacard library on this device; the page is then the team's editor."""
    new_team(page, base, name)
    page.click("button:has-text('Type in a new profile')")
    type_profile(page, profile)
    page.click("button:has-text('Save profile')")
    expect(page.get_by_text(f"Saved the profile {profile['name']}")).to_be_visible()
    for count in range(1, operatives + 1):
        add_operative(page, profile, count)
    if grenades:
        pick_grenades(page, grenades)


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
    type_profile(page, {**KT_PROFILE, "apl": 0})
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
    add_operative(page, KT_PROFILE, 1, name="Sergeant")
    add_operative(page, KT_PROFILE, 2)
    operatives = page.locator("#operatives li.operative")
    expect(operatives.first).to_contain_text("Sergeant")
    expect(operatives.first).to_contain_text("Lethal 5+, Piercing 1")

    # Grenades: one frag and one krak.
    pick_grenades(page, "1 frag and 1 krak grenade")
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
