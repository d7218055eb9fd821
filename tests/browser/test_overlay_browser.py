"""The stream overlay in Chromium at 1920x1080 (an OBS browser source), for both games: its
background is transparent, nothing scrolls, a tap on a player's board shows on it (within the
poll, or at once once the stream pushes it), axe-core finds nothing. Screenshots over a dark and a
light background."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armies.models import Owner
from matches.killteam.services import kt_match_start
from tests.browser.test_match_browser import SYNC_SECONDS, mark_next_box, start_match
from tests.factories import PASSWORD, make_team, make_user

pytestmark = pytest.mark.django_db(transaction=True)

STREAM = {"width": 1920, "height": 1080}
TABLET = {"width": 820, "height": 1180}
SYNC = SYNC_SECONDS * 1000


def open_overlay(new_page, base: str, match):
    overlay = new_page(STREAM, bypass_csp=True)
    overlay.goto(f"{base}/matches/watch/{match.watch_slug}/")
    overlay.get_by_role("link", name="Open the stream overlay").click()
    overlay.wait_for_url(f"**/matches/watch/{match.watch_slug}/overlay/")
    return overlay


def assert_fits_a_stream(overlay) -> None:
    """Transparent (the video shows through), no scrollbars, no controls."""
    seen = overlay.evaluate(
        """() => ({
            html: getComputedStyle(document.documentElement).backgroundColor,
            body: getComputedStyle(document.body).backgroundColor,
            wide: document.documentElement.scrollWidth, high: document.documentElement.scrollHeight,
            controls: document.querySelectorAll('button, input, select, textarea, form').length,
        })"""
    )
    assert seen["html"] == seen["body"] == "rgba(0, 0, 0, 0)", seen
    assert seen["wide"] <= STREAM["width"] and seen["high"] <= STREAM["height"], seen
    assert seen["controls"] == 0, seen


def shots_over_video(overlay, shot, name: str) -> None:
    """The overlay over a dark and a light picture (the page itself stays transparent)."""
    for backdrop in ("#101418", "#f2efe6"):
        overlay.evaluate("c => { document.documentElement.style.background = c }", backdrop)
        shot(overlay, f"{name}-{backdrop.strip('#')}")
    overlay.evaluate("() => { document.documentElement.style.background = '' }")
    shot(overlay, f"{name}-transparent", omit_background=True)


def test_the_heavy_gear_overlay_follows_the_board(live_server, new_page, shot, assert_accessible):
    board = new_page(TABLET, bypass_csp=True)
    match = start_match(board, live_server.url)
    # The players box copies the watch link (the watch page offers the overlay).
    board.locator('[data-copy="#watch-url"]').click()
    expect(board.locator('[data-copy="#watch-url"]')).to_have_text("Copied ✓")
    overlay = open_overlay(new_page, live_server.url, match)
    expect(overlay.locator(".ov-turn")).to_contain_text("Round 1 · Initiative")
    assert_fits_a_stream(overlay)
    assert_accessible(overlay, "on the Heavy Gear Blitz overlay at 1920x1080")

    hurt = "b-1-1"
    mark_next_box(board, hurt)
    mark_next_box(board, hurt)
    expect(overlay.locator(".ov-side-b .ov-model").first).to_contain_text("Light", timeout=SYNC)
    expect(overlay.locator("#ov-log li")).to_have_count(2)
    expect(overlay.locator("#ov-log li").first).to_contain_text("#2")
    assert_fits_a_stream(overlay)
    assert_accessible(overlay, "on the Heavy Gear Blitz overlay after two taps")
    shots_over_video(overlay, shot, "hgb-overlay")


def test_the_kill_team_overlay_follows_the_board(live_server, new_page, shot, assert_accessible):
    base = live_server.url
    user = make_user("anna")
    red = make_team(user, name="Red team", operatives=3)
    blue = make_team(user, name="Blue team", operatives=3)
    match = kt_match_start(owner=Owner(user.pk, None), player="anna", mine=red, opponent=blue)
    board = new_page(TABLET, bypass_csp=True)
    board.goto(f"{base}/accounts/login/")
    board.fill("#id_username", user.username)
    board.fill("#id_password", PASSWORD)
    board.click("button:has-text('Log in')")
    board.goto(f"{base}/matches/{match.pk}/")
    overlay = open_overlay(new_page, base, match)
    expect(overlay.locator(".ov-turn")).to_contain_text("Turning point 1 · Initiative")
    expect(overlay.locator(".ov-turn")).to_contain_text("Initiative: not decided yet")
    assert_fits_a_stream(overlay)

    board.get_by_role("button", name="Red team rolled 5").click()
    board.get_by_role("button", name="Blue team rolled 2").click()  # A tracks both sides
    board.get_by_role("button", name="Red team decides: Red team has the initiative").click()
    expect(overlay.locator(".ov-turn")).to_contain_text("Initiative: Red team", timeout=SYNC)
    expect(overlay.locator(".ov-side-a .ov-score")).to_contain_text("CP", timeout=SYNC)
    expect(overlay.locator("#ov-log li")).to_have_count(3)
    assert_fits_a_stream(overlay)
    assert_accessible(overlay, "on the Kill Team overlay at 1920x1080")
    shots_over_video(overlay, shot, "kt-overlay")
