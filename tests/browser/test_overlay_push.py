"""The stream overlay follows the watch stream (static/js/push.js), both games, served by uvicorn:
with the poll slowed to 10 minutes, a tap on the board shows on the overlay within a second."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armies.models import Owner
from matches.killteam.services import kt_match_start
from tests.browser.test_board_devices_browser import log_in
from tests.browser.test_match_browser import mark_next_box, start_match
from tests.browser.test_push import PUSHED_MS, TABLET, live, slow_poll  # noqa: F401 (a fixture)
from tests.factories import make_team, make_user

pytestmark = pytest.mark.django_db(transaction=True)

STREAM = {"width": 1920, "height": 1080}


def overlay_of(new_page, base: str, match):
    overlay = new_page(STREAM, bypass_csp=True)
    overlay.goto(f"{base}/matches/watch/{match.watch_slug}/overlay/")
    live(overlay)
    return overlay


def test_hgb_the_overlay_shows_a_tap_at_once(asgi_server, new_page, slow_poll):  # noqa: F811
    board = new_page(TABLET, bypass_csp=True)
    match = start_match(board, asgi_server)
    overlay = overlay_of(new_page, asgi_server, match)
    mark_next_box(board, "b-1-1")
    expect(overlay.locator(".ov-side-b .ov-model").first).to_contain_text(
        "Sturdy", timeout=PUSHED_MS
    )
    expect(overlay.locator("#ov-log li")).to_have_count(1)


def test_kill_team_the_overlay_shows_a_tap_at_once(asgi_server, new_page, slow_poll):  # noqa: F811
    user = make_user("anna")
    red = make_team(user, name="Red team", operatives=2)
    blue = make_team(user, name="Blue team", operatives=2)
    match = kt_match_start(owner=Owner(user.pk, None), player="anna", mine=red, opponent=blue)
    board = new_page(TABLET, bypass_csp=True)
    log_in(board, asgi_server, user.username)
    board.goto(f"{asgi_server}/matches/{match.pk}/")
    overlay = overlay_of(new_page, asgi_server, match)
    board.get_by_role("button", name="Red team rolled 5").click()
    expect(overlay.locator("#ov-log li").first).to_contain_text("rolled 5", timeout=PUSHED_MS)
