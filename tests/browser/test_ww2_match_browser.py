"""A WWII skirmish match in Chromium on two devices (a 820x1180 tablet and a 390x844 phone, both
ways round): two forces (a tank with its crew and riders, an APC, a truck, a towed gun,
infantry), start, join; a napalm miss and a hit, the tank damaged twice (its rider lost, then
destroyed and its crew dismounted), running gear damaged and the truck captured (its driver a
prisoner), a hand-to-hand fight, a wounded soldier's wound-test prompts, undo, the end; the other
device follows within the usual poll. axe-core and touch targets on the board and the helpers."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from matches.models import Match, MatchEvent
from tests.browser.conftest import PHONE, wait_for_live_server_requests
from tests.browser.test_match_browser import SYNC_SECONDS, small_targets
from tests.factories import PASSWORD, make_user
from tests.ww2_factories import make_ww2_force

pytestmark = pytest.mark.django_db(transaction=True)

TABLET = {"width": 820, "height": 1180}
SYNC = SYNC_SECONDS * 1000 + 2000
DEVICES = [(TABLET, PHONE), (PHONE, TABLET)]  # the first player's device, the opponent's


def card(page, unit: str):
    return page.locator(f"#unit-{unit}")


def tap(page, unit: str, name: str) -> None:
    card(page, unit).get_by_role("button", name=name, exact=True).click()


def open_helper(page, unit: str, name: str) -> None:
    link = card(page, unit).get_by_role("link", name=name)
    if not link.is_visible():  # the other side's card: behind "Act for …"
        card(page, unit).locator("summary").click()
    link.click()
    page.wait_for_url(re.compile(r".*/ww2/do/"))


def record(page) -> None:
    page.get_by_role("button", name="Record it").click()
    page.wait_for_url(re.compile(r".*/matches/\d+/(#.*)?$"))


@pytest.mark.parametrize(("first", "second"), DEVICES, ids=["tablet-phone", "phone-tablet"])
def test_a_ww2_match_on_two_devices(live_server, new_page, shot, assert_accessible, first, second):
    base = live_server.url
    size = "tablet" if first is TABLET else "phone"
    user = make_user("anna")
    make_ww2_force(user, name="Red force")
    make_ww2_force(user, name="Blue force")
    a = new_page(first, bypass_csp=True)
    a.goto(f"{base}/accounts/login/")
    a.fill("#id_username", user.username)
    a.fill("#id_password", PASSWORD)
    a.click("button:has-text('Log in')")
    a.goto(f"{base}/matches/new/ww2/")
    a.get_by_label("Your force", exact=True).select_option(label="Red force")
    a.get_by_label("Your opponent's force").select_option(label="Blue force")
    a.locator("input[name=running_gear][value=no]").check()
    assert_accessible(a, f"WWII match start ({size})")
    a.get_by_role("button", name="Start the match").click()
    a.wait_for_url(re.compile(r".*/matches/\d+/$"))
    match = Match.objects.latest("pk")
    b = new_page(second, bypass_csp=True)  # the opponent, a guest on their own device
    b.goto(a.locator("#join-url").input_value())
    b.get_by_role("button", name="Join as Blue force").click()
    b.wait_for_url(re.compile(rf".*/matches/{match.pk}/$"))
    a.reload()
    expect(card(b, "a-v1").locator(".st")).to_have_text("Intact")
    assert_accessible(a, f"WWII board ({size})")
    assert small_targets(a) == []
    shot(a, f"board-{size}")

    # A napalm miss: the card is gone, nothing else happens.
    open_helper(a, "a-v1", "Napalm…")
    assert_accessible(a, f"napalm helper ({size})")
    assert small_targets(a) == []
    a.locator("input[name=hit][value='0']").check()
    record(a)
    expect(card(a, "a-v1")).to_contain_text("Napalm 0 of 1 left")
    # Kozlov rides the T-34; the next turn the tank is damaged twice.
    open_helper(a, "a-i2", "Board…")
    a.get_by_label("Vehicle").select_option("a-v1")
    record(a)
    expect(card(a, "a-v1")).to_contain_text("Riders: Kozlov")
    a.locator("#turn").get_by_role("button", name="End turn 1").click()
    expect(b.locator("#turn h2")).to_have_text("Turn 2", timeout=SYNC)
    tap(a, "a-v1", "Damaged")
    expect(a.locator("#latest")).to_contain_text("riders lost: Kozlov")
    expect(card(b, "a-i2").locator(".st")).to_have_text("Dead", timeout=SYNC)
    expect(card(b, "a-v1").locator(".st")).to_have_text("Damaged")
    tap(a, "a-v1", "Damaged")
    expect(a.locator("#latest")).to_contain_text("the crew survive and dismount beside it")
    expect(card(b, "a-v1").locator(".st")).to_have_text("Destroyed", timeout=SYNC)
    expect(card(b, "a-v1c1")).not_to_contain_text("Crew of")

    # B's truck: running gear damaged on B's device, then A's capture test takes its driver.
    open_helper(b, "b-v2", "Running gear…")
    b.locator("input[name=weapon][value=grenade]").check()
    b.get_by_label("Attack strength").fill("16")
    record(b)
    expect(card(b, "b-v2")).to_contain_text("Running gear damaged")
    a.reload()
    open_helper(a, "b-v2", "Capture test…")
    expect(a.locator("main")).to_contain_text("a d20 is inferred")
    a.locator("input[value=four_within_2]").check()
    a.locator("input[value=no_friend_within_12]").check()
    a.get_by_label("The capture test's die").fill("14")
    assert_accessible(a, f"capture helper ({size})")
    shot(a, f"capture-{size}")
    record(a)
    expect(card(a, "b-v2")).to_contain_text("Captured")
    expect(card(b, "b-v2c1").locator(".st")).to_have_text("Prisoner", timeout=SYNC)

    # B's napalm hits: Belov is marked within 4".
    open_helper(b, "b-v1", "Napalm…")
    b.locator("input[name=hit][value='1']").check()
    b.locator("input[value=a-i3]").check()
    record(b)
    expect(card(a, "a-i3").locator(".st")).to_have_text("Dead", timeout=SYNC)

    # Hand-to-hand: Petrov wins 5 to 2 and wounds Kozlov's... the enemy soldier b-i2.
    open_helper(a, "a-i1", "Hand-to-hand…")
    expect(a.locator("main")).to_contain_text("Ties are not in the rules text")
    a.get_by_label('Enemy within 1"').select_option("b-i2")
    a.get_by_label("This soldier's dice").fill("5")
    a.get_by_label("The enemy's dice").fill("2")
    a.locator("input[name=outcome][value=wounded]").check()
    assert_accessible(a, f"hand-to-hand helper ({size})")
    record(a)
    expect(card(b, "b-i2").locator(".st")).to_have_text("Wounded", timeout=SYNC)

    # The wounded soldier's prompts: every later turn, on his own player's device.
    a.locator("#turn").get_by_role("button", name="End turn 2").click()
    expect(b.locator("#turn")).to_contain_text("Wound tests due", timeout=SYNC)
    tap(b, "b-i2", "Still wounded")
    expect(card(b, "b-i2").get_by_role("button", name="Recovered")).to_have_count(0)
    a.locator("#turn").get_by_role("button", name="End turn 3").click()
    expect(card(b, "b-i2").get_by_role("button", name="Recovered")).to_be_visible(timeout=SYNC)
    tap(b, "b-i2", "Recovered")
    expect(card(b, "b-i2").locator(".st")).to_have_text("Recovering: move only")
    assert_accessible(b, f"board with prompts ({'phone' if second is PHONE else 'tablet'})")
    shot(b, f"board-after-{'phone' if second is PHONE else 'tablet'}")

    # Undo: B takes the recovery back; A's device follows.
    b.locator(".board-bar").get_by_role("button", name="Undo last").click()
    expect(card(a, "b-i2").locator(".st")).to_have_text("Wounded", timeout=SYNC)

    # The end.
    a.locator("#turn summary").click()
    a.locator("#turn").get_by_role("button", name="Red force won").click()
    expect(b.locator("#turn")).to_contain_text("Battle over: Red force won", timeout=SYNC)
    shot(a, f"ended-{size}")
    assert not MatchEvent.objects.filter(match=match, refused=True).exists()
    wait_for_live_server_requests()
