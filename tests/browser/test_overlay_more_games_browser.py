"""The stream overlay of the WWII skirmish and the mecha game in Chromium at 1920x1080 (an OBS
browser source), served by uvicorn with the poll slowed to 10 minutes: opened from the watch
page's link, transparent, nothing scrolls, no controls, and a tap on a player's board shows on it
within a second, by the push. axe-core on it; screenshots over a dark and a light picture."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armies.models import Owner
from matches.mecha.services import mecha_match_start
from matches.ww2.services import ww2_match_start
from tests.browser.test_board_devices_browser import log_in
from tests.browser.test_overlay_browser import assert_fits_a_stream, open_overlay, shots_over_video
from tests.browser.test_push import PUSHED_MS, TABLET, live, slow_poll  # noqa: F401 (a fixture)
from tests.factories import make_user
from tests.mecha_forces import BLUE, make_force
from tests.ww2_factories import make_ww2_force

pytestmark = pytest.mark.django_db(transaction=True)


def board_and_overlay(new_page, base: str, user, match):
    board = new_page(TABLET, bypass_csp=True)
    log_in(board, base, user.username)
    board.goto(f"{base}/matches/{match.pk}/")
    overlay = open_overlay(new_page, base, match)
    live(board, overlay)
    assert_fits_a_stream(overlay)
    return board, overlay


def side_a_unit(overlay, name: str):
    return overlay.locator(".ov-side-a .ov-model").filter(has_text=name)


def test_ww2_a_tap_on_the_board_shows_on_the_overlay_at_once(
    asgi_server,
    new_page,
    shot,
    assert_accessible,
    slow_poll,  # noqa: F811
):
    user = make_user("anna")
    match = ww2_match_start(
        owner=Owner(user.pk, None),
        player="anna",
        mine=make_ww2_force(user, name="Red force"),
        opponent=make_ww2_force(user, name="Blue force"),
        running_gear_counts=True,
    )
    board, overlay = board_and_overlay(new_page, asgi_server, user, match)
    expect(overlay.locator(".ov-turn")).to_have_text("Turn 1")
    expect(side_a_unit(overlay, "T-34 no. 1")).to_have_class("ov-model st-intact")

    board.locator("#unit-a-v1").get_by_role("button", name="Damaged", exact=True).click()
    tank = side_a_unit(overlay, "T-34 no. 1")
    expect(tank).to_have_class("ov-model st-damaged", timeout=PUSHED_MS)
    expect(tank.locator(".ov-state")).to_have_text("Damaged")
    board.locator("#unit-a-i3").get_by_role("button", name="Killed", exact=True).click()
    expect(side_a_unit(overlay, "Belov")).to_have_class("ov-model st-dead", timeout=PUSHED_MS)
    expect(overlay.locator(".ov-side-a .ov-score")).to_contain_text("Losses: 1 soldier")
    expect(overlay.locator("#ov-log li")).to_have_count(2)
    assert_fits_a_stream(overlay)
    assert_accessible(overlay, "on the WWII overlay at 1920x1080")
    shots_over_video(overlay, shot, "ww2-overlay")


def test_mecha_a_tap_on_the_board_shows_on_the_overlay_at_once(
    asgi_server,
    new_page,
    shot,
    assert_accessible,
    slow_poll,  # noqa: F811
):
    user = make_user("anna")
    match = mecha_match_start(
        owner=Owner(user.pk, None),
        player="anna",
        mine=make_force(user, name="Red force"),
        opponent=make_force(user, name="Blue force", army=BLUE),
        ram_formula="half_then_add",
        ram_scope="every_ram",
    )
    board, overlay = board_and_overlay(new_page, asgi_server, user, match)
    expect(overlay.locator(".ov-turn")).to_have_text("Turn 1")
    zaku = side_a_unit(overlay, "Zaku")
    expect(zaku.locator(".ov-state")).to_have_text("Damage taken: 0")

    card = board.locator("#unit-a-1")
    card.locator("summary", has_text="Action Counters, move cost, damage").click()
    card.get_by_label("Damage to add").fill("3")
    card.get_by_role("button", name="Add damage").click()
    expect(zaku.locator(".ov-state")).to_have_text("Damage taken: 3", timeout=PUSHED_MS)
    expect(zaku).to_have_class("ov-model st-hit")
    expect(zaku.locator(".ov-detail")).to_have_text("AC 0 spent, 3 left of 3")
    expect(overlay.locator("#ov-log li")).to_have_count(1)
    assert_fits_a_stream(overlay)
    assert_accessible(overlay, "on the mecha overlay at 1920x1080")
    shots_over_video(overlay, shot, "mecha-overlay")
