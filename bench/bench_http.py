"""Benchmark: the key interactions over HTTP, as in production, on 127.0.0.1 (issues 7 and 13).

The app runs as it would in production: DEBUG off, gunicorn with 2 workers (on SQLite uvicorn
workers, ASGI, the one process that also holds the streams; on PostgreSQL sync workers, as
production's app servers: the streams are on stream servers beside them, not measured here),
whitenoise's compressed static files after collectstatic, a throw-away SQLite database (or, when
DATABASE_URL names a PostgreSQL server, a throw-away database on it: see _server.py). The seeds
come from the project's own services: a 610 TV match (the North and Peace River starter forces, as
rosters) and a large one (two 60-model rosters, 12 combat groups of 5 each).

For each interaction it sends ``--warmup`` then ``--runs`` requests, one at a time, each in a
round with one request to the trivial view (``/ping``: no database, no template) and one to
``/healthz`` (one ``SELECT 1``), in rotating order, and reports p50/p95 and their ratio to those
yardsticks (for context: issue 7's ratio targets are retired), the SQL queries and the templates
rendered (counted in-process with Django's test client and CaptureQueriesContext on the same
database: the server cannot count them), and the bytes of the response body as sent and
gzip-compressed. Django does not compress dynamic responses here (no GZipMiddleware): for HTML
"sent" is raw and "gzip" is gzip.compress at level 6, what a compressing proxy would send; static
files are sent gzip-compressed by whitenoise. Then it measures the match page's first load (HTML
plus every stylesheet and script it references) and runs the load run (load_match.py) once per
seed: 20 tablets on that seed's match for ``--seconds``, and a probe polling the other seed's
match, where nothing happens, for quiet polls under the same load.

Targets, issue 13's budget (exit 1 when one is missed): during the load run on each seed, the
damage tap's p95 at most 15 ms and the quiet poll's at most 10 ms, server-side (each request's
time in the app, logged by gunicorn (sync workers) or bench/timed_asgi.py (ASGI); the
client-side time on loopback is beside it);
a tap at most 6 SQL statements; a quiet poll at most 2 and no template rendered; no errors under
load; the match page's first load at most 40 KB compressed (issue 24).

Run from the repository root (``make bench`` runs it with the defaults):
``.venv/bin/python bench/bench_http.py [--runs 200] [--seconds 60] [--write-results]``.
"""

from __future__ import annotations

import argparse
import gzip
import os
import platform
import re
import statistics
import subprocess
import sys
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from importlib import metadata
from pathlib import Path
from unittest import mock
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _server import LARGE, REALISTIC, Client, Seed, Stack, seed  # noqa: E402
from load_match import LoadResult, percentile, run_load  # noqa: E402

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "RESULTS.md"
HTMX = {"HX-Request": "true"}
TRIVIAL = "/ping"
HEALTH = "/healthz"  # one database round trip: a second yardstick, for context only

# Issue 13's budget
TAP_P95_MS = 15.0
TAP_QUERIES = 6
QUIET_POLL_P95_MS = 10.0
QUIET_POLL_QUERIES = 2
FIRST_LOAD_KB = 40.0
TAP = "damage tap"
QUIET_POLL = "poll, nothing new"


# --- The interactions: one entry each in INTERACTIONS ---------------------------------------------


@dataclass(frozen=True)
class Plan:
    """How to send an interaction: ``make(i)`` gives request i (method, path, data, headers)."""

    make: Callable[[int], tuple[str, str, dict | None, dict]]
    expect: int = 200
    anonymous: bool = False  # sent without the player's session (a share link opened elsewhere)
    prime: str = ""  # a page opened first, as a tablet opens the board before it taps or polls


Builder = Callable[[Seed, str], Plan | None]


def _reverse(name: str, *args) -> str:
    from django.urls import reverse

    return reverse(name, args=args)


def editor_page(seeded: Seed, size: str) -> Plan:
    path = _reverse("armies:roster-edit", seeded.rosters[size].pk)
    return Plan(lambda i: ("GET", path, None, {}))


def option_swap(seeded: Seed, size: str) -> Plan:
    """Swap a Grizzly's HAC for an MBZK and back, as the editor's htmx checkbox does."""
    r = seeded.rosters[size]
    path = _reverse("armies:model-option", r.pk, r.group, r.model)

    def make(i: int):
        data = {"option": r.option, "chosen": "1" if i % 2 == 0 else "0", "model": r.model_id}
        return "POST", path, data, HTMX

    return Plan(make)


def share_page(seeded: Seed, size: str) -> Plan:
    path = _reverse("roster-shared", seeded.rosters[size].slug)
    return Plan(lambda i: ("GET", path, None, {}), anonymous=True)


def match_board(seeded: Seed, size: str) -> Plan | None:
    if size not in seeded.matches:
        return None
    path = _reverse("matches:match-board", seeded.matches[size].pk)
    return Plan(lambda i: ("GET", path, None, {}))


def damage_tap(seeded: Seed, size: str) -> Plan | None:
    """Cross off a box of one model, then clear it, and so on: one tap each, with a fresh key."""
    if size not in seeded.matches:
        return None
    match = seeded.matches[size]
    path = _reverse("matches:match-event", match.pk)
    unit = match.units[0]

    def make(i: int):
        op = "mark" if i % 2 == 0 else "clear"
        return "POST", path, {"op": f"{op} {unit}", "key": uuid.uuid4().hex}, HTMX

    return Plan(make, prime=_reverse("matches:match-board", match.pk))


def poll_unchanged(seeded: Seed, size: str) -> Plan | None:
    """The board's poll when nothing happened since the last event it saw: 204, no rendering."""
    if size not in seeded.matches:
        return None
    from matches.models import Match

    pk = seeded.matches[size].pk
    seq = Match.objects.filter(pk=pk).values_list("seq", flat=True).get()
    path = f"{_reverse('matches:match-poll', pk)}?seq={seq}"
    board = _reverse("matches:match-board", pk)
    return Plan(lambda i: ("GET", path, None, HTMX), expect=204, prime=board)


def attack_odds_update(seeded: Seed, size: str) -> Plan | None:
    """The attack helper's odds as the player changes the cover (issue 6): the htmx GET the
    helper's form sends at each change, answered with the odds fragment only."""
    if size not in seeded.matches:
        return None
    match = seeded.matches[size]
    path = _reverse("matches:attack-helper", match.pk)
    attacker, target = match.units[0], next(u for u in match.units if u.startswith("b-"))
    figures = {"f": "1", "attacker": attacker, "weapon": "0", "target": target}
    figures |= {"amove": "0", "acc": "0", "dm": "8", "rof": "", "ae": ""}
    figures |= {f"dmove.{target}": "0", f"armor.{target}": "14", f"band.{target}": "medium"}
    figures |= {"att": "5 3", f"def.{target}": "4 1"}
    headers = HTMX | {"HX-Target": "attack-odds"}

    def make(i: int):
        cover = "open" if i % 2 == 0 else "partial"
        return "GET", f"{path}?{urlencode(figures | {f'cover.{target}': cover})}", None, headers

    return Plan(make, prime=_reverse("matches:match-board", match.pk))


@dataclass(frozen=True)
class Interaction:
    name: str
    build: Builder
    missing: str = "n/a (not built yet)"


INTERACTIONS = [
    Interaction("roster editor page", editor_page),
    Interaction("option swap", option_swap),
    Interaction("share page", share_page),
    Interaction("match board", match_board),
    Interaction(TAP, damage_tap),
    Interaction(QUIET_POLL, poll_unchanged),
    Interaction("attack odds update", attack_odds_update),
]
SIZES = (REALISTIC, LARGE)


# --- Measuring ------------------------------------------------------------------------------------


@dataclass
class Row:
    name: str
    size: str
    note: str = ""  # set when the interaction was not measured
    times: list[float] = field(default_factory=list)  # seconds
    trivial: list[float] = field(default_factory=list)  # the paired trivial requests
    health: list[float] = field(default_factory=list)  # the paired /healthz requests
    queries: int | None = None
    templates: int | None = None  # distinct templates rendered (see inspect_request)
    sent: int = 0
    gzipped: int = 0
    encoding: str = ""
    bad: list[str] = field(default_factory=list)  # unexpected answers

    def p(self, q: float) -> float:
        return percentile(sorted(self.times), q) * 1000

    @property
    def ratio(self) -> float:
        return statistics.median(self.times) / statistics.median(self.trivial)

    @property
    def health_ratio(self) -> float:
        return statistics.median(self.times) / statistics.median(self.health)


TEXT = re.compile(r"^text/|javascript|json|xml|manifest")


def _sizes(body: bytes, encoding: str, content_type: str = "text/html") -> tuple[int, int]:
    """Bytes as sent, and gzip-compressed as a proxy would send them (computed when sent raw).

    Images such as PNG are already compressed: nobody gzips them, so both figures are the same.
    """
    if encoding == "gzip" or not body or not TEXT.search(content_type):
        return len(body), len(body)
    return len(body), len(gzip.compress(body, compresslevel=6))


def measure(
    port: int, cookies: dict, plan: Plan, row: Row, *, runs: int, warmup: int, start: int
) -> int:
    """Time the plan's requests, each with a trivial one and a /healthz one in rotating order.

    Returns the next request index.
    """
    client = Client(port, cookies={} if plan.anonymous else cookies)
    index = start
    order = ("ping", "health", "call")
    try:
        if plan.prime:
            client.get(plan.prime)
        for n in range(warmup + runs):
            method, path, data, headers = plan.make(index)
            index += 1
            pair = []
            for which in order[n % 3 :] + order[: n % 3]:
                if which in ("ping", "health"):
                    answer = client.get(TRIVIAL if which == "ping" else HEALTH)
                    ok = answer.status == 200
                else:
                    answer = client.request(method, path, data=data, headers=headers)
                    ok = answer.status == plan.expect
                    last = answer
                if not ok:
                    row.bad.append(f"{which} {method} {path} -> {answer.status}")
                pair.append((which, answer.seconds))
            if n >= warmup:
                for which, seconds in pair:
                    {"ping": row.trivial, "health": row.health, "call": row.times}[which].append(
                        seconds
                    )
        row.encoding = last.headers.get("Content-Encoding", "")
        row.sent, row.gzipped = _sizes(
            last.body, row.encoding, last.headers.get("Content-Type", "")
        )
    finally:
        client.close()
    return index


def count_queries(user_id: int, plan: Plan, index: int) -> int:
    """SQL queries of one request, counted in-process on the same database (after one warm run)."""
    return inspect_request(user_id, plan, index)[0]


def inspect_request(user_id: int, plan: Plan, index: int) -> tuple[int, int]:
    """SQL queries and templates rendered of one request, in-process on the same database (after
    one warm run). A template counts once per name given to ``render``/``render_to_string``
    (``"page.html#part"`` included; what it includes is not counted apart)."""
    from django.contrib.auth.models import User
    from django.db import connection
    from django.template.backends.django import Template
    from django.test import Client as DjangoClient
    from django.test.utils import CaptureQueriesContext

    rendered: list[str] = []
    render = Template.render

    def counted(self, context=None, request=None):
        rendered.append(self.template.name)
        return render(self, context, request)

    client = DjangoClient()
    if not plan.anonymous:
        user = User.objects.get(pk=user_id)
        client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    with mock.patch.object(Template, "render", counted):
        if plan.prime:
            client.get(plan.prime)
            if not rendered:  # the page opened first renders: else the count would be wrong
                raise RuntimeError(f"no template counted for {plan.prime}")
        for offset in range(2):
            method, path, data, headers = plan.make(index + offset)
            call = client.post if method == "POST" else client.get
            rendered.clear()
            with CaptureQueriesContext(connection) as captured:
                response = call(path, data=data or {}, headers=headers)
            if response.status_code != plan.expect:
                raise RuntimeError(f"in-process {method} {path} -> {response.status_code}")
    return len(captured.captured_queries), len(set(rendered))


def _fetch(client: Client, url: str) -> tuple[str, int, int, str]:
    answer = client.get(url)
    if answer.status != 200:
        raise RuntimeError(f"{url} answered {answer.status}")
    encoding = answer.headers.get("Content-Encoding", "")
    kind = answer.headers.get("Content-Type", "")
    return (url, *_sizes(answer.body, encoding, kind), encoding or "none")


def first_load(port: int, cookies: dict, seeded: Seed) -> dict | None:
    """The 610 TV match page as a first visit loads it (``page_load``)."""
    if REALISTIC not in seeded.matches:
        return None
    return page_load(port, cookies, _reverse("matches:match-board", seeded.matches[REALISTIC].pk))


def page_load(port: int, cookies: dict, path: str) -> dict:
    """A page as a first visit loads it: HTML plus every stylesheet and script it names.

    Also lists, outside the target, what else a first visit fetches: the icon and manifest links,
    and the service worker with the files it stores on install (when the app has one).
    """
    client = Client(port, cookies=cookies)
    try:
        page = client.get(path)
        if page.status != 200:
            raise RuntimeError(f"{path} answered {page.status}")
        html = page.text
        links = re.findall(r"<link\b[^>]*>", html)
        styles = [
            re.search(r'href="([^"]+)"', tag)[1] for tag in links if 'rel="stylesheet"' in tag
        ]
        scripts = re.findall(r"<script\b[^>]*\bsrc=\"([^\"]+)\"", html)
        encoding = page.headers.get("Content-Encoding", "")
        parts = [("HTML (board)", *_sizes(page.body, encoding), encoding or "none")]
        parts += [_fetch(client, url) for url in styles + scripts]
        seen = set(styles + scripts)
        others = [
            re.search(r'href="([^"]+)"', tag)[1]
            for tag in links
            if re.search(r'rel="(icon|apple-touch-icon|manifest)"', tag)
        ]
        extras = [_fetch(client, url) for url in others if url not in seen]
        seen.update(others)
        worker = client.get("/sw.js")
        if worker.status == 200:
            extras.append(_fetch(client, "/sw.js"))
            offline = re.search(r'OFFLINE_URL = "([^"]+)"', worker.text)
            precache = re.search(r"PRECACHE = \[(.*?)\];", worker.text, re.S)
            stored = [offline[1]] if offline else []
            stored += re.findall(r'"(/[^"\s]*)"', precache[1]) if precache else []
            extras += [_fetch(client, url) for url in dict.fromkeys(stored) if url not in seen]
    finally:
        client.close()
    return {
        "parts": parts,
        "sent": sum(p[1] for p in parts),
        "compressed": sum(p[2] for p in parts),
        "extras": extras,
        "extras_compressed": sum(p[2] for p in extras),
    }


# --- Reporting ------------------------------------------------------------------------------------


def _kb(n: int) -> str:
    return f"{n / 1024:.1f} KB"


def _bytes(n: int) -> str:
    return f"{n:,}" if n < 10_240 else _kb(n)


def table(rows: list[Row], base: Row) -> list[str]:
    lines = [
        "| interaction | seed | p50 ms | p95 ms | × trivial (p50) | × healthz (p50) "
        "| SQL queries | templates | bytes sent | gzip |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for label, times, queries, ratios in (
        ("trivial view (`/ping`)", base.trivial, base.queries, "1.00 | —"),
        ("`/healthz` (one `SELECT 1`)", base.health, 1, "— | 1.00"),
    ):
        t = sorted(times)
        lines.append(
            f"| {label} | — | {percentile(t, 50) * 1000:.2f} | {percentile(t, 95) * 1000:.2f} | "
            f"{ratios} | {queries} | {base.templates} | | |"
        )
    for row in rows:
        if row.note:
            lines.append(f"| {row.name} | {row.size} | {row.note} | | | | | | | |")
            continue
        gz = _bytes(row.gzipped) + (" (sent)" if row.encoding == "gzip" else "")
        lines.append(
            f"| {row.name} | {row.size} | {row.p(50):.2f} | {row.p(95):.2f} | "
            f"{row.ratio:.2f} | {row.health_ratio:.2f} | {row.queries} | {row.templates} | "
            f"{_bytes(row.sent)} | {gz} |"
        )
    return lines


def _find(rows: list[Row], name: str, size: str) -> Row | None:
    return next((r for r in rows if r.name == name and r.size == size and not r.note), None)


def _within(times: list[float], limit_ms: float) -> tuple[str, str]:
    """(p95 as text, verdict) of server-side times against a p95 budget in milliseconds."""
    if not times:
        return "not measured", "FAIL"
    p95 = percentile(times, 95) * 1000
    return f"{p95:.1f} ms", "PASS" if p95 <= limit_ms else "FAIL"


def targets(rows: list[Row], loads: list[LoadResult], first: dict | None) -> list[tuple]:
    """(target, measured, PASS/FAIL/n/a) for each item of issue 13's budget."""
    out = []
    for load in loads:
        under = f"during the load run on the {load.seed} match, server-side"
        tap = load.server("damage tap")
        client = load.client("damage tap")
        value, verdict = _within(tap, TAP_P95_MS)
        out.append(
            (
                f"damage tap p95 ≤ {TAP_P95_MS:g} ms ({load.seed}; {under})",
                f"{value} (client-side {percentile(client, 95) * 1000:.1f} ms)",
                verdict,
            )
        )
        quiet = load.server("poll, nothing new (204)")
        client = load.client("poll, nothing new (204)")
        value, verdict = _within(quiet, QUIET_POLL_P95_MS)
        out.append(
            (
                f"quiet poll p95 ≤ {QUIET_POLL_P95_MS:g} ms (the probe's and the tablets' 204s; "
                f"{under})",
                f"{value} (client-side {percentile(client, 95) * 1000:.1f} ms)",
                verdict,
            )
        )
        out.append(
            (
                f"zero errors under load ({load.tablets} tablets on the {load.seed} match, "
                f"{load.seconds:.0f} s)",
                f"{len(load.errors)} errors in {len(load.samples)} requests",
                "PASS" if not load.errors and load.samples else "FAIL",
            )
        )
    if not loads:
        out.append(("the load run (tap and quiet poll p95, errors)", "not run", "n/a"))
    for size in SIZES:
        tap = _find(rows, TAP, size)
        out.append(
            (
                f"SQL statements per damage tap ≤ {TAP_QUERIES} ({size})",
                str(tap.queries) if tap else "not measured",
                ("PASS" if tap.queries <= TAP_QUERIES else "FAIL") if tap else "n/a",
            )
        )
        poll = _find(rows, QUIET_POLL, size)
        out.append(
            (
                f"quiet poll ≤ {QUIET_POLL_QUERIES} SQL statements, no template rendered ({size})",
                f"{poll.queries} statements, {poll.templates} templates"
                if poll
                else "not measured",
                ("PASS" if poll.queries <= QUIET_POLL_QUERIES and poll.templates == 0 else "FAIL")
                if poll
                else "n/a",
            )
        )
    if first is None:
        target = f"match page first load ≤ {FIRST_LOAD_KB:g} KB compressed"
        out.append((target, "not measured", "n/a"))
    else:
        kb = first["compressed"] / 1024
        out.append(
            (
                f"match page first load ≤ {FIRST_LOAD_KB:g} KB compressed",
                f"{kb:.1f} KB",
                "PASS" if kb <= FIRST_LOAD_KB else "FAIL",
            )
        )
    bad = [b for r in rows for b in r.bad]
    out.append(
        (
            "every timed request answered as expected",
            f"{len(bad)} unexpected" + (f" (first: {bad[0]})" if bad else ""),
            "PASS" if not bad else "FAIL",
        )
    )
    return out


def machine(stack: Stack, started: tuple[float, ...]) -> list[str]:
    from django.db import connection

    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT version()")
        else:
            cursor.execute("SELECT 'SQLite ' || sqlite_version()")
        db_version = cursor.fetchone()[0].split(" on ")[0]
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return [
        f"- machine: {os.cpu_count()} cores ({cpu or platform.machine()}), {platform.system()}",
        f"- Python {platform.python_version()}, Django {metadata.version('django')}, "
        f"gunicorn {metadata.version('gunicorn')} ({stack.workers} {server_kind(stack)}, "
        "as production), "
        f"whitenoise {metadata.version('whitenoise')}",
        f"- database: {stack.db_label}: {db_version}",
        "- load average (1, 5, 15 min) before the run: "
        + ", ".join(f"{n:.2f}" for n in started)
        + f"; after it: {', '.join(f'{n:.2f}' for n in os.getloadavg())} (a shared machine: "
        "other work running beside the benchmark shows in its times)",
        "- client: this script, http.client on 127.0.0.1, one kept-alive connection per simulated "
        "browser (opened again when the server has closed it)",
    ]


def _commit() -> str:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True, text=True
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=HERE,
            capture_output=True,
            text=True,
        )
        return done.stdout.strip() + (" (with uncommitted changes)" if dirty.stdout else "")
    except OSError:
        return "unknown"


def server_kind(stack: Stack) -> str:
    if stack.serves_asgi:
        return f"uvicorn {metadata.version('uvicorn')} workers, ASGI"
    return "sync workers"


HEADER = [
    "# Benchmark results",
    "",
    "Written by `bench/bench_http.py --write-results` (`make bench` runs it without writing): "
    "issue 13's performance budget, the latency, SQL queries and bytes of the key interactions, "
    "the match page's first load, and a load run on each seed, with the app served as in "
    "production (DEBUG off, gunicorn: uvicorn workers on SQLite, sync workers on PostgreSQL; "
    "whitenoise compressed static files) "
    "on 127.0.0.1. Each "
    "database has its own section (`## SQLite, ...`, `## PostgreSQL, ...`), rewritten by a run on "
    "that database (`DATABASE_URL=postgres://... ` for PostgreSQL); every other section (the "
    "other benchmarks' and the hand-written ones, such as `## Notes`) is kept as it is.",
    "",
]


def _database_kind() -> str:
    from django.db import connection

    return "PostgreSQL" if connection.vendor == "postgresql" else "SQLite"


def write_results(section: list[str]) -> None:
    """Replace this database's section of RESULTS.md (the one whose title starts ``## SQLite,``
    or ``## PostgreSQL,``), keeping every other section as it is and where it is."""
    text = RESULTS.read_text() if RESULTS.exists() else ""
    chunks = [c.rstrip() + "\n" for c in re.split(r"^(?=## )", text, flags=re.M)[1:]]
    mine = "\n".join(section).rstrip() + "\n"
    title = f"## {_database_kind()},"
    at = next((i for i, chunk in enumerate(chunks) if chunk.startswith(title)), None)
    if at is not None:
        chunks[at] = mine
    else:  # SQLite's first, then PostgreSQL's, then everything else
        chunks.insert(1 if chunks and chunks[0].startswith("## SQLite,") else 0, mine)
    RESULTS.write_text("\n".join(HEADER) + "\n" + "\n".join(chunks))


def report(
    stack: Stack,
    args: argparse.Namespace,
    rows: list[Row],
    base: Row,
    first: dict | None,
    loads: list[LoadResult],
    checks: list[tuple],
    started: tuple[float, ...],
) -> list[str]:
    out = [
        f"## {_database_kind()}, {date.today().isoformat()}, commit {_commit()}",
        "",
        *machine(stack, started),
        f"- command: `{' '.join(['python bench/bench_http.py', *sys.argv[1:]])}`",
        "",
        "### Targets",
        "",
        "| target | measured | result |",
        "|---|---|---|",
        *[f"| {name} | {value} | **{verdict}** |" for name, value, verdict in checks],
        "",
        "Seeds: **610 TV** is the North against the Peace River starter force (two rosters of 10 "
        "models), **60 models** two rosters of 12 combat groups of 5.",
        "",
    ]
    if loads:
        out += [
            "### Load runs",
            "",
            f"One run per seed: {loads[0].tablets} simulated tablets (threads, one connection "
            "each) on that seed's match, each polling every 3 s with the last event number it has "
            "seen and tapping a random model every 2-8 s (mark a box two times in three, else "
            "clear one), each tap with a fresh client key; the random choices are seeded, so "
            "every run sends the same workload (issue 7's, which ran on the 610 TV match only). "
            "With 20 tablets tapping one match nearly every poll finds new events, so a probe "
            "(one more connection) polls the other seed's match, where nothing happens, twice a "
            "second: its answers are quiet polls (204) under the same load. Requests/s is the "
            "workload's pace, not the server's capacity. A refused tap (clearing a box that is "
            "not crossed off) is a 200 with the message on the card, not an error.",
            "",
            "*Client-side* is this script's time on 127.0.0.1 from sending the request to the "
            "last byte of the answer: it includes any wait for the worker (and a TCP connect "
            "when the connection was closed). *Server-side* is the app's own time for the "
            "request (logged by gunicorn's sync workers, `%(D)s`, or under ASGI by "
            "`bench/timed_asgi.py` around production's app): from the moment the app has the "
            "request to the moment it has handed over the answer's last bytes. The budget is "
            "server-side. The client threads run on the same cores as the server, so each "
            "figure includes some of the other's work, and anything else the machine runs.",
            "",
        ]
        for load in loads:
            out += [
                f"#### {load.seed} match",
                "",
                *[f"- {line.strip()}" for line in load.lines()],
                "",
                *load.table(),
                "",
            ]
    out += [
        "### Interactions",
        "",
        f"{args.runs} timed requests each after {args.warmup} warm-up ones, one at a time (no "
        "load), each in a round with one request to the trivial view (`/ping`: no database, no "
        "template) and one to `/healthz` (a `SELECT 1`), in rotating order; client-side times "
        "as above. × trivial is the interaction's p50 over the trivial view's p50 across the "
        "same rounds, × healthz the same against `/healthz`: context only (issue 7's ratio "
        "targets are retired). SQL queries and templates are counted in-process (Django's test "
        "client and `CaptureQueriesContext` on the same database, session and user lookups "
        "included; a template counts once per name the view renders, a partial such as "
        "`page.html#part` too, not what it includes). "
        "Bytes are the response body: Django sends HTML uncompressed (there is no "
        "GZipMiddleware), so *gzip* is `gzip.compress` level 6 of it, what a compressing proxy "
        "would send; a 204 has no body.",
        "",
        *table(rows, base),
        "",
        "The option swap toggles a Grizzly's MBZK on and off; the damage tap crosses off a box of "
        "one model and clears it again, in turn, each with a fresh client key; the poll asks with "
        "the match's latest event number.",
        "",
    ]
    if first:
        out += [
            "### The match page's first load",
            "",
            "The board's HTML plus every stylesheet and script it references, fetched with "
            "`Accept-Encoding: gzip` (whitenoise sends the static files gzip-compressed; the HTML "
            "is counted gzip-compressed as above).",
            "",
            "| part | bytes sent by gunicorn | compressed | encoding sent |",
            "|---|---:|---:|---|",
            *[f"| `{p[0]}` | {p[1]:,} | {p[2]:,} | {p[3]} |" for p in first["parts"]],
            f"| **total** | {first['sent']:,} ({_kb(first['sent'])}) | "
            f"**{first['compressed']:,} ({_kb(first['compressed'])})** | |",
            "",
        ]
        if first["extras"]:
            out += [
                "Also fetched on a first visit, not counted in the target (it is about HTML, CSS "
                "and JS): the icon and manifest links, and the service worker (`/sw.js`) with "
                "the files it stores when it installs that the page did not load already:",
                "",
                "| part | bytes sent by gunicorn | compressed | encoding sent |",
                "|---|---:|---:|---|",
                *[f"| `{p[0]}` | {p[1]:,} | {p[2]:,} | {p[3]} |" for p in first["extras"]],
                f"| **total** | | **{first['extras_compressed']:,} "
                f"({_kb(first['extras_compressed'])})** | |",
                "",
            ]
    return out


# --- Main -----------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=200, help="timed requests (default 200)")
    parser.add_argument("--warmup", type=int, default=20, help="warm-up requests (default 20)")
    parser.add_argument(
        "--seconds", type=float, default=60, help="load run length, 0 skips it (default 60)"
    )
    parser.add_argument("--tablets", type=int, default=20, help="load run tablets (default 20)")
    parser.add_argument("--write-results", action="store_true", help="rewrite bench/RESULTS.md")
    args = parser.parse_args(argv)
    if not (1 <= args.runs <= 5000 and 0 <= args.warmup <= 1000 and 0 <= args.seconds <= 600):
        parser.error("--runs 1..5000, --warmup 0..1000, --seconds 0..600")

    started = os.getloadavg()
    with Stack() as stack:
        stack.setup_django()
        seeded = seed()
        stack.start()
        player = Client(stack.port)
        player.login()
        kind = server_kind(stack)
        print(f"gunicorn ({kind}) on 127.0.0.1:{stack.port}, {stack.db_label}", flush=True)

        rows: list[Row] = []
        index = 0
        for interaction in INTERACTIONS:
            for size in SIZES:
                row = Row(interaction.name, size)
                rows.append(row)
                plan = interaction.build(seeded, size)
                if plan is None:
                    row.note = interaction.missing
                    print(f"{interaction.name:20} {size:10} {row.note}", flush=True)
                    continue
                index = measure(
                    stack.port,
                    player.cookies,
                    plan,
                    row,
                    runs=args.runs,
                    warmup=args.warmup,
                    start=index,
                )
                row.queries, row.templates = inspect_request(
                    seeded.user_id, interaction.build(seeded, size), index
                )
                index += 2
                print(
                    f"{interaction.name:20} {size:10} p50 {row.p(50):7.2f} ms  p95 "
                    f"{row.p(95):7.2f} ms  {row.queries:2} queries  {row.templates:2} templates  "
                    f"{row.sent:7,} B ({row.gzipped:,} gzip)",
                    flush=True,
                )
        base = Row("trivial view", "")
        for row in rows:
            base.trivial += row.trivial
            base.health += row.health
        ping = Plan(lambda i: ("GET", TRIVIAL, None, {}))
        base.queries, base.templates = inspect_request(seeded.user_id, ping, 0)

        first = first_load(stack.port, player.cookies, seeded)
        loads = []
        if args.seconds > 0 and all(size in seeded.matches for size in SIZES):
            for busy, quiet in (SIZES, SIZES[::-1]):
                print(
                    f"load run: {args.tablets} tablets on the {busy} match for {args.seconds:g} s, "
                    f"the probe on the {quiet} match ...",
                    flush=True,
                )
                load = run_load(
                    stack.port,
                    player.cookies,
                    seeded.matches[busy],
                    seconds=args.seconds,
                    tablets=args.tablets,
                    quiet=seeded.matches[quiet],
                    stack=stack,
                    label=busy,
                )
                loads.append(load)
                print("\n".join(load.lines() + load.table()), flush=True)
        player.close()
        checks = targets(rows, loads, first)
        lines = report(stack, args, rows, base, first, loads, checks, started)
        if any(row.bad for row in rows):
            print("server log (tail):\n" + stack.server_log(), file=sys.stderr)

    print("\n".join(lines[lines.index("### Targets") :]))
    if args.write_results:
        write_results(lines)
        print(f"wrote {RESULTS.relative_to(HERE.parent)}")
    missed = [name for name, _, verdict in checks if verdict == "FAIL"]
    if missed:
        print("Missed:", "; ".join(missed))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
