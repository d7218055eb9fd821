"""Building a mecha force in Chromium on a tablet (820x1180) and a phone (390x844): pick the game,
type two units and their weapons, one weapon refused with the rules text's sentence next to its
field (everything typed still there), then fixed; remove a weapon (asked first); the share
page; the page "What these rules give". axe-core on every page; touch targets >= 44 px; no
sideways scroll."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.test_killteam_browser import check

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"tablet": {"width": 820, "height": 1180}, "phone": PHONE}


def add_unit(page, name: str, kind: str, figures: dict[str, str], count: int) -> None:
    page.get_by_role("link", name="Add a unit").click()
    page.get_by_label("Unit's name").fill(name)
    page.get_by_label("Kind", exact=True).select_option(label=kind)
    for label, value in figures.items():
        page.get_by_label(label, exact=True).fill(value)
    page.click("button:has-text('Add unit')")
    expect(page.get_by_test_id("unit-count")).to_have_text(str(count))


def add_weapon(page, unit: str, name: str, fields: dict[str, str], choices: dict[str, str]):
    page.get_by_role("link", name=f"Add a weapon to {unit}").click()
    page.get_by_label("Weapon's name").fill(name)
    for label, value in fields.items():
        page.get_by_label(label, exact=True).fill(value)
    for label, value in choices.items():
        page.get_by_label(label, exact=True).select_option(label=value)
    page.click("button:has-text('Add weapon')")


@pytest.mark.parametrize("size", SIZES.keys())
def test_type_two_units_and_their_weapons_one_refused_then_fixed(
    live_server, new_page, shot, assert_accessible, size
):
    base = live_server.url
    page = new_page(SIZES[size], bypass_csp=True)
    page.goto(base + "/")
    page.get_by_role("link", name="New Mecha attacks roster").click()
    page.get_by_label("Name (optional)").fill("Zeon patrol")
    page.click("button:has-text('Create roster')")
    expect(page.locator("h1")).to_have_text("Zeon patrol")
    check(page, assert_accessible, "an empty mecha force")

    page.get_by_role("link", name="Add a unit").click()
    check(page, assert_accessible, "the unit form")
    page.go_back()
    add_unit(page, "Zaku", "Mobile Suit", {"Strength": "4", "Size Class": "3", "Armour": "2"}, 1)
    check(page, assert_accessible, "one unit")
    add_unit(page, "Magella", "Another kind", {"Its kind's name (for another kind)": "Tank"}, 2)

    add_weapon(page, "Zaku", "Machine gun", {"Range (inches)": "18", "Damage: how many dice": "2"},
               {"Damage: which die": "D6"})  # fmt: skip
    expect(page.get_by_text("Saved Machine gun on Zaku.")).to_be_visible()

    # A Melee weapon with a Range: refused with the text's sentence, nothing typed lost.
    add_weapon(page, "Zaku", "Heat hawk", {"Range (inches)": "2"},
               {"Type": "Melee", "Damage: which die": "D10"})  # fmt: skip
    error = page.locator(".field.has-error .field-error")
    expect(error).to_contain_text("All Melee type weapons have a Range value of 0")
    expect(page.get_by_label("Weapon's name")).to_have_value("Heat hawk")
    check(page, assert_accessible, "a refused weapon")
    shot(page, f"mecha-weapon-refused-{size}")
    page.get_by_label("Range (inches)", exact=True).fill("0")
    page.click("button:has-text('Add weapon')")
    expect(page.get_by_text("Saved Heat hawk on Zaku.")).to_be_visible()

    # A hand-held gun on a tank is refused; a turret is not.
    add_weapon(
        page,
        "Magella",
        "Main gun",
        {"Range (inches)": "30"},
        {"Fix (how it is carried)": "2 Handed"},
    )
    expect(page.locator(".field-error")).to_contain_text("other units with arms have hand held")
    page.get_by_label("Fix (how it is carried)").select_option(label="Turret")
    page.click("button:has-text('Add weapon')")
    card = page.locator("#unit-u2")
    expect(card).to_contain_text("Main gun")
    expect(page.locator("#unit-u1")).to_contain_text("Damage 2D6")
    expect(page.locator("#unit-u1")).to_contain_text("the text's default")
    check(page, assert_accessible, "two units and their weapons")
    page.locator("#unit-u1").scroll_into_view_if_needed()
    shot(page, f"mecha-force-{size}")

    page.get_by_role("link", name="Datacards & print").click()
    expect(page.locator("#unit-u2")).to_contain_text("Main gun")
    check(page, assert_accessible, "datacards and print")
    page.go_back()

    # Removing asks first.
    page.get_by_role("link", name="Remove Machine gun (Zaku, weapon 1)").click()
    expect(page.locator("h1")).to_have_text("Remove Machine gun from Zaku?")
    check(page, assert_accessible, "remove a weapon")
    page.click("button:has-text('Remove')")
    expect(page.locator("#unit-u1")).not_to_contain_text("Machine gun")

    shared = page.locator(".share-link a").get_attribute("href")
    page.goto(shared)
    expect(page.locator("#unit-u1")).to_contain_text("Heat hawk")
    expect(page.get_by_role("link", name="Edit unit 1, Zaku")).to_have_count(0)
    check(page, assert_accessible, "the shared force")
    page.go_back()

    page.get_by_role("link", name="What these rules give").first.click()
    expect(page.locator("h1")).to_have_text("Mecha attacks: what these rules give")
    check(page, assert_accessible, "what these rules give")
    shot(page, f"mecha-rules-{size}")
