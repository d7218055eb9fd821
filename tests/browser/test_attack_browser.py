"""The attack helper in Chromium: a Hunter shooting a Jäger on a tablet, the odds changing without a
reload, the rolls applied, both players' boards updated; the helper at every size; and without
JavaScript."""

from __future__ import annotations

import re
from urllib.parse import urljoin

import pytest
from playwright.sync_api import expect

from matches.models import MatchEvent
from tests.browser.conftest import PHONE, VIEWPORTS
from tests.browser.test_match_browser import card, join, small_targets, start_match

TABLET = {"width": 820, "height": 1180}

pytestmark = pytest.mark.django_db(transaction=True)

HUNTER, JAGER = "a-1-3", "b-1-3"  # a Hunter with a Light Autocannon; a veteran Jäger
SYNC_SECONDS = 3


def open_helper(page, attacker: str = HUNTER) -> None:
    """The helper's own page, at the address of the card's "Attack…" link (what a browser
    without JavaScript opens; with it, the link opens the board's panel:
    test_attack_panel_browser.py)."""
    href = card(page, attacker).get_by_role("link", name="Attack…").get_attribute("href")
    page.goto(urljoin(page.url, href))
    page.wait_for_url(re.compile(r".*/attack/\?attacker=" + attacker))


def pick_target(page, target: str = JAGER) -> None:
    page.select_option("#id_target", target)
    expect(page.locator(f"#sect-{target} > legend")).to_contain_text("Target: Jäger 3")


def type_figures(page) -> None:
    """The figures the quickstart's data does not give: typed in as the helper asks."""
    page.fill("#id_amove", "0")
    page.fill("#id_acc", "0")
    page.locator(f'[id="id_dmove.{JAGER}"]').fill("0")
    page.locator(f'[id="id_armor.{JAGER}"]').fill("14")


def chip(page, text: str):
    return page.locator(f"#sect-{JAGER} label.chip", has_text=text)


def hit(page) -> str:
    return page.locator(f'#odds-{JAGER} [data-chance="hit"]').inner_text()


def mark_observed(page, target: str, observer: str) -> None:
    """ "FO mark…" on the target's card asks which model observed; a tap on it marks."""
    card(page, target).get_by_role("link", name="FO mark…").click()
    page.locator(f'#attack-panel button[value="fo {target} 1 {observer}"]').click()
    expect(page.locator("#attack-panel")).to_be_hidden()


def no_sideways_overflow(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0


def test_a_hunter_shoots_a_jager_on_two_tablets(live_server, new_page, shot):
    a = new_page(VIEWPORTS["tablet-portrait"])
    b = new_page(VIEWPORTS["tablet-portrait"])
    match = start_match(a, live_server.url, mine="north_starter", opponent="south_starter")
    join(b, live_server.url, match, "MILICIA")
    b.evaluate("window.__notReloaded = true")

    open_helper(a)
    a.evaluate("window.__notReloaded = true")
    pick_target(a)
    expect(a.locator("#attack-odds .ask")).to_contain_text(
        "Enter the Jäger 3 (MILICIA CG1)'s Armor"
    )
    type_figures(a)
    chip(a, "Medium").click()
    chip(a, "Open").click()
    expect(a.locator(f"#odds-{JAGER}")).to_contain_text("Medium range")
    first = hit(a)
    expect(a.locator(f"#odds-{JAGER}")).to_contain_text("Open target")
    shot(a, "odds-medium-open")

    # The odds follow every change, without a reload.
    chip(a, "Long").click()
    expect(a.locator(f"#odds-{JAGER}")).to_contain_text("Long range")
    chip(a, "Partial").click()
    expect(a.locator(f"#odds-{JAGER}")).to_contain_text("Partial cover")
    assert hit(a) != first
    assert a.evaluate("window.__notReloaded") is True

    # The players roll real dice and type them in; the helper resolves and applies.
    a.fill("#id_att", "6 6")
    a.locator(f'[id="id_def.{JAGER}"]').fill("2 1 1")
    expect(a.locator("#attack-result")).to_contain_text("Jäger 3 (MILICIA CG1): 1 box.")
    apply = a.get_by_role("button", name="Apply: Jäger 3 (MILICIA CG1) one box")
    expect(apply).to_be_visible()
    shot(a, "resolved", full_page=True)
    apply.click()
    expect(a.locator("#attack-helper .applied")).to_contain_text("Applied")
    assert a.evaluate("window.__notReloaded") is True
    shot(a, "applied")

    # The other player's board shows the box and the log line by itself.
    expect(card(b, JAGER).locator(".st")).to_have_text("Sturdy", timeout=SYNC_SECONDS * 1000)
    expect(b.locator("#log-list")).to_contain_text(
        "Hunter 3 (Northern Guard CG1) attacked.", timeout=SYNC_SECONDS * 1000
    )
    assert b.evaluate("window.__notReloaded") is True
    shot(b, "opponent-sees-the-hit")
    a.get_by_role("link", name="Back to the board").last.click()
    expect(card(a, JAGER).locator(".st")).to_have_text("Sturdy")
    expect(a.locator("#log-list li").first).to_contain_text("Light Autocannon, direct fire")
    events = list(MatchEvent.objects.filter(match=match))
    assert [e.kind for e in events] == ["attack"]

    # Undo on either device takes the whole attack back; the other player's attack asks first.
    b.locator(".board-bar").get_by_text("Undo last…").click()
    b.locator(".board-bar").get_by_role("button", name="Yes, undo #1").click()
    expect(card(a, JAGER).locator(".st")).to_have_text("Undamaged", timeout=SYNC_SECONDS * 1000)


@pytest.mark.parametrize("viewport", ["tablet-portrait", "tablet-landscape", "phone"])
def test_the_helper_reads_well_at_every_size(live_server, new_page, shot, viewport):
    size = PHONE if viewport == "phone" else VIEWPORTS[viewport]
    page = new_page(size)
    match = start_match(page, live_server.url, mine="north_starter", opponent="south_starter")
    open_helper(page)
    pick_target(page)
    type_figures(page)
    chip(page, "Short").click()
    chip(page, "Some").click()
    page.fill("#id_att", "6 5")
    page.locator(f'[id="id_def.{JAGER}"]').fill("4 2 1")
    expect(page.locator("#attack-result")).to_contain_text("Jäger 3 (MILICIA CG1): 1 box.")
    no_sideways_overflow(page)
    assert small_targets(page) == []
    sizes = page.evaluate(
        """() => ['.chip', '.fig label', '.odds .big', '.chances td', '.mods li'].map(
            s => parseFloat(getComputedStyle(document.querySelector(s)).fontSize))"""
    )
    assert min(sizes) >= 16, sizes
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, viewport)
    shot(page, f"{viewport}-full", full_page=True)
    assert match.pk


def test_the_helper_works_without_javascript(live_server, new_page):
    page = new_page(VIEWPORTS["tablet-landscape"], java_script_enabled=False)
    match = start_match(page, live_server.url, mine="north_starter", opponent="south_starter")
    open_helper(page)
    page.select_option("#id_target", JAGER)
    page.get_by_role("button", name="Use these choices").click()
    expect(page.locator(f"#sect-{JAGER} > legend")).to_contain_text("Target: Jäger 3")
    type_figures(page)
    chip(page, "Medium").click()
    chip(page, "Open").click()
    page.fill("#id_att", "6 6")
    page.locator(f'[id="id_def.{JAGER}"]').fill("5 2 1")
    page.get_by_role("button", name="Show the odds").click()
    expect(page.locator(f"#odds-{JAGER}")).to_contain_text("Medium range")
    page.get_by_role("button", name="Apply: Jäger 3 (MILICIA CG1) one box").click()
    expect(page.locator("h1")).to_contain_text("Apply the attack?")
    page.get_by_role("button", name="Apply: Jäger 3 (MILICIA CG1) one box").click()
    page.wait_for_url(re.compile(rf".*/matches/{match.pk}/#unit-{JAGER}$"))
    expect(card(page, JAGER).locator(".st")).to_have_text("Sturdy")


@pytest.mark.parametrize("viewport", ["tablet-portrait", "phone"])
def test_ecm_blocks_an_observation_and_the_house_rule_is_off_until_asked(
    live_server, new_page, shot, viewport
):
    size = PHONE if viewport == "phone" else VIEWPORTS[viewport]
    page = new_page(size)
    match = start_match(page, live_server.url, mine="north_starter", opponent="south_starter")
    mark_observed(page, "b-1-1", "a-2-1")
    expect(card(page, "b-1-1").get_by_role("button", name="FO mark")).to_have_attribute(
        "aria-pressed", "true"
    )
    card(page, "b-1-2").get_by_role("button", name="Keep action").click()
    expect(card(page, "b-1-2")).to_contain_text("Spend kept action")
    page.goto(f"{live_server.url}/matches/{match.pk}/attack/ecm/")
    page.fill("#id_ocomm", "0")
    page.fill("#id_bcomm", "0")
    page.fill("#id_ecm", "2")
    expect(page.locator("#ecm-odds .big")).to_contain_text("66.7%")
    page.fill("#id_oroll", "3")
    page.fill("#id_broll", "5")
    apply = page.get_by_role("button", name="Apply: clear the mark, spend the kept action")
    expect(apply).to_be_visible()
    no_sideways_overflow(page)
    assert small_targets(page) == []
    shot(page, f"{viewport}-ecm", full_page=True)
    apply.click()
    expect(page.locator("#ecm-helper .applied")).to_contain_text("The observation is blocked")
    page.get_by_role("link", name="Another ECM contest").click()
    expect(page.locator(".house-rule")).to_contain_text("House rule, not official")
    page.get_by_role("button", name="Turn the house rule on for this device").click()
    page.wait_for_url(re.compile(r".*/attack/designation/$"))
    page.fill("#id_sensors", "0")
    page.locator("label.chip", has_text="Open").click()
    expect(page.locator("#designation-odds .big")).to_contain_text("66.7%")
    no_sideways_overflow(page)
    assert small_targets(page) == []
    shot(page, f"{viewport}-designation", full_page=True)


@pytest.mark.parametrize("viewport", ["tablet", "phone"])
def test_at_the_table_figures_kept_as_typed_warnings_grenades_and_no_axe_violations(
    live_server, new_page, shot, assert_accessible, viewport
):
    size = PHONE if viewport == "phone" else TABLET
    page = new_page(size, bypass_csp=True)
    match = start_match(page, live_server.url, mine="north_starter", opponent="south_starter")
    open_helper(page)
    pick_target(page)
    # Same-named models are told apart: each movement modifier names its model.
    expect(page.locator('label[for="id_amove"]')).to_contain_text(
        "Attacker's movement modifier: Hunter 3 (Northern Guard CG1)"
    )
    expect(page.locator(f'label[for="id_dmove.{JAGER}"]')).to_contain_text(
        "Target's movement modifier: Jäger 3 (MILICIA CG1)"
    )
    # A figure typed in is kept for the match at once, before any attack is applied.
    armor = page.locator(f'[id="id_armor.{JAGER}"]')
    armor.fill("14")
    expect(armor.locator("xpath=following-sibling::small[1]")).to_have_text(
        "Kept for this match: 14."
    )
    armor.fill("140")
    expect(armor.locator("xpath=following-sibling::small[1]")).to_contain_text("Not kept.")
    armor.fill("14")
    expect(armor.locator("xpath=following-sibling::small[1]")).to_have_text(
        "Kept for this match: 14."
    )
    page.reload()
    pick_target(page)
    expect(page.locator(f'[id="id_armor.{JAGER}"]')).to_have_value("14")
    expect(page.locator(f'label[for="id_armor.{JAGER}"]')).to_contain_text(
        "typed in earlier this match"
    )
    assert not MatchEvent.objects.filter(match=match).exists()
    type_figures(page)
    chip(page, "Short").click()
    chip(page, "Some").click()
    # Before initiative the helper says so before anything is applied.
    expect(page.locator("#attack-odds")).to_contain_text("attacked before initiative was rolled")
    no_sideways_overflow(page)
    assert small_targets(page) == []
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, f"{viewport}-helper")
    shot(page, f"{viewport}-helper-full", full_page=True)
    page.locator("#attack-odds").scroll_into_view_if_needed()
    shot(page, f"{viewport}-odds")
    assert_accessible(page, "on the attack helper")

    # A hand grenade is its own weapon, with its own figures asked for.
    page.select_option("#id_kind", "grenade")
    expect(page.locator("#id_weapon")).to_contain_text("Hand Grenade (HG)")
    expect(page.locator("#id_weapon")).not_to_contain_text("Autocannon")
    expect(page.locator('label[for="id_ae"]')).to_contain_text("Hand Grenade Area Effect")
    expect(page.locator("#attack-odds")).to_contain_text("names no Hand Grenades")
    no_sideways_overflow(page)
    assert small_targets(page) == []
    shot(page, f"{viewport}-grenade", full_page=True)
    assert_accessible(page, "on a hand grenade attack")

    # The ECM page: models named with their group, the ECM perk warned, no axe violations.
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    mark_observed(page, "b-1-1", "a-2-1")
    expect(card(page, "b-1-1").get_by_role("button", name="FO mark")).to_have_attribute(
        "aria-pressed", "true"
    )
    card(page, "b-1-2").get_by_role("button", name="Keep action").click()
    expect(card(page, "b-1-2")).to_contain_text(
        "Kept action: Used until it spends it on Reaction Fire"
    )
    shot(page, f"{viewport}-board-kept")
    page.goto(f"{live_server.url}/matches/{match.pk}/attack/ecm/")
    page.fill("#id_ocomm", "0")
    page.fill("#id_bcomm", "0")
    page.fill("#id_ecm", "2")
    expect(page.locator("#id_ecm + .kept")).to_have_text("Kept for this match: 2.")
    expect(page.locator("#ecm-odds .big")).to_contain_text("66.7%")
    expect(page.locator("#ecm-odds")).to_contain_text("has no ECM perk in the game data")
    expect(page.locator('label[for="id_ecm"]')).to_contain_text(
        "Blocker's ECM rating: Jäger 2 (MILICIA CG1)"
    )
    no_sideways_overflow(page)
    assert small_targets(page) == []
    shot(page, f"{viewport}-ecm", full_page=True)
    assert_accessible(page, "on the ECM page")
