"""Mecha cards and a match in turn 1, written as the roster document (the contract) gives them."""

from __future__ import annotations

from rules.mecha.state import new_match, units_from_roster


def weapon(wid, name, type, range=None, damage=(2, 6), fix="arc", link=None, arc="front"):
    return {
        "id": wid,
        "name": name,
        "type": type,
        "sub_types": [],
        "range": range,
        "damage": {"count": damage[0], "die": damage[1]} if damage else None,
        "fix": fix,
        "arc": arc if fix == "arc" else "",
        "link": link,
    }


def unit(uid, name, kind="mobile_suit", weapons=(), **figures):
    data = {
        "id": uid,
        "name": name,
        "kind": kind,
        "kind_name": "",
        "size_class": 3,
        "strength": 4,
        "armour": 2,
        "range_attack": 6,
        "melee_attack": 5,
        "hands": None,
        "has_arms": kind == "mobile_suit",
        "action_counters": 3,
        "heavy_fire": False,
        "stable_platform": False,
        "weapons": list(weapons),
    }
    data.update(figures)
    return data


ZAKU = unit(
    "u1",
    "Zaku",
    weapons=[
        weapon("u1w1", "Machine gun", "range", 24, (2, 6), "1_handed"),
        weapon("u1w2", "Bazooka", "heavy_range", 36, (1, 10), "2_handed"),
        weapon("u1w3", "Heat hawk", "melee", 0, (1, 6), "1_handed"),
        weapon("u1w4", "Shoulder spike", "rammers", 0, (2, 3), "arc"),
    ],
)
GUNTANK = unit(
    "u2",
    "Guntank",
    kind="other",
    kind_name="Tank",
    has_arms=False,
    weapons=[
        weapon(
            "u2w1", "Left cannon", "range", 30, (1, 6), "turret", {"kind": "linked", "set": "1"}
        ),
        weapon(
            "u2w2", "Right cannon", "range", 30, (1, 6), "turret", {"kind": "linked", "set": "1"}
        ),
        weapon("u2w3", "Howitzer", "artillery", 48, (2, 10), "turret"),
        weapon("u2w4", "Rifle", "range", 20, (1, 6), "arc", {"kind": "attached_main", "set": "1"}),
        weapon(
            "u2w5", "Grenade", "range", 6, (1, 3), "arc", {"kind": "attached_addon", "set": "1"}
        ),
        weapon("u2w6", "Tripod gun", "range", 20, (1, 6), "stand"),
        weapon("u2w7", "Dagger", "melee", 0, (1, 3), "arc"),
        weapon("u2w8", "Short gun", "range", 0, (1, 3), "arc"),
    ],
)
PILOT = unit(
    "u1",
    "Pilot",
    kind="infantry",
    strength=0,
    size_class=0,
    armour=0,
    action_counters=None,
    weapons=[
        weapon("u1w1", "Pistol", "anti_personal", 6, (1, 3), "1_handed"),
        weapon("u1w2", "Pike", "long_melee", 2, (1, 6), "1_2_handed"),
        weapon("u1w3", "Halberd", "long_melee", 2, (1, 10), "1_2_handed"),
        weapon("u1w4", "Heavy gun", "heavy_range", 20, (1, 10), "2_handed"),
    ],
    heavy_fire=True,
)


def match(a=(ZAKU, PILOT), b=(GUNTANK,), formula="half_then_add", scope="every_ram"):
    return new_match(
        ("Anna", "Ben"),
        units_from_roster("a", {"units": [dict(u, id=f"u{n}") for n, u in enumerate(a, 1)]}),
        units_from_roster("b", {"units": list(b)}),
        formula,
        scope,
    )
