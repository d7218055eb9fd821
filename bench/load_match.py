"""Load run: tablets polling a live match and tapping damage, against gunicorn on 127.0.0.1.

Each simulated tablet is a thread with its own connection. It polls the board's poll endpoint every
3 s with the last event number it has seen (as the board does: 204 when nothing is new, else the
changed parts, from which it reads the new number), and every 2-8 s (at random) taps a random model
of the match: "mark" (two times in three) or "clear" a damage box, each tap with a fresh client key.
The run is bounded in time (``--seconds``) and in requests per tablet, and talks only to 127.0.0.1.

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
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _server import REALISTIC, Client, MatchSeed, Stack, seed  # noqa: E402

POLL_EVERY = 3.0
TAP_EVERY = (2.0, 8.0)
MAX_REQUESTS_PER_SECOND = 5  # per tablet: a bound on the loop, far above what it sends
POLLER_SEQ = re.compile(r'id="poller" data-seq="(\d+)"')
REFUSED = 'class="msg error"'


@dataclass
class Sample:
    kind: str  # "poll" or "tap"
    seconds: float
    status: int  # 0 when the request failed
    error: str = ""
    refused: bool = False


@dataclass
class LoadResult:
    tablets: int
    seconds: float
    samples: list[Sample] = field(default_factory=list)

    @property
    def errors(self) -> list[Sample]:
        return [s for s in self.samples if s.error]

    @property
    def requests_per_second(self) -> float:
        return len(self.samples) / self.seconds if self.seconds else 0.0

    def percentile(self, q: float, kind: str | None = None) -> float:
        times = sorted(s.seconds for s in self.samples if kind in (None, s.kind) and not s.error)
        return percentile(times, q) * 1000 if times else float("nan")

    def count(self, kind: str) -> int:
        return sum(1 for s in self.samples if s.kind == kind)

    @property
    def refused(self) -> int:
        return sum(1 for s in self.samples if s.refused)

    def lines(self) -> list[str]:
        polls, taps = self.count("poll"), self.count("tap")
        out = [
            f"{self.tablets} tablets for {self.seconds:.0f} s: {len(self.samples)} requests "
            f"({polls} polls, {taps} taps), {self.requests_per_second:.1f} requests/s",
            f"latency p50 {self.percentile(50):.1f} ms, p95 {self.percentile(95):.1f} ms "
            f"(polls p95 {self.percentile(95, 'poll'):.1f} ms, "
            f"taps p95 {self.percentile(95, 'tap'):.1f} ms)",
            f"errors: {len(self.errors)}; taps refused by the rules (not errors): {self.refused}",
        ]
        for sample in self.errors[:5]:
            out.append(f"  error: {sample.kind} -> {sample.status} {sample.error}")
        return out


def percentile(sorted_values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of already sorted values."""
    if not sorted_values:
        return float("nan")
    rank = max(1, min(len(sorted_values), round(q / 100 * len(sorted_values) + 0.5)))
    return sorted_values[rank - 1]


def _tablet(
    index: int,
    port: int,
    cookies: dict,
    urls: tuple[str, str],
    units: tuple[str, ...],
    seq: int,
    deadline: float,
    seconds: float,
    out: list[Sample],
    lock: threading.Lock,
) -> None:
    rng = random.Random(index)
    poll_url, event_url = urls
    client = Client(port, timeout=10.0, cookies=cookies)
    htmx = {"HX-Request": "true"}
    start = time.monotonic()
    next_poll = start + rng.uniform(0, POLL_EVERY)
    next_tap = start + rng.uniform(*TAP_EVERY)
    mine: list[Sample] = []
    try:
        for _ in range(int(seconds * MAX_REQUESTS_PER_SECOND) + 10):
            due = min(next_poll, next_tap)
            if due >= deadline:
                break
            pause = due - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            kind = "poll" if next_poll <= next_tap else "tap"
            began = time.perf_counter()
            try:
                if kind == "poll":
                    next_poll = max(next_poll + POLL_EVERY, time.monotonic())
                    answer = client.get(f"{poll_url}?seq={seq}", headers=htmx)
                else:
                    next_tap = time.monotonic() + rng.uniform(*TAP_EVERY)
                    op = "mark" if rng.random() < 2 / 3 else "clear"
                    data = {"op": f"{op} {rng.choice(units)}", "key": uuid.uuid4().hex}
                    answer = client.post(event_url, data, headers=htmx)
            except Exception as error:  # no answer, timeout, reset: all errors
                mine.append(Sample(kind, time.perf_counter() - began, 0, type(error).__name__))
                continue
            expected = {200, 204} if kind == "poll" else {200}
            sample = Sample(kind, answer.seconds, answer.status)
            if answer.status not in expected:
                sample.error = answer.text[:120].replace("\n", " ")
            elif kind == "poll" and answer.status == 200:
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


def run_load(
    port: int, cookies: dict, match: MatchSeed, *, seconds: float = 60, tablets: int = 20
) -> LoadResult:
    """Run ``tablets`` threads against the match for ``seconds`` and collect every request."""
    from django.urls import reverse

    from matches.models import Match

    urls = (
        reverse("matches:match-poll", args=[match.pk]),
        reverse("matches:match-event", args=[match.pk]),
    )
    seq = Match.objects.filter(pk=match.pk).values_list("seq", flat=True).get()
    samples: list[Sample] = []
    lock = threading.Lock()
    start = time.monotonic()
    deadline = start + seconds
    threads = [
        threading.Thread(
            target=_tablet,
            args=(i, port, cookies, urls, match.units, seq, deadline, seconds, samples, lock),
            name=f"tablet-{i}",
            daemon=True,
        )
        for i in range(tablets)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 30)  # a request times out after 10 s: this is plenty
    elapsed = time.monotonic() - start
    return LoadResult(tablets, min(elapsed, seconds + 30), samples)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60, help="how long (default 60)")
    parser.add_argument("--tablets", type=int, default=20, help="how many (default 20)")
    args = parser.parse_args(argv)
    if not 0 < args.seconds <= 600 or not 0 < args.tablets <= 100:
        parser.error("--seconds must be in (0, 600] and --tablets in (0, 100]")
    with Stack() as stack:
        stack.setup_django()
        seeded = seed()
        if REALISTIC not in seeded.matches:
            print("n/a: the match tracker is not built in this checkout")
            return 0
        stack.start()
        player = Client(stack.port)
        player.login()
        from django.urls import reverse

        board = player.get(reverse("matches:match-board", args=[seeded.matches[REALISTIC].pk]))
        if board.status != 200:
            raise RuntimeError(f"the match board did not load ({board.status})")
        print(f"database: {stack.db_label}; gunicorn, {stack.workers} workers, 127.0.0.1")
        result = run_load(
            stack.port,
            player.cookies,
            seeded.matches[REALISTIC],
            seconds=args.seconds,
            tablets=args.tablets,
        )
    print("\n".join(result.lines()))
    print("target: zero errors under load:", "PASS" if not result.errors else "FAIL")
    return 0 if not result.errors else 1


if __name__ == "__main__":
    sys.exit(main())
