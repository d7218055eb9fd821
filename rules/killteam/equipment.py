"""The universal equipment's figures, read from ``equipment.toml`` (docs/killteam-readings.md,
'Grenades', 'Universal equipment'): the Frag and Krak grenade profiles and how many a team picks,
the other pieces a team may pick (``kit_items``: how the board counts each), the stun grenade's
stun test (D6, 3+) and a mine's D3+3 damage."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from rules.checks import check_whole
from rules.errors import RulesError
from rules.killteam.data import read_data
from rules.killteam.profile import RANGED, Weapon
from rules.killteam.weapons import weapon_from_dict


@dataclass(frozen=True)
class Grenade:
    key: str
    name: str
    german: str
    weapon: Weapon


@dataclass(frozen=True)
class Equipment:
    grenades: tuple[Grenade, ...]
    grenade_picks: int
    utility_picks: int
    stun_range: int
    stun_radius: int
    stun_die: int
    stun_success: int
    stun_apl_penalty: int
    mine_die: int
    mine_plus: int
    summaries: dict[str, str]

    def grenade(self, key: str) -> Grenade:
        for grenade in self.grenades:
            if grenade.key == key:
                return grenade
        names = ", ".join(g.key for g in self.grenades)
        raise RulesError(f"There is no grenade {key!r}; the text gives {names}.")


BATTLE, TURNING_POINT = "battle", "turning_point"


@dataclass(frozen=True)
class KitItem:
    """A piece of universal equipment (not the explosive grenades): ``uses`` says how the board
    counts it (BATTLE: ``count`` times a battle; TURNING_POINT: once a turning point; "": not
    at all, the table judges it); ``utility``: a utility grenade, picked up to two with the
    other; ``ap``: the action's AP cost where the text prints one, else None."""

    key: str
    name: str
    german: str
    uses: str
    summary: str
    count: int = 1
    utility: bool = False
    ap: int | None = None

    @property
    def counted(self) -> bool:
        return bool(self.uses)


@cache
def kit_items() -> tuple[KitItem, ...]:
    """Every piece of universal equipment but the explosive grenades, in the text's order."""
    return tuple(
        KitItem(
            key=entry["key"],
            name=entry["name"],
            german=entry["german"],
            uses=entry["uses"],
            summary=entry["summary"],
            count=entry.get("count", 1),
            utility=entry.get("utility", False),
            ap=entry.get("ap"),
        )
        for entry in read_data("equipment.toml")["kit"]
    )


def kit_item(key: object) -> KitItem:
    """The piece of equipment ``key``; RulesError naming the pieces there are."""
    for item in kit_items():
        if item.key == key:
            return item
    names = ", ".join(item.name for item in kit_items())
    raise RulesError(f"There is no equipment {key!r}; the text gives {names}.")


@cache
def equipment() -> Equipment:
    data = read_data("equipment.toml")
    explosive = data["explosive_grenades"]
    grenades = tuple(
        Grenade(
            key=entry["key"],
            name=entry["name"],
            german=entry["german"],
            weapon=weapon_from_dict({**entry, "kind": RANGED}),
        )
        for entry in explosive["grenade"]
    )
    stun = data["stun_grenade"]
    mine = data["mine"]
    return Equipment(
        grenades=grenades,
        grenade_picks=explosive["picks"],
        utility_picks=data["utility_grenades"]["picks"],
        stun_range=stun["range"],
        stun_radius=stun["radius"],
        stun_die=stun["test_die"],
        stun_success=stun["test_success"],
        stun_apl_penalty=stun["apl_penalty"],
        mine_die=mine["damage_die"],
        mine_plus=mine["damage_plus"],
        summaries={
            "explosive_grenades": explosive["summary"],
            "utility_grenades": data["utility_grenades"]["summary"],
            "stun_grenade": stun["summary"],
            "mine": mine["summary"],
        },
    )


def grenade_weapon(key: str) -> Weapon:
    """The profile of the ``frag`` or ``krak`` grenade as a ranged weapon."""
    return equipment().grenade(key).weapon


def mine_damage_distribution() -> dict[int, Fraction]:
    """A mine's damage, D3+3: 4, 5 or 6, each a third."""
    kit = equipment()
    return {kit.mine_plus + face: Fraction(1, kit.mine_die) for face in range(1, kit.mine_die + 1)}


def mine_damage(die: int) -> int:
    """A mine's damage from the D3 rolled (1 to 3)."""
    kit = equipment()
    if check_whole(die, f"A D{kit.mine_die} shows 1 to {kit.mine_die}", 1) > kit.mine_die:
        raise RulesError(f"A D{kit.mine_die} shows 1 to {kit.mine_die}; got {die}.")
    return kit.mine_plus + die


def stun_test(die: int) -> bool:
    """The stun test: a D6 of 3 or more stuns (APL 1 lower until the end of the operative's
    next activation)."""
    kit = equipment()
    if check_whole(die, f"A D{kit.stun_die} shows 1 to {kit.stun_die}", 1) > kit.stun_die:
        raise RulesError(f"A D{kit.stun_die} shows 1 to {kit.stun_die}; got {die}.")
    return die >= kit.stun_success


def stun_test_chance() -> Fraction:
    """The chance a stun test stuns: 4 in 6."""
    kit = equipment()
    return Fraction(kit.stun_die - kit.stun_success + 1, kit.stun_die)
