"""WWII skirmish forces for the app and browser tests, written as the builder's roster document
(``Roster.army``): a tank with a crew, an APC, a truck, a towed gun, infantry. Every figure is
made up."""

from __future__ import annotations

from armies.models import Roster
from tests.rules.ww2.factories import force


def make_ww2_force(user=None, *, name: str = "Red force", guest_key: str = "") -> Roster:
    army = force(
        (
            {
                "id": "v4",
                "name": "BTR",
                "kind": "apc",
                "armour_class": 2,
                "gun_class": None,
                "seats": 12,
                "mgs": [],
                "flamethrower": False,
                "napalm": 0,
                "smoke": 0,
                "specialisations": [],
                "crew": [],
            },
        )
    )
    return Roster.objects.create(
        owner=user,
        guest_key="" if user else guest_key,
        system="ww2",
        name=name,
        army=army,
        data_fingerprint="test",
    )
