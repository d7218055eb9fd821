"""The live push in Chromium, both games: two players' devices (a 820x1180 tablet, a 390x844
phone) and a watcher (1180x820) on one match, served by uvicorn (ASGI). A tap on one device
shows on the others within a second while their poll stands still (slowed to 10 minutes, so
no poll can explain it); when the stream is lost a board (a player's, a watcher's) polls by
itself, and the push comes back."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from armies.models import Owner
from matches.killteam.services import kt_match_start
from matches.push import broker
from tests.browser.test_board_devices_browser import log_in
from tests.browser.test_match_browser import card, join, mark_next_box, start_match
from tests.factories import make_team, make_user

pytestmark = pytest.mark.django_db(transaction=True)

TABLET = {"width": 820, "height": 1180}
PHONE = {"width": 390, "height": 844}
LANDSCAPE = {"width": 1180, "height": 820}
PUSHED_MS = 1000  # a pushed change shows within this
SLOW_POLL = 600


@pytest.fixture
def slow_poll(settings):
    """No poll runs during the test: what a board shows came by the push."""
    settings.BLITZ_POLL_SECONDS = SLOW_POLL
    settings.BLITZ_SAFETY_POLL_SECONDS = SLOW_POLL


def live(*pages) -> None:
    for page in pages:
        expect(page.locator("html")).to_have_attribute("data-push", "live", timeout=5000)


def kill_team_devices(server: str, new_page):
    """A Kill Team match on three devices: anna's tablet, ben's phone (joined) and a watcher."""
    anna = make_user("anna")
    make_user("ben")
    red = make_team(anna, name="Red team", operatives=2)
    blue = make_team(anna, name="Blue team", operatives=2)
    match = kt_match_start(owner=Owner(anna.pk, None), player="anna", mine=red, opponent=blue)
    a, b = new_page(TABLET, bypass_csp=True), new_page(PHONE, bypass_csp=True)
    log_in(a, server, "anna")
    log_in(b, server, "ben")
    a.goto(f"{server}/matches/{match.pk}/")
    b.goto(f"{server}/matches/join/{match.join_slug}/")
    b.get_by_role("button", name=re.compile("^Join as ")).click()
    b.wait_for_url(re.compile(rf".*/matches/{match.pk}/$"))
    watcher = new_page(LANDSCAPE, bypass_csp=True)
    watcher.goto(f"{server}/matches/watch/{match.watch_slug}/")
    return a, b, watcher


def test_hgb_a_tap_shows_on_the_other_devices_at_once(
    asgi_server, new_page, shot, assert_accessible, slow_poll
):
    a = new_page(TABLET, bypass_csp=True)
    b = new_page(PHONE, bypass_csp=True)
    match = start_match(a, asgi_server)
    join(b, asgi_server, match, "Northern Guard")
    watcher = new_page(LANDSCAPE, bypass_csp=True)
    watcher.goto(f"{asgi_server}/matches/watch/{match.watch_slug}/")
    # The first player's board learns that the opponent joined without a poll.
    expect(a.locator("#share")).to_contain_text("Northern Guard", timeout=PUSHED_MS)
    live(a, b, watcher)
    assert a.locator("#poller").get_attribute("hx-trigger") == "every 600s, poll-now"
    warrior = "a-1-1"
    for boxes in (1, 2):
        mark_next_box(a, warrior)
        expect(card(a, warrior).locator(".bx.x")).to_have_count(boxes)  # the tap's answer
        # From the tap's answer on the tablet: the phone and the watcher show it within 1 s.
        for page in (b, watcher):
            expect(card(page, warrior).locator(".bx.x")).to_have_count(boxes, timeout=PUSHED_MS)
    # And the other way: the phone's tap reaches the tablet.
    hunter = "b-1-1"
    mark_next_box(b, hunter)
    expect(card(a, hunter).locator(".st")).to_have_text("Sturdy", timeout=PUSHED_MS)
    expect(card(watcher, hunter).locator(".st")).to_have_text("Sturdy", timeout=PUSHED_MS)
    for page, name in ((a, "tablet"), (b, "phone"), (watcher, "watcher")):
        card(page, warrior).scroll_into_view_if_needed()
        shot(page, f"hgb-pushed-{name}")
        assert_accessible(page, f"HGB board followed by push ({name})")


def test_kill_team_a_tap_shows_on_the_other_devices_at_once(
    asgi_server, new_page, shot, assert_accessible, slow_poll
):
    a, b, watcher = kill_team_devices(asgi_server, new_page)
    expect(a.locator("#share")).to_contain_text("ben", timeout=PUSHED_MS)
    live(a, b, watcher)
    a.locator("#turn").get_by_role("button", name="Red team rolled 5").click()
    for page in (b, watcher):
        expect(page.locator("#ev-1")).to_contain_text("Red team rolled 5", timeout=PUSHED_MS)
    b.locator("#turn").get_by_role("button", name="Blue team rolled 2").click()
    for page in (a, watcher):
        expect(page.locator("#ev-2")).to_contain_text("Blue team rolled 2", timeout=PUSHED_MS)
    expect(b.locator("#turn")).to_contain_text("Decide for anna", timeout=PUSHED_MS)
    for page, name in ((a, "tablet"), (b, "phone"), (watcher, "watcher")):
        shot(page, f"kt-pushed-{name}")
        assert_accessible(page, f"Kill Team board followed by push ({name})")


def test_a_lost_stream_falls_back_to_polling_and_comes_back(asgi_server, new_page, shot):
    a = new_page(TABLET, bypass_csp=True)
    b = new_page(PHONE, bypass_csp=True)
    match = start_match(a, asgi_server)
    join(b, asgi_server, match, "Northern Guard")
    live(a, b)
    # Live: the phone's 2 s poll stands still.
    polls = []
    b.on("request", lambda request: "/poll?" in request.url and polls.append(request.url))
    b.wait_for_timeout(4500)
    assert polls == []
    # The phone's stream is lost and cannot be opened again for now (a proxy in the way
    # answers for it with nothing).
    b.route(re.compile(r".*/stream$"), lambda route: route.fulfill(status=204, body=""))
    broker().end_all()  # the server ends every stream (as when its notifications stop)
    expect(b.locator("html")).to_have_attribute("data-push", "polling", timeout=5000)
    # The phone still follows, by its poll (every 2 s).
    mark_next_box(a, "a-1-1")
    expect(card(b, "a-1-1").locator(".bx.x")).to_have_count(1, timeout=4000)
    expect(b.locator("html")).to_have_attribute("data-push", "polling")
    assert polls, "the phone polls again"
    shot(b, "polling-fallback")
    # The stream can be opened again: the phone finds it (back-off with jitter) and is live.
    b.unroute(re.compile(r".*/stream$"))
    expect(b.locator("html")).to_have_attribute("data-push", "live", timeout=15000)
    live(a)
    mark_next_box(a, "a-1-1")
    expect(card(b, "a-1-1").locator(".bx.x")).to_have_count(2, timeout=PUSHED_MS)


def test_kill_team_a_lost_stream_falls_back_to_polling_and_comes_back(asgi_server, new_page, shot):
    """A player's and a watcher's Kill Team boards lose their streams: both poll, follow the
    other player's taps by their poll, and go live again when the stream can be opened."""
    a, b, watcher = kill_team_devices(asgi_server, new_page)
    live(a, b, watcher)
    # The phone's and the watcher's streams are lost and cannot be opened again for now.
    stream = re.compile(r".*/stream$")
    for page in (b, watcher):
        page.route(stream, lambda route: route.fulfill(status=204, body=""))
    broker().end_all()
    for page in (b, watcher):
        expect(page.locator("html")).to_have_attribute("data-push", "polling", timeout=5000)
    # They still follow the tablet, by their poll (every 2 s).
    live(a)  # the tablet's own stream opened again
    a.locator("#turn").get_by_role("button", name="Red team rolled 5").click()
    for page in (b, watcher):
        expect(page.locator("#ev-1")).to_contain_text("Red team rolled 5", timeout=4000)
        expect(page.locator("html")).to_have_attribute("data-push", "polling")
    shot(watcher, "kt-watcher-polling-fallback")
    # The streams can be opened again: both find them (back-off with jitter) and are live.
    for page in (b, watcher):
        page.unroute(stream)
    for page in (b, watcher):
        expect(page.locator("html")).to_have_attribute("data-push", "live", timeout=15000)
    b.locator("#turn").get_by_role("button", name="Blue team rolled 2").click()
    for page in (a, watcher):
        expect(page.locator("#ev-2")).to_contain_text("Blue team rolled 2", timeout=PUSHED_MS)
