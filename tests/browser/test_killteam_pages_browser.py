"""The Kill Team board, Shoot helper and summary in Chromium: a wound tapped offline waits on the
tablet, shows at once, and goes out once when the connection returns (the other device sees
it); and every page at 820x1180, 1180x820 and on a phone, with axe-core, touch targets and no
sideways scrolling. Every figure is made up."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

from armies.models import Owner
from matches.killteam import ops, services
from matches.models import Match, MatchEvent
from tests.browser.conftest import PHONE
from tests.browser.test_killteam_browser import assert_no_sideways_scroll, assert_tappable
from tests.browser.test_killteam_match_browser import BOARD_TARGETS, SYNC, TABLET, card
from tests.factories import PASSWORD, make_team, make_user

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"tablet": TABLET, "landscape": {"width": 1180, "height": 820}, "phone": PHONE}


def start(user) -> Match:
    """Red team (two troopers, a frag and a krak grenade) against Blue team, started by anna."""
    red = make_team(user, name="Red team", operatives=2, grenades=(1, 1))
    blue = make_team(user, name="Blue team", operatives=2)
    return services.kt_match_start(
        owner=Owner(user.pk, None), player="anna", mine=red, opponent=blue
    )


def tap(match: Match, *words: str) -> None:
    """Taps made by anna's other device (seat A tracks both sides until someone joins)."""
    for op in words:
        match.refresh_from_db()
        applied = services.kt_apply(
            match_id=match.pk,
            side="a",
            token=match.token("a"),
            client_key=uuid.uuid4().hex,
            request=ops.parse_op(op),
        )
        assert not applied.error, applied.error


def logged_in(new_page, base: str, user, viewport: dict):
    page = new_page(viewport, bypass_csp=True)
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.click("button:has-text('Log in')")
    page.wait_for_url(re.compile(r".*/$"))
    return page


def test_a_wound_tapped_offline_is_kept_and_sent_once_when_the_connection_returns(
    live_server, new_page, shot
):
    user = make_user("anna")
    match = start(user)
    page = logged_in(new_page, live_server.url, user, TABLET)
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    other = new_page(TABLET)
    other.goto(f"{live_server.url}/matches/watch/{match.watch_slug}/")
    expect(card(other, "b-1").locator(".kt-w")).to_contain_text("8 of 8 wounds")

    page.context.set_offline(True)
    status = page.locator("#board-status")
    expect(status).to_contain_text("Offline")
    wound_off = card(page, "b-1").get_by_role("button", name=re.compile("−1 wound"))
    wound_off.click()
    expect(status).to_contain_text("1 tap waiting")
    # The count shows the tap at once, and the next tap names what it now shows.
    expect(card(page, "b-1").locator(".kt-w")).to_contain_text("7 of 8 wounds")
    expect(wound_off).to_have_attribute("value", "wound b-1 7")
    wound_off.click()
    expect(status).to_contain_text("2 taps waiting")
    expect(card(page, "b-1").locator(".kt-w")).to_contain_text("6 of 8 wounds")
    expect(card(page, "b-1")).to_have_class(re.compile(r"\bunsaved\b"))
    shot(page, "kt-offline-taps")
    assert MatchEvent.objects.filter(match=match).count() == 0  # nothing reached the server

    page.context.set_offline(False)
    expect(status).to_be_empty(timeout=10_000)
    expect(card(page, "b-1")).not_to_have_class(re.compile(r"\bunsaved\b"))
    expect(card(page, "b-1").locator(".kt-w")).to_contain_text("6 of 8 wounds")
    expect(card(other, "b-1").locator(".kt-w")).to_contain_text("6 of 8 wounds", timeout=SYNC)
    events = list(MatchEvent.objects.filter(match=match).order_by("seq"))
    assert [(e.refused, e.summary.split(": ")[1]) for e in events] == [
        (False, "7 of 8 wounds left, wounded."),
        (False, "6 of 8 wounds left, wounded."),
    ]  # each tap applied once, none refused as stale
    assert len({event.client_key for event in events}) == 2
    match.refresh_from_db()
    assert services.current_state(match).operative("b-1").current == 6


@pytest.mark.parametrize("size", SIZES.keys())
def test_the_kill_team_pages_at_every_size(live_server, new_page, shot, assert_accessible, size):
    base = live_server.url
    user = make_user("anna")
    match = start(user)
    tap(match, "roll a 5", "roll b 2", "initiative a a", "pass a", "pass b")
    tap(match, "activate a-1 engage", "act a-1 dash 1", "act a-1 dash 1")  # a warning
    tap(match, *(f"wound b-1 {seen}" for seen in (8, 7, 6, 5, 4)), "stun b-2")
    tap(match, "wound a-2 8", "undo last")
    page = logged_in(new_page, base, user, SIZES[size])

    def check(what: str) -> None:
        assert_accessible(page, what)
        assert_tappable(page, BOARD_TARGETS)
        assert_no_sideways_scroll(page)

    page.goto(f"{base}/matches/{match.pk}/")
    expect(card(page, "b-1").locator(".st")).to_have_text("Injured")
    check(f"Kill Team board ({size})")
    shot(page, f"kt-board-{size}", full_page=True)

    page.get_by_role("link", name="Shoot…").click()
    expect(page.locator("#shooter")).to_have_value("a-1")
    page.locator("#weapon").select_option(value="Frag grenade")
    page.locator("#target").select_option(value="b-2")
    page.get_by_role("button", name="Show the odds").click()
    page.get_by_label("Attack dice (4)").fill("6 4 2 1")
    page.get_by_label("Defence dice").fill("5 3 1")
    page.get_by_role("button", name="Read the dice").click()
    expect(page.get_by_role("button", name="Apply the damage")).to_be_visible()
    check(f"Shoot helper with a grenade ({size})")
    shot(page, f"kt-shoot-{size}", full_page=True)
    page.get_by_role("button", name="Apply the damage").click()
    expect(page.locator("#turn")).to_contain_text("grenades Frag grenade 1/1")

    tap(match, "end-battle a")
    page.get_by_role("link", name="Summary and the whole log").click()
    expect(page.locator(".lead")).to_have_text("Red team won in turning point 1.")
    check(f"Kill Team summary ({size})")
    shot(page, f"kt-summary-{size}", full_page=True)
