"""Both games' boards on two devices (a 820x1180 tablet and a 390x844 phone): an undo of the
other player's change asks first and then reaches the other device; each device is given its
own side's rolls and activations, the other side's behind "… for <name>"; a double tap on
"Used" is one tap; and a tap whose connection resets raises no page error while it is retried."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from armies.models import Owner
from matches.killteam import ops
from matches.killteam import services as kt_services
from matches.models import Match, MatchEvent
from tests.browser.conftest import AXE, PHONE
from tests.browser.test_match_browser import SYNC_SECONDS, card, join, start_match
from tests.factories import PASSWORD, make_roster, make_team, make_user

pytestmark = pytest.mark.django_db(transaction=True)

TABLET = {"width": 820, "height": 1180}
SYNC = SYNC_SECONDS * 1000 + 2000
DEVICES = [(TABLET, PHONE), (PHONE, TABLET)]  # the first player's device, the opponent's


def hgb_devices(new_page, live_server, first: dict, second: dict):
    a = new_page(first, bypass_csp=True)
    b = new_page(second, bypass_csp=True)
    match = start_match(a, live_server.url)
    join(b, live_server.url, match, "Northern Guard")
    a.reload()
    return a, b, match


def name_mismatches(page) -> list[str]:
    """axe-core's label-content-name-mismatch (an experimental rule, off in a default run): a
    control whose accessible name does not contain its visible text."""
    page.add_script_tag(path=str(AXE))
    return page.evaluate(
        """async () => (await axe.run(document, {runOnly: ['label-content-name-mismatch']}))
            .violations.flatMap(v => v.nodes.map(n => n.html))"""
    )


def refused(match: Match) -> int:
    return MatchEvent.objects.filter(match=match, refused=True).count()


@pytest.mark.parametrize(("first", "second"), DEVICES, ids=["tablet-phone", "phone-tablet"])
def test_hgb_each_device_drives_its_side_and_undoing_the_others_change_asks_first(
    live_server, new_page, shot, assert_accessible, first, second
):
    a, b, match = hgb_devices(new_page, live_server, first, second)
    size = "tablet" if first is TABLET else "phone"
    # Each device rolls for its own side in one tap; the other side's dice sit behind a question.
    a_turn, b_turn = a.locator("#turn"), b.locator("#turn")
    expect(a_turn.get_by_role("button", name="PRDF rolled 5")).to_be_visible()
    expect(a_turn.get_by_role("button", name="Northern Guard rolled 2")).to_be_hidden()
    expect(a_turn.get_by_text(re.compile("^Roll for "))).to_be_visible()
    expect(b_turn.get_by_role("button", name="PRDF rolled 5")).to_be_hidden()
    assert_accessible(a, f"with the other side's rolls behind a question ({size})")
    shot(a, f"own-rolls-{size}")
    a_turn.get_by_text(re.compile("^Roll for ")).click()  # opened: the dice are there
    expect(a_turn.get_by_role("button", name="Northern Guard rolled 2")).to_be_visible()
    assert_accessible(a, f"with the other side's rolls opened ({size})")
    shot(a, f"other-rolls-open-{size}")
    a_turn.get_by_text(re.compile("^Roll for ")).click()
    a_turn.get_by_role("button", name="PRDF rolled 5").click()
    b_turn.get_by_role("button", name="Northern Guard rolled 2", exact=True).click()
    expect(a_turn).to_contain_text("won the initiative", timeout=SYNC)
    expect(b_turn.get_by_text(re.compile("^Choose for "))).to_be_visible(timeout=SYNC)
    a_turn.get_by_role("button", name="Northern Guard goes first").click()
    expect(b_turn.get_by_role("button", name=re.compile("Activate CG1"))).to_be_visible(
        timeout=SYNC
    )
    expect(a_turn.get_by_text(re.compile("^Activate for "))).to_be_visible(timeout=SYNC)
    # A shared tablet can still act for the other player: one tap opens, one does it.
    a_turn.get_by_text(re.compile("^Activate for ")).click()
    a_turn.get_by_role("button", name=re.compile("Activate CG1")).click()
    expect(b.locator("#group-b-1 .gst")).to_have_text("Activating", timeout=SYNC)

    # B crosses off a box; A's "Undo" of it asks first, and then B's card comes back.
    card(b, "b-1-1").locator('button[value^="mark "]').click()
    expect(card(a, "b-1-1").locator(".st")).to_have_text("Sturdy", timeout=SYNC)
    seq = MatchEvent.objects.filter(match=match).latest("seq").seq
    line = a.locator(f"#ev-{seq}")
    expect(line.get_by_role("button", name="Undo", exact=True)).to_have_count(0)
    line.get_by_text("Undo…").click()
    expect(line).to_contain_text(f"change #{seq}?")
    assert_accessible(a, f"with an undo that asks first ({size})")
    line.scroll_into_view_if_needed()
    shot(a, f"undo-asks-{size}")
    line.get_by_role("button", name=f"Yes, undo #{seq}").click()
    expect(card(b, "b-1-1").locator(".st")).to_have_text("Undamaged", timeout=SYNC)
    # B's own last change stays one tap.
    b_bar = b.locator(".board-bar")
    expect(b_bar.get_by_role("button", name="Undo last")).to_be_hidden()
    b_bar.get_by_text("Undo last…").click()  # the latest change is jan's: the bar asks
    expect(b_bar.get_by_role("button", name=re.compile(r"^Yes, undo #\d+$"))).to_be_visible()
    assert_accessible(b, "with the bar's undo asking first")
    shot(b, f"bar-asks-{'phone' if second is PHONE else 'tablet'}")
    b_bar.get_by_text("Undo last…").click()
    card(b, "b-1-2").locator('button[value^="mark "]').click()
    b.locator(".board-bar").get_by_role("button", name="Undo last").click()
    expect(card(b, "b-1-2").locator(".st")).to_have_text("Undamaged", timeout=SYNC)
    shot(b, f"own-undo-{size}")
    assert refused(match) == 0


@pytest.mark.parametrize("viewport", [TABLET, PHONE], ids=["tablet", "phone"])
def test_hgb_a_double_tap_on_used_is_one_tap(live_server, new_page, viewport):
    page = new_page(viewport, bypass_csp=True)
    match = start_match(page, live_server.url)
    for unit in ("a-1-1", "b-1-1"):
        used = card(page, unit).get_by_role("button", name="Used", exact=True)
        used.dblclick()
        expect(card(page, unit)).to_have_class(re.compile(r"\bused\b"))  # folded on a phone
    page_errors = MatchEvent.objects.filter(match=match)
    assert [(e.kind, e.refused) for e in page_errors] == [("set_used", False)] * 2


@pytest.mark.parametrize("viewport", [TABLET, PHONE], ids=["tablet", "phone"])
def test_a_tap_whose_connection_resets_raises_no_page_error(live_server, browser, viewport):
    # Its own context: htmx logs the reset on the console on purpose; page errors are watched.
    context = browser.new_context(viewport=viewport)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        match = start_match(page, live_server.url)
        dropped: list[str] = []

        def reset_first(route):
            if not dropped:
                dropped.append(route.request.post_data or "")
                route.abort("connectionreset")
            else:
                route.continue_()

        page.route("**/event", reset_first)
        card(page, "b-1-1").locator('button[value^="mark "]').click()
        expect(card(page, "b-1-1").locator(".st")).to_have_text("Sturdy", timeout=6000)
        expect(page.locator("#board-status")).to_have_text("")
        assert dropped and errors == []
        assert MatchEvent.objects.filter(match=match).count() == 1
    finally:
        context.close()


# --- Kill Team ------------------------------------------------------------------------------------


def log_in(page, base: str, username: str) -> None:
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button:has-text('Log in')")
    page.wait_for_url(re.compile(r".*/$"))


@pytest.mark.parametrize(("first", "second"), DEVICES, ids=["tablet-phone", "phone-tablet"])
def test_kill_team_each_device_drives_its_side_and_undoing_the_others_change_asks_first(
    live_server, new_page, shot, assert_accessible, first, second
):
    base = live_server.url
    anna = make_user("anna")
    make_user("ben")
    red = make_team(anna, name="Red team", operatives=2)
    blue = make_team(anna, name="Blue team", operatives=2)
    match = kt_services.kt_match_start(
        owner=Owner(anna.pk, None), player="anna", mine=red, opponent=blue
    )
    a, b = new_page(first, bypass_csp=True), new_page(second, bypass_csp=True)
    log_in(a, base, "anna")
    log_in(b, base, "ben")
    b.goto(f"{base}/matches/join/{match.join_slug}/")
    b.get_by_role("button", name=re.compile("^Join as ")).click()
    b.wait_for_url(re.compile(rf".*/matches/{match.pk}/$"))
    a.goto(f"{base}/matches/{match.pk}/")
    size = "tablet" if first is TABLET else "phone"
    a_turn, b_turn = a.locator("#turn"), b.locator("#turn")
    expect(a_turn.get_by_role("button", name="Red team rolled 5")).to_be_visible()
    expect(a_turn.get_by_role("button", name="Blue team rolled 2")).to_be_hidden()
    expect(a_turn.get_by_text("Roll for ben…")).to_be_visible()
    assert_accessible(a, f"Kill Team board with the other side's rolls behind a question ({size})")
    shot(a, f"kt-own-rolls-{size}")
    a_turn.get_by_role("button", name="Red team rolled 5").click()
    b_turn.get_by_role("button", name="Blue team rolled 2").click()
    expect(b_turn.get_by_text("Decide for anna…")).to_be_visible(timeout=SYNC)
    # B's roll is B's change: A's undo of it asks first.
    line = a.locator("#ev-2")
    expect(line).to_contain_text("Blue team rolled 2", timeout=SYNC)
    expect(line.get_by_role("button", name="Undo", exact=True)).to_have_count(0)
    line.get_by_text("Undo…").click()
    expect(line).to_contain_text("Undo ben's change #2?")
    assert_accessible(a, f"Kill Team board with an undo that asks first ({size})")
    line.scroll_into_view_if_needed()
    shot(a, f"kt-undo-asks-{size}")
    line.get_by_role("button", name="Yes, undo #2").click()
    expect(b_turn.get_by_role("button", name="Blue team rolled 2")).to_be_visible(timeout=SYNC)
    assert refused(match) == 0


@pytest.mark.parametrize("viewport", [TABLET, PHONE], ids=["tablet", "phone"])
def test_buttons_names_contain_their_visible_text(live_server, new_page, viewport):
    """The Kill Team "−1"/"+1" wound buttons and Heavy Gear Blitz's "Remove group"."""
    base = live_server.url
    anna = make_user("anna")
    red = make_team(anna, name="Red team", operatives=2)
    blue = make_team(anna, name="Blue team", operatives=2)
    match = kt_services.kt_match_start(
        owner=Owner(anna.pk, None), player="anna", mine=red, opponent=blue
    )
    kt_services.kt_apply(
        match_id=match.pk, side="a", token=match.a_token, client_key="w" * 20,
        request=ops.parse_op("wound b-1 8"),
    )  # fmt: skip
    roster = make_roster(anna)
    page = new_page(viewport, bypass_csp=True)
    log_in(page, base, "anna")
    page.goto(f"{base}/matches/{match.pk}/")
    expect(page.get_by_role("button", name="+1 wound: Test trooper")).to_be_visible()
    assert name_mismatches(page) == []
    page.goto(f"{base}/armies/{roster.pk}/")
    expect(page.get_by_role("button", name=re.compile("^Remove group")).first).to_be_attached()
    assert name_mismatches(page) == []
