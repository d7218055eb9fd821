from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, VIEWPORTS
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = VIEWPORTS


def sign_up(page, base: str, username: str) -> None:
    page.goto(base + "/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("button:has-text('Create account')")


@pytest.mark.parametrize("size", SIZES.keys())
def test_guest_builds_swaps_signs_up_shares_and_another_player_copies(
    live_server, new_page, shot, size
):
    base = live_server.url
    page = new_page(SIZES[size])
    page.goto(base + "/armies/")
    expect(page.get_by_text("Create an account")).to_be_visible()
    page.select_option("#id_start", "preset:north_starter")
    page.click("button:has-text('Create roster')")
    expect(page.get_by_test_id("roster-tv")).to_have_text("610")
    expect(page.locator("#roster-summary .badge")).to_have_text("Legal")
    page.evaluate("window.__noReload = true")

    fire_support = page.locator("section.group", has_text="Fire Support Squad")
    second_grizzly = fire_support.locator("details.model-details").filter(
        has=page.locator("summary .weapon", has_text=re.compile(r"^HAC$"))
    )
    second_grizzly.locator("summary").click()  # each model's options are one tap away
    swap = second_grizzly.get_by_role("button", name="Swap HAC for MBZK")
    expect(swap).to_have_attribute("aria-pressed", "false")
    swap.click()
    expect(page.get_by_test_id("roster-tv")).to_have_text("620")
    expect(page.locator("#roster-summary .badge")).to_have_text("Not legal")
    expect(page.locator("#roster-problems")).to_contain_text("over its 610 TV limit")
    assert page.evaluate("window.__noReload") is True  # no page reload happened
    shot(page, "editor", full_page=True)
    shot(page, "editor-viewport")

    # Undo the swap: back to 610 and legal.
    swap = page.locator("#g1-m3-opt-north_grizzly_mbzk")
    expect(swap).to_be_focused()  # the tapped button's replacement, in the still open model
    expect(swap).to_have_attribute("aria-pressed", "true")
    swap.click()
    expect(page.get_by_test_id("roster-tv")).to_have_text("610")
    assert page.evaluate("window.__noReload") is True

    sign_up(page, base, f"pilot-{size}")
    page.goto(base + "/armies/")
    expect(page.get_by_role("link", name="Northern Guard starter force")).to_be_visible()
    page.get_by_role("link", name="Northern Guard starter force").click()
    share_url = page.locator(".share-link a").get_attribute("href")
    assert re.search(r"/r/[A-Za-z0-9_-]{22,}$", share_url)
    qr = page.locator("img.qr")
    qr.scroll_into_view_if_needed()
    page.wait_for_function("() => document.querySelector('img.qr').complete")
    assert page.evaluate("document.querySelector('img.qr').naturalWidth") > 100

    page.goto(page.url.split("#")[0] + "cards")
    expect(page.locator(".datacard")).to_have_count(7)  # identical Hunters once, "×2"
    shot(page, "datacards", full_page=True)
    page.emulate_media(media="print")
    expect(page.locator(".site-header")).to_be_hidden()
    shot(page, "print", full_page=True)
    for paper in ("A4", "Letter"):
        pdf = page.pdf(format=paper, print_background=True)
        assert pdf.startswith(b"%PDF") and len(pdf) > 10_000
        (shot.folder / f"{size}-{paper}.pdf").write_bytes(pdf)
    page.emulate_media(media="screen")

    # A stranger opens the link logged out: read-only, with cards.
    stranger = new_page(SIZES[size])
    stranger.goto(share_url)
    expect(stranger.locator("h1")).to_have_text("Northern Guard starter force")
    expect(stranger.get_by_test_id("roster-tv")).to_have_text("610")
    expect(stranger.locator("button.toggle")).to_have_count(0)
    expect(stranger.locator(".datacard")).to_have_count(7)
    shot(stranger, "shared", full_page=True)

    # ...signs up and copies it into their own rosters.
    sign_up(stranger, base, f"rival-{size}")
    stranger.goto(share_url)
    stranger.click("button:has-text('Copy to my rosters')")
    expect(stranger.locator("h1.roster-name")).to_have_text("Copy of Northern Guard starter force")
    expect(stranger.get_by_test_id("roster-tv")).to_have_text("610")


# --- Issue 12: compact and clear, print -------------------------------------------------------

LAYOUTS = {"phone": PHONE, "tablet": {"width": 820, "height": 1180}, "desktop": SIZES["desktop"]}
PHONE_EDITOR_MAX = 1720  # measured 1,708 px for the Northern preset, every model closed
PHONE_PAGE_MAX = 1700  # the whole page, site bar to footer: 2,005 px before issue 22

WRAPPED_BUTTONS = """() => [...document.querySelectorAll('#editor button, #editor summary.button')]
  .filter((b) => b.offsetParent !== null)
  .filter((b) => {
    const style = getComputedStyle(b);
    const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.5;
    const frame = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom)
      + parseFloat(style.borderTopWidth) + parseFloat(style.borderBottomWidth);
    const oneLine = Math.max(parseFloat(style.minHeight) || 0, line + frame);
    return b.getBoundingClientRect().height > oneLine + 1;
  })
  .map((b) => b.id || b.textContent.trim())"""

SMALL_TARGETS = """() => [...document.querySelectorAll(
    '#editor button, #editor summary, #editor select, #editor a.button')]
  .filter((e) => e.offsetParent !== null && e.getBoundingClientRect().height < 44)
  .map((e) => e.id || e.textContent.trim())"""


def start_north(page, base: str) -> None:
    page.goto(base + "/armies/")
    page.select_option("#id_start", "preset:north_starter")
    page.click("button:has-text('Create roster')")
    expect(page.get_by_test_id("roster-tv")).to_have_text("610")


@pytest.mark.parametrize("layout", LAYOUTS.keys())
def test_the_northern_preset_is_compact_with_no_wrapped_labels_and_no_axe_violations(
    live_server, new_page, shot, assert_accessible, layout
):
    page = new_page(LAYOUTS[layout], bypass_csp=True)
    start_north(page, live_server.url)
    height = page.evaluate("document.getElementById('editor').scrollHeight")
    if layout == "phone":
        assert height <= PHONE_EDITOR_MAX, f"the editor is {height} px tall on a phone"
        expect(page.get_by_role("link", name="Start a match")).to_be_visible()  # history loaded
        whole = page.evaluate("document.documentElement.scrollHeight")
        assert whole <= PHONE_PAGE_MAX, f"the editor's page is {whole} px tall on a phone"
    assert page.evaluate("document.documentElement.scrollWidth") <= LAYOUTS[layout]["width"]
    shot(page, "collapsed", full_page=True)
    assert_accessible(page, "on the editor, every model closed")

    for model in ("group-0-model-0", "group-0-model-2", "group-1-model-2"):
        page.locator(f"#{model}-details > summary").click()
    expect(page.get_by_role("button", name="Swap LAC for FGC, with Heavy Panzerfaust").first)
    expect(page.locator("#g0-m0-all-north_fgc")).to_have_text(re.compile(r"^Apply to both Hunters"))
    # The reason an offer would break a rule is text a touch screen shows.
    expect(page.locator("#g0-m2-opt-north_mac-why")).to_be_visible()
    expect(page.locator("#g0-m2-opt-north_mac-why")).to_contain_text("Only two models")
    assert page.evaluate("document.documentElement.scrollWidth") <= LAYOUTS[layout]["width"]
    assert page.evaluate(WRAPPED_BUTTONS) == []
    assert page.evaluate(SMALL_TARGETS) == []
    shot(page, "expanded", full_page=True)
    assert_accessible(page, "on the editor with models open")


def test_a_tap_keeps_focus_and_open_models_and_slow_requests_show_saving(
    live_server, new_page, shot
):
    page = new_page(PHONE)
    start_north(page, live_server.url)
    page.locator("#group-0-model-0-details > summary").click()
    page.locator("#group-1-model-3-details > summary").click()

    apply = page.locator("#g0-m0-all-north_fgc")
    apply.click()
    expect(apply).to_have_text(re.compile(r"^Drop from both Hunters"))
    expect(apply).to_be_focused()  # the replacement of the tapped button
    expect(page.locator("#group-0-model-0-details")).to_have_attribute("open", "")
    expect(page.locator("#group-1-model-3-details")).to_have_attribute("open", "")
    expect(page.locator("#group-0-model-1 .model-weapons")).to_contain_text("FGC")
    expect(page.get_by_test_id("roster-tv")).to_have_text("610")

    # Other groups' hints follow the total: the MBZK makes 620, so the Veteran squad makes 700.
    page.locator("#g1-m3-opt-north_grizzly_mbzk").click()
    expect(page.get_by_test_id("roster-tv")).to_have_text("620")
    expect(page.locator("#g0-upg-north_veteran_command-why")).to_contain_text(
        "The army costs 700 TV, over its 610 TV limit."
    )
    expect(page.locator("#g1-m3-opt-north_grizzly_mbzk")).to_be_focused()

    busy = page.locator("#editor-busy")
    expect(busy).to_be_hidden()
    delay = page.evaluate(
        """() => { const editor = document.getElementById('editor');
            editor.classList.add('htmx-request');
            const delay = getComputedStyle(document.getElementById('editor-busy')).transitionDelay;
            editor.classList.remove('htmx-request');
            return delay; }"""
    )
    assert delay.startswith("0.3s")  # a quick answer never flashes "Saving…"
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 1500, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    page.locator("#g1-m3-opt-north_grizzly_mbzk").click()
    expect(busy).to_be_visible(timeout=1200)
    shot(page, "saving")
    expect(page.get_by_test_id("roster-tv")).to_have_text("610", timeout=5000)
    expect(busy).to_be_hidden()


def test_a_failed_import_says_why_where_the_player_is_and_a_bom_file_imports(
    live_server, browser, new_page, shot, tmp_path
):
    # The refused import answers 400, which Chromium logs: this page does not fail on it.
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(live_server.url + "/armies/")
    file_input = page.locator("#id_file")
    assert file_input.bounding_box()["height"] >= 44
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something-else"}')
    file_input.set_input_files(str(bad))
    page.click("button:has-text('Import')")
    alert = page.locator("#import-errors")
    expect(alert).to_contain_text("not a Blitz roster export")
    expect(alert).to_be_focused()
    assert alert.bounding_box()["y"] < PHONE["height"]  # on the first screen
    shot(page, "import-error")
    context.close()

    page = new_page(PHONE)
    start_north(page, live_server.url)
    with page.expect_download() as download:
        page.click("a:has-text('Export JSON')")
    exported = download.value.path().read_bytes()
    good = tmp_path / "bom.json"
    good.write_bytes(b"\xef\xbb\xbf" + exported)
    page.goto(live_server.url + "/armies/")
    page.locator("#id_file").set_input_files(str(good))
    page.click("button:has-text('Import')")
    expect(page.locator("h1.roster-name")).to_have_text("Northern Guard starter force")


def pdf_pages(pdf: bytes) -> int:
    return pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")


def test_printed_cards_are_dense_and_numbered_on_a4_and_letter(
    live_server, new_page, shot, assert_accessible
):
    page = new_page(SIZES["desktop"], bypass_csp=True)
    start_north(page, live_server.url)
    editor = page.url.split("#")[0]
    page.goto(editor + "cards")
    expect(page.locator(".datacard")).to_have_count(7)  # identical Hunters once, "×2"
    expect(page.locator(".not-given").first).to_contain_text("Not in the quickstart:")
    assert_accessible(page, "on the datacards")
    page.emulate_media(media="print")
    expect(page.locator(".sheet-head").first).to_contain_text("Page 1 of 2")
    assert_accessible(page, "on the print view")
    pages = {}
    for paper in ("A4", "Letter"):
        pdf = page.pdf(format=paper)
        pages[paper] = pdf_pages(pdf)
        (shot.folder / f"north-{paper}.pdf").write_bytes(pdf)
    assert pages == {"A4": 2, "Letter": 2}  # 3 A4 and 4 Letter pages before issue 12

    # Twenty models in four groups: still one sheet a page, each numbered.
    page.emulate_media(media="screen")
    page.goto(editor)
    for groups, squad in ((3, "north_general_purpose"), (4, "north_fire_support")):
        page.select_option("#add-squad", squad)
        page.click("button:has-text('Add group')")
        expect(page.locator("section.group")).to_have_count(groups)
    page.goto(editor + "cards")
    expect(page.locator(".datacard")).to_have_count(13)  # 20 models, identical ones once
    page.emulate_media(media="print")
    sheets = page.locator(".sheet").count()
    expect(page.locator(".sheet-head").last).to_contain_text(f"Page {sheets} of {sheets}")
    for paper in ("A4", "Letter"):
        assert pdf_pages(page.pdf(format=paper)) == sheets, paper


def test_a_form_sent_with_enter_does_not_send_focus_back_to_an_old_button(live_server, new_page):
    """Focus returns to the button that was tapped, and only for the request it started."""
    page = new_page(VIEWPORTS["tablet-portrait"])
    start_north(page, live_server.url)
    before = page.locator("#group-0 details").count()
    page.locator("#g0-add-model").click()
    expect(page.locator("#group-0 details")).to_have_count(before + 1)  # the group redrawn
    expect(page.locator("#g0-add-model")).to_be_focused()  # back where the player tapped
    models = before + 1
    page.get_by_text("Name and TV limit").click()
    page.fill("#id_name", "Northern raid")
    page.press("#id_name", "Enter")
    expect(page.locator("h1")).to_contain_text("Northern raid")
    page.wait_for_timeout(300)
    assert page.evaluate("document.activeElement.id") != "g0-add-model"
    page.keyboard.press("Enter")  # a keyboard player presses Enter again: no model is added
    page.wait_for_timeout(500)
    assert page.locator("#group-0 details").count() == models


def test_the_editor_loads_its_match_history_from_matches_and_works_without_javascript(
    live_server, new_page, browser
):
    base = live_server.url
    page = new_page()
    page.goto(base + "/armies/")
    page.select_option("#id_start", "preset:north_starter")
    page.click("button:has-text('Create roster')")
    history = page.locator(".history-panel")
    expect(history.locator("section.roster-history")).to_contain_text(
        "has not been played in a match yet"
    )  # the fragment replaced the link
    expect(history.get_by_role("link", name="The matches this list was played in")).to_have_count(0)

    # Without JavaScript the panel is a link to the same history as a page of its own.
    editor = page.url
    cookies = page.context.cookies()
    context = browser.new_context(java_script_enabled=False)
    context.add_cookies(cookies)
    plain = context.new_page()
    plain.goto(editor)
    plain.get_by_role("link", name="The matches this list was played in").click()
    expect(plain.get_by_role("heading", name="Match history")).to_be_visible()
    expect(plain.locator("body")).to_contain_text("has not been played in a match yet")
    context.close()
