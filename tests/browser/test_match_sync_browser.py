"""Two tablets on one match (820x1180 and a 390x844 phone): a tap does what its button said
even when both players tap the same box at once, sync never stops (not even across the end of
the match and its undo), and a rule's message stays until the player dismisses it."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from matches.models import MatchEvent
from tests.browser.conftest import wait_for_live_server_requests
from tests.browser.test_match_browser import PHONE, SYNC_SECONDS, card, join, start_match

pytestmark = pytest.mark.django_db(transaction=True)

TABLET = {"width": 820, "height": 1180}
SYNC = SYNC_SECONDS * 1000


def two_devices(new_page, live_server):
    a = new_page(TABLET, bypass_csp=True)
    b = new_page(PHONE, bypass_csp=True)
    match = start_match(a, live_server.url)
    join(b, live_server.url, match, "Northern Guard")
    a.reload()  # the first player's board shows the opponent (and A's poll is fresh)
    return a, b, match


def test_both_players_tap_the_same_box_at_once_and_it_is_crossed_off_once(
    live_server, new_page, shot, assert_accessible
):
    a, b, match = two_devices(new_page, live_server)
    warrior = "a-1-1"  # a PRDF Warrior: the first player's army
    box = 'button[aria-label="Cross off box 1, Sturdy"]'
    expect(card(a, warrior).locator(box)).to_be_visible()
    expect(card(b, warrior).locator(box)).to_be_visible()
    # Both devices tap box 1 as it stands on their screen, at the same moment.
    a.evaluate("s => document.querySelector(s).click()", f"#unit-{warrior} {box}")
    b.evaluate("s => document.querySelector(s).click()", f"#unit-{warrior} {box}")
    for page in (a, b):
        expect(card(page, warrior).locator(".st")).to_have_text("Sturdy", timeout=SYNC)
    messages = [page.locator(f"#unit-{warrior} .msg") for page in (a, b)]
    told = [m for m in messages if m.count()]
    assert len(told) == 1, "exactly one device is told its tap came second"
    expect(told[0]).to_contain_text(
        re.compile(r"Box 1 of Warrior 1 \(PRDF CG1\) was already crossed off by .+ a moment ago")
    )
    match.refresh_from_db()
    assert match.current_state().unit(warrior).track.marked == 1
    assert MatchEvent.objects.filter(match=match, refused=True).count() == 1
    # Both logs show the refusal, marked as refused.
    for page in (a, b):
        expect(page.locator("#log-list li.refused")).to_have_count(1, timeout=SYNC)
    for page, name in ((a, "same-box-tablet"), (b, "same-box-phone")):
        card(page, warrior).scroll_into_view_if_needed()
        shot(page, name)
    assert_accessible(a, "on the board with a refusal")
    assert_accessible(b, "on the phone board with a refusal")


def test_a_warning_stays_on_the_card_until_dismissed(live_server, new_page, shot):
    a, b, match = two_devices(new_page, live_server)
    hunter = "b-1-1"  # a Northern Guard Hunter: the joining player's army
    card(b, hunter).get_by_role("button", name="Top").click()
    message = card(b, hunter).locator(".msg")
    expect(message).to_contain_text("Top Speed costs")
    # The other player crosses off a box on the same card: B's poll redraws it.
    card(a, hunter).locator('button[value^="mark "]').click()
    expect(card(b, hunter).locator(".st")).to_have_text("Sturdy", timeout=SYNC)
    time.sleep(2.5)  # and a few quiet polls more
    expect(message).to_contain_text("Top Speed costs")
    shot(b, "warning-kept-after-poll")
    message.get_by_role("button", name="Dismiss this message").click()
    expect(card(b, hunter).locator(".msg")).to_have_count(0)
    a.locator(f"#unit-{hunter}").locator('button[value^="mark "]').click()
    expect(card(b, hunter).locator(".st")).to_have_text("Light", timeout=SYNC)
    expect(card(b, hunter).locator(".msg")).to_have_count(0)


def test_sync_goes_on_across_the_end_of_the_match_and_its_undo(
    live_server, new_page, shot, assert_accessible
):
    a, b, match = two_devices(new_page, live_server)
    a.goto(f"{live_server.url}/matches/{match.pk}/end/")
    a.get_by_label("PRDF won").check()
    a.get_by_role("button", name="End the match").click()
    a.wait_for_url(re.compile(r".*/summary/$"))
    expect(b.locator("#turn")).to_contain_text("Match over: PRDF won.", timeout=SYNC)
    expect(b.locator('.unit button[value^="mark "]')).to_have_count(0)
    shot(b, "ended-board-phone")
    assert_accessible(b, "on the ended board")
    # Player A changes their mind: undo "End match" from their board.
    a.goto(f"{live_server.url}/matches/{match.pk}/")
    expect(a.locator('.unit button[value^="mark "]')).to_have_count(0)
    a.get_by_role("button", name="Undo last").first.click()
    expect(a.locator("#turn")).not_to_contain_text("Match over", timeout=SYNC)
    # B, still polling, gets its buttons back; a tap on B reaches A.
    expect(b.locator("#turn")).not_to_contain_text("Match over", timeout=SYNC)
    card(b, "b-1-2").locator('button[value^="mark "]').click()
    expect(card(a, "b-1-2").locator(".st")).to_have_text("Sturdy", timeout=SYNC)
    # And the other way round.
    card(a, "a-1-2").locator('button[value^="mark "]').click()
    expect(card(b, "a-1-2").locator(".st")).to_have_text("Sturdy", timeout=SYNC)


def test_the_tapping_device_does_not_fetch_its_own_change_again(live_server, new_page):
    page = new_page(TABLET)
    start_match(page, live_server.url)
    answers: list[int] = []
    page.on(
        "response", lambda response: "/poll" in response.url and answers.append(response.status)
    )
    card(page, "b-1-1").locator('button[value^="mark "]').click()
    expect(card(page, "b-1-1").locator(".st")).to_have_text("Sturdy")
    expect(page.locator("#poller")).to_have_attribute("data-seq", "1")
    page.wait_for_timeout(4500)
    assert answers and set(answers) == {204}, answers  # quiet polls only: nothing re-sent


def test_the_first_player_sees_the_opponent_join_without_a_reload(
    live_server, new_page, shot, assert_accessible
):
    a = new_page(TABLET, bypass_csp=True)
    b = new_page(PHONE, bypass_csp=True)
    match = start_match(a, live_server.url)
    players = a.locator("#share .players")
    expect(players).to_contain_text("nobody has joined yet")
    a.evaluate("window.__notReloaded = true")
    match.refresh_from_db()
    b.goto(f"{live_server.url}/matches/join/{match.join_slug}/")
    b.get_by_label("Your name (optional)").fill("Anna")
    b.get_by_role("button", name="Join as Northern Guard").click()
    b.wait_for_url(re.compile(rf".*/matches/{match.pk}/$"))
    expect(players).to_contain_text("Anna", timeout=SYNC)
    expect(players).not_to_contain_text("nobody has joined yet")
    expect(a.locator("#join-url")).to_have_count(0)  # nothing left to share
    assert a.evaluate("window.__notReloaded") is True
    a.locator("#share").scroll_into_view_if_needed()
    shot(a, "opponent-joined-tablet")
    assert_accessible(a, "on the board after the opponent joined")


def test_a_box_drawn_at_once_goes_back_when_the_server_refuses_the_tap(live_server, browser):
    # Its own context: the refused request makes the browser log an error on purpose.
    context = browser.new_context(viewport=TABLET)
    try:
        refused_box_goes_back(context.new_page(), live_server)
    finally:
        context.close()
        wait_for_live_server_requests()


def refused_box_goes_back(page, live_server) -> None:
    start_match(page, live_server.url)
    page.route("**/event", lambda route: route.fulfill(status=404, body="No such match."))
    box = card(page, "b-1-1").locator('button[aria-label="Cross off box 1, Sturdy"]')
    box.click()
    expect(page.locator("#board-status")).to_contain_text("Not saved: No such match.")
    expect(box).to_be_visible()  # the box is a button again, not drawn crossed off
    expect(card(page, "b-1-1").locator(".bx.pend")).to_have_count(0)
    expect(card(page, "b-1-1").locator(".st")).to_have_text("Undamaged")


def test_a_double_tap_whose_second_tap_lands_after_the_answer_is_still_one_tap(
    live_server, new_page
):
    """The answer redraws the card between the two taps of a double tap: the second lands on the
    box just crossed off, now the button that clears it. Within the double-tap window it is the
    same tap again; a moment later it is a correction and clears the box."""
    page = new_page(TABLET)
    match = start_match(page, live_server.url)
    unit = card(page, "b-1-1")
    unit.locator('button[aria-label="Cross off box 1, Sturdy"]').click()
    clear = unit.locator('button[aria-label="Clear box 1, Sturdy"]')
    expect(clear).to_be_visible()  # the server's answer is drawn
    started = page.evaluate("Date.now()")
    clear.click()  # the second tap of the double tap
    assert page.evaluate("Date.now()") - started < 500, "too slow to count as a double tap here"
    page.wait_for_timeout(800)
    match.refresh_from_db()
    assert match.current_state().unit("b-1-1").track.marked == 1
    assert MatchEvent.objects.filter(match=match).count() == 1
    clear.click()  # a deliberate correction, a moment later
    expect(unit.locator('button[aria-label="Cross off box 1, Sturdy"]')).to_be_visible()
    match.refresh_from_db()
    assert match.current_state().unit("b-1-1").track.marked == 0


def test_a_double_tap_on_a_box_crosses_off_one_box(live_server, new_page):
    page = new_page(TABLET)
    match = start_match(page, live_server.url)
    card(page, "b-1-1").locator('button[aria-label="Cross off box 1, Sturdy"]').dblclick()
    expect(card(page, "b-1-1").locator(".st")).to_have_text("Sturdy")
    page.wait_for_timeout(1000)
    match.refresh_from_db()
    assert match.current_state().unit("b-1-1").track.marked == 1
    assert MatchEvent.objects.filter(match=match).count() == 1
