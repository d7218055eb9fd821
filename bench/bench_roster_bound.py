"""Benchmark: the roster editor and the public share page for a roster at Blitz's size bound.

A roster may hold at most ``rules.hgb.MAX_GROUPS`` combat groups, ``rules.hgb.MAX_GROUP_MODELS``
models in a group and ``rules.hgb.MAX_MODELS`` models in all (rules/hgb/bounds.py). This measures
the two pages that draw a whole roster, for the biggest roster Blitz keeps: 20 Northern combat
groups of 5 (General Purpose and Fire Support in turn), 100 models, over HTTP as in production
(DEBUG off, gunicorn with 2 sync workers, whitenoise, a throw-away SQLite database or, with
DATABASE_URL, a throw-away PostgreSQL database), the same way as bench_http.py: each request in a
round with one to the trivial view, p50/p95, SQL queries counted in-process, bytes as sent and
gzipped.

Targets (exit 1 when one is missed): editor p95 at most 1,000 ms and 1.5 MB of HTML; share page
p95 at most 500 ms and 1 MB. (Before the bound, a 600-group import took 8-12 s and 14 MB.)

Run from the repository root:
``.venv/bin/python bench/bench_roster_bound.py [--runs 60] [--warmup 5] [--write-results]``.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _server import Client, Stack, _grow  # noqa: E402
from bench_http import RESULTS, Plan, Row, count_queries, measure  # noqa: E402

TARGETS = {  # page: (p95 ms, bytes of HTML)
    "roster editor page": (1000.0, 1_500_000),
    "share page": (500.0, 1_000_000),
}
# One section per database; bench_http.py keys sections by their first word, so it is unique.
SECTION = "## Bound"


def seed_bound() -> tuple[int, int, str, int]:
    """A user and a North roster at the bound; returns user id, roster pk, slug, models."""
    from _server import PASSWORD, USERNAME
    from django.contrib.auth.models import User

    import rules.hgb
    from armies.hgb.services import roster_create
    from armies.models import Owner, Roster

    user = User.objects.create_user(USERNAME, password=PASSWORD)
    owner = Owner(user.pk, None)
    roster = roster_create(owner=owner, preset="north_starter", name="North at the bound")
    _grow(owner, roster.pk, rules.hgb.MAX_GROUPS, ("north_general_purpose", "north_fire_support"))
    roster = Roster.objects.get(pk=roster.pk)
    army = rules.hgb.roster_from_dict(roster.army, rules.hgb.default_catalog())
    assert rules.hgb.size_refusal(army) == ""
    models = sum(len(group.models) for group in army.groups)
    return user.pk, roster.pk, roster.share_slug, models


def _commit() -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return done.stdout.strip() or "unknown"


def write_section(lines: list[str], title: str) -> None:
    """Replace this benchmark's section for this database in RESULTS.md (before the notes)."""
    text = RESULTS.read_text() if RESULTS.exists() else "# Benchmark results\n"
    chunks = re.split(r"^(?=## )", text, flags=re.M)
    head, sections = chunks[0], [c for c in chunks[1:] if not c.startswith(title)]
    mine = "\n".join(lines).rstrip() + "\n\n"
    notes = next((i for i, c in enumerate(sections) if c.startswith("## Notes")), len(sections))
    sections.insert(notes, mine)
    RESULTS.write_text(head + "".join(s if s.endswith("\n\n") else s + "\n" for s in sections))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=60, help="timed requests (default 60)")
    parser.add_argument("--warmup", type=int, default=5, help="warm-up requests (default 5)")
    parser.add_argument("--write-results", action="store_true", help="rewrite its RESULTS.md part")
    args = parser.parse_args(argv)
    if not (1 <= args.runs <= 1000 and 0 <= args.warmup <= 100):
        parser.error("--runs 1..1000, --warmup 0..100")

    with Stack() as stack:
        stack.setup_django()
        from django.urls import reverse

        import rules.hgb

        user_id, pk, slug, models = seed_bound()
        stack.start()
        player = Client(stack.port)
        player.login()
        plans = {
            "roster editor page": Plan(
                lambda i: ("GET", reverse("armies:roster-edit", args=[pk]), None, {})
            ),
            "share page": Plan(
                lambda i: ("GET", reverse("roster-shared", args=[slug]), None, {}), anonymous=True
            ),
        }
        rows = []
        index = 0
        for name, plan in plans.items():
            row = Row(name, f"{models} models")
            index = measure(
                stack.port,
                player.cookies,
                plan,
                row,
                runs=args.runs,
                warmup=args.warmup,
                start=index,
            )
            row.queries = count_queries(user_id, plan, index)
            rows.append(row)
            print(
                f"{name:20} p50 {row.p(50):8.2f} ms  p95 {row.p(95):8.2f} ms  "
                f"{row.queries} queries  {row.sent:,} B ({row.gzipped:,} gzip)",
                flush=True,
            )
        player.close()
        bad = [b for row in rows for b in row.bad]
        database = stack.db_label
        title = f"{SECTION}-{'PostgreSQL' if database.startswith('PostgreSQL') else 'SQLite'}"

    lines = [
        f"{title}: the editor and share pages at the roster bound, {date.today()}, "
        f"commit {_commit()}",
        "",
        f"Written by `bench/bench_roster_bound.py --write-results` (runs {args.runs}, warm-up "
        f"{args.warmup}), as bench_http.py measures (gunicorn, 2 sync workers, DEBUG off, "
        f"{database}). The roster is the biggest Blitz keeps (`rules/hgb/bounds.py`: "
        f"{rules.hgb.MAX_GROUPS} groups, {rules.hgb.MAX_GROUP_MODELS} models a group, "
        f"{rules.hgb.MAX_MODELS} models): 20 Northern combat groups of 5, {models} models.",
        "",
        "| page | p50 ms | p95 ms | target p95 | SQL queries | bytes sent | gzip | target bytes "
        "| result |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    missed = []
    for row in rows:
        most_ms, most_bytes = TARGETS[row.name]
        ok = row.p(95) <= most_ms and row.sent <= most_bytes and not row.bad
        if not ok:
            missed.append(row.name)
        lines.append(
            f"| {row.name} | {row.p(50):.1f} | {row.p(95):.1f} | {most_ms:,.0f} | {row.queries} "
            f"| {row.sent:,} | {row.gzipped:,} | {most_bytes:,} | "
            f"{'**PASS**' if ok else '**FAIL**'} |"
        )
    lines += [
        "",
        "Before the bound (figures reported in issue 12, not measured here), a 96 KB import of 600 "
        "groups of 6 was accepted and its editor "
        "took 8-12 s and sent 14 MB of HTML; such an import is now refused with a sentence.",
    ]
    print("\n".join(lines))
    if bad:
        print("unexpected answers:", bad[:5], file=sys.stderr)
    if args.write_results:
        write_section(lines, title)
        print(f"wrote {RESULTS.relative_to(RESULTS.parents[1])}")
    if missed:
        print("Missed:", ", ".join(missed))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
