"""The board at arm's length in Chromium (issue 11): the turn panel stuck to the top, "Undo last"
and the latest change stuck to the bottom at every scroll position, the joining player's army
first, the players' names, the weapons one tap away; axe-core finds nothing on any page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from matches.models import Match
from tests.browser.conftest import PHONE
from tests.browser.test_match_browser import card, mark_next_box, small_targets

pytestmark = pytest.mark.django_db(transaction=True)

TABLET = {"width": 820, "height": 1180}
LANDSCAPE = {"width": 1180, "height": 820}
SIZES = {"tablet": TABLET, "phone": PHONE}
SYNC_MS = 3000


def start_named(page, base: str, name: str, mine="north_starter", opponent="south_starter"):
    page.goto(base + "/matches/new/")
    page.get_by_label("Your name (optional)").fill(name)
    page.select_option("#id_mine", f"preset:{mine}")
    page.select_option("#id_opponent", f"preset:{opponent}")
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r".*/matches/\d+/$"))
    return Match.objects.latest("pk")


def join_named(page, base: str, match: Match, name: str) -> None:
    match.refresh_from_db()
    page.goto(f"{base}/matches/join/{match.join_slug}/")
    page.get_by_label("Your name (optional)").fill(name)
    page.get_by_role("button", name=re.compile("Join as")).click()
    page.wait_for_url(re.compile(rf".*/matches/{match.pk}/$"))


def box(page, selector: str) -> dict:
    return page.locator(selector).first.bounding_box()


def in_view(page, selector: str) -> bool:
    rect = box(page, selector)
    height = page.viewport_size["height"]
    return rect is not None and rect["y"] >= 0 and rect["y"] + rect["height"] <= height


def turn_in_reach(page) -> bool:
    """The turn panel stuck to the top: its last row (the buttons of the moment) in view."""
    rect = box(page, "#turn")
    bottom = rect["y"] + rect["height"] if rect else 0
    return 44 <= bottom <= page.viewport_size["height"]


def bars_share(page) -> float:
    """The part of the screen the sticky turn panel and the bottom bar cover together."""
    rect, bar = box(page, "#turn"), box(page, ".board-bar")
    shown = max(0.0, min(rect["y"] + rect["height"], bar["y"]) - max(rect["y"], 0.0))
    return (shown + bar["height"]) / page.viewport_size["height"]


def scroll_to_middle(page) -> None:
    page.evaluate("window.scrollTo(0, (document.body.scrollHeight - innerHeight) / 2)")
    page.wait_for_timeout(100)


def no_overflow(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0


@pytest.mark.parametrize("size", SIZES)
def test_undo_last_and_the_latest_change_stay_in_reach(
    live_server, new_page, shot, assert_accessible, size
):
    viewport = SIZES[size]
    a = new_page(viewport, bypass_csp=True)
    match = start_named(a, live_server.url, "Alice")
    b = new_page(viewport, bypass_csp=True)
    join_named(b, live_server.url, match, "Robin")

    # A card in the middle of the board: the bar and the turn panel are on screen with it.
    target = card(a, "b-1-3")
    target.scroll_into_view_if_needed()
    mark_next_box(a, "b-1-3")
    expect(target.locator(".st")).to_have_text("Sturdy")
    scroll_to_middle(a)
    assert a.evaluate("scrollY") > 1000
    assert in_view(a, ".board-bar") and turn_in_reach(a)
    expect(a.locator("#latest")).to_contain_text("#1 · R1 · Alice")
    expect(a.locator("#latest")).to_contain_text("box 1 crossed off")
    # Compact: the two bars leave most of the screen to the cards.
    bar = box(a, ".board-bar")
    assert bar["y"] + bar["height"] <= viewport["height"] + 1
    assert bars_share(a) <= 0.2
    # The other device sees the change in its own bar within the poll's time.
    expect(b.locator("#latest")).to_contain_text("#1 · R1 · Alice", timeout=SYNC_MS)
    assert small_targets(a) == [] and small_targets(b) == []
    no_overflow(a)
    no_overflow(b)
    assert_accessible(a, f"on player A's board ({size})")
    assert_accessible(b, f"on player B's board ({size})")
    shot(a, f"{size}-middle")

    # "Undo last" from where the player is: no scrolling needed.
    y = a.evaluate("scrollY")
    a.locator(".board-bar").get_by_role("button", name="Undo last").click()
    expect(a.locator("#latest")).to_contain_text("Undid #1")
    expect(card(a, "b-1-3").locator(".st")).to_have_text("Undamaged")
    assert abs(a.evaluate("scrollY") - y) < 5
    expect(b.locator("#latest")).to_contain_text("Undid #1", timeout=SYNC_MS)

    # Player B's own taps carry the name they typed.
    mark_next_box(b, "a-1-1")
    expect(b.locator("#latest")).to_contain_text("#3 · R1 · Robin")
    expect(a.locator("#latest")).to_contain_text("#3 · R1 · Robin", timeout=SYNC_MS)
    expect(a.locator("#log-list")).to_contain_text("Alice")


def test_nothing_to_undo_is_said_in_the_bar(live_server, new_page):
    page = new_page(PHONE)
    start_named(page, live_server.url, "")
    scroll_to_middle(page)
    page.locator(".board-bar").get_by_role("button", name="Undo last").click()
    alert = page.locator("#latest [role=alert]")
    expect(alert).to_contain_text("There is nothing to undo.")
    assert in_view(page, "#latest [role=alert]")


def test_the_joining_player_sees_their_own_army_first(live_server, new_page, shot):
    a = new_page(PHONE)
    match = start_named(a, live_server.url, "")
    b = new_page(PHONE)
    join_named(b, live_server.url, match, "")
    assert b.eval_on_selector_all(".sides > .side", "s => s.map(e => e.className)") == [
        "side side-b",
        "side side-a",
    ]
    assert box(b, "#side-b")["y"] < box(b, "#side-a")["y"]
    assert box(a, "#side-a")["y"] < box(a, "#side-b")["y"]
    # No names typed: "Player A" and "Player B", never "Guest".
    mark_next_box(b, "b-1-1")
    expect(b.locator("#latest")).to_contain_text("Player B")
    expect(a.locator("#latest")).to_contain_text("Player B", timeout=SYNC_MS)
    expect(a.locator("#share")).to_contain_text("Player A (you)")
    assert "Guest" not in a.locator("#board").inner_text()
    shot(b, "seat-b-first")


@pytest.mark.parametrize("size", SIZES)
def test_a_cards_weapons_open_their_sheet_with_one_tap(
    live_server, new_page, shot, assert_accessible, size
):
    page = new_page(SIZES[size], bypass_csp=True)
    start_named(page, live_server.url, "Alice")
    hunter = card(page, "a-1-1")
    expect(hunter.locator(".wpns")).to_have_text(
        re.compile(r"MAC Medium Autocannon\s*HPZF Heavy Panzerfaust\s*LRP Light Rocket Pack")
    )
    requests: list[str] = []
    page.on("request", lambda r: "/poll" not in r.url and requests.append(r.url))
    hunter.get_by_role("button", name="MAC Medium Autocannon").click()
    sheet = page.locator(".wpn-sheet:popover-open")
    expect(sheet).to_be_visible()
    expect(sheet).to_contain_text("Forward arc (F)")
    expect(sheet).to_contain_text("The front 180 degrees")
    assert requests == []  # the sheet was on the page already
    assert in_view(page, ".wpn-sheet:popover-open")
    assert_accessible(page, f"with a weapon sheet open ({size})")
    shot(page, "weapon-sheet")
    sheet.get_by_role("button", name="Close").click()
    expect(page.locator(".wpn-sheet:popover-open")).to_have_count(0)


def test_the_watchers_board_summary_and_forms_pass_axe(
    live_server, new_page, shot, assert_accessible
):
    page = new_page(TABLET, bypass_csp=True)
    page.goto(live_server.url + "/matches/new/")
    assert_accessible(page, "on the start form")
    page.get_by_label("Your name (optional)").fill("x" * 150)
    assert page.get_by_label("Your name (optional)").input_value() == "x" * 150
    match = start_named(page, live_server.url, "Alice")
    card(page, "b-1-1").get_by_role("button", name="Destroyed").click()
    expect(card(page, "b-1-1")).to_have_class(re.compile(r"\bout\b"))
    card(page, "b-1-2").get_by_role("button", name="Destroyed").click()
    expect(card(page, "b-1-2")).to_have_class(re.compile(r"\bout\b"))
    guest = new_page(PHONE, bypass_csp=True)
    guest.goto(f"{live_server.url}/matches/join/{match.join_slug}/")
    assert_accessible(guest, "on the join form")
    assert small_targets(guest) == []
    watcher = new_page(PHONE, bypass_csp=True)
    watcher.goto(f"{live_server.url}/matches/watch/{match.watch_slug}/")
    expect(watcher.locator("#latest")).to_contain_text("Alice")
    assert in_view(watcher, ".board-bar") and turn_in_reach(watcher)
    assert_accessible(watcher, "on the watcher's board")
    shot(watcher, "watcher")
    page.goto(f"{live_server.url}/matches/{match.pk}/end/")
    page.get_by_label("Northern Guard won").check()
    page.get_by_role("button", name="End the match").click()
    page.wait_for_url(re.compile(r".*/summary/$"))
    lost = page.locator("h3:text('Lost') + ul")
    expect(lost).to_contain_text(re.compile(r"\(.+ CG1\): Destroyed"))
    assert_accessible(page, "on the summary")
    assert small_targets(page) == []


@pytest.mark.parametrize("name", ["portrait", "landscape", "phone"])
def test_board_screenshots(live_server, new_page, shot, name):
    viewport = {"portrait": TABLET, "landscape": LANDSCAPE, "phone": PHONE}[name]
    page = new_page(viewport)
    start_named(page, live_server.url, "Alice")
    turn = page.locator("#turn")
    turn.get_by_role("button", name="Northern Guard rolled 5").click()
    turn.locator(".ini").nth(1).get_by_role("button", name=re.compile("rolled 2")).click()
    turn.get_by_role("button", name="Northern Guard goes first").click()
    turn.get_by_role("button", name=re.compile("Activate CG1")).click()
    expect(turn).to_contain_text("Activating")
    for unit in ("b-1-1", "b-1-1", "a-1-2"):
        mark_next_box(page, unit)
    expect(card(page, "a-1-2").locator(".st")).to_have_text("Sturdy")
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, f"{name}-top")
    scroll_to_middle(page)
    assert in_view(page, ".board-bar") and turn_in_reach(page)
    assert bars_share(page) <= 0.2
    expect(turn.get_by_role("button", name=re.compile("Activate CG1"))).to_be_in_viewport()
    assert small_targets(page) == []
    no_overflow(page)
    shot(page, f"{name}-middle")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    shot(page, f"{name}-bottom")


def test_a_long_summary_log_pages_back_in_time_on_a_phone(
    live_server, new_page, shot, assert_accessible, monkeypatch
):
    monkeypatch.setattr("matches.logs.SUMMARY_PAGE", 2)  # three taps: two pages
    page = new_page(PHONE, bypass_csp=True)
    match = start_named(page, live_server.url, "Alice")
    for done in range(1, 4):
        mark_next_box(page, "b-1-1")
        expect(page.locator("#log-list > li[id]")).to_have_count(done)
    page.goto(f"{live_server.url}/matches/{match.pk}/summary/")
    entries = page.locator(".log-list.full > li .ev-meta")
    expect(entries).to_have_text([re.compile(r"^#3 "), re.compile(r"^#2 ")])
    expect(page.get_by_text("newest first: page 1 of 2")).to_be_visible()
    page.get_by_role("link", name="Older events").click()
    page.wait_for_url(re.compile(r".*/summary/\?page=2#log$"))
    expect(entries).to_have_text([re.compile(r"^#1 ")])
    assert in_view(page, "#log")
    assert_accessible(page, "on the summary's second log page")
    assert small_targets(page) == []
    shot(page, "summary-page-2")
    page.get_by_role("link", name="Newer events").click()
    expect(entries).to_have_count(2)


def test_the_initiative_dice_fit_a_phone_without_scrolling(live_server, new_page, shot):
    page = new_page(PHONE)
    start_named(page, live_server.url, "")
    rows = page.locator("#turn .ini")
    assert rows.count() == 2
    for i in range(2):
        row = rows.nth(i)
        assert row.evaluate("e => e.scrollWidth <= e.clientWidth")
        right = row.bounding_box()["x"] + row.bounding_box()["width"]
        for button in row.locator("button").all():
            place = button.bounding_box()
            assert place["x"] + place["width"] <= right + 0.5 and place["height"] >= 44
    assert rows.nth(0).get_by_role("button", name=re.compile("Roll on screen")).is_visible()
    shot(page, "initiative-phone")
