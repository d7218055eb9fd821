"""A team's own ploys in Chromium on two devices, at 820x1180 and 390x844: Anna names two
strategic ploys and a firefight ploy in her team's editor, starts a match, Ben joins on his own
device; Anna uses both strategic ploys in turning point 1 (Ben's log names them), Ben corrects
his CP with a reason and undoes it; Anna's operative spends its AP and both devices say so, Ben's
cards saying why they cannot activate yet. axe-core and touch targets on every page. Every
figure is made up."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from armies.models import Roster
from matches.models import Match
from tests.browser.conftest import PHONE
from tests.browser.test_killteam_browser import assert_no_sideways_scroll, assert_tappable
from tests.browser.test_killteam_match_browser import BOARD_TARGETS, SYNC, TABLET, card
from tests.browser.test_killteam_pages_browser import logged_in
from tests.factories import make_team, make_user

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"tablet": TABLET, "phone": PHONE}
EDITOR_TARGETS = "main .button, main button, main input[type=text], main select, main summary"


def name_ploy(page, name: str, kind: str, cost: str = "1") -> None:
    form = page.locator("#ploys form.ploy-form")
    form.get_by_label("Ploy's name").fill(name)
    form.get_by_label("Kind").select_option(label=kind)
    form.get_by_label("Cost (CP)").fill(cost)
    form.get_by_role("button", name="Name this ploy").click()


@pytest.mark.parametrize("size", SIZES.keys())
def test_named_ploys_cp_corrections_and_spent_ap_on_two_devices(
    live_server, new_page, shot, assert_accessible, size
):
    base = live_server.url
    viewport = SIZES[size]
    user = make_user("anna")
    red = make_team(user, name="Red team", operatives=2)
    make_team(user, name="Blue team", operatives=2)
    a = logged_in(new_page, base, user, viewport)

    def check(page, what: str, targets: str = BOARD_TARGETS) -> None:
        assert_accessible(page, f"{what} ({size})")
        assert_tappable(page, targets)
        assert_no_sideways_scroll(page)

    # The editor: the text gives no faction ploys, so the player names them, with their cost.
    a.goto(f"{base}/armies/{red.pk}/")
    ploys = a.locator("#ploys")
    expect(ploys).to_contain_text("The core rules give no faction ploys")
    expect(ploys).to_contain_text("No ploys named yet.")
    name_ploy(a, "Seek and Destroy", "Strategic manoeuvre", "x")  # a form error, in words
    error = "A ploy's cost is a whole number, 0 to 9 CP; got “x”."
    expect(a.locator("#ploys .field-error")).to_have_text(error)
    expect(a.get_by_label("Ploy's name")).to_have_value("Seek and Destroy")  # what was typed
    shot(a, f"editor-ploy-error-{size}")
    name_ploy(a, "Seek and Destroy", "Strategic manoeuvre")
    name_ploy(a, "Overwhelm", "Strategic manoeuvre", "2")
    name_ploy(a, "Duck and Cover", "Firefight ploy")
    expect(ploys.locator("li.ploy")).to_have_count(3)
    expect(ploys).to_contain_text("Strategic manoeuvre · 2 CP")
    check(a, "Kill Team editor with ploys", EDITOR_TARGETS)
    shot(a, f"editor-ploys-{size}", full_page=True)

    # Anna starts the match; Ben joins on his own device.
    a.goto(f"{base}/matches/new/killteam/?roster={red.pk}")
    a.get_by_label("Your opponent's kill team").select_option(label="Blue team")
    a.get_by_role("button", name="Start the match").click()
    a.wait_for_url(re.compile(r".*/matches/\d+/$"))
    match = Match.objects.latest("pk")
    b = new_page(viewport, bypass_csp=True)
    b.goto(a.locator("#join-url").input_value())
    b.get_by_role("button", name="Join as Blue team").click()
    b.wait_for_url(re.compile(rf".*/matches/{match.pk}/$"))

    a.get_by_role("button", name="Red team rolled 5").click()
    b.get_by_role("button", name="Blue team rolled 2").click()
    decide = a.get_by_role("button", name="Red team decides: Red team has the initiative")
    decide.click(timeout=SYNC)
    expect(a.locator("#turn")).to_contain_text("Red team: 3 CP")

    # Two different strategic ploys in one turning point, each by name, each once.
    a.get_by_role("button", name="Red team: Seek and Destroy (1 CP)").click()
    expect(b.locator("#match-log")).to_contain_text(
        "Red team used Seek and Destroy, a strategic manoeuvre (1 CP, 2 left).", timeout=SYNC
    )
    expect(b.locator("#turn")).to_contain_text("Blue team has no strategic manoeuvre named")
    check(b, "Kill Team board, strategy phase, a team with no ploys named")
    b.get_by_role("button", name="Blue team passes").click()
    expect(a.locator("#turn")).to_contain_text(
        "Seek and Destroy: used in this turning point", timeout=SYNC
    )
    assert a.get_by_role("button", name=re.compile("Seek and Destroy")).count() == 0
    check(a, "Kill Team board, strategy phase with ploys")
    shot(a, f"board-strategy-ploys-{size}", full_page=True)
    a.get_by_role("button", name="Red team: Overwhelm (2 CP)").click()
    expect(b.locator("#match-log")).to_contain_text(
        "Red team used Overwhelm, a strategic manoeuvre (2 CP, 0 left).", timeout=SYNC
    )
    expect(b.locator("#match-log")).not_to_contain_text("Refused")

    # Ben corrects his CP by one, with a reason, in one tap; then undoes it.
    b.locator("#cp-reason-b").fill("mission objective")
    b.get_by_role("button", name="Blue team: +1 CP").click()
    expect(b.locator("#turn")).to_contain_text("Blue team: 4 CP")
    expect(a.locator("#match-log")).to_contain_text(
        "Blue team gains 1 CP (mission objective): 4 CP.", timeout=SYNC
    )
    check(b, "Kill Team board after a CP correction")
    shot(b, f"board-cp-correction-{size}", full_page=True)
    b.get_by_role("button", name="Undo last").click()
    expect(b.locator("#turn")).to_contain_text("Blue team: 3 CP")
    expect(a.locator("#turn")).to_contain_text("Blue team: 3 CP", timeout=SYNC)

    # The firefight: Red's operative spends its AP; both devices say so.
    b.get_by_role("button", name="Blue team passes").click()
    a.get_by_role("button", name="Red team passes").click(timeout=SYNC)
    expect(a.locator("#turn")).to_contain_text("Red team activates an operative next")
    expect(a.locator("#turn")).to_contain_text("Red team: Duck and Cover (1 CP)")
    card(a, "a-1").get_by_role("button", name="Activate: Engage").click()
    waiting = "Activate: not yet, Test trooper 1 (Red team) is still active."
    expect(card(b, "b-1")).to_contain_text(waiting, timeout=SYNC)
    card(a, "a-1").get_by_role("button", name="Reposition (1 AP)").click()
    card(a, "a-1").get_by_role("button", name="Dash (1 AP)").click()
    no_ap = "Test trooper 1 (Red team) has no AP left (2 of 2 spent): end its activation."
    expect(a.locator("#turn")).to_contain_text(no_ap)
    expect(card(a, "a-1")).to_contain_text(no_ap)
    expect(b.locator("#turn")).to_contain_text(no_ap, timeout=SYNC)
    expect(b.locator("#turn")).to_contain_text("Blue team activates next, once")
    check(b, "Kill Team board, no AP left, the other device")
    shot(a, f"board-no-ap-{size}")
    shot(b, f"board-no-ap-other-{size}", full_page=True)
    a.get_by_role("button", name="End activation of Test trooper 1 (Red team)").click()
    next_up = "Blue team activates an operative next"
    expect(b.locator("#turn")).to_contain_text(next_up, timeout=SYNC)
    expect(card(b, "b-1")).not_to_contain_text("still active")
    assert Roster.objects.count() == 2
