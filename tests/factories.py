"""Plain builders for tests (append yours; keep them small)."""

from __future__ import annotations

from django.contrib.auth.models import User

import rules.hgb
from armies.hgb.services import roster_create
from armies.mecha.services import stored_fields as mecha_fields
from armies.models import Owner, Roster
from armies.services import new_roster
from rules.mecha import cards as mecha_cards
from tests.killteam_profiles import KT_PROFILE

PASSWORD = "tread-heavy-gear-42"


def make_user(username: str = "jan") -> User:
    return User.objects.create_user(username, password=PASSWORD)


def make_roster(
    user: User | None = None, *, preset: str = "north_starter", guest_key: str = ""
) -> Roster:
    owner = Owner(user.pk if user else None, guest_key or (None if user else "guest-key-0001"))
    return roster_create(owner=owner, preset=preset)


def make_big_roster(user: User, groups: int) -> Roster:
    """A Northern roster of ``groups`` combat groups (alternating the two squads)."""
    roster = make_roster(user)
    catalog = rules.hgb.default_catalog()
    army = rules.hgb.roster_from_dict(roster.army, catalog)
    squads = ["north_general_purpose", "north_fire_support"]
    for index in range(len(army.groups), groups):
        army = rules.hgb.add_group(army, catalog, squads[index % 2])
    army = (
        army if len(army.groups) <= groups else rules.hgb.remove_group(army, len(army.groups) - 1)
    )
    roster.army = rules.hgb.roster_to_dict(army)
    roster.save()
    return roster


# --- matches (tracker) ---


def make_match(
    user: User | None = None,
    *,
    mine: str = "north_starter",
    opponent: str = "peace_river_starter",
    roster: Roster | None = None,
    guest_key: str = "",
):
    """A match started by ``user`` (or a guest): presets, or ``roster`` against a preset."""
    from matches.hgb.services import SideChoice, match_start

    owner = Owner(user.pk if user else None, guest_key or (None if user else "guest-key-0001"))
    first = SideChoice("roster", roster=roster) if roster else SideChoice("preset", preset=mine)
    return match_start(
        owner=owner,
        player=user.username if user else "Guest",
        mine=first,
        opponent=SideChoice("preset", preset=opponent),
    )


def seat_guest(client, guest_key: str) -> None:
    """Give a test client's session the guest key of a guest player."""
    from armies.owners import GUEST_KEY

    session = client.session
    session[GUEST_KEY] = guest_key
    session.save()


def tap(client, match, op: str, key: str | None = None, *, htmx: bool = True):
    """Send one board tap (``op`` such as "mark b-1-1") as the board's form does."""
    import uuid

    from django.urls import reverse

    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(
        reverse("matches:match-event", args=[match.pk]),
        {"op": op, "key": key or uuid.uuid4().hex},
        headers=headers,
    )


# --- Kill Team (every figure made up for the tests: the core rules give no datacards) ---


def _owner(user: User | None, guest_key: str) -> Owner:
    return Owner(user.pk if user else None, guest_key or (None if user else "guest-key-0001"))


def make_kt_pack(user: User | None = None, *, guest_key: str = "", profiles: dict | None = None):
    """A Kill Team datacard pack holding ``profiles`` (id -> profile; one test trooper)."""
    from armies.models import DataPack
    from blitz_site.systems import KILLTEAM

    owner = _owner(user, guest_key)
    return DataPack.objects.create(
        owner_id=owner.user_id,
        guest_key="" if owner.user_id else owner.guest_key,
        system=KILLTEAM.id,
        name="Kill Team profiles",
        entered_by=user.username if user else "a guest",
        figures={"profiles": profiles if profiles is not None else {"trooper": KT_PROFILE}},
        data_fingerprint="test",
    )


def make_team(
    user: User | None = None,
    *,
    guest_key: str = "",
    name: str = "Test team",
    operatives: int = 0,
    grenades: tuple[int, int] = (0, 0),
    profile: dict = KT_PROFILE,
) -> Roster:
    """A Kill Team roster of ``operatives`` test troopers (of ``profile``) and ``grenades``
    (frag, krak)."""
    from armies.killteam.services import stored_fields, team_create
    from rules.killteam import profile as kt
    from rules.killteam import team as kteam

    roster = team_create(owner=_owner(user, guest_key), name=name)
    team = kteam.read_team(roster.army)
    for _ in range(operatives):
        team = kteam.add_operative(team, kt.read_profile(profile), entered_by="jan")
    if any(grenades):
        team = kteam.set_grenades(team, *grenades)
    for field, value in stored_fields(team).items():
        setattr(roster, field, value)
    roster.save()
    return roster


MECHA_FORCE = {
    "name": "Zeon patrol",
    "units": [
        {
            "name": "Zaku",
            "kind": "mobile_suit",
            "size_class": 3,
            "strength": 4,
            "armour": 2,
            "weapons": [
                {"name": "Machine gun", "type": "range", "fix": "1_handed", "range": 18,
                 "damage": {"count": 2, "die": 6}},
                {"name": "Heat hawk", "type": "melee", "fix": "1_handed", "range": 0,
                 "damage": {"count": 1, "die": 10}},
            ],
        },
        {"name": "Trooper", "kind": "infantry", "strength": 0, "weapons": []},
    ],
}  # fmt: skip


def make_force(user: User | None = None, *, guest_key: str = "", document=None) -> Roster:
    """A mecha force (the two units of ``MECHA_FORCE`` unless a document is given)."""
    document = MECHA_FORCE if document is None else document
    owner = Owner(user.pk if user else None, guest_key or (None if user else "guest-key-0001"))
    fields = mecha_fields(mecha_cards.read_force(document), document["name"])
    return new_roster(owner, **fields)
