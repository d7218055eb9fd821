"""Time a damage tap and a poll with nothing new on the match board, through Django's test client.

Run from the repository root: .venv/bin/python bench/bench_match.py [--rounds 300]

Two matches on a temporary SQLite database: the North against the Peace River starter force
(10 models a side) and two rosters of 12 combat groups of 5 (60 models a side). For each, it opens
the board once (so the seat is remembered, as on a real tablet), then times rounds of a damage tap
(crossing off a box and clearing it again, in turn, each with a fresh client key) and of a poll
with the latest event number (204, nothing new). It prints p50 and p95 in milliseconds, the SQL
queries of one request (session lookup included; on SQLite the tap's BEGIN IMMEDIATE and COMMIT
are counted too, which PostgreSQL does not log) and the bytes of the answer.

Exits 1 when a counted budget is missed: a tap above 6 queries or 3 KB, a quiet poll above 2
queries or with a body. Times are printed for reading, not asserted: they depend on the machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import uuid
from pathlib import Path
from time import perf_counter

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TAP_QUERIES, TAP_BYTES, POLL_QUERIES = 6, 3 * 1024, 2


def setup_django(database: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "blitz_site.settings_test")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    setup_test_environment()

    call_command("migrate", verbosity=0, interactive=False)


def big_roster(owner, groups: int):
    import rules.hgb
    from armies.models import Roster

    catalog = rules.hgb.default_catalog()
    army = rules.hgb.preset_roster(catalog, "north_starter")
    squads = ["north_general_purpose", "north_fire_support"]
    for index in range(len(army.groups), groups):
        army = rules.hgb.add_group(army, catalog, squads[index % 2])
    return Roster.objects.create(
        owner_id=owner.user_id,
        name=f"North, {groups} groups",
        faction="north",
        army=rules.hgb.roster_to_dict(army),
        data_fingerprint=catalog.fingerprint,
    )


def matches(user) -> dict[str, object]:
    from armies.models import Owner
    from matches.hgb.services import SideChoice, match_start

    owner = Owner(user.pk, None)
    presets = match_start(
        owner=owner,
        player=user.username,
        mine=SideChoice("preset", preset="north_starter"),
        opponent=SideChoice("preset", preset="peace_river_starter"),
    )
    big = match_start(
        owner=owner,
        player=user.username,
        mine=SideChoice("roster", roster=big_roster(owner, 12)),
        opponent=SideChoice("roster", roster=big_roster(owner, 12)),
    )
    return {"10 models a side": presets, "60 models a side": big}


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def measure(client, request) -> tuple[float, int, object]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        start = perf_counter()
        response = request()
        seconds = perf_counter() - start
    return seconds, len(queries), response


def run(rounds: int) -> int:
    from django.contrib.auth.models import User
    from django.test import Client
    from django.urls import reverse

    user = User.objects.create_user("bench", password="bench-password-123")
    client = Client()
    client.force_login(user)
    rows, failures = [], []
    for label, match in matches(user).items():
        assert client.get(reverse("matches:match-board", args=[match.pk])).status_code == 200
        event_url = reverse("matches:match-event", args=[match.pk])
        poll_url = reverse("matches:match-poll", args=[match.pk])
        taps, polls, tap_queries, tap_bytes, poll_queries, poll_bytes = [], [], 0, 0, 0, 0
        for index in range(rounds + 20):
            op = ("mark" if index % 2 == 0 else "clear") + " b-1-1"

            def tap(op=op, url=event_url):
                return client.post(
                    url, {"op": op, "key": uuid.uuid4().hex}, headers={"HX-Request": "true"}
                )

            seconds, count, response = measure(client, tap)
            assert response.status_code == 200, response.status_code
            if index >= 20:
                taps.append(seconds)
                tap_queries, tap_bytes = (
                    max(tap_queries, count),
                    max(tap_bytes, len(response.content)),
                )
            seq = index + 1
            seconds, count, response = measure(
                client, lambda seq=seq, url=poll_url: client.get(f"{url}?seq={seq}")
            )
            assert response.status_code == 204, response.status_code
            if index >= 20:
                polls.append(seconds)
                poll_queries = max(poll_queries, count)
                poll_bytes = max(poll_bytes, len(response.content))
        rows.append(("damage tap", label, taps, tap_queries, tap_bytes))
        rows.append(("poll, nothing new", label, polls, poll_queries, poll_bytes))
        if tap_queries > TAP_QUERIES or tap_bytes >= TAP_BYTES:
            failures.append(f"damage tap ({label}): {tap_queries} queries, {tap_bytes} bytes")
        if poll_queries > POLL_QUERIES or poll_bytes:
            failures.append(f"quiet poll ({label}): {poll_queries} queries, {poll_bytes} bytes")
    print(f"{rounds} timed rounds after 20 warm-up ones, Django test client, SQLite")
    print(
        f"{'interaction':<20} {'match':<18} {'p50 ms':>8} {'p95 ms':>8} {'queries':>8} {'bytes':>7}"
    )
    for name, label, times, queries, size in rows:
        print(
            f"{name:<20} {label:<18} {statistics.median(times) * 1000:8.2f} "
            f"{percentile(times, 0.95) * 1000:8.2f} {queries:8d} {size:7d}"
        )
    for failure in failures:
        print("BUDGET MISSED:", failure)
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        setup_django(Path(folder) / "bench.sqlite3")
        return run(args.rounds)


if __name__ == "__main__":
    sys.exit(main())
