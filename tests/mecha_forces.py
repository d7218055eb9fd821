"""Two mecha forces written as the roster document the builder stores (every figure made up:
the rules text gives no unit or weapon profiles), for the tracker's app and browser tests."""

from __future__ import annotations

from armies.models import Roster


def _weapon(wid, name, type, range, damage, fix, link=None):
    return {
        "id": wid,
        "name": name,
        "type": type,
        "sub_types": [],
        "range": range,
        "damage": {"count": damage[0], "die": damage[1]},
        "fix": fix,
        "arc": "front" if fix == "arc" else "",
        "link": link,
    }


def _unit(uid, name, kind, weapons, **figures):
    return {
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
        "weapons": weapons,
    } | figures


RED = {
    "units": [
        _unit(
            "u1",
            "Zaku",
            "mobile_suit",
            [
                _weapon("u1w1", "Machine gun", "range", 24, (2, 6), "1_handed"),
                _weapon("u1w2", "Bazooka", "heavy_range", 36, (1, 10), "2_handed"),
                _weapon("u1w3", "Shoulder spike", "rammers", 0, (2, 3), "arc"),
            ],
        ),
        _unit("u2", "Pilot", "infantry", [], strength=0, size_class=0, armour=0),
    ]
}
BLUE = {
    "units": [
        _unit(
            "u1",
            "Guntank",
            "other",
            [
                _weapon(
                    "u1w1",
                    "Left cannon",
                    "range",
                    30,
                    (1, 6),
                    "turret",
                    {"kind": "linked", "set": "1"},
                ),
                _weapon(
                    "u1w2",
                    "Right cannon",
                    "range",
                    30,
                    (1, 6),
                    "turret",
                    {"kind": "linked", "set": "1"},
                ),
            ],
            kind_name="Tank",
            size_class=4,
            armour=3,
        ),
    ]
}


def make_force(user=None, *, guest_key: str = "", name: str = "Red force", army=None) -> Roster:
    """A mecha roster owned by ``user`` (or a guest) holding ``army`` (``RED`` unless given)."""
    return Roster.objects.create(
        owner=user,
        guest_key="" if user else (guest_key or "guest-key-0001"),
        system="mecha",
        name=name,
        faction="Mecha attacks",
        army=army if army is not None else RED,
        data_fingerprint="test",
    )
