"""Every URL, for the owner, another user, a guest and an anonymous visitor: the expected status.

Owner: the user who owns the roster and holds seat A of the match. Other: a logged-in user with
no part in them. Guest: a visitor with a guest session (and a roster of their own). Anonymous: no
session at all. Someone else's roster or match is a 404 (its existence is not even confirmed).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.test import Client
from django.urls import URLResolver, get_resolver, reverse

from armies.models import DataPack, Owner
from matches.killteam.services import kt_match_start
from matches.mecha.services import mecha_match_start
from matches.models import Match
from matches.ww2.services import ww2_match_start
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

pytestmark = pytest.mark.django_db

ROLES = ("owner", "other", "guest", "anonymous")


@dataclass(frozen=True)
class Case:
    name: str
    method: str
    args: tuple  # "roster", "match", "slug", "watch", "join" are filled in per test
    expect: dict  # role -> status
    data: dict | None = None
    query: str = ""


def same(status: int) -> dict:
    return dict.fromkeys(ROLES, status)


def owner_only(status: int) -> dict:
    return {"owner": status, "other": 404, "guest": 404, "anonymous": 404}


LOGGED_IN = {"owner": 200, "other": 200, "guest": 302, "anonymous": 302}
KEY = {"key": "matrix-key-0001"}

MATRIX = [
    Case("home", "GET", (), same(200)),
    Case("healthz", "GET", (), same(200)),
    Case("ping", "GET", (), same(200)),
    Case("service-worker", "GET", (), same(200)),
    Case("offline", "GET", (), same(200)),
    Case("signup", "GET", (), {"owner": 302, "other": 302, "guest": 200, "anonymous": 200}),
    Case("login", "GET", (), {"owner": 302, "other": 302, "guest": 200, "anonymous": 200}),
    Case("logout", "POST", (), same(302)),
    Case("password-change", "GET", (), LOGGED_IN),
    Case("password-changed", "GET", (), LOGGED_IN),
    # Rosters
    Case("armies:roster-list", "GET", (), same(200)),
    Case("armies:roster-create", "POST", (), same(302), {"start": "preset:north_starter"}),
    Case("armies:roster-import", "POST", (), same(400), {"text": "{}"}),
    Case("armies:roster-edit", "GET", ("roster",), owner_only(200)),
    Case("armies:roster-rename", "POST", ("roster",), owner_only(302), {"name": "Renamed"}),
    Case("armies:roster-tv-limit", "POST", ("roster",), owner_only(302), {"tv_limit": "700"}),
    Case("armies:roster-duplicate", "POST", ("roster",), owner_only(302)),
    Case("armies:roster-delete", "GET", ("roster",), owner_only(200)),
    Case("armies:roster-restore", "POST", ("roster",), owner_only(404)),  # not in the trash
    Case(
        "armies:group-add",
        "POST",
        ("roster",),
        owner_only(302),
        {"squad": "north_general_purpose", **KEY},
    ),
    Case("armies:group-remove", "POST", ("roster", 0), owner_only(302), KEY),
    Case(
        "armies:group-upgrade",
        "POST",
        ("roster", 0),
        owner_only(302),
        {"upgrade": "north_veteran_command", "chosen": "1"},
    ),
    Case("armies:model-add", "POST", ("roster", 0), owner_only(302), {"model": "hunter", **KEY}),
    Case("armies:model-remove", "POST", ("roster", 0, 0), owner_only(302), KEY),
    Case(
        "armies:model-option",
        "POST",
        ("roster", 0, 2),
        owner_only(302),
        {"option": "north_mac", "chosen": "1"},
    ),
    Case(
        "armies:model-option-all",
        "POST",
        ("roster", 0, 0),
        owner_only(302),
        {"option": "north_fgc", "chosen": "1", "count": "2"},
    ),
    Case("armies:roster-cards", "GET", ("roster",), owner_only(200)),
    Case("armies:roster-text", "GET", ("roster",), owner_only(200)),
    Case("armies:roster-export-md", "GET", ("roster",), owner_only(200)),
    Case("armies:roster-export-json", "GET", ("roster",), owner_only(200)),
    Case("armies:roster-share-new", "GET", ("roster",), owner_only(200)),
    Case("armies:roster-share-new", "POST", ("roster",), owner_only(302)),
    Case("armies:roster-share-revoke", "GET", ("roster",), owner_only(200)),
    Case("armies:roster-share-revoke", "POST", ("roster",), owner_only(302)),
    Case("roster-shared", "GET", ("slug",), same(200)),
    Case("roster-shared-qr", "GET", ("slug",), same(200)),
    Case("roster-shared-copy", "POST", ("slug",), same(302)),
    Case("armies:roster-pack", "POST", ("roster",), owner_only(302), {"pack": ""}),
    # The Kill Team editor ("team": the owner's Kill Team roster of one operative, id 1)
    Case("armies:team-rename", "POST", ("team",), owner_only(302), {"name": "Renamed"}),
    Case("armies:team-grenades", "POST", ("team",), owner_only(302), {"grenades": "1-1"}),
    Case("armies:team-new-profile", "POST", ("team",), owner_only(302)),
    Case("armies:team-ploy-add", "POST", ("team",), owner_only(200), {}),  # a form error, kept
    Case("armies:team-ploy-remove", "POST", ("team",), owner_only(302), {"name": "Nope"}),
    Case("armies:operative-add", "POST", ("team",), owner_only(302), {"profile": "x", **KEY}),
    Case("armies:operative-edit", "GET", ("team", 1), owner_only(200)),
    Case("armies:operative-edit", "POST", ("team", 1), owner_only(302), {"name": "Sarge"}),
    Case("armies:operative-remove", "POST", ("team", 1), owner_only(302), KEY),
    Case("datacard-profile-new", "GET", ("ktpack",), owner_only(200)),
    Case("datacard-profile-edit", "GET", ("ktpack", "trooper"), owner_only(200)),
    Case("datacard-profile-delete", "POST", ("ktpack", "trooper"), owner_only(302)),
    Case("armies:team-kit", "POST", ("team",), owner_only(302), {"kit_mines": "on"}),
    Case("armies:team-update-profiles", "POST", ("team",), owner_only(302), KEY),
    Case("datacard-profiles-export", "GET", ("ktpack",), owner_only(200)),
    # "slug" is a Heavy Gear roster's link: it has no Kill Team profiles to copy
    Case("roster-shared-profiles-copy", "POST", ("slug",), same(404), KEY),
    # Datacards
    Case("datacards", "GET", (), same(200)),
    Case("datacard-pack-create", "POST", (), same(302), KEY),
    Case("datacard-pack-import", "POST", (), same(200)),  # no file: the form says so
    Case("datacard-edit", "GET", ("pack", "models", "jaguar"), owner_only(200)),
    Case("datacard-edit", "POST", ("pack", "models", "jaguar"), owner_only(302), {"armor": "7"}),
    Case("datacard-export", "GET", ("pack",), owner_only(200)),
    Case("datacard-rosters", "GET", ("pack",), owner_only(200)),
    Case("datacard-card", "GET", ("pack", "grizzly"), owner_only(200)),
    Case("datacard-card", "POST", ("pack", "grizzly"), owner_only(302), {"m-armor": "18"}),
    Case("datacard-paste", "GET", ("pack",), owner_only(200)),
    Case("datacard-paste", "POST", ("pack",), owner_only(302), {"table": "id,size\ngrizzly,6"}),
    Case("datacard-table", "GET", ("pack",), owner_only(200)),
    Case("datacard-share-new", "POST", ("pack",), owner_only(302)),
    Case("datacard-share-revoke", "POST", ("pack",), owner_only(302)),
    Case("datacard-share-revoke", "GET", ("pack",), owner_only(200)),  # asks first
    Case("datacard-delete", "GET", ("pack",), owner_only(200)),  # asks first
    Case("datacard-delete", "POST", ("pack",), owner_only(302)),
    Case("datacard-restore", "POST", ("pack",), owner_only(404)),  # not in the trash
    Case("datacard-shared", "GET", ("packslug",), same(200)),
    Case("datacard-shared-copy", "POST", ("packslug",), same(302)),
    # Matches
    Case("matches:match-list", "GET", (), same(200)),
    Case("matches:match-new", "GET", (), same(200)),
    Case("matches:match-join", "GET", ("join",), {**same(200), "owner": 302}),
    Case("matches:match-watch", "GET", ("watch",), same(200)),
    Case("matches:match-watch-poll", "GET", ("watch",), same(204), query="?seq=0"),
    Case("matches:match-watch-summary", "GET", ("watch",), same(200)),
    Case("matches:match-overlay", "GET", ("watch",), same(200)),  # the stream overlay
    Case("matches:match-overlay", "GET", ("ktwatch",), same(200)),
    Case("matches:match-overlay", "GET", ("w2watch",), same(200)),
    Case("matches:match-overlay", "GET", ("mwatch",), same(200)),
    Case("matches:match-board", "GET", ("match",), owner_only(200)),
    Case(
        "matches:match-event",
        "POST",
        ("match",),
        owner_only(302),
        {"op": "mark b-1-1", "key": "matrix-tap-0001"},
    ),
    Case("matches:match-poll", "GET", ("match",), owner_only(204), query="?seq=0"),
    # The live streams: this test's server is WSGI, which holds none (204: the board polls);
    # tests/app/test_push_stream.py reads them through ASGI.
    Case("matches:stream", "GET", ("match",), owner_only(204)),
    Case("matches:stream", "GET", ("ktmatch",), owner_only(204)),
    Case("matches:watch-stream", "GET", ("watch",), same(204)),
    Case("matches:watch-stream", "GET", ("ktwatch",), same(204)),
    Case("matches:match-end-round", "GET", ("match",), owner_only(200)),
    Case("matches:match-end", "GET", ("match",), owner_only(200)),
    Case("matches:match-summary", "GET", ("match",), owner_only(200)),
    Case("matches:match-log-md", "GET", ("match",), owner_only(200)),
    Case("matches:match-join-link", "GET", ("match",), owner_only(200)),
    Case("matches:match-join-qr", "GET", ("match",), owner_only(200)),
    Case("matches:roster-history", "GET", ("roster",), owner_only(200)),
    Case("matches:attack-helper", "GET", ("match",), owner_only(200)),
    Case("matches:attack-apply", "POST", ("match",), owner_only(400), {}),  # malformed: says why
    Case("matches:attack-dice", "POST", ("match",), owner_only(400), {}),
    Case("matches:attack-figure", "POST", ("match",), owner_only(400), {}),  # names no field
    Case("matches:attack-save-figure", "POST", ("match",), owner_only(400), {}),  # no field
    Case("matches:attack-ecm", "GET", ("match",), owner_only(200)),
    Case("matches:attack-observe", "GET", ("match",), owner_only(400)),
    Case("matches:attack-ecm-apply", "POST", ("match",), owner_only(400), {}),
    Case("matches:attack-house-rule", "POST", ("match",), owner_only(400), {}),
    # The house rule is off by default: its page sends the player back to the helper.
    Case("matches:attack-designation", "GET", ("match",), owner_only(302)),
    Case("matches:attack-designation-apply", "POST", ("match",), owner_only(400), {}),
    # Kill Team matches ("ktmatch": the owner's, two teams of one operative)
    Case("matches:kt-new", "GET", (), same(200)),
    Case("matches:match-board", "GET", ("ktmatch",), owner_only(200)),
    Case("matches:match-watch", "GET", ("ktwatch",), same(200)),
    Case(
        "matches:kt-event",
        "POST",
        ("ktmatch",),
        owner_only(302),
        {"op": "stun a-1", "key": "matrix-tap-0001"},
    ),
    Case("matches:kt-poll", "GET", ("ktmatch",), owner_only(204), query="?seq=0"),
    Case("matches:kt-watch-poll", "GET", ("ktwatch",), same(204), query="?seq=0"),
    Case("matches:kt-shoot", "GET", ("ktmatch",), owner_only(200)),
    Case("matches:kt-shoot-apply", "POST", ("ktmatch",), owner_only(400), {}),  # no key
    Case("matches:kt-summary", "GET", ("ktmatch",), owner_only(200)),
    Case("matches:kt-watch-summary", "GET", ("ktwatch",), same(200)),
    Case("matches:kt-log-md", "GET", ("ktmatch",), owner_only(200)),
    Case("matches:kt-fight", "GET", ("ktmatch",), owner_only(200)),
    Case("matches:kt-fight-apply", "POST", ("ktmatch",), owner_only(400), {}),  # no key
    # The mecha force editor ("mforce": the owner's force of MECHA_FORCE, units u1 and u2)
    Case("armies:mecha-rules", "GET", (), same(200)),
    Case("armies:mecha-unit-new", "GET", ("mforce",), owner_only(200)),
    Case("armies:mecha-unit-edit", "GET", ("mforce", "u1"), owner_only(200)),
    Case("armies:mecha-unit-remove", "GET", ("mforce", "u1"), owner_only(200)),  # asks first
    Case("armies:mecha-weapon-new", "GET", ("mforce", "u1"), owner_only(200)),
    Case("armies:mecha-weapon-edit", "GET", ("mforce", "u1", "u1w1"), owner_only(200)),
    Case("armies:mecha-weapon-remove", "GET", ("mforce", "u1", "u1w1"), owner_only(200)),
    # The WWII force editor ("w2force": the owner's force of tests/ww2_factories.py)
    Case("armies:ww2-rules", "GET", (), same(200)),
    Case("armies:ww2-rename", "POST", ("w2force",), owner_only(302), {"name": "Renamed"}),
    Case("armies:ww2-vehicle-new", "GET", ("w2force",), owner_only(200)),
    Case("armies:ww2-vehicle-edit", "GET", ("w2force", "v1"), owner_only(200)),
    Case("armies:ww2-vehicle-remove", "POST", ("w2force", "v1"), owner_only(302)),
    Case(
        "armies:ww2-soldier-add",
        "POST",
        ("w2force",),
        owner_only(302),
        {"name": "Sokolov", "rank": "soldier", **KEY},
    ),
    Case("armies:ww2-soldier-edit", "GET", ("w2force", "i1"), owner_only(200)),
    Case("armies:ww2-soldier-remove", "POST", ("w2force", "i1"), owner_only(302)),
    # WWII skirmish matches ("w2match": the owner's, two forces of tests/ww2_factories.py)
    Case("matches:ww2-new", "GET", (), same(200)),
    Case("matches:match-board", "GET", ("w2match",), owner_only(200)),
    Case("matches:match-watch", "GET", ("w2watch",), same(200)),
    Case(
        "matches:ww2-event",
        "POST",
        ("w2match",),
        owner_only(302),
        {"op": "hit a-v1 0 damaged", "key": "matrix-tap-0001"},
    ),
    Case("matches:ww2-poll", "GET", ("w2match",), owner_only(204), query="?seq=0"),
    Case("matches:ww2-watch-poll", "GET", ("w2watch",), same(204), query="?seq=0"),
    Case("matches:ww2-do", "GET", ("w2match", "hit", "a-v1"), owner_only(200)),
    Case("matches:ww2-summary", "GET", ("w2match",), owner_only(200)),
    Case("matches:ww2-log-md", "GET", ("w2match",), owner_only(200)),
    Case("matches:ww2-watch-summary", "GET", ("w2watch",), same(200)),
    # Mecha matches ("mmatch": the owner's, the force "mforce" on both sides)
    Case("matches:mecha-new", "GET", (), same(200)),
    Case("matches:match-board", "GET", ("mmatch",), owner_only(200)),
    Case("matches:match-watch", "GET", ("mwatch",), same(200)),
    Case(
        "matches:mecha-event",
        "POST",
        ("mmatch",),
        owner_only(302),
        {"op": "move a-1", "key": "matrix-tap-0001"},
    ),
    Case("matches:mecha-poll", "GET", ("mmatch",), owner_only(204), query="?seq=0"),
    Case("matches:mecha-watch-poll", "GET", ("mwatch",), same(204), query="?seq=0"),
    Case("matches:mecha-attack", "GET", ("mmatch",), owner_only(200)),
    Case("matches:mecha-attack-apply", "POST", ("mmatch",), owner_only(400), {}),  # no key
    Case("matches:mecha-summary", "GET", ("mmatch",), owner_only(200)),
    Case("matches:mecha-log-md", "GET", ("mmatch",), owner_only(200)),
    Case("matches:mecha-watch-summary", "GET", ("mwatch",), same(200)),
]


def all_url_names() -> set[str]:
    def walk(patterns, namespace=""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = f"{pattern.namespace}:" if pattern.namespace else namespace
                yield from walk(pattern.url_patterns, inner)
            elif pattern.name:
                yield namespace + pattern.name

    return set(walk(get_resolver().url_patterns))


def test_the_matrix_covers_every_url():
    missing = all_url_names() - {case.name for case in MATRIX}
    assert not missing, f"add these URLs to the authorization matrix: {sorted(missing)}"


def clients(owner, roster, match) -> dict[str, Client]:
    made = {role: Client() for role in ROLES}
    made["owner"].force_login(owner)
    made["other"].force_login(make_user("other"))
    seat_guest(made["guest"], "guest-of-the-matrix-0001")
    make_roster(guest_key="guest-of-the-matrix-0001")
    return made


@pytest.mark.parametrize("case", MATRIX, ids=[case.name for case in MATRIX])
@pytest.mark.parametrize("role", ROLES)
def test_who_may_do_what(case, role):
    owner = make_user("owner")
    roster = make_roster(owner)
    match = make_match(owner, roster=roster)
    pack = DataPack.objects.create(
        owner=owner, name="Mine", entered_by="owner", data_fingerprint="x", share_slug="p" * 22
    )
    team = make_team(owner, operatives=1)
    kt_pack = make_kt_pack(owner)
    ktmatch = kt_match_start(owner=Owner(owner.pk, None), player="owner", mine=team, opponent=team)
    mforce = make_force(owner)
    w2match = ww2_match_start(
        owner=Owner(owner.pk, None),
        player="owner",
        mine=make_ww2_force(owner),
        opponent=make_ww2_force(owner, name="Blue force"),
        running_gear_counts=True,
    )
    mmatch = mecha_match_start(
        owner=Owner(owner.pk, None),
        player="owner",
        mine=mforce,
        opponent=mforce,
        ram_formula="half_then_add",
        ram_scope="every_ram",
    )
    values = {
        "mforce": mforce.pk,
        "mmatch": mmatch.pk,
        "mwatch": mmatch.watch_slug,
        "w2force": make_ww2_force(owner, name="Green force").pk,
        "w2match": w2match.pk,
        "w2watch": w2match.watch_slug,
        "ktmatch": ktmatch.pk,
        "ktwatch": ktmatch.watch_slug,
        "team": team.pk,
        "ktpack": kt_pack.pk,
        "roster": roster.pk,
        "match": match.pk,
        "slug": roster.share_slug,
        "watch": match.watch_slug,
        "join": match.join_slug,
        "pack": pack.pk,
        "packslug": pack.share_slug,
    }
    client = clients(owner, roster, match)[role]
    url = reverse(case.name, args=[values.get(arg, arg) for arg in case.args]) + case.query
    before = Match.objects.get(pk=match.pk).seq
    response = client.get(url) if case.method == "GET" else client.post(url, case.data or {})
    assert response.status_code == case.expect[role], (case.name, role, response.status_code)
    if case.expect[role] == 404:
        assert Match.objects.get(pk=match.pk).seq == before
