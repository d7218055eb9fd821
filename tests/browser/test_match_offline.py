"""The board without a network: the lost connection shows at once, taps wait on the tablet and
go out when it returns, each applied exactly once; a page closed meanwhile loses nothing."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from matches.models import MatchEvent
from tests.browser.conftest import VIEWPORTS
from tests.browser.test_match_browser import card, mark_next_box, start_match

pytestmark = pytest.mark.django_db(transaction=True)


def test_taps_made_offline_are_kept_and_sent_once_when_the_connection_returns(
    live_server, new_page, shot
):
    page = new_page(VIEWPORTS["tablet-portrait"])
    match = start_match(page, live_server.url)
    hunter = "b-1-1"
    page.context.set_offline(True)
    status = page.locator("#board-status")
    expect(status).to_contain_text("Offline")
    mark_next_box(page, hunter)
    mark_next_box(page, hunter)
    expect(status).to_contain_text("2 taps waiting")
    expect(card(page, hunter)).to_have_class(re.compile(r"\bunsaved\b"))
    shot(page, "offline-taps")
    assert MatchEvent.objects.filter(match=match).count() == 0  # nothing reached the server

    page.context.set_offline(False)
    expect(card(page, hunter).locator(".st")).to_have_text("Light", timeout=10_000)
    expect(status).to_be_empty()
    events = list(MatchEvent.objects.filter(match=match).order_by("seq"))
    assert [event.summary.split(":")[0] for event in events] == [
        events[0].summary.split(":")[0]
    ] * 2
    assert len({event.client_key for event in events}) == 2
    match.refresh_from_db()
    assert match.current_state().unit(hunter).track.marked == 2


def test_taps_waiting_on_a_closed_page_go_out_when_the_board_opens_again(live_server, new_page):
    page = new_page(VIEWPORTS["tablet-landscape"])
    match = start_match(page, live_server.url)
    hunter = "b-1-2"
    board_url = page.url
    page.context.set_offline(True)
    expect(page.locator("#board-status")).to_contain_text("Offline")  # the page knows it
    mark_next_box(page, hunter)
    expect(page.locator("#board-status")).to_contain_text("1 tap waiting")
    context = page.context
    page.close()  # the tab is closed before the tap could go out: localStorage keeps it
    # (Closing the tab may hand it back the network for a moment, and the tap may go out then;
    # either way it must be applied exactly once, below.)
    assert MatchEvent.objects.filter(match=match).count() <= 1
    context.set_offline(False)
    again = context.new_page()
    again.goto(board_url)
    expect(card(again, hunter).locator(".st")).to_have_text("Sturdy", timeout=10_000)
    again.reload()
    expect(card(again, hunter).locator(".st")).to_have_text("Sturdy")
    assert MatchEvent.objects.filter(match=match).count() == 1  # sent once, not twice
