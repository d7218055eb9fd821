"""A kill team's kit in Chromium at 820x1180 and 390x844: equipment picked in the editor and a
mine used on the board (the other device sees it), a profile pack exported and imported by
another player, a team updated from a fixed profile, and the profile form's rule boxes on a
phone; axe-core, touch targets and no sideways scrolling on each page. Figures are made up."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armies.models import DataPack, Owner
from matches.killteam import services
from rules.killteam import team as kteam
from tests.browser.conftest import PHONE
from tests.browser.test_killteam_browser import assert_no_sideways_scroll, assert_tappable
from tests.browser.test_killteam_match_browser import BOARD_TARGETS, SYNC, card
from tests.browser.test_killteam_pages_browser import logged_in
from tests.factories import KT_PROFILE, make_kt_pack, make_team, make_user

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"tablet": {"width": 820, "height": 1180}, "phone": PHONE}


def checked(page, assert_accessible, what: str, targets: str | None = None) -> None:
    assert_accessible(page, what)
    if targets:
        assert_tappable(page, targets)
    else:
        assert_tappable(page)
    assert_no_sideways_scroll(page)


@pytest.mark.parametrize("size", SIZES.keys())
def test_equipment_is_picked_and_a_mine_used_on_the_board_the_other_device_sees_it(
    live_server, new_page, shot, assert_accessible, size
):
    base = live_server.url
    anna = make_user("anna")
    red = make_team(anna, name="Red team", operatives=2)
    blue = make_team(anna, name="Blue team", operatives=2)
    page = logged_in(new_page, base, anna, SIZES[size])
    page.goto(f"{base}/armies/{red.pk}/")
    expect(page.get_by_text("The core rules set no limit on how many pieces")).to_be_visible()
    page.get_by_label("Mines").check()
    page.get_by_label("Comms device").check()
    page.get_by_label("1 smoke and 1 stun grenade").check()
    page.click("button:has-text('Save equipment')")
    expect(page.get_by_test_id("team-kit")).to_have_text(
        "Comms device, Mines, Smoke grenade, Stun grenade"
    )
    checked(page, assert_accessible, f"Kill Team editor with equipment ({size})")
    shot(page, f"kt-kit-editor-{size}", full_page=True)
    page.locator("#equipment").screenshot(path=str(shot.folder / f"kt-kit-equipment-{size}.png"))

    red.refresh_from_db()
    match = services.kt_match_start(
        owner=Owner(anna.pk, None), player="anna", mine=red, opponent=blue
    )
    other = logged_in(new_page, base, anna, SIZES[size])  # anna's second device
    other.goto(f"{base}/matches/{match.pk}/")
    page.goto(f"{base}/matches/{match.pk}/")
    kit = page.locator("#kit-a-mines")
    expect(kit).to_contain_text("1 of 1 left")
    kit.get_by_text("Use Mines…").click()
    checked(page, assert_accessible, f"Kill Team board, a mine ({size})", BOARD_TARGETS)
    shot(page, f"kt-kit-board-mine-open-{size}", full_page=True)
    page.locator("#kit").screenshot(path=str(shot.folder / f"kt-kit-board-kit-{size}.png"))
    kit.locator("button[value='kit a mines b-1:3']").click()
    expect(card(page, "b-1").locator("#wounds-b-1")).to_have_text("2")
    expect(page.locator("#kit-a-mines")).to_contain_text("used up (1 of 1)")
    expect(card(other, "b-1").locator("#wounds-b-1")).to_have_text("2", timeout=SYNC)
    expect(other.locator("#kit-a-mines")).to_contain_text("used up", timeout=SYNC)
    expect(other.locator("#kit-a-stun_grenade")).to_contain_text("activate one first")
    checked(other, assert_accessible, f"Kill Team board, the other device ({size})", BOARD_TARGETS)
    shot(other, f"kt-kit-board-other-device-{size}", full_page=True)


@pytest.mark.parametrize("size", SIZES.keys())
def test_a_profile_pack_exported_by_one_player_is_imported_by_another(
    live_server, new_page, shot, assert_accessible, size
):
    base = live_server.url
    jan, ben = make_user("jan"), make_user("ben")
    make_kt_pack(jan)
    page = logged_in(new_page, base, jan, SIZES[size])
    page.goto(f"{base}/datacards/")
    with page.expect_download() as download:
        page.get_by_role("link", name="Export data file (.json)").click()
    path = download.value.path()
    assert download.value.suggested_filename.endswith(".json")

    theirs = logged_in(new_page, base, ben, SIZES[size])
    theirs.goto(f"{base}/datacards/")
    theirs.get_by_label("Data file (.toml, or .json for Kill Team)").set_input_files(
        files=[{"name": "cult.json", "mimeType": "application/json", "buffer": path.read_bytes()}]
    )
    theirs.click("button:has-text('Import')")
    expect(theirs.get_by_text("Imported the datacard pack")).to_be_visible()
    expect(theirs.get_by_text("jan (imported from a file by ben)").first).to_be_visible()
    expect(theirs.get_by_text("Test trooper").first).to_be_visible()
    checked(theirs, assert_accessible, f"My datacards after a Kill Team import ({size})")
    shot(theirs, f"kt-kit-imported-{size}", full_page=True)
    assert DataPack.objects.filter(entered_by="jan (imported from a file by ben)").count() == 1


@pytest.mark.parametrize("size", SIZES.keys())
def test_a_team_is_updated_from_a_fixed_profile_in_one_tap(
    live_server, new_page, shot, assert_accessible, size
):
    base = live_server.url
    anna = make_user("anna")
    roster = make_team(anna, name="Red team", operatives=3)
    make_kt_pack(anna, profiles={"t": {**KT_PROFILE, "wounds": 9}})
    page = logged_in(new_page, base, anna, SIZES[size])
    page.goto(f"{base}/armies/{roster.pk}/")
    notice = page.locator("#outdated")
    expect(notice).to_contain_text("3 operatives were built from an older version")
    expect(notice).to_contain_text("Wounds 8 → 9")
    checked(page, assert_accessible, f"Kill Team editor, outdated profiles ({size})")
    shot(page, f"kt-kit-outdated-{size}", full_page=True)
    notice.screenshot(path=str(shot.folder / f"kt-kit-outdated-notice-{size}.png"))
    page.click("button:has-text('Update all of them to the latest profiles')")
    expect(page.get_by_text("Updated the operatives to their latest profiles")).to_be_visible()
    expect(page.locator("#outdated")).to_have_count(0)
    roster.refresh_from_db()
    assert [o.profile.wounds for o in kteam.read_team(roster.army).operatives] == [9, 9, 9]


def test_the_profile_forms_rule_boxes_keep_clear_of_their_names_on_a_phone(
    live_server, new_page, shot, assert_accessible
):
    base = live_server.url
    anna = make_user("anna")
    pack = make_kt_pack(anna, profiles={})
    page = logged_in(new_page, base, anna, PHONE)
    page.goto(f"{base}/datacards/{pack.pk}/profiles/new")
    page.locator(".rule-picker summary").first.click()
    overlaps = (
        page.locator(".rule-picker")
        .first.locator(".rule-row")
        .evaluate_all(
            """rows => rows.flatMap(row => {
            const sel = 'label.choice, input.rule-x, select, label.rule-bracket';
            const parts = [...row.querySelectorAll(sel)].filter(e => e.offsetParent !== null)
                .map(e => [e, e.getBoundingClientRect()]);
            const out = [];
            for (let i = 0; i < parts.length; i++) for (let j = i + 1; j < parts.length; j++) {
                const [a, r] = parts[i], [b, s] = parts[j];
                if (a.contains(b) || b.contains(a)) continue;
                const across = r.left < s.right - 1 && s.left < r.right - 1;
                if (across && r.top < s.bottom - 1 && s.top < r.bottom - 1)
                    out.push(a.textContent.trim().slice(0, 30) + ' / ' + b.outerHTML.slice(0, 60));
            }
            return out;
        })"""
        )
    )
    assert overlaps == []
    overflowing = (
        page.locator(".rule-picker")
        .first.locator(".rule-row label:not(.visually-hidden)")
        .evaluate_all(
            "els => els.filter(e => e.scrollWidth > e.clientWidth + 1)"
            ".map(e => e.textContent.trim())"
        )
    )
    assert overflowing == []  # each rule's name wraps inside its own box
    checked(page, assert_accessible, "Kill Team profile form, rule boxes (phone)")
    shot(page, "kt-kit-profile-form-phone", full_page=True)
    picker = page.locator(".rule-picker").first
    picker.screenshot(path=str(shot.folder / "kt-kit-rule-picker-phone.png"))
