"""The board works on the stylesheets and scripts production sends: minified by collectstatic
(blitz_site/storage.py). The tests' server sends the files of static/ as they are, so here the
browser is given the minified copies collectstatic wrote instead."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.app.test_static_files import collect
from tests.browser.test_match_browser import card, mark_next_box, small_targets, start_match

pytestmark = pytest.mark.django_db(transaction=True)

TABLET = {"width": 820, "height": 1180}


@pytest.fixture(scope="module")
def minified(tmp_path_factory):
    root = tmp_path_factory.mktemp("static")
    collect(root)
    return root


def test_the_board_and_its_attack_panel_work_on_the_minified_files(
    live_server, new_page, minified, shot
):
    # No service worker: the page's own requests, every one of them, take the route below.
    page = new_page(TABLET, service_workers="block")
    served = []

    def send_minified(route):
        name = route.request.url.split("/static/", 1)[1].split("?")[0]
        served.append(name)
        route.fulfill(path=minified / name)

    page.route("**/static/**/*.{js,css}", send_minified)
    start_match(page, live_server.url)
    assert {"css/blitz.css", "css/match.css", "js/blitz.js", "js/match.js", "js/push.js"} <= set(
        served
    )
    # match.css: every control a thumb's size; match.js and htmx: a tap redraws the card.
    assert small_targets(page) == []
    mark_next_box(page, "b-1-1")
    expect(card(page, "b-1-1").locator(".st")).to_have_text("Sturdy")
    shot(page, "board")
    # The attack panel's script and stylesheet, fetched on the first tap, minified too.
    card(page, "a-1-3").get_by_role("link", name="Attack…").click()
    expect(page.locator("#attack-panel")).to_be_visible()
    assert {"css/attack.css", "js/attack_panel.js"} <= set(served)
    assert page.locator("#attack-panel").evaluate("e => getComputedStyle(e).position") == "fixed"
    shot(page, "attack-panel")
