"""The joined notice on every game's board, in Chromium on two tablets (820x1180): player A starts
a match and shares the join link, player B joins on their own device under a name, and A's board
(not reloaded) names B within the usual poll, where it said "nobody has joined yet"."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from matches.models import Match
from tests.browser.test_match_browser import SYNC_SECONDS, start_match
from tests.factories import PASSWORD, make_team, make_user

pytestmark = pytest.mark.django_db(transaction=True)

TABLET = {"width": 820, "height": 1180}
SYNC = SYNC_SECONDS * 1000


def b_joins_with_the_link(a, b, match: Match, side: str) -> None:
    """A's board still waits for an opponent; B opens the join link A shares and joins as Robin."""
    players = a.locator("#share .players")
    expect(players).to_contain_text("nobody has joined yet")
    b.goto(a.locator("#join-url").input_value())
    b.get_by_label("Your name").fill("Robin")
    b.get_by_role("button", name=f"Join as {side}").click()
    b.wait_for_url(re.compile(rf".*/matches/{match.pk}/$"))
    expect(b.locator("#share .players")).to_contain_text("Robin (you)")


def test_the_heavy_gear_board_names_the_opponent_once_they_join(live_server, new_page, shot):
    a = new_page(TABLET, bypass_csp=True)
    b = new_page(TABLET, bypass_csp=True)
    match = start_match(a, live_server.url)
    b_joins_with_the_link(a, b, match, "Northern Guard")
    players = a.locator("#share .players")
    expect(players).to_contain_text("Northern Guard: Robin", timeout=SYNC)
    expect(players).not_to_contain_text("nobody has joined yet")
    expect(a.locator("#join-url")).to_have_count(0)  # the link is spent: A no longer offers it
    expect(a.locator("#side-b")).to_contain_text("Robin")  # the side's header names B too
    shot(a, "hgb-joined-notice", full_page=True)


def test_the_kill_team_board_names_the_opponent_once_they_join(live_server, new_page, shot):
    user = make_user("anna")
    make_team(user, name="Red team", operatives=2)
    make_team(user, name="Blue team", operatives=2)
    a = new_page(TABLET, bypass_csp=True)
    b = new_page(TABLET, bypass_csp=True)
    a.goto(f"{live_server.url}/accounts/login/")
    a.fill("#id_username", user.username)
    a.fill("#id_password", PASSWORD)
    a.click("button:has-text('Log in')")
    a.goto(f"{live_server.url}/matches/new/killteam/")
    a.get_by_label("Your kill team", exact=True).select_option(label="Red team")
    a.get_by_label("Your opponent's kill team").select_option(label="Blue team")
    a.get_by_role("button", name="Start the match").click()
    a.wait_for_url(re.compile(r".*/matches/\d+/$"))
    match = Match.objects.latest("pk")
    b_joins_with_the_link(a, b, match, "Blue team")
    players = a.locator("#share .players")
    expect(players).to_contain_text("Blue team: Robin", timeout=SYNC)
    expect(players).not_to_contain_text("nobody has joined yet")
    expect(a.locator("#join-url")).to_have_count(0)
    # Taps still reach the other device after the players box was swapped in.
    a.get_by_role("button", name="Red team rolled 5").click()
    expect(b.locator("#turn")).to_contain_text("rolled 5", timeout=SYNC)
    shot(a, "kt-joined-notice", full_page=True)
