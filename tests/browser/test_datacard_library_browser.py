"""The datacard library never loses a figure, in Chromium at phone, portrait and landscape tablet
sizes: delete a pack and undo it, refusals in view and focused where the player tapped, the
library's rows and the cards' weapon tables fit the screen. axe-core on each page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

import rules.hgb
from tests.browser.conftest import PHONE
from tests.factories import PASSWORD, make_big_roster, make_roster, make_user

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {
    "phone": PHONE,
    "tablet": {"width": 820, "height": 1180},
    "landscape": {"width": 1180, "height": 820},
}
IMPORTED_BY = "jan (imported from a file by ben)"


def log_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button:has-text('Log in')")
    expect(page.locator("#id_username")).to_have_count(0)


def pack_of(user, *, name: str = "Jan's cards", entered_by: str = "", figures=None):
    from armies.hgb.packs import data_fingerprint
    from armies.models import DataPack

    return DataPack.objects.create(
        owner=user,
        name=name,
        entered_by=entered_by or user.username,
        figures=figures or {},
        data_fingerprint=data_fingerprint(),
    )


def in_view(page, selector: str) -> None:
    """The element is inside the viewport (not behind a scroll)."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None, f"{selector} is not shown"
    assert 0 <= box["y"] and box["y"] + box["height"] <= size["height"], f"{selector} at {box}"


def in_view_and_focused(page, selector: str) -> None:
    """The element is inside the viewport and holds the focus."""
    in_view(page, selector)
    assert page.evaluate(f"document.activeElement === document.querySelector('{selector}')")


@pytest.mark.parametrize("size", SIZES.keys())
def test_delete_a_pack_and_undo_it(live_server, new_page, shot, assert_accessible, size):
    user = make_user(f"jan-{size}")
    pack_of(user, figures={"models": {"jaguar": {"armor": 7}}})
    page = new_page(SIZES[size], bypass_csp=True)
    log_in(page, live_server.url, user.username)

    page.goto(f"{live_server.url}/datacards/")
    page.get_by_role("link", name="Delete this pack…").click()
    expect(page.locator("h1")).to_have_text("Delete the datacard pack “Jan's cards”?")
    shot(page, f"pack-delete-confirm-{size}", full_page=True)
    assert_accessible(page, "delete a pack: the question")
    page.get_by_role("button", name="Delete the pack").click()

    undo = page.get_by_role("button", name="Undo: restore “Jan's cards”")
    expect(undo).to_be_in_viewport()
    expect(page.get_by_role("heading", name="Recently deleted")).to_be_visible()
    shot(page, f"pack-deleted-undo-{size}", full_page=True)
    assert_accessible(page, "library after deleting a pack")
    undo.click()

    expect(
        page.get_by_text("Restored the datacard pack “Jan's cards” with all its figures.")
    ).to_be_visible()
    expect(page.get_by_role("heading", name="Recently deleted")).to_have_count(0)
    row = page.locator(".figures-table tr", has_text="Jaguar")
    expect(row).to_contain_text("7")


@pytest.mark.parametrize("size", SIZES.keys())
def test_turn_a_share_link_off_asks_first(live_server, new_page, assert_accessible, size):
    user = make_user(f"sharer-{size}")
    pack_of(user)
    page = new_page(SIZES[size], bypass_csp=True)
    log_in(page, live_server.url, user.username)
    page.goto(f"{live_server.url}/datacards/")
    page.get_by_role("button", name="Make a share link").click()
    page.get_by_role("link", name="Turn off the share link").click()
    assert_accessible(page, "turn a pack's share link off: the question")
    page.get_by_role("link", name="Keep it as it is").click()
    expect(page.get_by_role("link", name="Turn off the share link")).to_be_visible()
    page.get_by_role("link", name="Turn off the share link").click()
    page.get_by_role("button", name="Turn the link off").click()
    expect(page.get_by_role("button", name="Make a share link")).to_be_visible()


@pytest.mark.parametrize("size", SIZES.keys())
def test_add_group_at_the_bound_is_refused_in_view_and_focused(live_server, new_page, shot, size):
    user = make_user(f"big-{size}")
    roster = make_big_roster(user, rules.hgb.MAX_GROUPS)
    page = new_page(SIZES[size])
    log_in(page, live_server.url, user.username)
    page.goto(f"{live_server.url}/armies/{roster.pk}/")
    button = page.get_by_role("button", name="Add group")
    button.scroll_into_view_if_needed()
    button.click()
    refusal = "#add-group .flash-error"
    # The editor of a roster at the bound is large: allow a busy machine time to answer.
    expect(page.locator(refusal)).to_contain_text("already has 20 combat groups", timeout=20_000)
    in_view_and_focused(page, refusal)
    shot(page, f"add-group-refused-{size}")


@pytest.mark.parametrize("size", SIZES.keys())
def test_the_21st_pack_is_refused_in_view_and_focused(live_server, new_page, size):
    user = make_user(f"many-{size}")
    for number in range(20):
        pack_of(user, name=f"Pack {number + 1}")
    page = new_page(SIZES[size])
    log_in(page, live_server.url, user.username)
    page.goto(f"{live_server.url}/datacards/")
    page.get_by_label("Pack name").fill("The 21st")
    page.get_by_role("button", name="Start the pack").click()
    expect(page.locator(".form-errors")).to_contain_text("You have 20 packs")
    in_view_and_focused(page, ".form-errors")


@pytest.mark.parametrize("size", SIZES.keys())
def test_a_refused_figure_is_said_beside_its_field_which_takes_focus(
    live_server, new_page, shot, assert_accessible, size
):
    user = make_user(f"typo-{size}")
    pack = pack_of(user)
    page = new_page(SIZES[size], bypass_csp=True)
    log_in(page, live_server.url, user.username)
    page.goto(f"{live_server.url}/datacards/{pack.pk}/weapons/LAC")
    accuracy = page.get_by_label("Accuracy", exact=True)
    assert accuracy.get_attribute("inputmode") is None  # a keyboard with a minus sign
    accuracy.fill("-1")
    page.get_by_label("Range Short (in.)", exact=True).fill("six")  # the browser lets it through
    page.click("button:has-text('Save figures')")
    expect(page.get_by_text("Range Short (in.) must be a whole number, like 7.")).to_be_visible()
    in_view_and_focused(page, "#id_ranges__short")
    in_view(page, ".field.has-error .field-error")  # its sentence too, under it
    shot(page, f"figure-refused-{size}")
    assert_accessible(page, "figures form with a refused figure")
    page.get_by_label("Range Short (in.)", exact=True).fill("6")
    page.click("button:has-text('Save figures')")
    expect(page.locator(".figures-table tr", has_text="LAC")).to_contain_text("-1")


@pytest.mark.parametrize("size", SIZES.keys())
def test_the_library_rows_and_the_cards_fit_the_screen(
    live_server, new_page, shot, assert_accessible, size
):
    """Every row's Edit button is on screen without a sideways scroll; on the roster's cards each
    weapon table fits its card, and an "entered by" mark takes at most two lines."""
    user = make_user(f"fit-{size}")
    figures = {"weapons": {"MBZK": {"accuracy": -1, "dm": 9}, "HAC": {"dm": 8, "accuracy": 0}}}
    pack = pack_of(user, entered_by=IMPORTED_BY, figures=figures)
    roster = make_roster(user, preset="north_starter")
    page = new_page(SIZES[size], bypass_csp=True)
    log_in(page, live_server.url, user.username)

    page.goto(f"{live_server.url}/datacards/?pack={pack.pk}")
    shot(page, f"library-{size}", full_page=True)
    page.locator("#dc-weapons").scroll_into_view_if_needed()
    shot(page, f"library-weapons-{size}")
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    width = SIZES[size]["width"]
    outside = page.evaluate(
        """w => [...document.querySelectorAll('.figures-table tbody tr')]
            .map(r => [r.querySelector('th').textContent.trim(), r.getBoundingClientRect().right,
                       (r.querySelector('a.button') || r).getBoundingClientRect().right])
            .filter(([name, row, edit]) => row > w || edit > w)""",
        width,
    )
    assert outside == [], f"rows or Edit buttons past the screen's edge: {outside[:5]}"
    assert_accessible(page, "library with imported figures")

    page.goto(f"{live_server.url}/armies/{roster.pk}/cards")
    expect(page.locator(".datacard .figure-mark").first).to_contain_text(IMPORTED_BY)
    shot(page, f"cards-{size}", full_page=True)
    page.locator(".datacard", has_text="MBZK").first.scroll_into_view_if_needed()
    shot(page, f"cards-mbzk-{size}")
    too_wide = page.evaluate(
        """() => [...document.querySelectorAll('.datacard .weapons-table')]
            .map(t => [t.closest('.datacard'), t])
            .map(([c, t]) => [c.querySelector('h3').textContent.trim(),
                              t.getBoundingClientRect().right, c.getBoundingClientRect().right,
                              t.scrollWidth - t.clientWidth])
            .filter(([name, table, card, inner]) => table > card + 0.5 || inner > 0)"""
    )
    assert too_wide == [], f"weapon tables wider than their card: {too_wide}"
    tall = page.evaluate(
        """() => [...document.querySelectorAll('.datacard .figure-mark')]
            .map(m => [m, getComputedStyle(m)])
            .map(([m, s]) => [m.textContent.trim(), m.getBoundingClientRect().height
                              / (parseFloat(s.lineHeight) || 1.2 * parseFloat(s.fontSize))])
            .filter(([text, lines]) => !(lines <= 2.2))"""
    )
    assert tall == [], f"marks taking more than two lines: {tall}"
    assert_accessible(page, "roster cards with imported figures")


@pytest.mark.parametrize("size", SIZES.keys())
def test_the_tab_follows_a_rename_and_an_empty_roster_is_not_legal(
    live_server, new_page, assert_accessible, size
):
    user = make_user(f"namer-{size}")
    page = new_page(SIZES[size], bypass_csp=True)
    log_in(page, live_server.url, user.username)
    page.goto(f"{live_server.url}/armies/")
    page.get_by_label("Start from").select_option(label="Empty Northern Guard roster")
    page.get_by_role("button", name="Create roster").click()
    expect(page.locator("#roster-summary .badge")).to_have_text("Empty: no combat groups yet")
    assert_accessible(page, "an empty roster's editor")
    page.get_by_text("Name and TV limit").click()
    page.get_by_label("Name", exact=True).fill("Ice Wall")
    page.get_by_role("button", name="Rename").click()
    expect(page.locator("h1.roster-name")).to_have_text("Ice Wall")
    expect(page).to_have_title("Ice Wall · Blitz")
