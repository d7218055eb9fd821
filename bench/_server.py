"""Helpers for the HTTP benchmarks: a throw-away database, collectstatic, gunicorn, a client, seeds.

Everything runs on this machine only: the server listens on 127.0.0.1, the client refuses any
other host, every loop is bounded, and ``Stack`` stops what it started (gunicorn's whole process
group, the temporary directory, and the PostgreSQL database it made) even when a step fails.

Database: a temporary SQLite file; or, when ``DATABASE_URL`` names a PostgreSQL server, a new
database ``<name>_bench_<pid>`` on that server (its role needs CREATEDB), dropped at the end, so
the database the URL names is never touched.
"""

from __future__ import annotations

import gzip
import http.client
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import unquote, urlencode, urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
LOOPBACK = "127.0.0.1"
PASSWORD = "bench-heavy-gear-2024"
USERNAME = "bench"

sys.path.insert(0, str(ROOT))


# --- Processes and the database -------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((LOOPBACK, 0))
        return sock.getsockname()[1]


def _tool(name: str) -> str:
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return str(beside)
    found = shutil.which(name)
    if not found:
        raise SystemExit(f"{name} is not installed: run `make setup` first.")
    return found


def _postgres_admin(url: str):
    import psycopg

    parts = urlsplit(url)
    return psycopg.connect(
        dbname=unquote(parts.path.lstrip("/")) or "postgres",
        user=unquote(parts.username or ""),
        password=unquote(parts.password or ""),
        host=parts.hostname or "",
        port=parts.port or 5432,
        autocommit=True,
    )


ACCESS_LOG = "access.log"
ACCESS = "%(m)s %(U)s %(s)s %(D)s"  # method, path (no query), status, microseconds


@dataclass(frozen=True)
class Served:
    """One request as gunicorn's access log has it."""

    method: str
    path: str
    status: int
    seconds: float


@dataclass
class Stack:
    """A temporary production-like deployment: database, static files, gunicorn on loopback."""

    workers: int = 2
    # gunicorn with uvicorn workers (True) or sync workers (False); None: as production serves
    # this database (SQLite: one ASGI process holds the pages and the streams, as the in-memory
    # fan-out needs; PostgreSQL: sync app servers, the streams on stream servers beside them)
    asgi: bool | None = None
    settings: str = "blitz_site.settings"
    tmp: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="blitz-bench-")))
    env: dict[str, str] = field(default_factory=dict)
    port: int = 0
    db_label: str = ""
    _server: subprocess.Popen | None = None
    _pg_url: str = ""
    _pg_name: str = ""

    @property
    def pg_database(self) -> str:
        """The temporary PostgreSQL database's name, or "" on SQLite."""
        return self._pg_name

    @property
    def serves_asgi(self) -> bool:
        """Whether the server is gunicorn with uvicorn workers (else sync workers)."""
        return self.asgi if self.asgi is not None else not self.pg_database

    @property
    def server_pid(self) -> int:
        """gunicorn's master (the leader of its process group), once started."""
        return self._server.pid if self._server else 0

    # Setting up ---------------------------------------------------------------------------------

    def __enter__(self) -> Stack:
        try:
            self._prepare()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _prepare(self) -> None:
        url = os.environ.get("DATABASE_URL", "")
        if url.startswith(("postgres://", "postgresql://", "pgsql://")):
            self._pg_url = url
            base = unquote(urlsplit(url).path.lstrip("/")) or "blitz"
            self._pg_name = f"{base}_bench_{os.getpid()}"
            with _postgres_admin(url) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self._pg_name}"')
                conn.execute(f'CREATE DATABASE "{self._pg_name}"')
            parts = urlsplit(url)
            database_url = urlunsplit(parts._replace(path="/" + self._pg_name))
            self.db_label = f"PostgreSQL (temporary database {self._pg_name})"
        else:
            database_url = f"sqlite:///{self.tmp / 'bench.sqlite3'}"
            self.db_label = "SQLite (temporary file, WAL)"
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": self.settings,
            "DEBUG": "0",
            "HTTPS": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            # testserver: the in-process Django test client that counts queries
            "ALLOWED_HOSTS": f"{LOOPBACK},testserver",
            "DATABASE_URL": database_url,
            "STATIC_ROOT": str(self.tmp / "static"),
            "LOG_LEVEL": "WARNING",
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        python = sys.executable
        # The deployment steps of docs/deploying.md ("Runbook"), in its order.
        steps = (["migrate", "--noinput"], ["collectstatic", "--noinput"])
        for command in steps:
            done = subprocess.run(
                [python, "manage.py", *command],
                cwd=ROOT,
                env=self.env,
                capture_output=True,
                text=True,
                timeout=300,
            )
            if done.returncode != 0:
                raise RuntimeError(f"manage.py {command[0]} failed:\n{done.stdout}{done.stderr}")

    def setup_django(self) -> None:
        """Point this process's Django at the benchmark database (for seeding and query counts)."""
        os.environ.update(self.env)
        import django

        django.setup()

    # The server ---------------------------------------------------------------------------------

    def start(self) -> None:
        self.port = free_port()
        log = open(self.tmp / "gunicorn.log", "wb")  # the child keeps its own copy
        gunicorn = _tool("gunicorn")
        options = ["--workers", str(self.workers), "--timeout", "30"]
        # gunicorn 27 opens a control socket at one path for every server (~/.gunicorn): not here.
        if (
            "--no-control-socket"
            in subprocess.run([gunicorn, "--help"], capture_output=True, text=True).stdout
        ):
            options.append("--no-control-socket")
        # Each request's own time on the server (microseconds): see served().
        access = str(self.tmp / ACCESS_LOG)
        app = ["blitz_site.wsgi", "--access-logfile", access, "--access-logformat", ACCESS]
        if self.serves_asgi:  # production's ASGI app, timed (uvicorn's log has no duration)
            app = ["timed_asgi:application", "--worker-class", "uvicorn_worker.UvicornWorker"]
            app += ["--pythonpath", str(ROOT / "bench"), "--keep-alive", "75"]  # as deploy/stack
            self.env["BLITZ_BENCH_ACCESS_LOG"] = access
        self._server = subprocess.Popen(
            [gunicorn, *app, "--bind", f"{LOOPBACK}:{self.port}", *options],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: stop() ends master and workers
        )
        log.close()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self._server.poll() is not None:
                raise RuntimeError(f"gunicorn exited at start:\n{self.server_log()}")
            try:
                if Client(self.port).get("/ping").status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"gunicorn did not answer within 30 s:\n{self.server_log()}")

    def access_offset(self) -> int:
        """Where the access log ends now: ``served(offset)`` reads what is logged after it."""
        path = self.tmp / ACCESS_LOG
        return path.stat().st_size if path.exists() else 0

    def served(self, offset: int = 0) -> list[Served]:
        """The requests logged after ``offset``, each with its time on the server: from the
        moment a worker has read the request to the moment it has written the answer (the wait
        for a free worker and the TCP connect are not in it). gunicorn's sync workers log it
        themselves; under ASGI ``bench/timed_asgi.py`` does."""
        time.sleep(0.5)  # a worker logs a request just after sending its answer
        with open(self.tmp / ACCESS_LOG, "rb") as log:
            log.seek(offset)
            lines = log.read().decode(errors="replace").splitlines()
        out = []
        for line in lines:
            method, path, status, micros = line.split()
            out.append(Served(method, path, int(status), int(micros) / 1e6))
        return out

    def server_log(self, last: int = 4000) -> str:
        path = self.tmp / "gunicorn.log"
        return path.read_text(errors="replace")[-last:] if path.exists() else ""

    def stop(self) -> None:
        server, self._server = self._server, None
        if server is None or server.poll() is not None:
            return
        for sig, wait in ((signal.SIGTERM, 15), (signal.SIGKILL, 5)):
            try:
                os.killpg(server.pid, sig)
            except ProcessLookupError:
                return
            try:
                server.wait(timeout=wait)
                return
            except subprocess.TimeoutExpired:
                continue

    # Tearing down -------------------------------------------------------------------------------

    def close(self) -> None:
        try:
            self.stop()
        finally:
            try:
                if "django" in sys.modules:
                    from django.db import connections

                    connections.close_all()
                if self._pg_name:
                    with _postgres_admin(self._pg_url) as conn:
                        conn.execute(f'DROP DATABASE IF EXISTS "{self._pg_name}" WITH (FORCE)')
                    self._pg_name = ""
            finally:
                shutil.rmtree(self.tmp, ignore_errors=True)


# --- A small HTTP client: keeps cookies, sends gzip, times each request ---------------------------


@dataclass
class Response:
    status: int
    headers: http.client.HTTPMessage
    body: bytes
    seconds: float

    @property
    def text(self) -> str:
        """The body as text (decompressed when gzip-encoded, as nginx sends HTML)."""
        body = self.body
        if self.headers.get("Content-Encoding", "") == "gzip":
            body = gzip.decompress(body)
        return body.decode("utf-8", errors="replace")


class Client:
    """One browser (or tablet): its own connection and cookies, only ever to 127.0.0.1."""

    def __init__(self, port: int, *, timeout: float = 10.0, cookies: dict | None = None) -> None:
        self.port = port
        self.timeout = timeout
        self.cookies: dict[str, str] = dict(cookies or {})
        self._conn: http.client.HTTPConnection | None = None

    def _connection(self) -> http.client.HTTPConnection:
        if self._conn is None:
            self._conn = http.client.HTTPConnection(LOOPBACK, self.port, timeout=self.timeout)
        return self._conn

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def request(
        self,
        method: str,
        path: str,
        data: dict | None = None,
        headers: dict | None = None,
    ) -> Response:
        if not path.startswith("/"):
            raise ValueError(f"the benchmark only talks to {LOOPBACK}: give a path, not {path!r}")
        sent = {"Host": f"{LOOPBACK}:{self.port}", "Accept-Encoding": "gzip"}
        body = None
        if data is not None:
            body = urlencode(data).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        if method == "POST" and "csrftoken" in self.cookies:
            sent["X-CSRFToken"] = self.cookies["csrftoken"]
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        sent.update(headers or {})
        conn = self._connection()
        start = time.perf_counter()
        try:
            conn.request(method, path, body=body, headers=sent)
            answer = conn.getresponse()
            content = answer.read()
        except (OSError, http.client.HTTPException):
            self.close()
            raise
        seconds = time.perf_counter() - start
        if answer.will_close:
            self.close()
        for line in answer.headers.get_all("Set-Cookie") or []:
            jar = SimpleCookie()
            jar.load(line)
            for name, morsel in jar.items():
                if morsel["max-age"] == "0" or not morsel.value:
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value
        return Response(answer.status, answer.headers, content, seconds)

    def get(self, path: str, **kwargs) -> Response:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, data: dict, **kwargs) -> Response:
        return self.request("POST", path, data=data, **kwargs)

    def login(self, username: str = USERNAME, password: str = PASSWORD) -> None:
        """Log in as a browser does: GET the form (CSRF cookie and token), POST it."""
        import re

        page = self.get("/accounts/login/")
        found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        if page.status != 200 or not found:
            raise RuntimeError(f"the login page did not load ({page.status})")
        answer = self.post(
            "/accounts/login/",
            {"username": username, "password": password, "csrfmiddlewaretoken": found[1]},
            headers={"Referer": f"http://{LOOPBACK}:{self.port}/accounts/login/"},
        )
        if answer.status != 302 or "sessionid" not in self.cookies:
            raise RuntimeError(f"logging in failed ({answer.status}): {answer.text[:300]}")


# --- Seeds: made through the project's own services -----------------------------------------------


@dataclass(frozen=True)
class RosterSeed:
    pk: int
    slug: str
    group: int  # a Fire Support group, and a Grizzly in it, for the option swap
    model: int
    model_id: str
    option: str
    models: int


@dataclass(frozen=True)
class MatchSeed:
    pk: int
    units: tuple[str, ...]  # every model's id ("a-1-1")


@dataclass(frozen=True)
class Seed:
    user_id: int
    rosters: dict[str, RosterSeed]  # "610 TV", "60 models"
    matches: dict[str, MatchSeed]  # empty when the match tracker is not there yet


REALISTIC = "610 TV"
LARGE = "60 models"
SWAP = ("north_fire_support", "grizzly", "north_grizzly_mbzk")


def matches_available() -> bool:
    """Whether the match tracker (its start service) exists in this checkout."""
    try:
        from matches.hgb.services import SideChoice, match_start  # noqa: F401
    except ImportError:
        return False
    return True


def _grow(owner, roster_pk: int, groups: int, squads: tuple[str, str]) -> None:
    """Add combat groups through the roster service until the roster has ``groups`` of them."""
    import rules.hgb
    from armies.hgb import services
    from armies.models import Roster

    catalog = rules.hgb.default_catalog()
    current = len(Roster.objects.get(pk=roster_pk).army["groups"])
    for index in range(current, groups):
        squad = squads[index % 2]
        services.roster_change(
            owner=owner,
            roster_id=roster_pk,
            key=f"bench-grow-{index}",
            change=lambda army, squad=squad: rules.hgb.add_group(army, catalog, squad),
        )
    services.roster_set_tv_limit(owner=owner, roster_id=roster_pk, tv_limit=5000)


def _roster_seed(roster) -> RosterSeed:
    squad, model, option = SWAP
    groups = roster.army["groups"]
    g = next(i for i, group in enumerate(groups) if group["squad"] == squad)
    m = next(i for i, entry in enumerate(groups[g]["models"]) if entry["model"] == model)
    count = sum(len(group["models"]) for group in groups)
    return RosterSeed(roster.pk, roster.share_slug, g, m, model, option, count)


def seed() -> Seed:
    """A user; a 610 TV roster pair and a 60-model pair; a match of each (if matches exists)."""
    from django.contrib.auth.models import User

    from armies.hgb.services import roster_create
    from armies.models import Owner, Roster

    user = User.objects.create_user(USERNAME, password=PASSWORD)
    owner = Owner(user.pk, None)
    north = roster_create(owner=owner, preset="north_starter", name="North 610")
    river = roster_create(owner=owner, preset="peace_river_starter", name="Peace River 610")
    big_north = roster_create(owner=owner, preset="north_starter", name="North 60")
    big_river = roster_create(owner=owner, preset="peace_river_starter", name="Peace River 60")
    _grow(owner, big_north.pk, 12, ("north_general_purpose", "north_fire_support"))
    _grow(owner, big_river.pk, 12, ("pr_general_purpose", "pr_fire_support"))
    rosters = {
        REALISTIC: _roster_seed(Roster.objects.get(pk=north.pk)),
        LARGE: _roster_seed(Roster.objects.get(pk=big_north.pk)),
    }
    matches: dict[str, MatchSeed] = {}
    if matches_available():
        from matches.hgb.services import SideChoice, match_start
        from matches.models import Match

        for label, (mine, theirs) in {
            REALISTIC: (north, river),
            LARGE: (big_north, big_river),
        }.items():
            match = match_start(
                owner=owner,
                player=USERNAME,
                mine=SideChoice(Match.Source.ROSTER, roster=Roster.objects.get(pk=mine.pk)),
                opponent=SideChoice(Match.Source.ROSTER, roster=Roster.objects.get(pk=theirs.pk)),
            )
            units = tuple(unit.id for unit in match.current_state().units)
            matches[label] = MatchSeed(match.pk, units)
    return Seed(user.pk, rosters, matches)


def write_section(section: list[str]) -> None:
    """Replace the section of bench/RESULTS.md whose title is ``section``'s (its first line up to
    the first colon, such as ``## Push-SQLite:``), keeping every other section as it is; a new
    one goes last."""
    results = ROOT / "bench" / "RESULTS.md"
    head, *chunks = re.split(r"^(?=## )", results.read_text(), flags=re.M)
    chunks = [c.rstrip() + "\n" for c in chunks]
    mine = "\n".join(section).rstrip() + "\n"
    title = section[0].split(":")[0] + ":"
    at = next((i for i, chunk in enumerate(chunks) if chunk.startswith(title)), None)
    if at is None:
        chunks.append(mine)
    else:
        chunks[at] = mine
    results.write_text(head.rstrip() + "\n\n" + "\n".join(chunks))
