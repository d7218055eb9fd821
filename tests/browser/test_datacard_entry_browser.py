"""Typing an army's figures in Chromium: my rosters' models with their progress, a model's card
as one grid, "copy figures from", and a pasted table, at 390x844, 820x1180 and 1180x820 with
axe-core, touch targets and no sideways scrolling; and the Northern starter force's figures typed
in, counting a person's taps, fields and characters against a budget of 4 minutes."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.factories import PASSWORD, make_roster, make_user

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {
    "phone": PHONE,
    "tablet": {"width": 820, "height": 1180},
    "landscape": {"width": 1180, "height": 820},
}

# A person's effort: a tap on a button, link or list ~1 s; a field ~1 s (finding the figure on
# the printed card and moving to the field, by Tab or a tap); each character typed ~0.3 s.
TAP_SECONDS, FIELD_SECONDS, CHARACTER_SECONDS = 1.0, 1.0, 0.3
BUDGET_SECONDS = 4 * 60


def log_in(page, base: str, user) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.click("button:has-text('Log in')")


def assert_fits(page, what: str) -> None:
    """No sideways scrolling, and every visible control at least 44 px each way."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{what} scrolls sideways: {width} px"
    small = page.locator("main a.button, main button, main input, main select").evaluate_all(
        "els => els.filter(e => e.offsetParent).map(e => [e.outerHTML.slice(0, 80),"
        " e.getBoundingClientRect().width, e.getBoundingClientRect().height])"
        ".filter(([, w, h]) => w < 44 || h < 44)"
    )
    assert small == [], f"{what}: controls under 44 px: {small}"


@pytest.mark.parametrize("size", SIZES.keys())
def test_the_entry_pages_at_every_size(live_server, new_page, shot, assert_accessible, size):
    base = live_server.url
    user = make_user(f"jan-{size}")
    make_roster(user, preset="north_starter")
    page = new_page(SIZES[size], bypass_csp=True)
    log_in(page, base, user)
    page.goto(f"{base}/datacards/")
    page.click("button:has-text('Start my datacards')")
    page.get_by_role("link", name="Type the figures of my rosters’ models").click()

    expect(page.locator("h1")).to_have_text("My rosters’ models")
    expect(page.locator("#total-head")).to_have_text("2 of 138 figures")
    expect(page.locator("#model-grizzly")).to_contain_text("0 of 39 figures")
    shot(page, f"rosters-{size}", full_page=True)
    assert_accessible(page, "my rosters' models")
    assert_fits(page, "my rosters' models")

    page.get_by_role("link", name="Type figures of Grizzly").click()
    expect(page.locator("h1")).to_have_text("Grizzly")
    page.get_by_label("Armor", exact=True).fill("0")
    page.get_by_label("Walker, Combat: MP").fill("5")
    page.get_by_label("HAC Acc").fill("-1")
    page.click("button:has-text('Save, then Jaguar')")
    alert = page.locator(".import-errors[role=alert]")
    expect(alert).to_contain_text("Armor must be a whole number from 1 to 99.")
    expect(alert).to_be_focused()
    expect(page.get_by_label("Walker, Combat: MP")).to_have_value("5")  # kept
    shot(page, f"card-error-{size}", full_page=True)
    assert_accessible(page, "card with an error")
    page.get_by_label("Armor", exact=True).fill("18")
    shot(page, f"card-{size}", full_page=True)
    assert_fits(page, "card")
    page.click("button:has-text('Save, then Jaguar')")
    expect(page.locator("h1")).to_have_text("Jaguar")
    expect(page.get_by_text("Saved the figures of Grizzly")).to_be_visible()

    # The Jaguar copies the Grizzly's figures: only empty fields, nothing saved yet.
    page.get_by_label("Size", exact=True).fill("")
    page.select_option("#id_copy", label="Grizzly (in “My datacards”)")
    page.click("button:has-text('Copy')")
    note = page.locator(".copy-note")
    expect(note).to_contain_text("Copied 2 figures of Grizzly")
    expect(note).to_be_focused()
    expect(page.get_by_label("Armor", exact=True)).to_have_value("18")
    shot(page, f"card-copied-{size}", full_page=True)
    assert_accessible(page, "card after a copy")
    page.click("button:has-text('Save')")
    expect(page.locator("#model-jaguar")).to_contain_text("2 of 21 figures")

    page.get_by_role("link", name="Paste a table of figures").click()
    table = page.get_by_label("Table of figures")
    table.fill("id\tsize\tarmour\nHunter\t5\nHunter\t6\n")
    page.click("button:has-text('Put the figures in')")
    errors = page.locator("#paste-errors")
    expect(errors).to_be_focused()
    expect(errors).to_contain_text("Row 1, column 3 (“armour”): is not a datacard figure.")
    expect(errors).to_contain_text("Row 3: “Hunter” is already in row 2.")
    shot(page, f"paste-error-{size}", full_page=True)
    assert_accessible(page, "paste with errors")
    assert_fits(page, "paste")
    page.get_by_label("Table of figures").fill("id\tsize\nHunter\t5\n\nid,accuracy\nLAC,0\n")
    page.click("button:has-text('Put the figures in')")
    expect(page.get_by_text("Put 2 new figures into “My datacards”.")).to_be_visible()
    expect(page.locator("#model-hunter")).to_contain_text("4 of 57 figures")


class Effort:
    """A person's taps, fields and characters, and their time in the model above."""

    def __init__(self, page) -> None:
        self.page, self.taps, self.fields, self.characters = page, 0, 0, 0

    def tap(self, selector: str) -> None:
        self.page.click(selector)
        self.taps += 1

    def type_row(self, values: list[str]) -> None:
        """Type figures into the focused field and the ones after it, Tab between them."""
        for value in values:
            self.page.keyboard.type(value)
            self.page.keyboard.press("Tab")
            self.fields += 1
            self.characters += len(value)

    @property
    def seconds(self) -> float:
        return (
            self.taps * TAP_SECONDS
            + self.fields * FIELD_SECONDS
            + self.characters * CHARACTER_SECONDS
        )


MODEL = ["6", "-1"] + ["6", "0", "0", "5", "-1", "1", "9", "-2", "2"] * 2  # size, sensors, moves
WEAPON = ["0", "8", "1", "3", "12", "24", "36", "48", "AP:1"]


def test_typing_the_northern_force_takes_under_four_minutes(live_server, new_page):
    base = live_server.url
    user = make_user("jan-timed")
    make_roster(user, preset="north_starter")
    page = new_page(SIZES["tablet"])
    log_in(page, base, user)
    page.goto(f"{base}/datacards/")
    effort = Effort(page)
    effort.tap("button:has-text('Start my datacards')")
    effort.tap("text=Type the figures of my rosters’ models")
    effort.tap("a:has-text('Type figures of Hunter')")

    # The Hunter: its Armor is the rules text's; the LAC's DM too. Four of its six weapons.
    effort.tap("#id_m-size")
    effort.type_row(MODEL)
    effort.type_row(WEAPON[:1] + WEAPON[2:])  # LAC
    effort.type_row(WEAPON * 3)  # LRP, MAC, HPZF
    effort.tap("button:has-text('Save, then HeadHunter')")
    # The HeadHunter: copy the Hunter's card; its weapons are already typed.
    page.select_option("#id_copy", label="Hunter (in “My datacards”)")
    effort.taps += 2  # open the list, choose the Hunter
    effort.tap("button:has-text('Copy')")
    effort.tap("button:has-text('Save, then Grizzly')")
    effort.tap("#id_m-armor")
    effort.type_row(["19", *MODEL])
    effort.type_row(WEAPON * 2)  # HAC, MBZK
    effort.tap("button:has-text('Save, then Jaguar')")
    effort.tap("#id_m-armor")
    effort.type_row(["16", *MODEL])
    effort.tap("button:has-text('Save')")

    expect(page.locator("#total-head")).to_have_text("138 of 138 figures")
    assert (effort.taps, effort.fields) == (13, 115)
    assert effort.seconds <= BUDGET_SECONDS, (
        f"{effort.taps} taps, {effort.fields} fields, {effort.characters} characters: "
        f"{effort.seconds:.0f} s of a person's effort"
    )
    print(
        f"Northern force: {effort.taps} taps, {effort.fields} fields, "
        f"{effort.characters} characters = {effort.seconds:.0f} s (budget {BUDGET_SECONDS} s)"
    )
