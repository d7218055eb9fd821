"""Small Kill Team battles for the tests. Every profile figure is made up: the core rules text
gives no datacards."""

from __future__ import annotations

from rules.killteam import OperativeSpec, SideSpec, make_event, new_battle, step, weapon_from_dict


def weapon(name, kind, attacks, hit, normal, critical, rules=()):
    return weapon_from_dict(
        {
            "name": name,
            "kind": kind,
            "attacks": attacks,
            "hit": hit,
            "normal_damage": normal,
            "critical_damage": critical,
            "rules": list(rules),
        }
    )


GUN = weapon("Rifle", "ranged", 4, 3, 3, 4)
SILENT = weapon("Quiet pistol", "ranged", 4, 3, 2, 3, ["Silent"])
HEAVY = weapon("Cannon", "ranged", 5, 4, 4, 6, ["Heavy", "Limited 1"])
BLADE = weapon("Knife", "melee", 3, 3, 3, 4)


def operative(name: str, *, apl: int = 2, wounds: int = 10, weapons=(GUN, BLADE)) -> OperativeSpec:
    return OperativeSpec(name=name, apl=apl, move=6, save=4, wounds=wounds, weapons=tuple(weapons))


def battle(a: int = 2, b: int = 2, grenades=None, ploys=()):
    """A battle with ``a`` and ``b`` operatives: a-1 has a Silent pistol, a-2 a Heavy cannon;
    ``ploys`` are Anna's team's own named ploys."""
    weapons = [(GUN, SILENT, BLADE), (GUN, HEAVY, BLADE)]
    side_a = SideSpec(
        "Anna",
        "Red team",
        [operative(f"Red {n}", weapons=weapons[(n - 1) % 2]) for n in range(1, a + 1)],
        grenades=grenades or {"frag": 1, "krak": 1},
        ploys=tuple(ploys),
    )
    side_b = SideSpec(
        "Ben", "Blue team", [operative(f"Blue {n}", wounds=9) for n in range(1, b + 1)]
    )
    return new_battle(side_a, side_b)


def run(state, *events):
    """Apply events given as (kind, fields) pairs; return the last step."""
    result = None
    for kind, fields in events:
        result = step(state, make_event(kind, **fields))
        state = result.state
    return result


def to_firefight(state, initiative: str = "a"):
    """Roll (a 5, b 2: Anna decides), give the initiative, both pass: the firefight phase."""
    other = "b" if initiative == "a" else "a"
    return run(
        state,
        ("initiative_roll", {"side": "a", "die": 5}),
        ("initiative_roll", {"side": "b", "die": 2}),
        ("give_initiative", {"side": initiative}),
        ("pass_strategy", {"side": initiative}),
        ("pass_strategy", {"side": other}),
    ).state
