"""Time undo, redo, the summary and the Markdown log of a long match, and taps beside an undo loop.

Run from the repository root: .venv/bin/python bench/bench_long_match.py [--events 5000]
(``DATABASE_URL=postgres://...`` runs it on that PostgreSQL database, which it migrates and
leaves the rows in; without it a temporary SQLite file.)

- A match of the North against the Peace River starter force with ``--events`` damage taps
  (each model's first box crossed off and cleared in turn), built through ``match_apply``.
- undo / redo: ``--rounds`` times "Undo last" then "Redo" of it, each timed server-side
  (``services.match_apply``, in its transaction); then ``--chain`` times "Undo last" in a row
  (each undoes the event before the last one undone) and as many "Redo"s, latest undone first.
- summary and Markdown log: the pages, through Django's test client.
- beside an undo loop: a second process (``--loop-in thread``: a thread) loops undo/redo on a
  ``--loop-events`` match, pausing about ``--pause`` seconds after each tap as a person would
  (0.5 to 1.5 times it, at random: equal pauses would keep the two players' taps in step), while
  this one taps damage for the other player on that match and taps on an unrelated match, with
  pauses of the same kind. The unrelated match's taps are timed before the loop starts too.

Budgets (issue 13): undo and redo p95 <= 50 ms, summary and log <= 200 ms, taps beside the
loop within the tap budget (p95 <= 15 ms). Printed, not asserted (exit 0): they depend on the
machine.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from time import perf_counter

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup_django(database: Path | None) -> None:
    if database is not None:
        os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "blitz_site.settings_test")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    setup_test_environment()
    call_command("migrate", verbosity=0, interactive=False)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def start(user):
    from armies.models import Owner
    from matches.hgb.services import SideChoice, match_start

    return match_start(
        owner=Owner(user.pk, None),
        player=user.username,
        mine=SideChoice("preset", preset="north_starter"),
        opponent=SideChoice("preset", preset="peace_river_starter"),
    )


def apply(match, request, side: str = "a"):
    from matches.hgb.services import match_apply

    return match_apply(
        match_id=match.pk,
        side=side,
        token=match.token(side),
        client_key=uuid.uuid4().hex,
        request=request,
    )


def damage(units: list[str], i: int):
    from rules.hgb.match import make_event

    unit = units[i % len(units)]
    kind = "mark_box" if (i // len(units)) % 2 == 0 else "clear_box"
    return make_event(kind, unit=unit, box=1)


def build(user, events: int):
    match = start(user)
    units = [unit.id for unit in match.current_state().units]
    for i in range(events):
        applied = apply(match, damage(units, i))
        assert not applied.error, applied.error
    return match, units


def undo_redo(match, rounds: int) -> tuple[list[float], list[float]]:
    from matches.hgb.services import Redo, UndoLast

    undos, redos = [], []
    for _ in range(rounds):
        t = perf_counter()
        applied = apply(match, UndoLast())
        undos.append(perf_counter() - t)
        assert not applied.error, applied.error
        t = perf_counter()
        applied = apply(match, Redo(applied.event.payload["target"]))
        redos.append(perf_counter() - t)
        assert not applied.error, applied.error
    return undos, redos


def undo_chain(match, length: int) -> tuple[list[float], list[float]]:
    """ "Undo last" ``length`` times in a row, then "Redo" as many times, latest undone first."""
    from matches.hgb.services import Redo, UndoLast

    undos, redos, undone = [], [], []
    for _ in range(length):
        t = perf_counter()
        applied = apply(match, UndoLast())
        undos.append(perf_counter() - t)
        assert not applied.error, applied.error
        undone.append(applied.event.payload["target"])
    for seq in reversed(undone):
        t = perf_counter()
        applied = apply(match, Redo(seq))
        redos.append(perf_counter() - t)
        assert not applied.error, applied.error
    return undos, redos


def loop_undo(match_id: int, seconds: float, pause: float, times) -> None:
    """In a child process or thread: loop undo/redo on the match for ``seconds``, pausing
    ``pause`` seconds after each; put the times of the undos and redos on ``times``."""
    from django.db import connections

    from matches.hgb.services import Redo, UndoLast
    from matches.models import Match

    connections.close_all()
    match = Match.objects.get(pk=match_id)
    taken = []
    rng = random.Random(1)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t = perf_counter()
        applied = apply(match, UndoLast())
        taken.append(perf_counter() - t)
        time.sleep(pause * rng.uniform(0.5, 1.5))
        if applied.error:  # the other player's tap came between: undo that next time
            continue
        t = perf_counter()
        apply(match, Redo(applied.event.payload["target"]))
        taken.append(perf_counter() - t)
        time.sleep(pause * rng.uniform(0.5, 1.5))
    connections.close_all()
    times.put(taken)


def line(name: str, values: list[float], extra: str = "") -> str:
    p50, p95 = percentile(values, 0.5) * 1000, percentile(values, 0.95) * 1000
    return f"| {name} | {len(values)} | {p50:.1f} | {p95:.1f} | {extra} |"


def run(args) -> None:
    from django.contrib.auth.models import User
    from django.db import connections
    from django.test import Client
    from django.urls import reverse

    from matches.models import Match

    user = User.objects.create_user(f"long-{uuid.uuid4().hex[:8]}", password="bench-pass-123")
    client = Client()
    client.force_login(user)
    rows = []

    t = perf_counter()
    match, _ = build(user, args.events)
    print(f"built {args.events} events in {perf_counter() - t:.1f} s", file=sys.stderr)
    undos, redos = undo_redo(match, args.rounds)
    rows += [line(f"undo last ({args.events} events)", undos)]
    rows += [line(f"redo ({args.events} events)", redos)]
    undos, redos = undo_chain(match, args.chain)
    rows += [line(f"undo last, {args.chain} in a row ({args.events} events)", undos)]
    rows += [line(f"redo, {args.chain} in a row ({args.events} events)", redos)]
    client.get(reverse("matches:match-board", args=[match.pk]))
    for name, url in (
        ("summary page", reverse("matches:match-summary", args=[match.pk])),
        ("Markdown log", reverse("matches:match-log-md", args=[match.pk])),
    ):
        times, size = [], 0
        for _ in range(args.page_rounds):
            t = perf_counter()
            response = client.get(url)
            times.append(perf_counter() - t)
            assert response.status_code == 200
            size = len(response.content)
        rows.append(line(f"{name} ({args.events} events)", times, f"{size / 1024:.0f} KB"))

    looped, units = build(user, args.loop_events)
    # The opponent takes seat B (as by the join link).
    Match.objects.filter(pk=looped.pk).update(b_guest_key="bench-b", b_token="bench-b-token")
    looped = Match.objects.get(pk=looped.pk)
    other, other_units = build(user, 4)
    quiet = []
    for i in range(args.quiet_taps):
        t = perf_counter()
        apply(other, damage(other_units, i))
        quiet.append(perf_counter() - t)
    connections.close_all()
    if args.loop_in == "thread":
        import queue

        times = queue.Queue()
        loop = threading.Thread(target=loop_undo, args=(looped.pk, args.seconds, args.pause, times))
    else:
        context = multiprocessing.get_context("fork")
        times = context.Queue()
        loop = context.Process(target=loop_undo, args=(looped.pk, args.seconds, args.pause, times))
    loop.start()
    time.sleep(0.5)
    beside, unrelated, refused = [], [], 0
    end = time.monotonic() + args.seconds - 1
    i = args.loop_events
    rng = random.Random(2)
    while time.monotonic() < end:
        t = perf_counter()
        applied = apply(looped, damage(units[len(units) // 2 :], i), side="b")
        beside.append(perf_counter() - t)
        refused += bool(applied.error)  # stale: the loop undid the tap before
        i += 1
        t = perf_counter()
        apply(other, damage(other_units, i))
        unrelated.append(perf_counter() - t)
        time.sleep(args.pause * rng.uniform(0.5, 1.5))
    looped_times = times.get()
    loop.join()
    rows.append(line(f"undo/redo in the loop ({args.loop_events} events and up)", looped_times))
    rows.append(
        line(
            f"other player's tap, undo loop on {args.loop_events} events",
            beside,
            f"{refused} refused as stale",
        )
    )
    rows.append(line("tap in an unrelated match, no loop", quiet))
    rows.append(line("tap in an unrelated match, beside the loop", unrelated))

    from django.db import connection

    print(
        f"database: {connection.vendor}; undo loop in a {args.loop_in}, {args.pause * 1000:.0f} ms "
        "pause after each tap"
    )
    print("| request | n | p50 ms | p95 ms | size |")
    print("|---|---:|---:|---:|---|")
    print("\n".join(rows))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=5000)
    parser.add_argument("--loop-events", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--page-rounds", type=int, default=5)
    parser.add_argument("--chain", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--pause", type=float, default=0.2)
    parser.add_argument("--quiet-taps", type=int, default=50)
    parser.add_argument("--loop-in", choices=("process", "thread"), default="process")
    args = parser.parse_args()
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        setup_django(None)
        run(args)
        return 0
    with tempfile.TemporaryDirectory() as folder:
        setup_django(Path(folder) / "bench.sqlite3")
        run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
