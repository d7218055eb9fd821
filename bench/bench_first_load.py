"""The match page's first load through nginx, compressed, for each game's board (issue 24).

The production stack on 127.0.0.1 (``deploy/stack``: nginx in front of two app servers, gunicorn
with uvicorn workers; static files collected, minified, hashed and gzipped by ``collectstatic``,
sent by nginx with ``gzip_static``; the HTML gzipped by nginx), on a temporary SQLite file (or a
temporary PostgreSQL database when ``DATABASE_URL`` names one: see ``_server.py``). A player logs
in through nginx and opens a seeded match board of each game, as a player in seat A sees it: Heavy
Gear Blitz (the 610 TV match of ``_server.seed``), Kill Team (two teams of 10 test operatives),
WWII and mecha (the forces of the app tests). For each board it counts what a first visit fetches
(``bench_http.page_load``): the HTML and every stylesheet and script the page names, in bytes as
nginx sends them (``Accept-Encoding: gzip``), per file and in total.

Target: at most 40,000 bytes for every board; the issue's goal, 30,000 bytes, is reported too.
Exit 1 when a board is over the target.

Run from the repository root (needs nginx): ``.venv/bin/python bench/bench_first_load.py
[--write-results]``; ``--write-results`` rewrites its section of bench/RESULTS.md (``## First
load``), keeping every other section.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from datetime import date
from pathlib import Path

from _server import LOOPBACK, REALISTIC, Client, Stack, free_port, seed, write_section
from bench_http import page_load

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "RESULTS.md"
TARGET = 40_000  # bytes, every board
GOAL = 30_000
TITLE = "## First load"


def boards(user_id: int, hgb_match: int) -> dict[str, str]:
    """A match of each game, started by the benchmark's player in seat A: game -> its board."""
    from django.contrib.auth.models import User
    from django.urls import reverse

    from armies.models import Owner
    from matches.killteam.services import kt_match_start
    from matches.mecha.services import mecha_match_start
    from matches.ww2.services import ww2_match_start
    from tests.factories import make_team
    from tests.mecha_forces import BLUE, make_force
    from tests.ww2_factories import make_ww2_force

    user = User.objects.get(pk=user_id)
    owner = Owner(user.pk, None)
    start = {"owner": owner, "player": user.username}
    teams = [make_team(user, name=name, operatives=10) for name in ("Red team", "Blue team")]
    ww2 = [make_ww2_force(user, name=name) for name in ("Red force", "Blue force")]
    mecha = make_force(user, name="Red force"), make_force(user, name="Blue force", army=BLUE)
    matches = {
        "Heavy Gear Blitz (610 TV)": hgb_match,
        "Kill Team": kt_match_start(**start, mine=teams[0], opponent=teams[1]).pk,
        "WWII": ww2_match_start(
            **start, mine=ww2[0], opponent=ww2[1], running_gear_counts=False
        ).pk,
        "mecha": mecha_match_start(
            **start,
            mine=mecha[0],
            opponent=mecha[1],
            ram_formula="half_then_add",
            ram_scope="every_ram",
        ).pk,
    }
    return {game: reverse("matches:match-board", args=[pk]) for game, pk in matches.items()}


def behind_nginx(stack: Stack, run: Path) -> tuple[int, Callable[[], None]]:
    """``deploy/stack start`` on the stack's database: nginx's port, and how to stop it all."""
    proxy, one, two, three, four = (free_port() for _ in range(5))
    env = stack.env | {
        "ALLOWED_HOSTS": LOOPBACK,
        "BLITZ_PROXY_PORT": str(proxy),
        "BLITZ_APP_PORTS": f"{one} {two}",
        "BLITZ_STREAM_PORTS": f"{three} {four}",
        "BLITZ_WORKERS": "1",
    }
    script = str(HERE.parent / "deploy" / "stack")

    def stop() -> None:
        subprocess.run([script, "stop", str(run)], env=env, capture_output=True, timeout=120)

    done = subprocess.run(
        [script, "start", str(run)], env=env, capture_output=True, text=True, timeout=300
    )
    if done.returncode != 0:
        stop()
        raise RuntimeError(f"deploy/stack start failed:\n{done.stderr[-3000:]}")
    return proxy, stop


def _commit() -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return done.stdout.strip() or "unknown"


def report(loads: dict[str, dict], label: str) -> list[str]:
    names = list(loads)
    files = list(dict.fromkeys(part[0] for load in loads.values() for part in load["parts"][1:]))

    def size(load: dict, url: str) -> str:
        found = [part[2] for part in load["parts"] if part[0] == url]
        return f"{found[0]:,}" if found else "—"

    def verdict(n: int) -> str:
        return ("PASS" if n <= TARGET else "FAIL") + (", goal met" if n <= GOAL else "")

    short = [url.rsplit("/", 1)[-1] for url in files]
    return [
        f"{TITLE}: each game's match board through nginx, {date.today().isoformat()}, "
        f"commit {_commit()}",
        "",
        f"Written by `bench/bench_first_load.py --write-results`: {label}, on 127.0.0.1. A "
        "player's first visit to a match board of each game (seat A): the HTML and every "
        "stylesheet and script the page names, in bytes as nginx sends them (gzip; static files "
        "minified, hashed and gzipped by `collectstatic`). Target ≤ "
        f"{TARGET:,} B a board; the issue's goal {GOAL:,} B.",
        "",
        "| part | " + " | ".join(names) + " |",
        "|---|" + "---:|" * len(names),
        "| HTML (board) | " + " | ".join(f"{loads[n]['parts'][0][2]:,}" for n in names) + " |",
        *[
            f"| `{name}` | " + " | ".join(size(loads[n], url) for n in names) + " |"
            for name, url in zip(short, files, strict=True)
        ],
        "| **total** | " + " | ".join(f"**{loads[n]['compressed']:,}**" for n in names) + " |",
        "| verdict | " + " | ".join(verdict(loads[n]["compressed"]) for n in names) + " |",
        "",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write-results", action="store_true", help="rewrite its RESULTS.md part")
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="blitz-first-load-"))
    tmp.chmod(0o755)  # nginx's workers (nobody, when run as root) read the static files in it
    stop = None
    with Stack(tmp=tmp) as stack:  # the database; deploy/stack serves it
        stack.setup_django()
        seeded = seed()
        pages = boards(seeded.user_id, seeded.matches[REALISTIC].pk)
        try:
            port, stop = behind_nginx(stack, tmp / "stack")
            player = Client(port)
            player.login()
            loads = {game: page_load(port, player.cookies, page) for game, page in pages.items()}
        finally:
            if stop is not None:
                stop()
        label = f"{stack.db_label.split(' (')[0]}, nginx in front of two app servers"
    lines = report(loads, label)
    print("\n".join(lines))
    if args.write_results:
        write_section(lines)
        print(f"wrote {RESULTS.relative_to(HERE.parent)}")
    over = [game for game, load in loads.items() if load["compressed"] > TARGET]
    if over:
        print("Over the target:", ", ".join(over))
    return 1 if over else 0


if __name__ == "__main__":
    os.chdir(HERE.parent)
    sys.exit(main())
