"""The Shoot helper starts where the player is, in Chromium at 820x1180 and 390x844, with the
other player's device following: the active operative preselected, enemy targets only, one Frag
grenade at two targets counted once, refused dice kept, and the numbered names ("Test trooper 1")
in the other device's log. Every figure is made up."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.test_killteam_browser import assert_no_sideways_scroll, assert_tappable
from tests.browser.test_killteam_match_browser import BOARD_TARGETS, SYNC, TABLET, card
from tests.browser.test_killteam_pages_browser import logged_in, start, tap
from tests.factories import make_user

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("size", ["tablet", "phone"])
def test_the_shoot_helper_starts_at_the_active_operative_and_counts_one_blast_once(
    live_server, new_page, shot, assert_accessible, size
):
    base = live_server.url
    user = make_user("anna")
    match = start(user)
    tap(match, "roll a 5", "roll b 2", "initiative a a", "pass a", "pass b")
    page = logged_in(new_page, base, user, TABLET if size == "tablet" else PHONE)
    other = new_page(PHONE if size == "tablet" else TABLET)  # the other player's device
    other.goto(f"{base}/matches/watch/{match.watch_slug}/")

    # No operative active: nothing preselected, and the page says so.
    page.goto(f"{base}/matches/{match.pk}/")
    page.get_by_role("link", name="Shoot…").click()
    expect(page.locator("#shooter-help")).to_have_text(
        "No operative is active on the board: choose the shooter."
    )
    expect(page.locator("#shooter")).to_have_value("")

    # Test trooper 2 activates: the helper opens with it shooting, at enemies only.
    tap(match, "activate a-2 engage")
    page.reload()
    expect(page.locator("#shooter")).to_have_value("a-2")
    expect(page.locator("#shooter option")).to_have_text(
        ["Test trooper 1 (Red team)", "Test trooper 2 (Red team)"]
    )
    expect(page.locator("#weapon option")).to_have_text(
        ["Test gun", "Frag grenade (0 of 1 used)", "Krak grenade (0 of 1 used)"]
    )
    expect(page.locator("#target option")).to_have_text(
        ["Choose the target", "Test trooper 1 (Blue team)", "Test trooper 2 (Blue team)"]
    )
    assert_accessible(page, f"Shoot helper at the start ({size})")
    assert_tappable(page, BOARD_TARGETS)
    assert_no_sideways_scroll(page)
    shot(page, f"kt-helpers-shoot-start-{size}", full_page=True)

    # A Frag grenade at the primary target; a wrong number of defence dice keeps what was typed.
    page.locator("#weapon").select_option(value="Frag grenade")
    page.locator("#target").select_option(value="b-1")
    page.get_by_role("button", name="Show the odds").click()
    page.get_by_label("Attack dice (4)").fill("6 4 1 1")
    page.get_by_label("Defence dice").fill("5 4 3 2")
    page.get_by_role("button", name="Read the dice").click()
    expect(page.get_by_role("alert")).to_contain_text("The defender rolls 3 dice")
    expect(page.get_by_label("Attack dice (4)")).to_have_value("6 4 1 1")
    expect(page.get_by_label("Defence dice")).to_have_value("5 4 3 2")
    assert_accessible(page, f"Shoot helper with refused dice ({size})")
    shot(page, f"kt-helpers-shoot-refused-{size}", full_page=True)
    page.get_by_label("Defence dice").fill("1 1 1")
    page.get_by_role("button", name="Read the dice").click()
    page.get_by_role("button", name="Apply the damage").click()
    page.wait_for_url(re.compile(rf".*/matches/{match.pk}/$"))
    expect(page.locator("#turn")).to_contain_text("grenades Frag grenade 1/1")

    # The same Frag at a secondary target: the same action, one use, no second Shoot action.
    page.get_by_role("link", name="Shoot…").click()
    page.locator("#weapon").select_option(value="Frag grenade")
    page.locator("#target").select_option(value="b-2")
    page.get_by_role("button", name="Show the odds").click()
    again = page.get_by_role("checkbox", name=re.compile("^Another target of the same action"))
    expect(again).to_be_checked()
    expect(page.locator("#odds-title")).to_have_text(
        "Test trooper 2 (Red team) shoots Test trooper 2 (Blue team) with Frag grenade"
    )
    expect(page.locator("#again-note")).to_be_visible()
    expect(page.locator("#used-up")).to_have_count(0)
    page.get_by_label("Attack dice (4)").fill("6 1 1 1")
    page.get_by_label("Defence dice").fill("1 1 1")
    page.get_by_role("button", name="Read the dice").click()
    expect(page.get_by_text("Count it as")).to_have_count(0)
    assert_accessible(page, f"Shoot helper at a second target ({size})")
    assert_no_sideways_scroll(page)
    shot(page, f"kt-helpers-shoot-again-{size}", full_page=True)
    page.get_by_role("button", name="Apply the damage").click()
    page.wait_for_url(re.compile(rf".*/matches/{match.pk}/$"))
    expect(page.locator("#turn")).to_contain_text("grenades Frag grenade 1/1")
    expect(page.get_by_text("no more in this battle")).to_have_count(0)
    expect(card(page, "a-2")).to_contain_text("AP 1 of 2")

    # The other player's device follows, the operatives told apart by their numbers.
    log = other.locator("#log-list")
    expect(log).to_contain_text(
        "Test trooper 2 (Red team): another target of the same action with Frag grenade",
        timeout=SYNC,
    )
    expect(log).to_contain_text("Test trooper 2 (Blue team): 4 damage")
    expect(log).to_contain_text("Test trooper 1 (Blue team): 6 damage")
    expect(card(other, "b-2").locator("h3")).to_have_text("Test trooper 2")
    shot(other, f"kt-helpers-other-device-{size}", full_page=True)
