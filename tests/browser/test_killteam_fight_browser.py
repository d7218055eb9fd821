"""The Kill Team Fight helper in Chromium, on a tablet (820x1180) and a desktop: from the board,
pick the fighters (the odds shown are rules.killteam's exact ones), type both players' dice,
resolve them die by die in turn, apply, see both operatives' wounds on the board, undo.
axe-core and touch targets on every state of the page; screenshots at 820x1180, 1180x820 and a
phone. Every figure is made up (tests/killteam_profiles.py: Test blade, 3 attacks, 4+, 3/5)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from armies.models import Owner
from matches.killteam.services import kt_match_start
from rules import killteam as kt
from tests.browser.conftest import PHONE, VIEWPORTS
from tests.browser.test_killteam_browser import assert_no_sideways_scroll, assert_tappable
from tests.browser.test_sharing_browser import log_in_from
from tests.factories import make_team, make_user

pytestmark = pytest.mark.django_db(transaction=True)

TABLET = {"width": 820, "height": 1180}
LANDSCAPE = {"width": 1180, "height": 820}
TARGETS = (
    "main .button, main button, main select, main input[type=text], main label.choice, main summary"
)


def card(page, operative: str):
    return page.locator(f"#unit-{operative}")


def checked(page, assert_accessible, what: str) -> None:
    assert_accessible(page, what)
    assert_tappable(page, TARGETS)
    assert_no_sideways_scroll(page)


@pytest.mark.parametrize("viewport", [TABLET, VIEWPORTS["desktop"]], ids=["tablet", "desktop"])
def test_a_fight_with_entered_dice_lands_on_the_board_and_undoes(
    live_server, new_page, shot, assert_accessible, viewport
):
    user = make_user("anna")
    red = make_team(user, name="Red team", operatives=2)
    blue = make_team(user, name="Blue team", operatives=2)
    match = kt_match_start(owner=Owner(user.pk, None), player="anna", mine=red, opponent=blue)
    page = new_page(viewport, bypass_csp=True)
    page.goto(f"{live_server.url}/")
    log_in_from(page, live_server.url, user.username)
    page.goto(f"{live_server.url}/matches/{match.pk}/")

    # To the firefight (Blue has not joined: Anna taps for both sides); Red activates.
    page.get_by_role("button", name="Red team rolled 5").click()
    page.get_by_role("button", name="Blue team rolled 2").click()
    page.get_by_role("button", name="Red team decides: Red team has the initiative").click()
    page.get_by_role("button", name="Red team passes").click()
    page.get_by_role("button", name="Blue team passes").click()
    card(page, "a-1").get_by_role("button", name="Activate: Engage").click()
    expect(card(page, "a-1")).to_contain_text("AP 0 of 2")

    # The Fight helper, beside the Shoot helper; Red is acting, Blue's operatives are the enemies.
    page.get_by_role("link", name="Fight…").click()
    page.wait_for_url(re.compile(rf".*/matches/{match.pk}/kt/fight/$"))  # loaded, htmx too
    expect(page.get_by_role("heading", name="Fight", exact=True)).to_be_visible()
    expect(page.locator("#kt-fight-helper")).to_contain_text("Red team is acting")
    page.get_by_label("Enemy and the melee weapon it strikes back with").select_option(
        value="b-1|Test blade"
    )
    expect(page.locator("#odds-title")).to_contain_text("fights Test trooper 1 (Blue team)")
    blade = kt.attack_profile(attacks=3, hit=4, normal_damage=3, critical_damage=5)
    odds = kt.fight_odds(attacker=blade, attacker_wounds=8, defender=blade, defender_wounds=8)
    for shown_id, chance in (
        ("#chance-b-1-incapacitated", odds.attacker_incapacitates),
        ("#chance-a-1-incapacitated", odds.defender_incapacitates),
        ("#chance-b-1-injured", kt.injure_chance(odds.damage_to_defender, 8, 8)),
    ):
        expect(page.locator(shown_id)).to_have_text(f"{float(chance) * 100:.1f}%")
    expect(page.locator(".kt-policy")).to_contain_text("if both players strike with every die")
    checked(page, assert_accessible, "Fight helper with odds")
    if viewport == TABLET:
        shot(page, "kt-fight-odds", full_page=True)

    # Red keeps a critical and a normal (6, 4), Blue two normals (5, 5).
    page.get_by_label("Test trooper 1 (Red team)'s attack dice (3)").fill("6 4 1")
    page.get_by_label("Test trooper 1 (Blue team)'s attack dice (3)").fill("5 5 1")
    page.get_by_role("button", name="Read the dice").click()
    choose = page.locator(".kt-choose")
    expect(choose).to_contain_text("Test trooper 1 (Red team) resolves a die")
    checked(page, assert_accessible, "Fight helper, the first die")
    if viewport == TABLET:
        shot(page, "kt-fight-choose", full_page=True)
    choose.get_by_role("button", name=re.compile(r"^Strike with a critical success")).click()
    expect(page.locator(".kt-steps")).to_contain_text("5 damage: Test trooper 1 (Blue team) has 3")
    expect(choose).to_contain_text("Test trooper 1 (Blue team) resolves a die")
    choose.get_by_role("button", name=re.compile(r"^Block a normal success")).click()
    # Red has nothing left: Blue resolves the rest.
    expect(choose).to_contain_text("Test trooper 1 (Blue team) resolves a die")
    choose.get_by_role("button", name=re.compile(r"^Strike with a normal success")).click()
    result = page.locator(".kt-result")
    expect(result).to_contain_text("Test trooper 1 (Red team) takes 3 damage: 5 of 8 wounds left.")
    expect(result).to_contain_text("Test trooper 1 (Blue team) takes 5 damage: 3 of 8 wounds left.")
    expect(
        page.get_by_label("Count it as Test trooper 1 (Red team)'s Fight action (1 AP)")
    ).to_be_checked()
    checked(page, assert_accessible, "Fight helper, the fight over")
    if viewport == TABLET:
        for name, size in (("820x1180", TABLET), ("1180x820", LANDSCAPE), ("phone", PHONE)):
            page.set_viewport_size(size)
            assert_no_sideways_scroll(page)
            shot(page, f"kt-fight-over-{name}", full_page=True)
        page.locator("#resolve-title").scroll_into_view_if_needed()
        shot(page, "kt-fight-over-phone-resolve")  # the phone's screen at the dice resolved
        page.set_viewport_size(TABLET)

    # Applied as one event: both cards change, the action is counted; undo brings both back.
    page.get_by_role("button", name="Apply the damage to both").click()
    page.wait_for_url(re.compile(rf".*/matches/{match.pk}/$"))
    expect(card(page, "b-1").locator(".st")).to_have_text("Injured")  # 3 of 8
    expect(card(page, "a-1").locator(".st")).to_have_text("Wounded")  # 5 of 8
    expect(card(page, "a-1")).to_contain_text("AP 1 of 2")
    expect(page.locator("#latest")).to_contain_text("Fight with Test blade against Test blade.")
    checked(page, assert_accessible, "Kill Team board after a fight")
    if viewport == TABLET:
        shot(page, "kt-fight-board", full_page=True)
    page.get_by_role("button", name="Undo last").click()
    expect(card(page, "b-1").locator(".kt-w b")).to_have_text("8")
    expect(card(page, "a-1").locator(".kt-w b")).to_have_text("8")
    expect(card(page, "a-1")).to_contain_text("AP 0 of 2")
