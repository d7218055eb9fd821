"""Building a WWII skirmish force in Chromium on a tablet (820x1180) and a phone (390x844):
pick the game on the home page, add a tank with a crew, an APC, a towed gun, a truck (20 seats
first: refused beside the field, the typing kept; then 12) and infantry, remove a soldier (it
asks first), print, share and the page of what the rules give. axe-core on every page; touch
targets >= 44 px; no sideways scrolling."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"tablet": {"width": 820, "height": 1180}, "phone": {"width": 390, "height": 844}}
TARGETS = (
    "main .button, main button, main select, main input[type=text], main label.ww2-choice, "
    "main summary, main .crumbs a"
)


def assert_tappable(page) -> None:
    small = page.locator(TARGETS).evaluate_all(
        """els => els.filter(e => e.offsetParent !== null)
            .map(e => [e.outerHTML.slice(0, 80), e.getBoundingClientRect()])
            .filter(([, r]) => r.width < 44 || r.height < 44)
            .map(([html, r]) => `${html} is ${r.width}x${r.height}`)"""
    )
    assert small == [], small


def check(page, assert_accessible, what: str) -> None:
    assert_accessible(page, what)
    assert_tappable(page)
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0, what


def add_vehicle(page, name: str, kind: str, **fields) -> None:
    page.get_by_role("link", name="Add a vehicle").click()
    fill_vehicle(page, name, kind, **fields)
    page.click("button:has-text('Add vehicle')")
    expect(page.get_by_text(f"Added {name}.")).to_be_visible()


def fill_vehicle(page, name: str, kind: str, **fields) -> None:
    page.get_by_label("Vehicle's name").fill(name)
    page.get_by_label("Kind", exact=True).select_option(label=kind)
    for label, value in fields.items():
        if label == "ticks":
            for tick in value:
                page.get_by_label(tick, exact=True).check()
        elif label == "crew":
            for row, (crewman, commander) in enumerate(value, 1):
                page.get_by_label(f"Crew member {row}", exact=True).fill(crewman)
                if commander:
                    page.locator(f"#id_commander_{row}").check()
        else:
            page.get_by_label(label, exact=True).fill(value)


@pytest.mark.parametrize("size", SIZES.keys())
def test_build_a_ww2_force(live_server, new_page, shot, assert_accessible, size):
    base = live_server.url
    page = new_page(SIZES[size], bypass_csp=True)
    page.goto(base + "/")
    page.get_by_role("link", name="New WWII skirmish roster").click()
    page.get_by_label("Name (optional)").fill("Red force")
    page.click("button:has-text('Create roster')")
    expect(page.locator("h1")).to_have_text("Red force")
    expect(page.locator("#rules-note")).to_contain_text("a force has no points")
    check(page, assert_accessible, "empty WWII editor")

    page.get_by_role("link", name="Add a vehicle").click()
    check(page, assert_accessible, "new vehicle form")
    shot(page, f"ww2-vehicle-form-{size}", full_page=True)
    page.get_by_role("link", name="‹ Red force").click()
    add_vehicle(
        page,
        "T-34 no. 1",
        "Tank",
        **{"Armour class": "4", "Gun class": "5", "Napalm ammunition cards": "1"},
        ticks=["Hull MG", "MG on the armour", "Flamethrower (fires 12 inches)", "Mine trawl"],
        crew=[("Ivanov", True), ("Popov", False), ("Kuznetsov", False)],
    )
    add_vehicle(page, "Sd.Kfz. 251", "APC", **{"Seats": "12", "Armour class": "2"})
    add_vehicle(page, "ZiS-3", "Gun or howitzer (towed)", **{"Seats": "", "Gun class": "3"})

    # A truck with 20 seats: refused beside the field, nothing typed lost; 12 is taken.
    page.get_by_role("link", name="Add a vehicle").click()
    fill_vehicle(page, "Studebaker", "Truck", Seats="20", crew=[("Sidorov", True)])
    page.click("button:has-text('Add vehicle')")
    expect(page.locator(".field-error")).to_contain_text("a truck has 4–16 seats")
    expect(page.get_by_label("Vehicle's name")).to_have_value("Studebaker")
    expect(page.get_by_label("Crew member 1", exact=True)).to_have_value("Sidorov")
    check(page, assert_accessible, "vehicle form with a refusal")
    shot(page, f"ww2-vehicle-refused-{size}", full_page=True)
    page.get_by_label("Seats", exact=True).fill("12")
    page.click("button:has-text('Add vehicle')")
    expect(page.get_by_text("Added Studebaker.")).to_be_visible()

    for name, rank in (("Petrov", "Soldier"), ("Orlov", "Officer"), ("Belov", "Soldier")):
        page.get_by_label("Soldier's name").fill(name)
        page.get_by_label("Rank").select_option(label=rank)
        page.click("button:has-text('Add soldier')")
        expect(page.get_by_text(f"Added {name}.")).to_be_visible()
    tank = page.locator("#vehicle-v1")
    expect(tank).to_contain_text("Crew: Ivanov (commander), Popov, Kuznetsov")
    expect(tank).to_contain_text("Armour class 4 · gun class 5 · 6 seats")
    expect(tank).to_contain_text("The MG on the armour fires only with at least 1 rider aboard.")
    expect(page.get_by_test_id("force-summary")).to_have_text("4 vehicles · 3 soldiers on foot")

    # Removing asks first.
    page.get_by_label("Remove Belov (soldier 3)").click()
    check(page, assert_accessible, "WWII editor, a removal asking first")
    page.click("button:has-text('Remove Belov')")
    expect(page.get_by_text("Removed the soldier.")).to_be_visible()
    expect(page.get_by_test_id("force-summary")).to_have_text("4 vehicles · 2 soldiers on foot")
    check(page, assert_accessible, "WWII editor with a force")
    shot(page, f"ww2-editor-{size}", full_page=True)

    page.get_by_role("link", name="Datacards & print").click()
    expect(page.locator("main")).to_contain_text("Studebaker")
    check(page, assert_accessible, "WWII print page")
    page.go_back()
    page.get_by_role("link", name="What these rules give").first.click()
    expect(page.locator("h1")).to_have_text("What these rules give")
    check(page, assert_accessible, "what these rules give")
    shot(page, f"ww2-rules-{size}", full_page=True)
    page.go_back()
    page.locator("#share summary").click()
    page.locator("#share .share-link a").click()
    expect(page.locator("main")).to_contain_text("Crew: Ivanov (commander), Popov, Kuznetsov")
    check(page, assert_accessible, "WWII shared force")
    shot(page, f"ww2-shared-{size}", full_page=True)
