"""Every route of the site, found by walking the URL resolver, gets the values that found 500s
(tests/hostile.py) in its query and its form fields, hostile files in its upload fields, hostile
path arguments and the wrong methods, as the owner of real objects of every kind, another
player, a guest and anyone: never a 500, never an exception.

No route is named here. The URL arguments come from the site's own pages: the owner's pages are
crawled and every link, form action and htmx address is resolved, so a route is reached with
real objects (rosters and teams, datacard packs and profiles, matches of both games, share,
join and watch links). A route no page leads to gets the real ids and slugs of every kind in
turn. A route reached neither way fails the test: a new game's endpoints are fuzzed the day
they are added, and the test only asks for an object of a new kind in ``world`` below.

Form field names are taken from the forms each page draws, plus every name the older fuzz tests
use. Each request runs in a savepoint rolled back after it (and the visitor's cookies are put
back), so a delete or a logout sent as a hostile value does not take the objects away from the
requests after it.
CI runs this on SQLite and on PostgreSQL (where NUL in a query is an error of its own)."""

from __future__ import annotations

import copy
import itertools
import re
import uuid
from dataclasses import dataclass, field
from html import unescape
from urllib.parse import quote, urlsplit

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import Resolver404, resolve, reverse

from armies.models import DataPack, Owner, Roster
from matches.killteam.services import kt_match_start
from matches.mecha.services import mecha_match_start
from matches.models import Match
from matches.ww2.services import ww2_match_start
from tests import hostile, mecha_forces
from tests.app.test_fuzz_armies import FIELDS as ROSTER_FIELDS
from tests.app.test_fuzz_matches import FIELDS as MATCH_FIELDS
from tests.factories import (
    make_force,
    make_kt_pack,
    make_match,
    make_roster,
    make_team,
    make_user,
    seat_guest,
)
from tests.ww2_factories import make_ww2_force

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

LINK = re.compile(r'\s(href|action|hx-get|hx-post|src)="([^"]*)"')
FORM = re.compile(r"<form\b[^>]*>", re.IGNORECASE)
NAME = re.compile(r'<(?:input|select|textarea|button)\b[^>]*\sname="([^"]+)"', re.IGNORECASE)
INPUT = re.compile(r'<input\b[^>]*\sname="([^"]+)"[^>]*\svalue="([^"]*)"', re.IGNORECASE)
FORM_BLOCK = re.compile(r"<form\b([^>]*)>(.*?)</form>", re.IGNORECASE | re.DOTALL)
TARGET = re.compile(r'\s(?:hx-post|action)="([^"]+)"')
SELECT = re.compile(r'<select\b[^>]*\sname="([^"]+)"[^>]*>\s*<option[^>]*\svalue="([^"]*)"', re.I)
FILE_FIELD = re.compile(r'<input\b[^>]*type="file"[^>]*\sname="([^"]+)"', re.IGNORECASE)
OTHER_FIELDS = ["file", "system", "pack", "username", "password", "password1", "password2",
                "old_password", "new_password1", "new_password2", "next", "against", "roster",
                "mine", "opponent"]  # fmt: skip
GENERIC_FIELDS = sorted({*ROSTER_FIELDS, *MATCH_FIELDS, *OTHER_FIELDS})
MAX_PAGES = 150
MAX_POOL_TRIES = 60
HOSTILE_INTS = ["0", "9" * 30, "9" * 5000]  # past any column, past int()
HOSTILE_TOKENS = ["x" * 64, "-"]
HOSTILE_SEGMENTS = ["²", "\x00", "\ud800"]  # refused by the converters: 404 before any view


@dataclass
class Visitor:
    name: str
    client: Client
    values: list[str]


@dataclass
class Route:
    name: str
    pattern: str
    converters: dict
    urls: list[str] = field(default_factory=list)  # real ones, found on pages or from the pools
    fields: set[str] = field(default_factory=set)
    files: set[str] = field(default_factory=set)
    form: tuple[str, dict[str, str]] | None = None  # a form sending here: its URL, its values


def signed_in(username: str) -> tuple[Client, object]:
    user = make_user(username)
    client = Client()
    client.force_login(user)
    return client, user


def world() -> tuple[dict[str, Visitor], list[str], dict[str, list[str]]]:
    """Real objects of every kind: the owner's, another player's and a guest's. Returns the
    visitors, the pages the crawl starts from, and every id and slug by converter (the pools)."""
    owner, jan = signed_in("owner")
    other, ben = signed_in("other")
    guest = Client()
    roster = make_roster(jan)
    team = make_team(jan, name="Red team", operatives=2, grenades=(1, 1))
    theirs = make_team(ben, name="Blue team", operatives=2)
    make_roster(ben)
    force = make_force(jan)
    make_force(ben)
    gone = make_roster(jan)
    owner.post(reverse("armies:roster-delete", args=[gone.pk]))
    for shared in (roster, team, force):
        owner.post(reverse("armies:roster-share-new", args=[shared.pk]))
    owner.post(reverse("datacard-pack-create"), {"name": "Jan's cards", "key": "p" * 12})
    pack = DataPack.objects.get(name="Jan's cards")
    owner.post(reverse("datacard-edit", args=[pack.pk, "models", "jaguar"]), {"armor": "7"})
    owner.post(reverse("datacard-share-new", args=[pack.pk]))
    kt_pack = make_kt_pack(jan)
    owner.post(reverse("datacard-share-new", args=[kt_pack.pk]))
    owner.post(reverse("datacard-pack-create"), {"name": "Old cards", "key": "o" * 12})
    owner.post(reverse("datacard-delete", args=[DataPack.objects.get(name="Old cards").pk]))
    hgb_match = make_match(jan, roster=roster)
    kt_match = kt_match_start(owner=Owner(jan.pk, None), player="jan", mine=team, opponent=theirs)
    ww2_match = ww2_match_start(
        owner=Owner(jan.pk, None),
        player="jan",
        mine=make_ww2_force(jan),
        opponent=make_ww2_force(ben, name="Blue force"),
        running_gear_counts=True,
    )
    mecha_match = mecha_match_start(
        owner=Owner(jan.pk, None),
        player="jan",
        mine=mecha_forces.make_force(jan),
        opponent=mecha_forces.make_force(jan, name="Blue force", army=mecha_forces.BLUE),
        ram_formula="half_then_add",
        ram_scope="every_ram",
    )
    seat_guest(guest, "guest-key-0001")
    guest.post(reverse("armies:roster-create"), {"preset": "north_starter", "key": "g" * 12})
    make_match(None, guest_key="guest-key-0001")
    for match in (hgb_match, kt_match, ww2_match, mecha_match):
        owner.get(reverse("matches:match-board", args=[match.pk]))  # the owner's seat cookie
    ints = {
        str(pk)
        for model in (Roster, DataPack, Match)
        for pk in model.objects.values_list("pk", flat=True)
    }
    ints |= {"0", "1", "2"}
    tokens = set()
    for model, slugs in ((Roster, ["share_slug"]), (DataPack, ["share_slug"]),
                         (Match, ["join_slug", "watch_slug"])):  # fmt: skip
        for values in model.objects.values_list(*slugs):
            tokens |= {value for value in values if value}
    for figures in DataPack.objects.values_list("figures", flat=True):
        for kind, entries in (figures or {}).items():
            tokens |= {kind, *entries}
    tokens |= {"models", "weapons", "jaguar", "LAC"}
    visitors = {
        "owner": Visitor("owner", owner, hostile.ROUTE_VALUES),
        "other player": Visitor("other player", other, hostile.VISITOR_VALUES),
        "guest": Visitor("guest", guest, hostile.VISITOR_VALUES),
        "anyone": Visitor("anyone", Client(), hostile.VISITOR_VALUES),
    }
    starts = [reverse("home"), reverse("armies:roster-list"), reverse("datacards"),
              reverse("matches:match-list"), reverse("matches:match-new"),
              reverse("matches:kt-new"), reverse("matches:ww2-new")]  # fmt: skip
    starts += [f"{reverse('datacards')}?pack={p.pk}" for p in (pack, kt_pack)]
    starts += [
        reverse("matches:match-board", args=[m.pk])
        for m in (hgb_match, kt_match, ww2_match, mecha_match)
    ]
    return visitors, starts, {"int": sorted(ints), "token": sorted(tokens)}


def route_of(url: str, routes: dict[str, Route]) -> Route | None:
    try:
        match = resolve(urlsplit(url).path)
    except Resolver404:
        return None
    return routes.get(match.view_name)


def crawl(client: Client, starts: list[str], routes: dict[str, Route]) -> None:
    """Follow the owner's pages (GET only), recording each route's real URLs and each page's
    form fields under the routes its forms send to."""
    seen: set[str] = set()
    queue = list(starts)
    while queue and len(seen) < MAX_PAGES:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        response = client.get(url)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        html = response.content.decode()
        fields = set(NAME.findall(html))
        files = set(FILE_FIELD.findall(html))
        for attributes, inner in FORM_BLOCK.findall(html):  # each form as the page fills it
            target = TARGET.search(attributes)
            route = route_of(unescape(target.group(1)), routes) if target else None
            if route is not None and route.form is None:
                values = [*SELECT.findall(inner), *INPUT.findall(inner)]
                filled = {n: unescape(v) for n, v in values if n != "csrfmiddlewaretoken"}
                route.form = (urlsplit(unescape(target.group(1))).path, filled)
        page_route = route_of(url, routes)
        if page_route is not None:
            page_route.fields |= fields
        for attribute, raw in LINK.findall(html):
            target = unescape(raw)
            parts = urlsplit(target)
            if parts.netloc not in ("", "testserver") or not parts.path.startswith("/"):
                continue
            route = route_of(parts.path, routes)
            if route is None:
                continue
            if parts.path not in route.urls:
                route.urls.append(parts.path)
            if attribute in ("action", "hx-post"):
                route.fields |= fields
                route.files |= files
            elif attribute in ("href", "hx-get"):
                queue.append(target)


def from_pools(route: Route, pools: dict[str, list[str]], owner: Client) -> None:
    """A route no page led to: each combination of real ids and slugs until the owner gets an
    answer other than 404 (a route with no arguments is its own URL)."""
    names = list(route.converters)
    choices = [
        pools["int" if type(c).__name__ == "IntConverter" else "token"]
        for c in route.converters.values()
    ]
    for values in itertools.islice(itertools.product(*choices), MAX_POOL_TRIES):
        url = reverse(route.name, kwargs=dict(zip(names, values, strict=True)))
        with transaction.atomic():
            status = owner.get(url).status_code
            post = owner.post(url).status_code if status == 405 else status
            transaction.set_rollback(True)
        if post != 404:
            route.urls.append(url)
            return


def hostile_paths(route: Route) -> list[str]:
    """The route's first real URL with each argument in turn made hostile: values its converter
    accepts (a 5,000-digit id, a 64-character slug) and raw segments it refuses."""
    if not route.converters or not route.urls:
        return []
    match = resolve(route.urls[0])
    paths = []
    for name, converter in route.converters.items():
        values = HOSTILE_INTS if type(converter).__name__ == "IntConverter" else HOSTILE_TOKENS
        real = {k: str(v) for k, v in match.kwargs.items()}
        segments = [quote(s.encode("utf-8", "surrogatepass")) for s in HOSTILE_SEGMENTS]
        paths += [_fill(route.pattern, real | {name: value}) for value in [*values, *segments]]
    return paths


def _fill(pattern: str, kwargs: dict[str, str]) -> str:
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: kwargs[m.group(1)], pattern)


@dataclass
class Probe:
    failures: list[str] = field(default_factory=list)
    requests: int = 0

    def send(self, who: Visitor, method: str, url: str, data=None, *, htmx=False, files=None):
        """One request in its own savepoint; a 500 or an exception is recorded, not raised."""
        self.requests += 1
        headers = {"HX-Request": "true"} if htmx else {}
        cookies = copy.deepcopy(who.client.cookies)
        try:
            with transaction.atomic():  # rolled back: every request meets the same objects
                if method == "get":
                    response = hostile.get(who.client, url, data or {}, headers=headers)
                elif method == "post" and files is not None:
                    response = who.client.post(url, {**(data or {}), **files}, headers=headers)
                elif method == "post":
                    response = hostile.post(who.client, url, data or {}, headers=headers)
                else:
                    response = getattr(who.client, method)(url, headers=headers)
                transaction.set_rollback(True)
        except Exception as error:  # noqa: BLE001 - every exception is a finding
            self.failures.append(
                f"{who.name} {method.upper()} {url[:120]} {_short(data)}: {error!r:.300}"
            )
            return None
        finally:
            who.client.cookies = cookies  # a logout or a login among the values changes them
        if response.status_code >= 500:
            self.failures.append(
                f"{who.name} {method.upper()} {url[:120]} {_short(data)}: {response.status_code}"
            )
        return response.status_code


def _short(data) -> str:
    if not data:
        return ""
    value = next(iter(data.values()))
    return repr(value[:30] + ("…" if len(value) > 30 else "")) if isinstance(value, str) else ""


def bodies(value: str, fields: list[str], form: list[str]) -> list[dict[str, str]]:
    """``value`` in every field (a value over 1 KB only in the fields the page's forms have),
    as few bodies as keep each under the 1 MB the site reads."""
    names = (form or ["name", "text", "note", "op"]) if len(value) > 1024 else fields
    size = len(hostile.encoded({"field_name": value}))  # as sent: "é" is 6 bytes, %C3%A9
    per_body = max(1, 900_000 // size)
    return [{n: value for n in names[i : i + per_body]} for i in range(0, len(names), per_body)]


def fuzz(route: Route, visitors: dict[str, Visitor], probe: Probe) -> None:
    """The route's values as every visitor; then, as the owner, each value in one field of the
    form filled in as the page fills it (so it gets past the other fields' checks), the files,
    the wrong methods and the hostile path arguments."""
    url = route.urls[0]
    form = sorted(route.fields - {"csrfmiddlewaretoken"})
    fields = sorted(set(form) | set(GENERIC_FIELDS))
    owner, anyone = visitors["owner"], visitors["anyone"]
    allowed = {}
    for who in visitors.values():
        allowed[who.name] = [m for m in ("get", "post") if probe.send(who, m, url) != 405]
        for index, value in enumerate(who.values):
            for body in bodies(value, fields, form):
                if who is owner and index % 2:  # a fresh once-only key: the value reaches the work
                    body = body | {"key": uuid.uuid4().hex}
                for method in allowed[who.name]:
                    probe.send(who, method, url, body, htmx=index % 4 >= 2)
        if who in (owner, visitors["other player"]):
            for extra in route.urls[1:3]:
                for method in allowed[who.name]:
                    probe.send(who, method, extra, {name: who.values[0] for name in fields})
    form_url, filled = route.form or (url, {})
    unfilled = [name for name in GENERIC_FIELDS if name not in filled]
    for index, value in enumerate(owner.values if filled else ()):
        # One form of a page as the page fills it, with the value in one of its fields; then
        # in every field the form does not draw (a once-only key it does not send, say).
        defaults = {"key": uuid.uuid4().hex, **filled}
        others = unfilled if len(value) <= 1024 else ["key"]
        for body in (
            defaults | {list(filled)[index % len(filled)]: value},
            defaults | {name: value for name in others},
        ):
            for method in allowed["owner"]:
                probe.send(owner, method, form_url, body, htmx=index % 2 == 1)
    if route.files and "post" in allowed["owner"]:
        for filename, content in hostile.FILES.items():
            files = {name: SimpleUploadedFile(filename, content) for name in route.files}
            probe.send(owner, "post", url, {"key": uuid.uuid4().hex}, files=files)
    for method in hostile.WRONG_METHODS:
        probe.send(owner, method, url)
    for path in hostile_paths(route):
        probe.send(owner, "get", path)
        probe.send(anyone, "post", path)


def test_every_route_answers_every_visitor_and_every_hostile_value_without_a_500():
    routes = {
        name: Route(name, pattern, converters) for name, pattern, converters in hostile.routes()
    }
    visitors, starts, pools = world()
    owner = visitors["owner"]
    crawl(owner.client, starts, routes)
    for route in routes.values():
        if not route.urls:
            from_pools(route, pools, owner.client)
    uncovered = sorted(name for name, route in routes.items() if not route.urls)
    assert not uncovered, f"No page leads to these routes and no real id reaches them: {uncovered}"
    probe = Probe()
    for route in routes.values():
        fuzz(route, visitors, probe)
    assert not probe.failures, (
        f"{len(probe.failures)} of {probe.requests} requests failed:\n"
        + "\n".join(probe.failures[:60])
    )
