"""Real-browser tests: Playwright driving Debian's Chromium.

When /usr/bin/chromium is missing (and `make test` could not install it), the browser
tests are skipped with a loud notice; every other test still runs.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; Django's async-safety guard
# would otherwise refuse the database work that live_server tests do in the test thread.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = Path(os.environ.get("BLITZ_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

VIEWPORTS = {
    "tablet-portrait": {"width": 768, "height": 1024},
    "tablet-landscape": {"width": 1024, "height": 768},
    "desktop": {"width": 1440, "height": 900},
}
PHONE = {"width": 390, "height": 844}

MISSING_NOTICE = (
    "\n" + "!" * 78 + "\n"
    f"!!  CHROMIUM NOT FOUND at {CHROMIUM}: the browser tests are SKIPPED.\n"
    "!!  Install it with: apt-get install -y chromium   (make test does this as root)\n" + "!" * 78
)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.slow)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not CHROMIUM.exists():
        terminalreporter.write_line(MISSING_NOTICE, red=True, bold=True)


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        pytest.skip(MISSING_NOTICE)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


class ConsoleErrors(list):
    """Console errors and uncaught page errors seen by a page."""

    def watch(self, page) -> None:
        page.on("console", lambda msg: msg.type == "error" and self.append(msg.text))
        page.on("pageerror", lambda err: self.append(str(err)))


@pytest.fixture
def new_page(browser) -> Iterator:
    """Make pages at a given viewport; fails the test on any console error."""
    contexts = []
    errors = ConsoleErrors()

    def make(viewport: dict | None = None, **context_options):
        context = browser.new_context(viewport=viewport or VIEWPORTS["desktop"], **context_options)
        contexts.append(context)
        page = context.new_page()
        errors.watch(page)
        return page

    yield make
    for context in contexts:
        context.close()
    wait_for_live_server_requests()
    assert not errors, f"console errors: {list(errors)}"


def wait_for_live_server_requests(timeout: float = 15.0) -> None:
    """Wait until the live server has answered every request the closed pages had sent.

    A request still running when the test ends holds SQLite's write lock on the shared
    in-memory database, and pytest-django's flush after the test then fails with
    "database table is locked". Closing a browser context closes its connections, so the
    server's request threads (named after ``process_request_thread``) end soon after.
    """
    deadline = time.monotonic() + timeout
    for thread in threading.enumerate():
        if thread.name.endswith("(process_request_thread)"):
            thread.join(max(0.0, deadline - time.monotonic()))


def htmx_settled(page, selector: str) -> None:
    """Wait until ``selector`` is on the page and htmx has finished settling what it swapped in.

    htmx inserts new content at once but wires its ``hx-*`` attributes only when the swap
    settles (``htmx.config.defaultSettleDelay``, 20 ms later); until then the new nodes carry
    the ``htmx-added`` class. A person cannot tap in that window, but Playwright can: a choice
    made then fires a ``change`` nobody listens to, and the answer it should bring never comes.
    """
    page.wait_for_function(
        "(sel) => document.querySelector(sel) !== null"
        " && document.querySelector('.htmx-added, .htmx-settling') === null",
        arg=selector,
    )


@pytest.fixture
def shot(tmp_path_factory, request):
    """Write a screenshot under the pytest temp dir and return its path."""
    custom = os.environ.get("BLITZ_SCREENSHOTS")
    folder = Path(custom) if custom else tmp_path_factory.getbasetemp() / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)

    def take(page, name: str, **options) -> Path:
        path = folder / f"{request.node.name}-{name}.png".replace("/", "_")
        page.screenshot(path=str(path), **options)
        return path

    take.folder = folder
    return take


AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture
def assert_accessible():
    """axe-core's check of the page as it is now: fails the test on any violation.

    The page's context must be made with ``bypass_csp=True`` (the policy refuses injected
    scripts). axe-core comes from npm (`make test` installs it from package.json). Besides the
    default rules, the check runs label-content-name-mismatch (experimental in axe, off by
    default): a control's accessible name must contain the text it shows.
    """
    if not AXE.exists():
        pytest.fail(f"axe-core is missing at {AXE}: run `npm install` (make test does).")

    def check(page, what: str = "") -> None:
        page.add_script_tag(path=str(AXE))
        violations = page.evaluate(
            """async () => (await axe.run(document, {resultTypes: ['violations'],
                    rules: {'label-content-name-mismatch': {enabled: true}}})).violations
                .map(v => `${v.id} (${v.impact}): ${v.help}: `
                    + v.nodes.slice(0, 5).map(n => n.target.join(' ')).join(', '))"""
        )
        assert violations == [], f"axe-core violations {what}: {violations}"

    return check


@pytest.fixture
def asgi_server(transactional_db) -> Iterator[str]:
    """The app served by uvicorn (ASGI, as ``make run`` and production serve it) in a thread,
    on the test database: its URL. Django's live_server is WSGI, which holds no live stream
    (the boards poll there); the push tests need this one.

    SQLite's in-memory test database is one connection that every thread shares, as
    live_server does it: each request uses it (a request's database work inherits its context).
    """
    import socket

    import uvicorn
    from django.core.asgi import get_asgi_application
    from django.db import connections

    shared = {
        alias: connections[alias]
        for alias in connections
        if connections[alias].vendor == "sqlite" and connections[alias].is_in_memory_db()
    }
    for connection in shared.values():
        connection.inc_thread_sharing()
    django_app = get_asgi_application()

    async def app(scope, receive, send):
        for alias, connection in shared.items():
            connections[alias] = connection
        await django_app(scope, receive, send)

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, lifespan="off", log_level="warning",
        timeout_graceful_shutdown=1,
    )  # fmt: skip
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="asgi-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started, "uvicorn did not start"
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)
    for connection in shared.values():
        connection.dec_thread_sharing()
