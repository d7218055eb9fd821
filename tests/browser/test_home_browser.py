from __future__ import annotations

import pytest

from tests.browser.conftest import VIEWPORTS


@pytest.mark.parametrize("viewport", VIEWPORTS.keys())
def test_home_page_reads_well_and_links_to_builder_and_tracker(
    live_server, new_page, shot, viewport
):
    page = new_page(VIEWPORTS[viewport])
    page.goto(live_server.url + "/")
    assert page.locator("h1").inner_text() == "Blitz"
    builder = page.get_by_role("link", name="Open the builder")
    tracker = page.get_by_role("link", name="Open the tracker")
    assert builder.is_visible() and tracker.is_visible()
    # Nothing overflows sideways on a tablet or a desktop.
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    # Every link and button is a comfortable touch target.
    small = page.evaluate(
        """() => [...document.querySelectorAll('main a.button, main .button, nav a, button')]
            .filter(e => e.offsetParent !== null)
            .map(e => e.getBoundingClientRect())
            .filter(r => r.height < 44 || r.width < 44).length"""
    )
    assert small == 0
    assert shot(page, viewport, full_page=True).exists()
    builder.click()
    page.wait_for_url("**/armies/")
    assert page.locator("h1").inner_text() == "My rosters"
