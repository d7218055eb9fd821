"""The match tracker in Chromium: two players on two devices, the board at every size, no-JS taps,
and a tap that the network drops being retried until it is saved."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from matches.models import Match, MatchEvent
from tests.browser.conftest import PHONE, VIEWPORTS

pytestmark = pytest.mark.django_db(transaction=True)

SYNC_SECONDS = 3


def start_match(
    page, base: str, mine: str = "peace_river_starter", opponent: str = "north_starter"
):
    page.goto(base + "/matches/new/")
    page.select_option("#id_mine", f"preset:{mine}")
    page.select_option("#id_opponent", f"preset:{opponent}")
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r".*/matches/\d+/$"))
    return Match.objects.latest("pk")


def join(page, base: str, match: Match, label: str) -> None:
    match.refresh_from_db()
    page.goto(f"{base}/matches/join/{match.join_slug}/")
    page.get_by_role("button", name=f"Join as {label}").click()
    page.wait_for_url(re.compile(rf".*/matches/{match.pk}/$"))


def card(page, unit: str):
    return page.locator(f"#unit-{unit}")


def mark_next_box(page, unit: str) -> None:
    card(page, unit).locator('button[value^="mark "]').click()


def log_lines(page) -> list[tuple[str, str, str]]:
    return page.eval_on_selector_all(
        "#log-list > li[id]",
        "items => items.map(li => [li.id, li.className, li.querySelector('.ev-text').textContent])",
    )


def small_targets(page) -> list[str]:
    return page.evaluate(
        """() => [...document.querySelectorAll(
                'main button, main a.button, main select, main input')]
            .filter(e => e.offsetParent !== null && e.type !== 'hidden')
            .filter(e => {
                // A radio button or a checkbox is tapped through its label.
                const box = ['radio', 'checkbox'].includes(e.type) ? e.closest('label') || e : e;
                const r = box.getBoundingClientRect();
                return r.height < 44 || r.width < 44;
            })
            .map(e => e.outerHTML.slice(0, 80))"""
    )


def test_two_players_on_two_devices_see_each_others_taps(live_server, new_page, shot):
    a = new_page(VIEWPORTS["tablet-landscape"])
    b = new_page(VIEWPORTS["tablet-portrait"])
    match = start_match(a, live_server.url)
    join(b, live_server.url, match, "Northern Guard")
    b.evaluate("window.__notReloaded = true")
    hunter = "b-1-1"
    expect(card(b, hunter).locator(".st")).to_have_text("Undamaged")

    # Player A crosses off boxes on B's Hunter until it is at Heavy damage.
    for state in ("Sturdy", "Light", "Heavy"):
        mark_next_box(a, hunter)
        expect(card(a, hunter).locator(".st")).to_have_text(state)
    expect(card(a, hunter).locator(".fx")).to_have_text("-1 to all rolls, no Top Speed")
    seen_at = time.monotonic()
    expect(card(b, hunter).locator(".st")).to_have_text("Heavy", timeout=SYNC_SECONDS * 1000)
    assert time.monotonic() - seen_at <= SYNC_SECONDS
    expect(card(b, hunter).locator(".sk")).to_contain_text("ATT 2 \u22121")
    assert b.evaluate("window.__notReloaded") is True
    shot(a, "player-a-heavy")
    shot(b, "player-b-sees-heavy")

    # Player A undoes the last tap; both devices agree on the state and on the log.
    a.get_by_role("button", name="Undo last").click()
    expect(card(a, hunter).locator(".st")).to_have_text("Light")
    expect(card(b, hunter).locator(".st")).to_have_text("Light", timeout=SYNC_SECONDS * 1000)
    expect(b.locator("#ev-3")).to_have_class("undone", timeout=SYNC_SECONDS * 1000)
    expect(b.locator("#ev-4")).to_be_visible()
    assert log_lines(a) == log_lines(b)
    assert [line[0] for line in log_lines(a)] == ["ev-4", "ev-3", "ev-2", "ev-1"]
    assert card(a, hunter).inner_html() == card(b, hunter).inner_html()
    match.refresh_from_db()
    assert match.current_state().unit(hunter).track.marked == 2
    assert MatchEvent.objects.filter(match=match).count() == 4

    # Player B plays their side too: a tap on B's device reaches A.
    card(b, "b-1-2").get_by_role("button", name="Used").click()
    expect(card(a, "b-1-2")).to_have_class(re.compile(r"\bused\b"), timeout=SYNC_SECONDS * 1000)
    shot(a, "player-a-after-undo", full_page=True)
    shot(b, "player-b-after-undo", full_page=True)


def test_initiative_activations_and_the_end_of_a_round(live_server, new_page, shot):
    page = new_page(VIEWPORTS["tablet-portrait"])
    match = start_match(page, live_server.url)
    turn = page.locator("#turn")
    turn.get_by_role("button", name="PRDF rolled 4").click()
    turn.get_by_role("button", name="Northern Guard rolled 4").click()
    expect(turn).to_contain_text("Tie on 4: roll again.")
    # Northern Guard rolls on screen; PRDF enters a different die by hand.
    turn.get_by_role("button", name="Roll on screen for Northern Guard").click()
    rolled = turn.locator(".ini").nth(1).locator("b")
    expect(rolled).to_have_text(re.compile(r"rolled [1-6]"))
    die = 1 if rolled.inner_text() != "rolled 1" else 2
    turn.get_by_role("button", name=f"PRDF rolled {die}").click()
    expect(turn).to_contain_text("won the initiative")
    turn.get_by_role("button", name="Northern Guard goes first").click()
    expect(turn).to_contain_text("Northern Guard activates the next combat group")
    turn.get_by_role("button", name=re.compile("Activate CG1")).click()
    expect(turn).to_contain_text("Activating: Combat Group 1 of Northern Guard")
    expect(page.locator("#group-b-1 .gst")).to_have_text("Activating")
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "activations")
    page.get_by_role("link", name="End round 1…").click()
    page.get_by_role("button", name="End round 1").click()
    page.wait_for_url(re.compile(rf".*/matches/{match.pk}/$"))
    expect(page.locator("#turn h2")).to_have_text("Round 2")


@pytest.mark.parametrize("viewport", [*VIEWPORTS.keys(), "phone"])
def test_the_board_reads_well_at_every_size(live_server, new_page, shot, viewport):
    size = PHONE if viewport == "phone" else VIEWPORTS[viewport]
    page = new_page(size)
    match = start_match(page, live_server.url, mine="north_starter", opponent="south_starter")
    for op_unit in ("b-1-1", "b-1-1", "b-1-1", "a-2-3"):
        mark_next_box(page, op_unit)
    expect(card(page, "a-2-3").locator(".st")).to_have_text("Sturdy")
    card(page, "b-1-2").get_by_role("button", name="Destroyed").click()
    expect(card(page, "b-1-2")).to_have_class(re.compile(r"\bout\b"))
    card(page, "a-1-1").get_by_role("button", name="Top").click()
    expect(card(page, "a-1-1")).to_contain_text("Top Speed costs")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    assert small_targets(page) == []
    # Readable at arm's length: the state words and the boxes are not small print.
    sizes = page.evaluate(
        """() => ['.unit .st', '.unit h4', '.bx', '.side-sum .tv'].map(
            s => parseFloat(getComputedStyle(document.querySelector(s)).fontSize))"""
    )
    assert min(sizes) >= 16, sizes
    assert shot(page, viewport).exists()
    assert shot(page, f"{viewport}-full", full_page=True).exists()
    assert match.pk


def test_taps_work_without_javascript(live_server, new_page):
    page = new_page(VIEWPORTS["tablet-landscape"], java_script_enabled=False)
    match = start_match(page, live_server.url)
    mark_next_box(page, "b-1-1")
    page.wait_for_url(re.compile(rf".*/matches/{match.pk}/#unit-b-1-1$"))
    expect(card(page, "b-1-1").locator(".st")).to_have_text("Sturdy")
    card(page, "b-1-1").get_by_role("button", name="Top").click()
    expect(card(page, "b-1-1").locator(".st")).to_have_text("Sturdy")
    page.get_by_role("button", name="Undo last").click()
    expect(card(page, "b-1-1").locator(".st")).to_have_text("Sturdy")
    match.refresh_from_db()
    assert match.current_state().unit("b-1-1").track.marked == 1


def test_a_tap_the_network_drops_is_shown_and_retried_until_saved(live_server, browser, shot):
    # Its own context: the dropped request makes htmx log an error on purpose.
    context = browser.new_context(viewport=VIEWPORTS["tablet-portrait"])
    try:
        page = context.new_page()
        match = start_match(page, live_server.url)
        dropped = []

        def drop_first(route):
            if not dropped:
                dropped.append(route.request.post_data)
                route.abort()
            else:
                route.continue_()

        page.route("**/event", drop_first)
        mark_next_box(page, "b-1-1")
        expect(page.locator("#board-status")).to_contain_text("Not saved \u2014 retrying")
        expect(card(page, "b-1-1")).to_have_class(re.compile(r"\bunsaved\b"))
        shot(page, "not-saved-retrying")
        expect(card(page, "b-1-1").locator(".st")).to_have_text("Sturdy", timeout=5000)
        expect(page.locator("#board-status")).to_have_text("")
        match.refresh_from_db()
        assert match.current_state().unit("b-1-1").track.marked == 1
        events = list(MatchEvent.objects.filter(match=match))
        assert len(events) == 1 and events[0].client_key in dropped[0]
    finally:
        context.close()


@pytest.mark.parametrize("viewport", ["tablet-portrait", "phone"])
def test_the_other_match_pages_read_well(live_server, new_page, shot, viewport):
    size = PHONE if viewport == "phone" else VIEWPORTS[viewport]
    page = new_page(size)
    page.goto(live_server.url + "/matches/new/")
    check_page(page)
    shot(page, f"{viewport}-start")
    match = start_match(page, live_server.url)
    mark_next_box(page, "b-1-1")
    expect(card(page, "b-1-1").locator(".st")).to_have_text("Sturdy")
    page.locator("#share").scroll_into_view_if_needed()
    check_page(page)
    shot(page, f"{viewport}-share-and-log")
    guest = new_page(size)
    guest.goto(f"{live_server.url}/matches/join/{match.join_slug}/")
    check_page(guest)
    shot(guest, f"{viewport}-join")
    page.get_by_role("link", name="End round 1…").click()
    check_page(page)
    shot(page, f"{viewport}-end-round")
    page.goto(f"{live_server.url}/matches/{match.pk}/end/")
    check_page(page)
    shot(page, f"{viewport}-end-match")
    page.get_by_label("PRDF won").check()
    page.get_by_role("button", name="End the match").click()
    page.wait_for_url(re.compile(r".*/summary/$"))
    check_page(page)
    shot(page, f"{viewport}-summary", full_page=True)
    page.goto(f"{live_server.url}/matches/")
    check_page(page)
    shot(page, f"{viewport}-list")


def check_page(page) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, page.url
    assert small_targets(page) == [], page.url


def test_polling_slows_down_in_a_hidden_tab_and_catches_up_when_shown(live_server, new_page):
    page = new_page(VIEWPORTS["tablet-landscape"])
    start_match(page, live_server.url)
    polls: list[str] = []
    page.on("request", lambda request: "/poll" in request.url and polls.append(request.url))
    page.wait_for_timeout(4500)
    assert len(polls) >= 2  # every 2 s while visible
    page.evaluate(
        """() => {
            Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});
            document.dispatchEvent(new Event('visibilitychange'));
        }"""
    )
    page.wait_for_timeout(2500)  # at most the first hidden poll goes out here
    polls.clear()
    page.wait_for_timeout(8000)
    assert polls == []  # hidden: once every 15 s at most
    page.evaluate(
        """() => {
            Object.defineProperty(document, 'hidden', {configurable: true, get: () => false});
            document.dispatchEvent(new Event('visibilitychange'));
        }"""
    )
    page.wait_for_timeout(800)
    assert len(polls) >= 1  # shown again: it asks at once (a regular tick may follow)
