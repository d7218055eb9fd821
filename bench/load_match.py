"""Load run: tablets polling a live match and tapping damage, against the app on 127.0.0.1.

Each simulated tablet is a thread with its own connection. It polls the board's poll endpoint every
3 s with the last event number it has seen (as the board does: 204 when nothing is new, else the
changed parts, from which it reads the new number), and every 2-8 s (at random) taps a random model
of the match: "mark" (two times in three) or "clear" a damage box, each tap with a fresh client key.
With 20 tablets on one match nearly every poll finds new events, so one more thread, the probe,
polls a second match where nothing happens, twice a second: its answers are quiet polls (204)
served under the same load. The run is bounded in time (``--seconds``) and in requests per thread,
and talks only to 127.0.0.1.

Each request is timed twice: by the client (on loopback, so it includes any wait for the worker
and a TCP connect when the connection was closed) and by the server (the access log: gunicorn's
``%(D)s`` under sync workers, ``bench/timed_asgi.py`` under ASGI, as production serves: from the
moment the app has the request to the moment it has handed over the answer).

An error is a request that failed (no answer, a timeout, a reset) or answered with a status the
board does not expect (poll: 200 or 204; tap: 200). A tap the rules refuse (clearing a box that is
not crossed off) is a 200 with its message on the card: counted as "refused", not as an error.

Standalone (sets up its own database and server): ``.venv/bin/python bench/load_match.py
[--seconds 60] [--tablets 20]``; ``bench_http.py`` runs it after the latency table.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _server import LARGE, REALISTIC, Client, MatchSeed, Stack, seed  # noqa: E402

POLL_EVERY = 3.0
PROBE_EVERY = 0.5
TAP_EVERY = (2.0, 8.0)
MAX_REQUESTS_PER_SECOND = 5  # per tablet: a bound on the loop, far above what it sends
POLLER_SEQ = re.compile(r'id="poller" data-seq="(\d+)"')
REFUSED = 'class="msg error"'


@dataclass
class Sample:
    kind: str  # "poll" or "tap" (a tablet's), or "probe" (the probe's poll of the quiet match)
    seconds: float
    status: int  # 0 when the request failed
    error: str = ""
    refused: bool = False


# What the results show: a name and which requests it takes, by (kind, status).
KINDS: dict[str, Callable[[str, int], bool]] = {
    "damage tap": lambda kind, status: kind == "tap",
    "poll, nothing new (204)": lambda kind, status: kind in ("poll", "probe") and status == 204,
    "poll with changes (200)": lambda kind, status: kind in ("poll", "probe") and status == 200,
    "every poll of the tablets": lambda kind, status: kind == "poll",
}


@dataclass
class LoadResult:
    tablets: int
    seconds: float
    seed: str = REALISTIC
    samples: list[Sample] = field(default_factory=list)
    # The server's own times (the access log), as (kind, status, seconds)
    served: list[tuple[str, int, float]] = field(default_factory=list)

    @property
    def errors(self) -> list[Sample]:
        return [s for s in self.samples if s.error]

    @property
    def requests_per_second(self) -> float:
        return len(self.samples) / self.seconds if self.seconds else 0.0

    def client(self, name: str) -> list[float]:
        """Client-side times (seconds, sorted) of the requests ``KINDS[name]`` takes."""
        take = KINDS[name]
        return sorted(s.seconds for s in self.samples if not s.error and take(s.kind, s.status))

    def server(self, name: str) -> list[float]:
        """Server-side times (seconds, sorted) of the requests ``KINDS[name]`` takes."""
        take = KINDS[name]
        return sorted(seconds for kind, status, seconds in self.served if take(kind, status))

    def count(self, kind: str) -> int:
        return sum(1 for s in self.samples if s.kind == kind)

    @property
    def refused(self) -> int:
        return sum(1 for s in self.samples if s.refused)

    def lines(self) -> list[str]:
        polls, taps, probes = self.count("poll"), self.count("tap"), self.count("probe")
        out = [
            f"{self.tablets} tablets on the {self.seed} match for {self.seconds:.0f} s: "
            f"{polls + taps} requests ({polls} polls, {taps} taps), "
            f"{(polls + taps) / self.seconds:.1f} requests/s; the probe: {probes} polls of the "
            "quiet match",
            f"errors: {len(self.errors)}; taps refused by the rules (not errors): {self.refused}",
        ]
        for sample in self.errors[:5]:
            out.append(f"  error: {sample.kind} -> {sample.status} {sample.error}")
        return out

    def table(self) -> list[str]:
        out = [
            "| request | count | client p50 ms | client p95 ms | server p50 ms | server p95 ms |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for name in KINDS:
            client, server = self.client(name), self.server(name)
            out.append(
                f"| {name} | {len(client)} | {_ms(client, 50)} | {_ms(client, 95)} | "
                f"{_ms(server, 50)} | {_ms(server, 95)} |"
            )
        return out


def _ms(times: list[float], q: float) -> str:
    return f"{percentile(times, q) * 1000:.1f}" if times else "—"


def percentile(sorted_values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of already sorted values."""
    if not sorted_values:
        return float("nan")
    rank = max(1, min(len(sorted_values), round(q / 100 * len(sorted_values) + 0.5)))
    return sorted_values[rank - 1]


@dataclass(frozen=True)
class Job:
    """What one thread of the load run does: poll ``poll_url`` and, if given, tap ``event_url``."""

    kind: str  # "poll" for a tablet (its taps are "tap"), "probe" for the probe
    port: int
    cookies: dict
    poll_url: str
    event_url: str  # "" for the probe: it only polls
    units: tuple[str, ...]
    seq: int
    deadline: float
    seconds: float
    poll_every: float = POLL_EVERY


def _tablet(index: int, job: Job, out: list[Sample], lock: threading.Lock) -> None:
    rng = random.Random(index)
    seq = job.seq
    client = Client(job.port, timeout=10.0, cookies=job.cookies)
    htmx = {"HX-Request": "true"}
    start = time.monotonic()
    next_poll = start + rng.uniform(0, job.poll_every)
    next_tap = start + rng.uniform(*TAP_EVERY) if job.event_url else float("inf")
    mine: list[Sample] = []
    try:
        for _ in range(int(job.seconds * MAX_REQUESTS_PER_SECOND) + 10):
            due = min(next_poll, next_tap)
            if due >= job.deadline:
                break
            pause = due - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            kind = job.kind if next_poll <= next_tap else "tap"
            began = time.perf_counter()
            try:
                if kind != "tap":
                    next_poll = max(next_poll + job.poll_every, time.monotonic())
                    answer = client.get(f"{job.poll_url}?seq={seq}", headers=htmx)
                else:
                    next_tap = time.monotonic() + rng.uniform(*TAP_EVERY)
                    op = "mark" if rng.random() < 2 / 3 else "clear"
                    data = {"op": f"{op} {rng.choice(job.units)}", "key": uuid.uuid4().hex}
                    answer = client.post(job.event_url, data, headers=htmx)
            except Exception as error:  # no answer, timeout, reset: all errors
                mine.append(Sample(kind, time.perf_counter() - began, 0, type(error).__name__))
                continue
            expected = {200} if kind == "tap" else {200, 204}
            sample = Sample(kind, answer.seconds, answer.status)
            if answer.status not in expected:
                sample.error = answer.text[:120].replace("\n", " ")
            elif kind != "tap" and answer.status == 200:
                found = POLLER_SEQ.search(answer.text)
                if found:
                    seq = int(found[1])
            elif kind == "tap" and REFUSED in answer.text:
                sample.refused = True
            mine.append(sample)
    finally:
        client.close()
        with lock:
            out.extend(mine)


def _urls(match: MatchSeed) -> tuple[str, str, int]:
    """The match's poll and event URLs, and its latest event number."""
    from django.urls import reverse

    from matches.models import Match

    seq = Match.objects.filter(pk=match.pk).values_list("seq", flat=True).get()
    poll = reverse("matches:match-poll", args=[match.pk])
    return poll, reverse("matches:match-event", args=[match.pk]), seq


def run_load(
    port: int,
    cookies: dict,
    match: MatchSeed,
    *,
    seconds: float = 60,
    tablets: int = 20,
    quiet: MatchSeed | None = None,
    stack: Stack | None = None,
    label: str = REALISTIC,
) -> LoadResult:
    """Run ``tablets`` threads against the match for ``seconds`` (and the probe against the
    ``quiet`` match, when given) and collect every request, with the server's own times when
    ``stack`` is given."""
    poll_url, event_url, seq = _urls(match)
    start = time.monotonic()
    deadline = start + seconds
    jobs = [
        Job("poll", port, cookies, poll_url, event_url, match.units, seq, deadline, seconds)
    ] * tablets
    quiet_poll = ""
    if quiet is not None:
        quiet_poll, _, quiet_seq = _urls(quiet)
        jobs.append(
            Job("probe", port, cookies, quiet_poll, "", (), quiet_seq, deadline, seconds,
                poll_every=PROBE_EVERY)
        )  # fmt: skip
    offset = stack.access_offset() if stack else 0
    samples: list[Sample] = []
    lock = threading.Lock()
    threads = [
        threading.Thread(target=_tablet, args=(i, job, samples, lock), daemon=True)
        for i, job in enumerate(jobs)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 30)  # a request times out after 10 s: this is plenty
    elapsed = time.monotonic() - start
    result = LoadResult(tablets, min(elapsed, seconds + 30), label, samples)
    if stack:
        kinds = {("POST", event_url): "tap", ("GET", poll_url): "poll"}
        kinds[("GET", quiet_poll)] = "probe"
        for served in stack.served(offset):
            kind = kinds.get((served.method, served.path))
            if kind:
                result.served.append((kind, served.status, served.seconds))
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60, help="how long (default 60)")
    parser.add_argument("--tablets", type=int, default=20, help="how many (default 20)")
    parser.add_argument(
        "--seed", choices=(REALISTIC, LARGE), default=REALISTIC, help="the busy match's armies"
    )
    args = parser.parse_args(argv)
    if not 0 < args.seconds <= 600 or not 0 < args.tablets <= 100:
        parser.error("--seconds must be in (0, 600] and --tablets in (0, 100]")
    with Stack() as stack:  # as production serves this database
        stack.setup_django()
        seeded = seed()
        if REALISTIC not in seeded.matches:
            print("n/a: the match tracker is not built in this checkout")
            return 0
        stack.start()
        player = Client(stack.port)
        player.login()
        from django.urls import reverse

        busy = seeded.matches[args.seed]
        quiet = seeded.matches[LARGE if args.seed == REALISTIC else REALISTIC]
        for match in (busy, quiet):
            board = player.get(reverse("matches:match-board", args=[match.pk]))
            if board.status != 200:
                raise RuntimeError(f"the match board did not load ({board.status})")
        kind = "uvicorn (ASGI)" if stack.serves_asgi else "sync"
        print(f"database: {stack.db_label}; gunicorn, {stack.workers} {kind} workers, 127.0.0.1")
        result = run_load(
            stack.port,
            player.cookies,
            busy,
            seconds=args.seconds,
            tablets=args.tablets,
            quiet=quiet,
            stack=stack,
            label=args.seed,
        )
    print("\n".join(result.lines() + result.table()))
    print("target: zero errors under load:", "PASS" if not result.errors else "FAIL")
    return 0 if not result.errors else 1


if __name__ == "__main__":
    sys.exit(main())
