"""Live push (issue 24): how soon the other tablets show a tap, what an idle board costs, and 200
idle streams on one server.

The app is served as in production (``bench/_server.py``: DEBUG off, migrate, collectstatic) on
127.0.0.1. On SQLite: one app server, gunicorn with one uvicorn worker, holding the pages and the
streams (the in-process fan-out, ``matches.push.MemoryBroker``). When ``DATABASE_URL`` names
PostgreSQL: a temporary database and ``deploy/stack`` (nginx in front of two app servers with
sync workers and two stream servers with uvicorn workers; PostgreSQL's LISTEN/NOTIFY carries a
tap from an app server to the streams), every tablet talking to nginx.

(a) Cross-device delay. ``--tablets`` tablets (default 20) on one match, each holding the
match's stream and polling the moment it says "seq N", as ``static/js/push.js`` makes a board do.
The tablets tap in turn (``--taps``, default 60; one tap at a time, a short pause between); a
tap's delay at tablet B is from the moment tablet A has the tap's answer to the moment B has both
the stream's event and its poll's answer (the change drawn). Negative: B had it before A's answer.

(b) Idle bytes per hour per board: one board's stream on a quiet match for ``--idle-seconds``
(default 60; heartbeats every 20 s), HTTP bytes both ways, extrapolated to an hour, plus the slow
safety polls an hour (``BLITZ_SAFETY_POLL_SECONDS``), each a 204 measured once.

(c) ``--streams`` idle streams (default 200) on one server (SQLite: the one app server;
PostgreSQL: one of the stack's stream servers), on a quiet match: that server's memory (RSS of its
master and workers) and the database connections held (PostgreSQL: ``pg_stat_activity``; SQLite:
the app server's open handles on the database file), before and with them; and a tap's time on
the server (``--tap-runs`` taps on one kept-alive connection after 20 untimed ones, p50/p95,
budget 15 ms) without and with them, and its client-side round trip; after each timed tap the
trivial view (``/ping``), whose time tells the machine's speed on the day. The taps go to a
timed app server: on SQLite the one (production's app wrapped by ``bench/timed_asgi.py``, which
logs each request's time); on PostgreSQL one more sync app server beside the stack (gunicorn
logs each request's time).

Small runs while developing: ``--taps 6 --tablets 4 --idle-seconds 25 --streams 20``.
``--write-results`` rewrites this benchmark's section of bench/RESULTS.md (``## Push-SQLite``
or ``## Push-PostgreSQL``), keeping every other section.
"""

from __future__ import annotations

import argparse
import http.client
import os
import queue
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from _server import LARGE, LOOPBACK, REALISTIC, Client, Stack, free_port, seed, write_section

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "RESULTS.md"
HTMX = {"HX-Request": "true"}
TAP_BUDGET_MS = 15.0
DELAY_P50_MS, DELAY_P95_MS = 300.0, 500.0
IDLE_BUDGET = 100 * 1024  # bytes an hour
SEQ = re.compile(r'data-seq="(\d+)"')


def _reverse(name: str, *args) -> str:
    from django.urls import reverse

    return reverse(name, args=args)


def send(client: Client, method: str, path: str, **kwargs):
    """One request as a browser sends it: a keep-alive connection the server has closed while
    it was idle is opened again, and the request sent again (a tap with the same key: once)."""
    try:
        return client.request(method, path, **kwargs)
    except (OSError, http.client.HTTPException):
        client.close()
        return client.request(method, path, **kwargs)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


# --- A board's stream, on a raw socket: every byte counted, each event timed ----------------------


class Stream:
    """One board's ``text/event-stream`` connection (HTTP/1.1, as a browser's EventSource)."""

    def __init__(self, port: int, path: str, cookies: dict, on_seq=None) -> None:
        self.on_seq = on_seq
        self.status = 0
        self.heartbeats = 0
        self.events = 0
        self.received = 0
        self.opened = threading.Event()  # the first event ("seq N" at connect) came
        self.connect_bytes = 0  # the request, the answer's head and its first event
        self.sock = socket.create_connection((LOOPBACK, port), timeout=60)
        cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {LOOPBACK}:{port}\r\nAccept: text/event-stream\r\n"
            f"Cache-Control: no-cache\r\nAccept-Encoding: gzip\r\nCookie: {cookie}\r\n\r\n"
        ).encode()
        self.sent = len(request)
        self.sock.sendall(request)
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        buffer, head = b"", True
        while True:
            try:
                chunk = self.sock.recv(65536)
            except OSError:
                break
            if not chunk:
                break
            now = time.perf_counter()
            self.received += len(chunk)
            buffer += chunk
            if head:
                if b"\r\n\r\n" not in buffer:
                    continue
                top, buffer = buffer.split(b"\r\n\r\n", 1)
                self.status = int(top.split(b" ", 2)[1])
                head = False
                if self.status != 200:
                    self.opened.set()
                    break
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                line = line.rstrip(b"\r")
                if line.startswith(b"data: "):
                    self.events += 1
                    if not self.opened.is_set():
                        self.connect_bytes = self.sent + self.received
                        self.opened.set()
                    if self.on_seq is not None:
                        self.on_seq(int(line[6:]), now)
                elif line == b": hb":
                    self.heartbeats += 1

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


class Tablet:
    """A board: its stream, and a poll the moment the stream names an event it has not drawn."""

    def __init__(self, port: int, cookies: dict, poll_path: str, stream_path: str, seq: int):
        self.client = Client(port, cookies=cookies, timeout=15)  # its polls
        self.tapper = Client(port, cookies=cookies, timeout=15)  # its taps (a browser: 6 sockets)
        self.poll_path = poll_path
        self.seen = seq
        self.drawn: dict[int, float] = {}  # event number -> when the poll that drew it answered
        self.heard: dict[int, float] = {}  # event number -> when the stream said it
        self._wake: queue.Queue[int] = queue.Queue()
        self._lock = threading.Lock()
        threading.Thread(target=self._poller, daemon=True).start()
        self.stream = Stream(port, stream_path, cookies, self._on_seq)

    def _on_seq(self, seq: int, when: float) -> None:
        self.heard.setdefault(seq, when)
        self._wake.put(seq)

    def _poller(self) -> None:
        while True:
            seq = self._wake.get()
            if seq is None:
                return
            with self._lock:
                if seq <= self.seen:
                    continue
                seen = self.seen
            try:
                path = f"{self.poll_path}?seq={seen}&joined=0"
                answer = send(self.client, "GET", path, headers=HTMX)
            except (OSError, http.client.HTTPException):
                continue
            now = time.perf_counter()
            found = SEQ.findall(answer.text)
            newest = max([int(n) for n in found] + [seq]) if answer.status == 200 else seen
            with self._lock:
                for number in range(seen + 1, newest + 1):
                    self.drawn.setdefault(number, now)
                self.seen = max(self.seen, newest)

    def tapped(self, seq: int) -> None:
        """This tablet made event ``seq``: its own answer drew it (no poll)."""
        with self._lock:
            self.seen = max(self.seen, seq)

    def close(self) -> None:
        self._wake.put(None)
        self.stream.close()
        self.client.close()
        self.tapper.close()


# --- The servers: one (SQLite) or nginx in front of four (PostgreSQL, deploy/stack) --------------


@dataclass
class Served:
    port: int  # where the tablets talk (nginx, or the one app server)
    label: str
    stop: object = None
    stream_port: int = 0  # PostgreSQL: a stream server of the stack (its pid file in run_dir)
    run_dir: Path | None = None

    def stream_pids(self) -> list[int]:
        """The stream server's gunicorn master and workers."""
        assert self.run_dir is not None
        master = int((self.run_dir / f"gunicorn-{self.stream_port}.pid").read_text())
        return _children(master)


def _children(pid: int) -> list[int]:
    done = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True)
    return [pid] + [int(p) for p in done.stdout.split()]


def serve(stack: Stack, tmp: Path) -> Served:
    if not stack.pg_database:
        stack.start()
        return Served(stack.port, "one app server")
    run = tmp / "stack"
    proxy, one, two, three, four = (free_port() for _ in range(5))
    env = stack.env | {
        "ALLOWED_HOSTS": f"{LOOPBACK},localhost",
        "BLITZ_PROXY_PORT": str(proxy),
        "BLITZ_APP_PORTS": f"{one} {two}",
        "BLITZ_STREAM_PORTS": f"{three} {four}",
        "BLITZ_WORKERS": "1",
        "BLITZ_STREAM_WORKERS": "1",
    }
    script = str(HERE.parent / "deploy" / "stack")
    done = subprocess.run(
        [script, "start", str(run)], env=env, capture_output=True, text=True, timeout=300
    )
    if done.returncode != 0:
        raise RuntimeError(f"deploy/stack start failed:\n{done.stderr[-3000:]}")

    def stop() -> None:
        subprocess.run([script, "stop", str(run)], env=env, capture_output=True, timeout=120)

    label = "nginx in front of two app servers (sync workers) and two stream servers (uvicorn)"
    return Served(proxy, label, stop, stream_port=three, run_dir=run)


def rss_kb(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        found = re.search(r"^VmRSS:\s+(\d+) kB", status, re.M)
        total += int(found[1]) if found else 0
    return total


def db_connections(stack: Stack, pids: list[int]) -> int:
    """Database connections held: PostgreSQL's sessions on the benchmark database (every app
    server's, and this process's own closed first), or the app server's SQLite file handles."""
    from django.db import connection, connections

    if stack.pg_database:
        connections.close_all()
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND pid <> "
                "pg_backend_pid()",
                [stack.pg_database],
            )
            count = cursor.fetchone()[0]
        connections.close_all()
        return count
    database = str(stack.tmp / "bench.sqlite3")
    held = 0
    for pid in pids:
        try:
            handles = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for handle in handles:
            try:
                if os.readlink(f"/proc/{pid}/fd/{handle}") == database:
                    held += 1
            except OSError:
                pass
    return held


# --- The three measurements -----------------------------------------------------------------------


@dataclass
class Results:
    delays: list[float] = field(default_factory=list)  # ms
    heard: list[float] = field(default_factory=list)  # ms: the stream's event alone
    missed: int = 0
    taps: int = 0
    tablets: int = 0
    idle_seconds: float = 0
    idle_connect: int = 0
    idle_stream: int = 0  # after the connect
    heartbeats: int = 0
    poll_bytes: int = 0
    safety_polls: float = 0
    streams: int = 0
    opened: int = 0
    rss_before: int = 0
    rss_with: int = 0
    db_before: int = 0
    db_with: int = 0
    tap_without: list[float] = field(default_factory=list)  # ms, client-side round trip
    tap_with: list[float] = field(default_factory=list)
    tap_server_without: list[float] = field(default_factory=list)  # ms, on the server
    tap_server_with: list[float] = field(default_factory=list)
    # ms on the server: the trivial view (no database, no template), one after each tap. The
    # machine's speed on the day, to read the taps' times against: a shared machine's varies.
    ping_server: list[float] = field(default_factory=list)

    @property
    def idle_per_hour(self) -> float:
        stream = self.idle_stream / self.idle_seconds * 3600 if self.idle_seconds else 0
        return self.idle_connect + stream + self.safety_polls * self.poll_bytes


def tap_op(i: int, unit: str) -> dict:
    return {"op": f"{'mark' if i % 2 == 0 else 'clear'} {unit}", "key": uuid.uuid4().hex}


def cross_device(served: Served, cookies: dict, match, args, out: Results) -> None:
    from matches.models import Match

    seq = Match.objects.get(pk=match.pk).seq
    poll = _reverse("matches:match-poll", match.pk)
    stream = _reverse("matches:stream", match.pk)
    event = _reverse("matches:match-event", match.pk)
    tablets = [Tablet(served.port, cookies, poll, stream, seq) for _ in range(args.tablets)]
    try:
        for tablet in tablets:
            if not tablet.stream.opened.wait(15) or tablet.stream.status != 200:
                raise RuntimeError(f"a stream did not open ({tablet.stream.status})")
        unit = match.units[0]
        for i in range(args.taps):
            tapping = tablets[i % len(tablets)]
            answer = send(tapping.tapper, "POST", event, data=tap_op(i + seq, unit), headers=HTMX)
            answered = time.perf_counter()
            if answer.status != 200:
                raise RuntimeError(f"a tap answered {answer.status}: {answer.text[:200]}")
            seq += 1
            tapping.tapped(seq)
            others = [t for t in tablets if t is not tapping]
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and any(seq not in t.drawn for t in others):
                time.sleep(0.002)
            for tablet in others:
                if seq in tablet.drawn:
                    out.delays.append((tablet.drawn[seq] - answered) * 1000)
                    out.heard.append((tablet.heard.get(seq, answered) - answered) * 1000)
                else:
                    out.missed += 1
            out.taps += 1
            time.sleep(random.uniform(0.1, 0.3))
    finally:
        for tablet in tablets:
            tablet.close()
    out.tablets = args.tablets


def raw_exchange(port: int, path: str, cookies: dict) -> int:
    """Bytes both ways of one poll as a board sends it (HTTP/1.1, its cookies)."""
    cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
    request = (
        f"GET {path} HTTP/1.1\r\nHost: {LOOPBACK}:{port}\r\nHX-Request: true\r\n"
        f"Accept-Encoding: gzip\r\nCookie: {cookie}\r\nConnection: close\r\n\r\n"
    ).encode()
    with socket.create_connection((LOOPBACK, port), timeout=15) as sock:
        sock.sendall(request)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    if b" 204 " not in received.split(b"\r\n", 1)[0]:
        raise RuntimeError(f"the quiet poll did not answer 204: {received[:100]!r}")
    return len(request) + len(received)


def idle_board(served: Served, cookies: dict, match, args, out: Results) -> None:
    from django.conf import settings

    from matches.models import Match

    seq = Match.objects.get(pk=match.pk).seq
    stream = Stream(served.port, _reverse("matches:stream", match.pk), cookies)
    if not stream.opened.wait(15) or stream.status != 200:
        raise RuntimeError(f"the idle stream did not open ({stream.status})")
    time.sleep(args.idle_seconds)
    stream.close()
    out.idle_seconds = args.idle_seconds
    out.idle_connect = stream.connect_bytes
    out.idle_stream = stream.sent + stream.received - stream.connect_bytes
    out.heartbeats = stream.heartbeats
    poll = f"{_reverse('matches:match-poll', match.pk)}?seq={seq}&joined=0"
    out.poll_bytes = raw_exchange(served.port, poll, cookies)
    out.safety_polls = 3600 / settings.BLITZ_SAFETY_POLL_SECONDS


WARMUP_TAPS = 20  # sent to the timed app server before its taps are timed


def tap_times(
    stack: Stack, cookies: dict, match, runs: int, start: int, pings: list[float]
) -> tuple[list, list]:
    """``runs`` taps on one kept-alive connection to the app server ``stack`` started: their
    client-side round trips and their times on the server (ms). After each tap the same
    connection asks for the trivial view (``/ping``), whose times on the server go in ``pings``."""
    client = Client(stack.port, cookies=cookies)
    event = _reverse("matches:match-event", match.pk)
    times = []
    offset = stack.access_offset()
    try:
        for i in range(runs):
            data = tap_op(start + i, match.units[0])
            answer = send(client, "POST", event, data=data, headers=HTMX)
            if answer.status != 200:
                raise RuntimeError(f"a tap answered {answer.status}")
            times.append(answer.seconds * 1000)
            if send(client, "GET", "/ping").status != 200:
                raise RuntimeError("/ping did not answer 200")
    finally:
        client.close()
    served = stack.served(offset)
    pings.extend(r.seconds * 1000 for r in served if r.path == "/ping")
    server = [r.seconds * 1000 for r in served if r.method == "POST"]
    if len(server) != runs:
        raise RuntimeError(f"{runs} taps sent, {len(server)} timed on the server")
    return times, server


def idle_streams(stack, served, cookies, busy, quiet, args, out: Results) -> None:
    from matches.models import Match

    out.streams = args.streams
    if not stack.server_pid:  # PostgreSQL: one more app server, as production's, timed
        stack.start()
    # The streams' server: the one app server (SQLite), or a stream server of the stack.
    stream_port = served.stream_port or stack.port
    pids = served.stream_pids() if served.stream_port else _children(stack.server_pid)
    start = Match.objects.get(pk=busy.pk).seq
    # Warm-up, not timed: a server's first requests load templates and read the match's state.
    tap_times(stack, cookies, busy, WARMUP_TAPS, start, [])
    start += WARMUP_TAPS
    out.tap_without, out.tap_server_without = tap_times(
        stack, cookies, busy, args.tap_runs, start, out.ping_server
    )
    time.sleep(1)
    out.rss_before = rss_kb(pids)
    out.db_before = db_connections(stack, pids)
    path = _reverse("matches:watch-stream", Match.objects.get(pk=quiet.pk).watch_slug)
    streams = []
    try:
        for _ in range(args.streams):
            streams.append(Stream(stream_port, path, {}))
        deadline = time.monotonic() + 60
        for stream in streams:
            stream.opened.wait(max(0.1, deadline - time.monotonic()))
        out.opened = sum(stream.status == 200 and stream.events > 0 for stream in streams)
        time.sleep(2)  # every stream waiting: nothing more to read at connect
        out.rss_with = rss_kb(pids)
        out.db_with = db_connections(stack, pids)
        start += args.tap_runs
        out.tap_with, out.tap_server_with = tap_times(
            stack, cookies, busy, args.tap_runs, start, out.ping_server
        )
    finally:
        for stream in streams:
            stream.close()


# --- Reporting ------------------------------------------------------------------------------------


def _commit() -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True)
    return done.stdout.decode().strip() or "unknown"


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def report(stack: Stack, served: Served, args, out: Results) -> tuple[list[str], list[tuple]]:
    kind = "PostgreSQL" if stack.pg_database else "SQLite"
    p50, p95 = pct(out.delays, 50), pct(out.delays, 95)
    worst = max(out.delays) if out.delays else float("nan")
    tap95_without, tap95_with = pct(out.tap_server_without, 95), pct(out.tap_server_with, 95)
    from django.conf import settings

    # PostgreSQL: the app server's pool may grow to its size while the streams connect at once
    # (each reads the database once, as it connects); streams that held a connection could not
    # all open on it. SQLite: a request's connection may still be closing.
    grown = settings.DATABASES["default"]["OPTIONS"]["pool"]["max_size"] if stack.pg_database else 2
    checks = [
        (f"cross-device delay p50 ≤ {DELAY_P50_MS:g} ms", f"{p50:.0f} ms", p50 <= DELAY_P50_MS),
        (f"cross-device delay p95 ≤ {DELAY_P95_MS:g} ms", f"{p95:.0f} ms", p95 <= DELAY_P95_MS),
        ("every tablet drew every tap within 5 s", f"{out.missed} missed", out.missed == 0),
        (
            "idle board ≤ 100 KB an hour",
            f"{out.idle_per_hour / 1024:.1f} KB",
            out.idle_per_hour <= IDLE_BUDGET,
        ),
        (
            f"{out.streams} idle streams open",
            f"{out.opened} open",
            out.opened == out.streams,
        ),
        (
            f"database connections held by {out.streams} idle streams: none a stream "
            f"(at most {grown} more{' (its pool growing)' if stack.pg_database else ''})",
            f"{out.db_before} before, {out.db_with} with them",
            out.db_with - out.db_before <= grown,
        ),
        (
            f"tap p95 with {out.streams} idle streams ≤ {TAP_BUDGET_MS:g} ms (server-side)",
            f"{tap95_with:.1f} ms (without: {tap95_without:.1f} ms)",
            tap95_with <= TAP_BUDGET_MS,
        ),
    ]
    streams_on = "one of the stack's stream servers" if stack.pg_database else "the app server"
    tap_server = (
        "one more app server beside the stack (sync workers; gunicorn logs each request's time)"
        if stack.pg_database
        else "it (``bench/timed_asgi.py`` logs each request's time)"
    )
    lines = [
        f"## Push-{kind}: live push, {date.today().isoformat()}, commit {_commit()}",
        "",
        f"Written by `bench/bench_push.py --write-results`: {kind}, {served.label} "
        f"(port {served.port}), on 127.0.0.1; {os.cpu_count()} "
        f"CPUs, load average before {os.getloadavg()[0]:.2f}. Settings: {out.tablets} tablets, "
        f"{out.taps} taps, idle board {out.idle_seconds:g} s, {out.streams} idle streams, "
        f"{args.tap_runs} taps timed each way (after {WARMUP_TAPS} untimed).",
        "",
        "| target | measured | verdict |",
        "|---|---|---|",
        *[f"| {name} | {value} | {verdict(ok)} |" for name, value, ok in checks],
        "",
        f"**(a) Cross-device delay**, {len(out.delays)} samples ({out.taps} taps × "
        f"{out.tablets - 1} other tablets): from tablet A's tap answer to tablet B's poll "
        f"answer after the stream's event: p50 {p50:.0f} ms, p95 {p95:.0f} ms, max {worst:.0f} ms "
        f"(the stream's event alone: p50 {pct(out.heard, 50):.0f} ms, p95 "
        f"{pct(out.heard, 95):.0f} ms). Before the push (2 s poll): p50 1,310 ms, p95 1,910 ms.",
        "",
        f"**(b) Idle board**: its stream's connect (request, answer head, first event) "
        f"{out.idle_connect:,} bytes once; then {out.idle_stream:,} bytes in "
        f"{out.idle_seconds:g} s ({out.heartbeats} heartbeats), extrapolated to an hour; plus "
        f"{out.safety_polls:g} safety polls an "
        f"hour of {out.poll_bytes:,} bytes each (a 204, HTTP bytes both ways, no TCP/IP "
        f"overhead): **{out.idle_per_hour / 1024:.1f} KB an hour** (polling every 2 s: 2.8 MB).",
        "",
        f"**(c) {out.streams} idle streams** (a quiet match's watch stream) on "
        f"{streams_on}, the taps timed on {tap_server}: "
        f"{out.opened} open; that server's RSS {out.rss_before / 1024:.0f} MB before, "
        f"{out.rss_with / 1024:.0f} MB with them "
        f"({(out.rss_with - out.rss_before) / max(out.opened, 1):.1f} KB a stream); database "
        f"connections {out.db_before} before, {out.db_with} with them; a tap (one kept-alive "
        f"connection) p50/p95 on the server {pct(out.tap_server_without, 50):.1f}/"
        f"{tap95_without:.1f} ms without, {pct(out.tap_server_with, 50):.1f}/{tap95_with:.1f} ms "
        f"with; client-side round trip {pct(out.tap_without, 50):.1f}/"
        f"{pct(out.tap_without, 95):.1f} ms without, {pct(out.tap_with, 50):.1f}/"
        f"{pct(out.tap_with, 95):.1f} ms with. The trivial view (`/ping`: no database, no "
        f"template) on the same server, after each tap: p50/p95 {pct(out.ping_server, 50):.2f}/"
        f"{pct(out.ping_server, 95):.2f} ms (the machine's speed on the day).",
        "",
    ]
    return lines, checks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tablets", type=int, default=20, help="tablets on the match (20)")
    parser.add_argument("--taps", type=int, default=60, help="taps for the delay (60)")
    parser.add_argument("--idle-seconds", type=float, default=60, help="idle board run (60 s)")
    parser.add_argument("--streams", type=int, default=200, help="idle streams (200)")
    parser.add_argument("--tap-runs", type=int, default=300, help="taps timed each way (300)")
    parser.add_argument("--write-results", action="store_true", help="rewrite its RESULTS.md part")
    args = parser.parse_args(argv)
    if not (
        2 <= args.tablets <= 100
        and 1 <= args.taps <= 2000
        and 1 <= args.idle_seconds <= 3600
        and 1 <= args.streams <= 2000
        and 1 <= args.tap_runs <= 2000
    ):
        parser.error("--tablets 2..100, --taps 1..2000, --idle-seconds 1..3600, --streams 1..2000")
    limit = str(args.streams + args.tablets + 10)
    os.environ["BLITZ_PUSH_PER_ADDRESS"] = limit  # every tablet here has one address
    tmp = Path(tempfile.mkdtemp(prefix="blitz-push-"))
    served = None
    with Stack(workers=1) as stack:  # as production serves this database
        stack.setup_django()
        seeded = seed()
        try:
            served = serve(stack, tmp)
            player = Client(served.port)
            player.login()
            busy, quiet = seeded.matches[REALISTIC], seeded.matches[LARGE]
            player.get(_reverse("matches:match-board", busy.pk))  # the seat cookie, CSRF
            player.get(_reverse("matches:match-board", quiet.pk))
            cookies = dict(player.cookies)
            print(f"{stack.db_label}, {served.label} at 127.0.0.1:{served.port}", flush=True)
            out = Results()
            cross_device(served, cookies, busy, args, out)
            print(f"(a) {len(out.delays)} delays, {out.missed} missed", flush=True)
            idle_board(served, cookies, quiet, args, out)
            print(f"(b) {out.idle_per_hour / 1024:.1f} KB an hour", flush=True)
            idle_streams(stack, served, cookies, busy, quiet, args, out)
            print(f"(c) {out.opened} of {out.streams} streams open", flush=True)
            lines, checks = report(stack, served, args, out)
        except BaseException:
            print("server log (tail):\n" + stack.server_log(), file=sys.stderr)
            raise
        finally:
            if served is not None and served.stop is not None:
                served.stop()
    print("\n".join(lines))
    if args.write_results:
        write_section(lines)
        print(f"wrote {RESULTS.relative_to(HERE.parent)}")
    missed = [name for name, _, ok in checks if not ok]
    if missed:
        print("Missed:", "; ".join(missed))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
