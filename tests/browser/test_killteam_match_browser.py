"""A Kill Team match in Chromium on two devices (820x1180): each player builds their team on their
own device by typing its profile in (test_killteam_browser's helpers), one shares theirs, the
other starts the match against it, the first joins; then roll initiative, gain CP, activate
with an order, shoot with the helper (its odds are rules.killteam's exact ones), apply the
damage, see "injured" at the right wound (10 wounds: 5 left is not, 4 is), undo, end the
turning point; the other device follows within the usual poll. Then the summary. axe-core
and touch targets on every page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from matches.models import Match
from rules import killteam as kt
from tests.browser.test_killteam_browser import assert_tappable, build_team
from tests.browser.test_match_browser import SYNC_SECONDS
from tests.factories import PASSWORD, make_user
from tests.killteam_profiles import KT_PROFILE, KT_SCOUT

pytestmark = pytest.mark.django_db(transaction=True)

TABLET = {"width": 820, "height": 1180}
SYNC = SYNC_SECONDS * 1000
BOARD_TARGETS = (
    "main .button, main button, main select, main input[type=text], main label.choice, main summary"
)


def card(page, operative: str):
    return page.locator(f"#unit-{operative}")


def percent(chance) -> str:
    return f"{float(chance) * 100:.1f}%"


def test_a_kill_team_match_on_two_devices(live_server, new_page, shot, assert_accessible):
    base = live_server.url
    user = make_user("anna")
    a = new_page(TABLET, bypass_csp=True)
    a.goto(f"{base}/accounts/login/")
    a.fill("#id_username", user.username)
    a.fill("#id_password", PASSWORD)
    a.click("button:has-text('Log in')")
    b = new_page(TABLET, bypass_csp=True)  # the opponent, a guest on their own tablet

    # Each builds a team from a profile typed in on their own device; Blue shares theirs.
    build_team(a, base, "Red team", KT_PROFILE, 2, grenades="1 frag and 1 krak grenade")
    build_team(b, base, "Blue team", KT_SCOUT, 2)
    b.locator("#share summary").click()
    shared = b.locator("#share-url").input_value()

    # Anna plays against the shared team: the start page has it as the opponent.
    a.goto(shared)
    a.get_by_role("link", name="Play against this list").click()
    expect(a.get_by_label("Your opponent's kill team")).to_have_value(re.compile("^shared:"))
    a.get_by_label("Your kill team").select_option(label="Red team")
    assert_accessible(a, "Kill Team match start")
    a.get_by_role("button", name="Start the match").click()
    a.wait_for_url(re.compile(r".*/matches/\d+/$"))
    match = Match.objects.latest("pk")
    b.goto(a.locator("#join-url").input_value())
    b.get_by_role("button", name="Join as Blue team").click()
    b.wait_for_url(re.compile(rf".*/matches/{match.pk}/$"))
    expect(b.locator("#unit-b-1 .kt-w")).to_contain_text("10 of 10 wounds")
    expect(b.locator("#turn")).to_contain_text("grenades Frag grenade 0/1, Krak grenade 0/1")
    a.reload()
    assert_accessible(a, "Kill Team board")
    assert_tappable(a, BOARD_TARGETS)
    shot(a, "kt-board-start", full_page=True)

    # Initiative: each rolls on their own device; Red decides and takes it; both gain 1 CP.
    a.get_by_role("button", name="Red team rolled 5").click()
    b.get_by_role("button", name="Blue team rolled 2").click()
    expect(a.locator("#turn")).to_contain_text("Red team decides", timeout=SYNC)
    a.get_by_role("button", name="Red team decides: Red team has the initiative").click()
    expect(b.locator("#turn")).to_contain_text("Red team: 3 CP", timeout=SYNC)
    expect(b.locator("#turn")).to_contain_text("Blue team: 3 CP")
    a.get_by_role("button", name="Red team passes").click()
    b.get_by_role("button", name="Blue team passes").click()
    expect(a.locator("#turn")).to_contain_text("Red team activates an operative next", timeout=SYNC)

    # Activate with an order.
    card(a, "a-1").get_by_role("button", name="Activate: Engage").click()
    expect(card(b, "a-1")).to_contain_text("Order: Engage", timeout=SYNC)
    expect(card(b, "a-1")).to_contain_text("Active")

    # Shoot with the helper: the odds shown are the rules' exact ones.
    a.get_by_role("link", name="Shoot…").click()
    expect(a.locator("#shooter")).to_have_value("a-1")  # the active operative, preselected
    expect(a.locator("#weapon")).to_have_value("Test gun")
    a.locator("#target").select_option(value="b-1")
    a.get_by_role("button", name="Show the odds").click()
    distribution = kt.shoot_damage_distribution(
        attacks=4, hit=4, normal_damage=3, critical_damage=4, save=5,
        weapon_rules=("Lethal 5+", "Piercing 1"),
    )  # fmt: skip
    expect(a.locator("#chance-incapacitate")).to_have_text(
        percent(kt.incapacitate_chance(distribution, 10))
    )
    expect(a.locator("#chance-injure")).to_have_text(
        percent(kt.injure_chance(distribution, 10, 10))
    )
    expect(a.locator(".kt-policy")).to_contain_text("least damage")
    assert_accessible(a, "Shoot helper with odds")
    assert_tappable(a, BOARD_TARGETS)
    shot(a, "kt-shoot-odds", full_page=True)
    # One critical (a 6; Lethal 5+ makes a 5 critical too), three fails; the defender rolls
    # two dice (Piercing 1) and fails both: 4 damage, 6 of 10 left, wounded.
    a.get_by_label("Attack dice (4)").fill("6 1 1 1")
    a.get_by_label("Defence dice").fill("1 1")
    a.get_by_role("button", name="Read the dice").click()
    expect(a.get_by_text("no blocks: 4 damage")).to_be_visible()
    assert_accessible(a, "Shoot helper with blocks")
    shot(a, "kt-shoot-blocks", full_page=True)
    a.get_by_role("button", name="Apply the damage").click()
    a.wait_for_url(re.compile(rf".*/matches/{match.pk}/$"))
    expect(card(a, "b-1").locator(".st")).to_have_text("Wounded")
    expect(card(b, "b-1").locator(".kt-w")).to_contain_text("6 of 10 wounds", timeout=SYNC)
    expect(card(a, "a-1")).to_contain_text("AP 1 of 2")

    # 5 of 10 is half, not fewer: still wounded. 4 of 10 is injured, its effects in words.
    wound_off = card(b, "b-1").get_by_role("button", name=re.compile("−1 wound"))
    wound_off.click()
    expect(card(a, "b-1").locator(".kt-w")).to_contain_text("5 of 10 wounds", timeout=SYNC)
    expect(card(a, "b-1").locator(".st")).to_have_text("Wounded")
    wound_off.click()
    expect(card(b, "b-1").locator(".st")).to_have_text("Injured")
    expect(card(a, "b-1").locator(".st")).to_have_text("Injured", timeout=SYNC)
    expect(card(a, "b-1")).to_contain_text('Injured: Move 5" (2" less), Hit 1 worse')
    shot(a, "kt-board-injured", full_page=True)

    # Undo on one device, the other follows. The wound was the other player's: it asks first.
    a.locator(".board-bar").get_by_text("Undo last…").click()
    a.locator(".board-bar").get_by_role("button", name=re.compile(r"^Yes, undo #\d+$")).click()
    expect(card(a, "b-1").locator(".st")).to_have_text("Wounded")
    expect(card(b, "b-1").locator(".st")).to_have_text("Wounded", timeout=SYNC)
    expect(card(b, "b-1").locator(".kt-w")).to_contain_text("5 of 10 wounds")

    # End the turning point.
    a.get_by_role("button", name="End turning point 1").click()
    expect(b.locator("#turn-title")).to_contain_text("Turning point 2", timeout=SYNC)
    assert_accessible(b, "Kill Team board in turning point 2")
    shot(b, "kt-board-tp2", full_page=True)

    # The summary, from the board: each operative's wounds, the log with the undone line.
    b.get_by_role("link", name="Summary and the whole log").click()
    expect(b.locator("h1")).to_contain_text("Red team vs Blue team")
    expect(b.locator(".summary-sides")).to_contain_text("5 of 10")
    expect(b.locator(".log-list .undone")).to_have_count(1)
    assert_accessible(b, "Kill Team summary")
    assert_tappable(b, BOARD_TARGETS)
    shot(b, "kt-summary", full_page=True)
