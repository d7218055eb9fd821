"""Two small forces written as the builder's roster document, and a battle between them."""

from __future__ import annotations

from rules.ww2.state import new_battle


def force(extra_vehicles: tuple[dict, ...] = ()) -> dict:
    return {
        "vehicles": [
            {
                "id": "v1",
                "name": "T-34 no. 1",
                "kind": "tank",
                "kind_name": "",
                "armour_class": 4,
                "gun_class": 5,
                "seats": 6,
                "mgs": ["hull", "turret"],
                "flamethrower": True,
                "napalm": 1,
                "smoke": 1,
                "specialisations": ["mine_trawl", "active_armour"],
                "crew": [
                    {"id": "v1c1", "name": "Ivanov", "commander": True},
                    {"id": "v1c2", "name": "Sidorov", "commander": False},
                ],
            },
            {
                "id": "v2",
                "name": "ZiS truck",
                "kind": "truck",
                "armour_class": 1,
                "gun_class": None,
                "seats": 8,
                "mgs": [],
                "flamethrower": False,
                "napalm": 0,
                "smoke": 0,
                "specialisations": [],
                "crew": [{"id": "v2c1", "name": "Orlov", "commander": True}],
            },
            {
                "id": "v3",
                "name": "ZiS-3 gun",
                "kind": "gun",
                "armour_class": None,
                "gun_class": 3,
                "seats": None,
                "mgs": [],
                "flamethrower": False,
                "napalm": 0,
                "smoke": 0,
                "specialisations": [],
                "crew": [],
            },
            *extra_vehicles,
        ],
        "infantry": [
            {"id": "i1", "name": "Petrov", "rank": "commander"},
            {"id": "i2", "name": "Kozlov", "rank": "soldier"},
            {"id": "i3", "name": "Belov", "rank": "soldier"},
            {"id": "i4", "name": "Zaitsev", "rank": "officer"},
        ],
    }


def battle(running_gear_counts: bool = False):
    return new_battle((force(), force()), ("Red", "Blue"), running_gear_counts=running_gear_counts)
