"""A mecha attack phase in Chromium on two devices (820x1180 and 390x844, each way round): the
first player starts a match between two forces (the roster documents the builder stores) with
the ram reading both agree on, the opponent joins on their own device; a Link set fires for
2 AC, a unit declares its held weapons, Charge Moves and rams, a second ram is refused in the
log, a Heavy Range shot after the move shows -4, the ram's damage page shows both self-damage
readings side by side and the push, the damage is applied and undone, and the other device
follows each change. axe-core and touch targets on every page; screenshots at both sizes."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from matches.models import Match
from tests.browser.conftest import PHONE
from tests.browser.test_killteam_browser import assert_tappable
from tests.browser.test_match_browser import SYNC_SECONDS
from tests.factories import PASSWORD, make_user
from tests.mecha_forces import BLUE, make_force

pytestmark = pytest.mark.django_db(transaction=True)

TABLET = {"width": 820, "height": 1180}
SYNC = SYNC_SECONDS * 1000 + 2000
TARGETS = (
    "main .button, main button, main select, main summary, main .check label, "
    "main input:not([type=checkbox]):not([type=radio]):not([type=hidden])"
)


def card(page, unit: str):
    return page.locator(f"#unit-{unit}")


def record(page, latest: str):
    page.get_by_role("button", name=re.compile("^Record the attack")).click()
    expect(page.locator("#latest")).to_contain_text(latest)


@pytest.mark.parametrize(
    ("first", "second"), [(TABLET, PHONE), (PHONE, TABLET)], ids=["tablet-phone", "phone-tablet"]
)
def test_a_mecha_attack_phase_on_two_devices(
    live_server, new_page, shot, assert_accessible, first, second
):
    base = live_server.url
    size = "tablet" if first is TABLET else "phone"
    anna = make_user("anna")
    make_force(anna, name="Red force")
    make_force(anna, name="Blue force", army=BLUE)
    a = new_page(first, bypass_csp=True)
    a.goto(f"{base}/accounts/login/")
    a.fill("#id_username", "anna")
    a.fill("#id_password", PASSWORD)
    a.click("button:has-text('Log in')")
    b = new_page(second, bypass_csp=True)

    # Start: the ram reading is picked, not defaulted.
    a.goto(f"{base}/matches/new/mecha/")
    a.get_by_label("Your force", exact=True).select_option(label="Red force")
    a.get_by_label("Your opponent's force").select_option(label="Blue force")
    assert_accessible(a, f"mecha start ({size})")
    expect(a.locator("input[type=radio]:checked")).to_have_count(0)  # no default reading
    a.get_by_label(re.compile("^Half, then add Armour")).check()
    a.get_by_label(re.compile("^Every ram")).check()
    a.get_by_role("button", name="Start the match").click()
    a.wait_for_url(re.compile(r".*/matches/\d+/$"))
    match = Match.objects.latest("pk")
    b.goto(a.locator("#join-url").input_value())
    b.get_by_role("button", name="Join as Blue force").click()
    b.wait_for_url(re.compile(rf".*/matches/{match.pk}/$"))
    a.reload()
    expect(card(a, "a-1")).to_contain_text("AC 0 spent, 3 left of 3")
    assert_accessible(a, f"mecha board ({size})")
    assert_tappable(a, TARGETS)
    shot(a, f"board-start-{size}", full_page=True)

    # Blue fires its Link set: one action, 2 AC for the set; Red's device follows.
    card(b, "b-1").get_by_role("link", name="Link set 1 (2 AC)").click()
    expect(b.locator(".mecha-calc")).to_contain_text("Left cannon")
    record(b, "2 AC for the set")
    b.get_by_role("link", name="Back to the board").click()
    expect(card(a, "b-1")).to_contain_text("AC 2 spent, 1 left of 3", timeout=SYNC)

    # Red declares the Bazooka held (free at the start of the turn), Charge Moves and rams.
    card(a, "a-1").get_by_text("Held weapons…").click()
    card(a, "a-1").get_by_label("Bazooka", exact=True).check()
    card(a, "a-1").get_by_role("button", name="Declare held weapons").click()
    expect(card(a, "a-1")).to_contain_text("Holds: Bazooka")
    card(a, "a-1").get_by_role("button", name="Charge Move").click()
    expect(card(a, "a-1")).to_contain_text("Charge Move made")
    card(a, "a-1").get_by_role("link", name="Ram (Strength)").click()
    calc = a.locator(".mecha-calc")
    expect(calc).to_contain_text("Strength 4: 4D6")
    expect(calc.locator(".mecha-reading")).to_have_count(4)
    expect(calc.locator(".mecha-reading.picked")).to_contain_text("your reading")
    expect(calc).to_contain_text("Half of the sum")
    expect(calc).to_contain_text('both units move 0"')
    assert_accessible(a, f"mecha attack page, a ram ({size})")
    assert_tappable(a, TARGETS)
    shot(a, f"ram-readings-{size}", full_page=True)
    a.get_by_label(re.compile("Front arc")).check()
    record(a, "ram on Guntank")
    a.get_by_label(re.compile("Front arc")).check()
    record(a, "only one ram attack a turn")
    expect(a.locator("#latest")).to_contain_text("Refused, nothing changed")

    # The Bazooka after the move: -4 to Range Attack, shown.
    a.get_by_label("Weapon").select_option(label="Bazooka (Heavy Range)")
    a.get_by_label("Kind of attack").select_option("range")
    a.get_by_role("button", name="Show the damage").click()
    expect(a.locator(".mecha-calc")).to_contain_text("1D10")
    record(a, "Range Attack 6 -4 = 2")

    # The ram's damage: rolled 9 to the Guntank, 7 to the Zaku (the reading's table), one event.
    a.get_by_label("Weapon").select_option("")
    a.get_by_label("Kind of attack").select_option("ram")
    a.get_by_role("button", name="Show the damage").click()
    a.get_by_label("Damage rolled to Guntank").fill("9")
    a.get_by_label(re.compile("Zaku's own damage")).fill("7")
    a.get_by_role("button", name="Apply the damage").click()
    expect(a.locator("#latest")).to_contain_text("Guntank (Blue force) takes 9")
    expect(card(b, "b-1").locator("#damage-b-1")).to_have_text("9", timeout=SYNC)
    expect(card(b, "a-1").locator("#damage-a-1")).to_have_text("7", timeout=SYNC)
    a.get_by_role("link", name="Back to the board").click()
    expect(a.locator("#match-log")).to_contain_text("Refused, nothing changed")
    shot(a, f"board-after-{size}", full_page=True)
    a.locator(".board-bar").get_by_role("button", name="Undo last").click()
    expect(card(a, "b-1").locator("#damage-b-1")).to_have_text("0")
    expect(card(b, "b-1").locator("#damage-b-1")).to_have_text("0", timeout=SYNC)
    expect(card(b, "a-1").locator("#damage-a-1")).to_have_text("0", timeout=SYNC)
    assert_accessible(b, f"mecha board, the opponent's device ({size})")
    shot(b, f"board-other-device-{size}", full_page=True)
