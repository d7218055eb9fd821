"""Plain builders for tests (append yours; keep them small)."""

from __future__ import annotations

from django.contrib.auth.models import User

import rules
from armies.models import Owner, Roster
from armies.services import roster_create

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
    catalog = rules.default_catalog()
    army = rules.roster_from_dict(roster.army, catalog)
    squads = ["north_general_purpose", "north_fire_support"]
    for index in range(len(army.groups), groups):
        army = rules.add_group(army, catalog, squads[index % 2])
    army = army if len(army.groups) <= groups else rules.remove_group(army, len(army.groups) - 1)
    roster.army = rules.roster_to_dict(army)
    roster.save()
    return roster
