"""The attack helper in place on the board, in Chromium: a side panel on a landscape tablet, a
sheet on a portrait tablet and a phone. Once the match knows the figures, one direct attack is
at most 6 taps and no page load; the card behind shows the damage, and so does the other
player's board."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, htmx_settled
from tests.browser.test_match_browser import card, join, small_targets, start_match

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {
    "landscape": {"width": 1180, "height": 820},
    "portrait": {"width": 820, "height": 1180},
    "phone": PHONE,
}
HUNTER, SECOND, JAGER = "a-1-3", "a-1-4", "b-1-3"  # two Hunters with an LAC; a veteran Jäger
SYNC_MS = 4000


class Taps:
    """Counts what a player does: a tap on a button, a link or a chip, or one choice in a list."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def click(self, locator) -> None:
        self.count += 1
        locator.click()

    def choose(self, selector: str, value: str) -> None:
        self.count += 1
        self.page.select_option(selector, value)


def activate_the_first_group(page) -> None:
    turn = page.locator("#turn")
    turn.get_by_role("button", name="Northern Guard rolled 6").click()
    turn.get_by_role("button", name="MILICIA rolled 1").click()
    turn.get_by_role("button", name="Northern Guard goes first").click()
    turn.get_by_role("button", name=re.compile("Activate CG1")).click()
    expect(turn).to_contain_text("Activating: Combat Group 1 of Northern Guard")


def panel(page):
    return page.locator("#attack-panel")


def open_panel(page, link, click=None) -> None:
    """Tap a card's "Attack…" or "FO mark…" link and wait until the panel's form is live."""
    (click or (lambda locator: locator.click()))(link)
    htmx_settled(page, "#attack-panel-body > *")


def choose_target(page, target: str, choose=None) -> None:
    """Pick the target: the helper redraws with the target's section, live."""
    (choose or page.select_option)("#id_target", target)
    htmx_settled(page, f'#attack-panel [id="sect-{target}"]')


def chip(page, text: str):
    return panel(page).locator(f"#sect-{JAGER} label.chip", has_text=text)


def first_attack_typing_the_figures(page) -> None:
    """The first time, the helper asks for the figures the data lacks; the match keeps them."""
    open_panel(page, card(page, HUNTER).get_by_role("link", name="Attack…"))
    expect(panel(page)).to_be_visible()
    expect(panel(page).locator("#id_attacker")).to_have_value(HUNTER)
    choose_target(page, JAGER)
    expect(panel(page).locator(f"#sect-{JAGER} > legend")).to_contain_text("Target: Jäger 3")
    panel(page).get_by_role("button", name="Roll on screen instead of real dice").click()
    expect(panel(page).get_by_role("button", name="Type in real dice instead")).to_be_visible()
    page.fill("#id_amove", "0")
    page.fill("#id_acc", "0")
    page.locator(f'[id="id_dmove.{JAGER}"]').fill("0")
    page.locator(f'[id="id_armor.{JAGER}"]').fill("14")
    chip(page, "Medium").click()
    chip(page, "Open").click()
    expect(panel(page).locator(f"#odds-{JAGER}")).to_contain_text("Open target")
    panel(page).get_by_role("button", name="Roll on screen", exact=True).click()
    panel(page).locator("button.apply").click()
    expect(panel(page)).to_be_hidden()
    expect(page.locator("#latest")).to_contain_text("Hunter 3 (Northern Guard CG1) attacked")


@pytest.mark.parametrize("size", SIZES)
def test_a_direct_attack_from_the_board_in_six_taps_and_no_page_load(
    live_server, new_page, shot, assert_accessible, size
):
    page = new_page(SIZES[size], bypass_csp=True)
    match = start_match(page, live_server.url, mine="north_starter", opponent="south_starter")
    activate_the_first_group(page)
    other = None
    if size == "landscape":
        other = new_page(SIZES["portrait"])
        join(other, live_server.url, match, "MILICIA")
    first_attack_typing_the_figures(page)

    loads = []
    page.on("framenavigated", lambda frame: frame == page.main_frame and loads.append(frame.url))
    taps = Taps(page)
    open_panel(page, card(page, SECOND).get_by_role("link", name="Attack…"), taps.click)
    expect(panel(page)).to_be_visible()
    expect(panel(page).locator("#id_attacker")).to_have_value(SECOND)
    # The board stays behind the panel: beside it on a landscape tablet, under the sheet else.
    box = panel(page).bounding_box()
    if size == "landscape":
        assert box["x"] > SIZES[size]["width"] / 2 and box["height"] == SIZES[size]["height"]
        assert page.locator(f"#unit-{SECOND}").bounding_box()["x"] < box["x"]
    else:
        assert box["y"] > 0 and box["width"] == SIZES[size]["width"]
    choose_target(page, JAGER, taps.choose)
    expect(panel(page).locator(f"#sect-{JAGER} > legend")).to_contain_text("Target: Jäger 3")
    # The match remembers the figures typed the first time: nothing to type.
    expect(panel(page).locator(".src:visible", has_text="typed in earlier")).to_have_count(4)
    expect(panel(page).locator(".src:visible", has_text="not in the data")).to_have_count(0)
    taps.click(chip(page, "Medium"))
    taps.click(chip(page, "Open"))
    expect(panel(page).locator(f"#odds-{JAGER}")).to_contain_text("Medium range")
    assert small_targets(page) == []
    shot(page, "panel-open")
    assert_accessible(page, f"with the panel open at {size}")
    taps.click(panel(page).get_by_role("button", name="Roll on screen", exact=True))
    apply = panel(page).locator("button.apply")
    expect(apply).to_be_in_viewport()  # brought into view: no scrolling to find it
    shot(page, "panel-resolved")
    taps.click(apply)

    expect(panel(page)).to_be_hidden()
    assert taps.count <= 6, taps.count
    assert loads == [], loads
    expect(page.locator("#latest")).to_contain_text("Hunter 4 (Northern Guard CG1) attacked")
    expect(page.locator("#log-list li").first).to_contain_text("Light Autocannon, direct fire")
    shot(page, "applied")
    if other is not None:
        expect(other.locator("#log-list li").first).to_contain_text(
            "Hunter 4 (Northern Guard CG1) attacked", timeout=SYNC_MS
        )
        drawn = card(page, JAGER).locator(".st").inner_text()
        expect(card(other, JAGER).locator(".st")).to_have_text(drawn, timeout=SYNC_MS)


def test_a_warning_keeps_the_panel_open_until_closed(live_server, new_page):
    page = new_page(SIZES["phone"])
    start_match(page, live_server.url, mine="north_starter", opponent="south_starter")
    # Before initiative, an attack is applied with a warning: the panel stays to show it.
    open_panel(page, card(page, HUNTER).get_by_role("link", name="Attack…"))
    choose_target(page, JAGER)
    expect(panel(page).locator(f"#sect-{JAGER} > legend")).to_contain_text("Target: Jäger 3")
    page.fill("#id_amove", "0")
    page.fill("#id_acc", "0")
    page.locator(f'[id="id_dmove.{JAGER}"]').fill("0")
    page.locator(f'[id="id_armor.{JAGER}"]').fill("14")
    chip(page, "Short").click()
    chip(page, "Open").click()
    page.fill("#id_att", "6 5")
    page.locator(f'[id="id_def.{JAGER}"]').fill("1 1 1")
    panel(page).locator("button.apply").click()
    expect(panel(page).locator(".applied")).to_contain_text("before initiative was rolled")
    expect(page.locator("#latest")).to_contain_text("attacked", timeout=SYNC_MS)
    panel(page).get_by_role("button", name="Close").last.click()
    expect(panel(page)).to_be_hidden()
    expect(card(page, HUNTER).get_by_role("link", name="Attack…")).to_be_focused()


@pytest.mark.parametrize("size", ["portrait", "phone"])
def test_forward_observation_asks_for_the_observer(
    live_server, new_page, shot, assert_accessible, size
):
    page = new_page(SIZES[size], bypass_csp=True)
    match = start_match(page, live_server.url, mine="north_starter", opponent="south_starter")
    activate_the_first_group(page)
    loads = []
    page.on("framenavigated", lambda frame: frame == page.main_frame and loads.append(frame.url))
    open_panel(page, card(page, JAGER).get_by_role("link", name="FO mark…"))
    expect(panel(page)).to_contain_text("Which model observed Jäger 3 (MILICIA CG1)?")
    expect(page.locator("#attack-panel-title")).to_have_text("Forward observation")
    assert small_targets(page) == []
    shot(page, "observer-asked")
    assert_accessible(page, f"with the observer asked at {size}")
    panel(page).get_by_role("button", name=re.compile(r"^Hunter 4 \(Northern Guard CG1\)")).click()
    expect(panel(page)).to_be_hidden()
    expect(card(page, JAGER).get_by_role("button", name="FO mark")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(page.locator("#latest")).to_contain_text(
        "marked by Hunter 4 (Northern Guard CG1) for indirect fire"
    )
    # The same observer marks another target: applied, with a warning on that card.
    open_panel(page, card(page, "b-1-1").get_by_role("link", name="FO mark…"))
    panel(page).get_by_role("button", name=re.compile(r"^Hunter 4 .*already acted")).click()
    expect(card(page, "b-1-1").locator(".msg")).to_contain_text("already spent its action")
    assert loads == [], loads
    shot(page, "observer-warned")

    # The page of its own (what a browser without JavaScript opens) reads well too.
    page.goto(f"{live_server.url}/matches/{match.pk}/attack/observe/?target=b-1-2")
    expect(page.locator("h1")).to_have_text("Forward observation")
    assert small_targets(page) == []
    assert_accessible(page, f"on the observer page at {size}")
    shot(page, "observer-page")

    # Without JavaScript the choice is a plain form post, back to the board.
    plain = new_page(SIZES[size], java_script_enabled=False)
    plain.context.add_cookies(page.context.cookies())
    plain.goto(f"{live_server.url}/matches/{match.pk}/")
    card(plain, "b-1-2").get_by_role("link", name="FO mark…").click()
    expect(plain.locator("h1")).to_have_text("Forward observation")
    plain.get_by_role("button", name=re.compile(r"^Hunter 5|^HeadHunter")).click()
    plain.wait_for_url(re.compile(rf".*/matches/{match.pk}/#unit-b-1-2$"))
    expect(card(plain, "b-1-2").get_by_role("button", name="FO mark")).to_have_attribute(
        "aria-pressed", "true"
    )


def test_switching_to_dice_on_screen_keeps_the_figures_just_typed(live_server, new_page):
    page = new_page(SIZES["portrait"])
    start_match(page, live_server.url, mine="north_starter", opponent="south_starter")
    activate_the_first_group(page)
    open_panel(page, card(page, HUNTER).get_by_role("link", name="Attack…"))
    choose_target(page, JAGER)
    armor = panel(page).locator(f'[id="id_armor.{JAGER}"]')
    armor.fill("14")
    page.fill("#id_acc", "1")
    panel(page).get_by_role("button", name="Roll on screen instead of real dice").click()
    expect(panel(page).get_by_role("button", name="Type in real dice instead")).to_be_visible()
    expect(armor).to_have_value("14")
    expect(panel(page).locator("#id_acc")).to_have_value("1")
