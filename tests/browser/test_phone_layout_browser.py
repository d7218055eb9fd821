"""Both boards on a phone and a tablet in Chromium (issues 21 and 22): the sticky turn panel and
the bottom bar cover at most a fifth of the screen together, with the buttons of the moment in
view; Kill Team's tie and ploy buttons stay one row that scrolls sideways; an old refusal leaves
the bottom bar once a newer tap goes through."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from armies.models import Owner
from matches.killteam.services import kt_match_start
from tests.browser.conftest import PHONE
from tests.browser.test_board_reach_browser import (
    LANDSCAPE,
    TABLET,
    bars_share,
    join_named,
    scroll_to_middle,
    start_named,
)
from tests.browser.test_killteam_browser import assert_tappable
from tests.browser.test_match_browser import card, mark_next_box, small_targets
from tests.browser.test_roster_browser import start_north
from tests.browser.test_sharing_browser import log_in_from
from tests.factories import make_team, make_user

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"phone": PHONE, "portrait": TABLET, "landscape": LANDSCAPE}
KT_TARGETS = "#turn button, #turn .button, .board-bar button"


def kt_board(page, base: str, operatives: int = 6):
    """A Kill Team match of two teams of ``operatives``, Anna's (she tracks both sides)."""
    user = make_user("anna")
    red = make_team(user, name="Red team", operatives=operatives, grenades=(1, 1))
    blue = make_team(user, name="Blue team", operatives=operatives)
    for team in (red, blue):  # two named firefight ploys each: a full row on a phone
        ploys = [{"name": name, "kind": "firefight", "cost": 1} for name in ("Ambush", "Overrun")]
        team.army = {**team.army, "ploys": ploys}
        team.save(update_fields=["army"])
    match = kt_match_start(owner=Owner(user.pk, None), player="anna", mine=red, opponent=blue)
    page.goto(f"{base}/")
    log_in_from(page, base, user.username)
    page.goto(f"{base}/matches/{match.pk}/")
    return match


def tap(page, name: str) -> None:
    page.locator("#turn").get_by_role("button", name=name).click()


def in_sight(page, locator) -> bool:
    """The whole of it on the screen: inside the viewport and its scrolling row."""
    return locator.evaluate(
        """e => {
            const r = e.getBoundingClientRect(), row = e.parentElement.getBoundingClientRect();
            return r.top >= 0 && r.bottom <= innerHeight && r.left >= Math.max(0, row.left) - 0.5
                && r.right <= Math.min(innerWidth, row.right) + 0.5;
        }"""
    )


@pytest.mark.parametrize("size", SIZES)
def test_the_hgb_bars_keep_to_a_fifth_of_the_screen(
    live_server, new_page, shot, assert_accessible, size
):
    page = new_page(SIZES[size], bypass_csp=True)
    start_named(page, live_server.url, "Alice")
    scroll_to_middle(page)
    assert bars_share(page) <= 0.2  # initiative: the dice
    expect(
        page.locator("#turn .ini").last.get_by_role("button", name=re.compile("rolled 6"))
    ).to_be_in_viewport()
    tap(page, "Northern Guard rolled 5")
    page.locator("#turn .ini").nth(1).get_by_role("button", name=re.compile("rolled 2")).click()
    tap(page, "Northern Guard goes first")
    tap(page, re.compile("Activate CG1"))
    expect(page.locator("#turn")).to_contain_text("Activating")
    scroll_to_middle(page)
    assert bars_share(page) <= 0.2, size
    turn = page.locator("#turn")
    assert in_sight(page, turn.get_by_role("button", name=re.compile("Activate CG1")))
    activate = turn.get_by_role("button", name=re.compile("Activate CG2"))
    assert small_targets(page) == []
    assert_accessible(page, f"on the HGB board scrolled ({size})")
    shot(page, f"hgb-{size}-middle")
    # The panel's first part is back in full at the top of the page.
    page.evaluate("window.scrollTo(0, 0)")
    expect(page.locator("#turn")).to_contain_text("Northern Guard went first")
    assert page.locator("#turn").bounding_box()["y"] >= 0
    # A tap from the pinned row works: the next group activates.
    scroll_to_middle(page)
    activate.scroll_into_view_if_needed()
    assert in_sight(page, activate)
    activate.click()
    expect(page.locator("#latest")).to_contain_text("activates Combat Group 2")
    assert bars_share(page) <= 0.2


@pytest.mark.parametrize("size", SIZES)
def test_the_kill_team_bars_keep_to_a_fifth_of_the_screen(
    live_server, new_page, shot, assert_accessible, size
):
    page = new_page(SIZES[size], bypass_csp=True)
    kt_board(page, live_server.url)
    scroll_to_middle(page)
    assert bars_share(page) <= 0.2
    tap(page, "Red team rolled 5")
    tap(page, "Blue team rolled 2")
    tap(page, "Red team decides: Red team has the initiative")
    tap(page, "Red team passes")
    tap(page, "Blue team passes")
    page.locator("#unit-a-3").get_by_role("button", name="Activate: Engage").click()
    expect(page.locator("#latest")).to_contain_text("activates on Engage")
    scroll_to_middle(page)
    assert page.evaluate("scrollY") > 300
    assert bars_share(page) <= 0.2, size
    turn = page.locator("#turn")
    for name in ("Shoot…", "Fight…"):
        assert in_sight(page, turn.get_by_role("link", name=name)), name
    assert in_sight(page, turn.get_by_role("button", name=re.compile("^Red team: Command Re-roll")))
    assert_tappable(page, KT_TARGETS)
    assert_accessible(page, f"on the Kill Team board scrolled ({size})")
    shot(page, f"kt-{size}-middle")


def test_the_kill_team_tie_and_ploy_buttons_scroll_sideways_on_a_phone(
    live_server, new_page, shot, assert_accessible
):
    page = new_page(PHONE, bypass_csp=True)
    kt_board(page, live_server.url, operatives=2)
    tap(page, "Red team rolled 3")
    tap(page, "Blue team rolled 3")
    expect(page.locator("#turn")).to_contain_text("A tie")
    for phase in ("tie", "ploys"):
        row = page.locator("#turn > div.btns")
        buttons = row.get_by_role("button")
        assert buttons.count() >= 4, phase
        heights = {
            round(b["height"])
            for b in buttons.evaluate_all("bs => bs.map(b => b.getBoundingClientRect())")
        }
        tops = set(
            buttons.evaluate_all("bs => bs.map(b => Math.round(b.getBoundingClientRect().top))")
        )
        assert len(tops) == 1 and min(heights) >= 44, (tops, heights)  # one row, no wrapping
        assert row.evaluate("r => r.scrollWidth > r.clientWidth")  # the rest scrolls sideways
        visible = [i for i in range(buttons.count()) if in_sight(page, buttons.nth(i))]
        assert len(visible) >= 2, phase
        last = buttons.last
        last.scroll_into_view_if_needed()
        assert in_sight(page, last)  # the row reaches its last button
        assert_tappable(page, KT_TARGETS)
        assert_accessible(page, f"with the {phase} buttons on a phone")
        shot(page, f"kt-{phase}-row")
        if phase == "tie":
            buttons.first.click()
            tap(page, "Red team passes")
            tap(page, "Blue team passes")
            expect(page.locator("#turn")).to_contain_text("Command Re-roll")


def test_an_old_refusal_leaves_the_hgb_bar_once_a_newer_tap_goes_through(
    live_server, new_page, shot
):
    page = new_page(PHONE)
    start_named(page, live_server.url, "")
    page.locator(".board-bar").get_by_role("button", name="Undo last").click()
    alert = page.locator("#latest [role=alert]")
    expect(alert).to_contain_text("There is nothing to undo.")
    # A refusal stays while nothing newer went through (a poll redraws the bar: it is kept).
    page.wait_for_timeout(2500)
    expect(alert).to_contain_text("There is nothing to undo.")
    mark_next_box(page, "a-1-1")
    expect(page.locator("#latest")).to_contain_text("box 1 crossed off")
    expect(alert).to_have_count(0)
    page.wait_for_timeout(2500)  # and a poll does not bring it back
    expect(alert).to_have_count(0)
    expect(card(page, "a-1-1").locator(".st")).to_have_text("Sturdy")
    shot(page, "refusal-gone")


def test_an_old_refusal_leaves_the_kill_team_bar_once_a_newer_tap_goes_through(
    live_server, new_page
):
    page = new_page(PHONE)
    kt_board(page, live_server.url, operatives=2)
    page.locator(".board-bar").get_by_role("button", name="Undo last").click()
    alert = page.locator("#latest [role=alert]")
    expect(alert).to_be_visible()
    page.wait_for_timeout(2500)
    expect(alert).to_be_visible()
    tap(page, "Red team rolled 5")
    expect(page.locator("#latest")).to_contain_text("rolled 5")
    expect(alert).to_have_count(0)
    page.wait_for_timeout(2500)
    expect(alert).to_have_count(0)


TAP_TARGETS = """() => [...document.querySelectorAll(
    'main a, main button, main select, main input, main summary')]
  .filter(e => e.offsetParent !== null && e.type !== 'hidden')
  .filter(e => {
    const r = e.getBoundingClientRect();
    return r.height < 44 || r.width < 44;
  })
  .map(e => `${e.outerHTML.slice(0, 80)} is ${Math.round(e.getBoundingClientRect().width)}x`
    + `${Math.round(e.getBoundingClientRect().height)}`)"""


@pytest.mark.parametrize("size", SIZES)
def test_the_builders_links_are_44_px_and_identical_models_print_once(
    live_server, new_page, shot, assert_accessible, size
):
    base = live_server.url
    user = make_user("jan")
    page = new_page(SIZES[size], bypass_csp=True)
    page.goto(f"{base}/")
    log_in_from(page, base, user.username)
    start_north(page, base)
    expect(page.get_by_role("link", name="Start a match")).to_be_visible()
    assert page.evaluate(TAP_TARGETS) == []
    editor = page.url.split("#")[0]
    page.goto(f"{base}/armies/")
    expect(page.get_by_role("link", name="Northern Guard starter force")).to_be_visible()
    assert page.evaluate(TAP_TARGETS) == []
    shot(page, "list")
    page.goto(editor + "cards")
    expect(page.get_by_role("link", name="My datacards")).to_be_visible()
    assert page.evaluate(TAP_TARGETS) == []
    # Two identical Hunters: one card that says "×2", not two copies.
    hunters = page.locator("#card-0-0")
    expect(hunters.locator("h3")).to_have_text("Hunter ×2")
    expect(page.locator(".datacard")).to_have_count(7)
    expect(page.locator(".datacard h3", has_text="Hunter")).to_have_count(4)  # and HeadHunter
    assert_accessible(page, f"on the datacards ({size})")
    shot(page, "cards", full_page=True)


SCREENS = 6  # the 610 TV match on a phone, the acting side open: 11,977 px (14 screens) before


def test_the_hgb_phone_board_shows_one_side_and_folds_what_is_done(
    live_server, new_page, shot, assert_accessible
):
    a = new_page(PHONE, bypass_csp=True)
    match = start_named(a, live_server.url, "Alice", opponent="south_starter")  # 610 TV each
    b = new_page(PHONE, bypass_csp=True)
    join_named(b, live_server.url, match, "Robin")
    a.reload()
    tap(a, "Northern Guard rolled 5")
    tap(b, "MILICIA rolled 2")  # each device rolls for its own side
    tap(a, "Northern Guard goes first")
    tap(a, re.compile("Activate CG1"))
    expect(a.locator("#turn")).to_contain_text("Activating")

    # Opened again: the acting side (Northern Guard) open, MILICIA folded to its bar.
    a.reload()
    expect(card(a, "a-1-1")).to_be_visible()
    expect(card(a, "b-1-1")).to_be_hidden()
    height = a.evaluate("document.documentElement.scrollHeight")
    assert height <= SCREENS * PHONE["height"], f"the phone board is {height} px"
    assert a.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert small_targets(a) == []
    assert_accessible(a, "on the phone board, one side folded")
    shot(a, "one-side", full_page=True)
    toggle = a.locator("details[data-side=b] > summary")
    expect(toggle).to_have_text(re.compile(r"^\W*Show\s+MILICIA's models\s*$"), use_inner_text=True)
    toggle.click()
    expect(card(a, "b-1-1")).to_be_visible()
    expect(toggle).to_have_text(re.compile(r"^\W*Hide\s+MILICIA's models\s*$"), use_inner_text=True)
    toggle.click()
    expect(card(a, "b-1-1")).to_be_hidden()

    # A model marked Used folds to one line; "Open" unfolds it, and it stays open after a poll.
    hunter = card(a, "a-1-1")
    hunter.get_by_role("button", name="Used").click()
    expect(hunter).to_have_class(re.compile(r"\bused\b"))
    assert hunter.bounding_box()["height"] < 70
    expect(hunter.get_by_role("button", name="Used")).to_be_hidden()
    opener = hunter.get_by_role("button", name="Open Hunter 1")
    expect(opener).to_have_attribute("aria-expanded", "false")
    opener.click()
    expect(hunter.get_by_role("button", name="Used")).to_be_visible()
    expect(hunter.get_by_role("button", name="Fold Hunter 1")).to_have_attribute(
        "aria-expanded", "true"
    )
    mark_next_box(a, "a-1-1")  # the card redrawn by its own tap: still open
    expect(hunter.locator(".st")).to_have_text("Sturdy")
    expect(hunter.get_by_role("button", name="Used")).to_be_visible()
    # A destroyed model folds too.
    card(a, "a-1-2").get_by_role("button", name="Destroyed").click()
    expect(card(a, "a-1-2")).to_have_class(re.compile(r"\bout\b"))
    assert card(a, "a-1-2").bounding_box()["height"] < 70
    assert_accessible(a, "on the phone board with folded models")
    shot(a, "folded", full_page=True)
    # The other device, the players box folded on a phone, unfolds it with a tap.
    b.reload()
    expect(b.locator("#share .share-fold")).not_to_have_attribute("open", "")
    b.get_by_text("Players and spectators").click()
    expect(b.locator("#watch-url")).to_be_visible()


@pytest.mark.parametrize("size", ["portrait", "landscape"])
def test_a_tablet_board_keeps_both_sides_and_whole_cards(live_server, new_page, size):
    page = new_page(SIZES[size])
    start_named(page, live_server.url, "Alice", opponent="south_starter")
    tap(page, "Northern Guard rolled 5")
    page.locator("#turn .ini").nth(1).get_by_role("button", name=re.compile("rolled 2")).click()
    tap(page, "Northern Guard goes first")
    tap(page, re.compile("Activate CG1"))
    page.reload()
    expect(card(page, "b-1-1")).to_be_visible()
    hunter = card(page, "a-1-1")
    hunter.get_by_role("button", name="Used").click()
    expect(hunter).to_have_class(re.compile(r"\bused\b"))
    expect(hunter.get_by_role("button", name="Used")).to_be_visible()
    expect(hunter.locator(".unfold")).to_be_hidden()
