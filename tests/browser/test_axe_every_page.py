"""axe-core on every page of every game, at phone and tablet sizes, so a violation cannot hide
on a page nobody changed.

No page is named here. The objects of every kind come from the route fuzz's ``world`` (rosters
and teams, datacard packs of both games, matches of both games, share, join and watch links).
The owner's pages are crawled from the site's own links, and the pages a visitor without an
account reaches (shared rosters and packs, join and watch links, log in and sign up) from the
links handed out. Each distinct page (its route and the template it draws, so the HGB and Kill
Team boards are two pages) is then opened in Chromium as that visitor and checked with axe-core.
A new page is scanned the day a page links to it."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import Resolver404, resolve, reverse

from armies.models import DataPack, Roster
from matches.models import Match
from tests.app.test_fuzz_routes import world
from tests.browser.conftest import PHONE, ConsoleErrors, wait_for_live_server_requests

pytestmark = pytest.mark.django_db(transaction=True)

TABLET = {"width": 820, "height": 1180}
LINK = re.compile(r'\s(?:href|hx-get)="([^"]*)"')
MAX_PAGES = 400
# Pages that are not pages: files, feeds and redirects to them.
NOT_PAGES = ("qr.svg", ".md", ".txt", ".json", ".toml", ".csv", "/static/", "/log.")


def page_key(client: Client, url: str) -> tuple[str, str] | None:
    """The route and template of a full HTML page (or the page-not-found page), or None."""
    try:
        view = resolve(urlsplit(url).path).view_name
    except Resolver404:
        view = "page not found"
    response = client.get(url)
    if response.status_code not in (200, 404) or "html" not in response.get("Content-Type", ""):
        return None
    if "<html" not in response.content.decode()[:500].lower():
        return None  # an htmx partial: scanned inside the page that draws it
    templates = [t.name for t in response.templates if t.name and not t.name.startswith("django")]
    # The stream overlay is one route whose page each game draws its part of: a page per game.
    parts = [t for t in templates[1:] if t.endswith("_overlay.html")]
    return view, (parts or templates or [""])[0]


def crawl(client: Client, starts: list[str]) -> dict[tuple[str, str], str]:
    """Follow the links a visitor sees (GET only): one URL for each distinct page."""
    pages: dict[tuple[str, str], str] = {}
    seen: set[str] = set()
    queue = list(starts)
    while queue and len(seen) < MAX_PAGES:
        url = queue.pop(0)
        if url in seen or any(part in url for part in NOT_PAGES):
            continue
        seen.add(url)
        key = page_key(client, url)
        if key is None:
            continue
        pages.setdefault(key, url)
        for raw in LINK.findall(client.get(url).content.decode()):
            target = unescape(raw)
            parts = urlsplit(target)
            if parts.netloc in ("", "testserver") and parts.path.startswith("/"):
                queue.append(parts.path + (f"?{parts.query}" if parts.query else ""))
    return pages


def visitor_starts() -> list[str]:
    """What a visitor without an account is handed: share, join and watch links."""
    starts = [
        reverse("home"),
        reverse("login"),
        reverse("signup"),
        reverse("offline"),
        "/no-such-page/",
    ]
    for slug in Roster.objects.exclude(share_slug=None).values_list("share_slug", flat=True):
        starts.append(reverse("roster-shared", args=[slug]))
    for slug in DataPack.objects.exclude(share_slug=None).values_list("share_slug", flat=True):
        starts.append(reverse("datacard-shared", args=[slug]))
    for join, watch in Match.objects.values_list("join_slug", "watch_slug"):
        starts += [
            reverse("matches:match-join", args=[join]),
            reverse("matches:match-watch", args=[watch]),
        ]
    return starts


def browser_cookies(client: Client, base: str) -> list[dict]:
    return [
        {"name": name, "value": morsel.value, "url": base}
        for name, morsel in client.cookies.items()
    ]


def test_every_page_of_every_game_has_no_axe_violations_on_a_phone_and_a_tablet(
    live_server, browser, assert_accessible
):
    visitors, starts, _pools = world()
    owner = visitors["owner"].client
    owned = crawl(owner, starts)
    anyone = crawl(Client(), visitor_starts())
    games = {template for _view, template in owned}
    assert any("killteam" in t for t in games) and any("match_board" in t for t in games), games
    assert any("ww2_board" in t for t in games), games
    mecha = {"armies/mecha_unit.html", "armies/mecha_weapon.html", "armies/mecha_rules.html"}
    assert mecha <= games, games
    assert {"matches/mecha_board.html", "matches/mecha_attack.html"} <= games, games
    assert len(owned) >= 30, sorted(owned)  # the crawl reached the site, not just its front page
    reached = {v for v, _ in anyone}
    assert {"matches:match-watch", "matches:match-join", "roster-shared"} <= reached
    # The stream overlay, from the watch page's link: every game's (one route, four parts).
    assert sum(v == "matches:match-overlay" for v, _ in anyone) == 4, sorted(anyone)

    scanned, failures = [], []
    for who, client, pages in (("owner", owner, owned), ("anyone", Client(), anyone)):
        for size, viewport in (("phone", PHONE), ("tablet", TABLET)):
            context = browser.new_context(viewport=viewport, bypass_csp=True)
            context.add_cookies(browser_cookies(client, live_server.url))
            page = context.new_page()
            errors = ConsoleErrors()
            errors.watch(page)
            for (view, template), url in sorted(pages.items()):
                errors.clear()
                answer = page.goto(f"{live_server.url}{url}")
                page.wait_for_load_state("load")
                if answer.status == 404:  # the page-not-found page: its own answer is the error
                    errors[:] = [e for e in errors if "status of 404" not in e]
                if errors:
                    failures.append(f"console errors on {url} as {who} at {size}: {list(errors)}")
                try:
                    assert_accessible(page, f"on {url} ({view}, {template}) as {who} at {size}")
                except AssertionError as failure:  # every page's violations in one run
                    failures.append(str(failure).splitlines()[0])
                scanned.append((who, size, view))
            context.close()
    wait_for_live_server_requests()
    print(f"axe-core scanned {len(owned)} pages as the owner, {len(anyone)} as anyone, twice each")
    assert failures == []
    assert len(scanned) == 2 * (len(owned) + len(anyone))
