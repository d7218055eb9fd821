"""Benchmark: every heavy page at a small size and at Blitz's size bound, and how it scales.

bench_roster_bound.py measures the editor and the share page at the bound. This one measures the
other pages that draw a whole roster or a whole match, each at a small size and at the bound, to
show that no page costs more than linearly in what it shows:

- the datacards/print page: a 10-model starter roster, then a 100-model roster at the bound;
- the match board, the match summary and the attack helper: two 10-model starter armies, then
  two 100-model armies at the bound (20 Northern combat groups of 5 a side), 20 events each;
- the Markdown log and the summary of a long match: the 100-model match after 20 events, then
  after 400 (each event one tap: box N of a model, models in turn).

Each page is timed over HTTP as bench_http.py does (gunicorn, 2 sync workers, DEBUG off, a
throw-away SQLite database or, with DATABASE_URL, a throw-away PostgreSQL database; each request
in a round with the trivial view and /healthz). The growth is the time at the big size over the
time at the small size, set against the size ratio (10x the models, 20x the events): a page is
linear or better when its growth is at most the size ratio. Both p50 and p95 growth are shown;
the check uses p50, because on a shared 2-core machine one stall of another process lands in a
p95 of 60 requests and can double it. Queries are counted in-process (one request after a warm
run): they must be the same at both sizes.

Targets (exit 1 when one is missed): every page's p95 at most 1,000 ms at the bound, p50 growth
at most the size ratio, and the same number of queries at both sizes.

Run from the repository root:
``.venv/bin/python bench/bench_pages_bound.py [--runs 40] [--warmup 5] [--write-results]``.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _server import USERNAME, Client, Stack, _grow  # noqa: E402
from bench_http import Plan, Row, count_queries, measure  # noqa: E402
from bench_roster_bound import _commit, write_section  # noqa: E402

MOST_MS = 1000.0
SECTION = "## Pages"
SHORT, LONG = 20, 400  # events in a match


@dataclass
class Seeded:
    user_id: int
    rosters: dict[str, int]  # size -> roster pk
    matches: dict[str, int]  # size -> match pk (SHORT events)
    long_match: int  # the bound match after LONG events
    models: dict[str, int]


def _tap(match, seat_token: str, op: str, key: str) -> None:
    from matches.hgb import services
    from matches.hgb.forms import parse_op

    services.match_apply(
        match_id=match.pk, side="a", token=seat_token, client_key=key, request=parse_op(op)
    )


def _play(match, events: int, start: int = 0) -> None:
    """``events`` taps on the match: box 1, 2 ... of each model in turn, both sides."""
    units = [unit.id for unit in match.current_state().units]
    for n in range(start, start + events):
        unit = units[n % len(units)]
        box = n // len(units) + 1
        _tap(match, match.a_token, f"mark {unit} {box}", f"bench-tap-{match.pk}-{n:05d}")


def seed() -> Seeded:
    from _server import PASSWORD
    from django.contrib.auth.models import User

    import rules.hgb
    from armies.hgb.services import roster_create
    from armies.models import Owner, Roster
    from matches.hgb.services import SideChoice, match_start
    from matches.models import Match

    user = User.objects.create_user(USERNAME, password=PASSWORD)
    owner = Owner(user.pk, None)
    small = roster_create(owner=owner, preset="north_starter", name="North starter")
    bound = roster_create(owner=owner, preset="north_starter", name="North at the bound")
    other = roster_create(owner=owner, preset="north_starter", name="North at the bound 2")
    for roster in (bound, other):
        _grow(
            owner, roster.pk, rules.hgb.MAX_GROUPS, ("north_general_purpose", "north_fire_support")
        )
    river = roster_create(owner=owner, preset="peace_river_starter", name="Peace River starter")

    def models(pk: int) -> int:
        return sum(len(g["models"]) for g in Roster.objects.get(pk=pk).army["groups"])

    def start(mine: int, theirs: int) -> Match:
        return match_start(
            owner=owner,
            player=USERNAME,
            mine=SideChoice(Match.Source.ROSTER, roster=Roster.objects.get(pk=mine)),
            opponent=SideChoice(Match.Source.ROSTER, roster=Roster.objects.get(pk=theirs)),
        )

    small_match, bound_match, long_match = (
        start(small.pk, river.pk),
        start(bound.pk, other.pk),
        start(bound.pk, other.pk),
    )
    for match in (small_match, bound_match):
        _play(match, SHORT)
    _play(long_match, LONG)
    return Seeded(
        user.pk,
        {"small": small.pk, "bound": bound.pk},
        {"small": small_match.pk, "bound": bound_match.pk},
        long_match.pk,
        {"small": models(small.pk), "bound": models(bound.pk)},
    )


def plans(seeded: Seeded) -> list[tuple[str, str, str, Plan]]:
    """(page, size label, size key, plan) for each page at each size, small first."""
    from django.urls import reverse

    def get(path: str) -> Plan:
        return Plan(lambda i: ("GET", path, None, {}))

    small_n, bound_n = seeded.models["small"], seeded.models["bound"]
    out = []
    for size, n in (("small", small_n), ("bound", bound_n)):
        out.append(
            (
                "datacards/print",
                f"{n} models",
                size,
                get(reverse("armies:roster-cards", args=[seeded.rosters[size]])),
            )
        )
    for page, name, extra in (
        ("match board", "matches:match-board", ""),
        ("match summary", "matches:match-summary", ""),
        ("attack helper", "matches:attack-helper", "?attacker=a-1-1"),
    ):
        for size, n in (("small", small_n), ("bound", bound_n)):
            path = reverse(name, args=[seeded.matches[size]]) + extra
            out.append((page, f"{n}+{n} models, {SHORT} events", size, get(path)))
    for page, name in (
        ("match log (Markdown)", "matches:match-log-md"),
        ("summary of a long match", "matches:match-summary"),
    ):
        for size, events, pk in (
            ("small", SHORT, seeded.matches["bound"]),
            ("bound", LONG, seeded.long_match),
        ):
            path = reverse(name, args=[pk])
            out.append((page, f"{bound_n}+{bound_n} models, {events} events", size, get(path)))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=40, help="timed requests (default 40)")
    parser.add_argument("--warmup", type=int, default=5, help="warm-up requests (default 5)")
    parser.add_argument("--write-results", action="store_true", help="rewrite its RESULTS.md part")
    args = parser.parse_args(argv)
    if not (1 <= args.runs <= 1000 and 0 <= args.warmup <= 100):
        parser.error("--runs 1..1000, --warmup 0..100")

    with Stack() as stack:
        stack.setup_django()
        import rules.hgb

        seeded = seed()
        stack.start()
        player = Client(stack.port)
        player.login()
        rows: list[tuple[str, str, Row]] = []
        index = 0
        for page, label, size, plan in plans(seeded):
            row = Row(page, label)
            index = measure(
                stack.port,
                player.cookies,
                plan,
                row,
                runs=args.runs,
                warmup=args.warmup,
                start=index,
            )
            row.queries = count_queries(seeded.user_id, plan, index)
            rows.append((page, size, row))
            print(
                f"{page:26} {label:28} p50 {row.p(50):8.2f} ms  p95 {row.p(95):8.2f} ms  "
                f"{row.queries} queries  {row.sent:,} B",
                flush=True,
            )
        player.close()
        database = stack.db_label
        title = f"{SECTION}-{'PostgreSQL' if database.startswith('PostgreSQL') else 'SQLite'}"

    lines = [
        f"{title}: the heavy pages at a small size and at the bound, {date.today()}, "
        f"commit {_commit()}",
        "",
        f"Written by `bench/bench_pages_bound.py --write-results` (runs {args.runs}, warm-up "
        f"{args.warmup}), as bench_http.py measures (gunicorn, 2 sync workers, DEBUG off, "
        f"{database}). At the bound (`rules/hgb/bounds.py`: {rules.hgb.MAX_GROUPS} groups, "
        f"{rules.hgb.MAX_GROUP_MODELS} models a group, {rules.hgb.MAX_MODELS} models) each army "
        "is 20 Northern combat groups of 5. Growth is the time at the big size over the time at "
        "the "
        "small one: linear or better when it is at most the size ratio (checked on p50; p95 is "
        "shown, and moves with whatever else the shared machine runs).",
        "",
        "| page | size | p50 ms | p95 ms | SQL queries | bytes sent | growth p50 | growth p95 "
        "| size ratio | result |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    missed = []
    by_page: dict[str, dict[str, Row]] = {}
    for page, size, row in rows:
        by_page.setdefault(page, {})[size] = row
    for page, sizes in by_page.items():
        small, big = sizes["small"], sizes["bound"]
        ratio = (
            (LONG / SHORT)
            if "long" in page or "log" in page
            else (seeded.models["bound"] / seeded.models["small"])
        )
        growth, growth95 = big.p(50) / small.p(50), big.p(95) / small.p(95)
        ok = (
            big.p(95) <= MOST_MS
            and growth <= ratio
            and small.queries == big.queries
            and not small.bad
            and not big.bad
        )
        if not ok:
            missed.append(page)
        for row, first in ((small, True), (big, False)):
            lines.append(
                f"| {page if first else ''} | {row.size} | {row.p(50):.1f} | {row.p(95):.1f} "
                f"| {row.queries} | {row.sent:,} | {'' if first else f'{growth:.1f}x'} "
                f"| {'' if first else f'{growth95:.1f}x'} "
                f"| {'' if first else f'{ratio:.0f}x'} "
                f"| {'' if first else ('**PASS**' if ok else '**FAIL**')} |"
            )
    print("\n".join(lines))
    bad = [b for _, _, row in rows for b in row.bad]
    if bad:
        print("unexpected answers:", bad[:5], file=sys.stderr)
    if args.write_results:
        write_section(lines, title)
        print("wrote bench/RESULTS.md")
    if missed:
        print("Missed:", ", ".join(missed))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
