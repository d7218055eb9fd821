"""Kill Team teams as players build them, checked: the operatives (each with a copy of the
profile it was built from, ``rules.killteam.profile``) and the explosive grenades the team picks
(docs/killteam-readings.md, 'Grenades': two, 2 frag, 2 krak or one of each; the text makes the
equipment itself optional, so none is a choice too), and the ploys its players name
(``rules.killteam.ploys``). The text gives no points and no selection rules: nothing else about a
team is checked. Illegal input raises ``ProfileError``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from rules.errors import RulesError
from rules.killteam.data import read_data
from rules.killteam.equipment import equipment, kit_item, kit_items
from rules.killteam.ploys import Ploy, add_ploy, ploy_to_dict, read_ploys, remove_ploy
from rules.killteam.profile import (
    MAX_NAME,
    OperativeProfile,
    Problem,
    ProfileError,
    profile_to_dict,
    read_profile,
)

MAX_OPERATIVES = 30
"""Size bound of a team (the pages stay fast): not a selection rule, the text gives none."""


# --- Equipment: explosive grenades ------------------------------------------------------------


@dataclass(frozen=True)
class Grenades:
    """The explosive grenades a team picked: each usable as many times as picked."""

    frag: int = 0
    krak: int = 0

    @property
    def count(self) -> int:
        return self.frag + self.krak


# The text: choose two explosive grenades (the figure lives in equipment.toml).
GRENADE_PICKS: int = read_data("equipment.toml")["explosive_grenades"]["picks"]


def grenade_choices() -> tuple[Grenades, ...]:
    """Every choice the text allows: none (the equipment is optional), 2 frag, 2 krak, or one
    of each."""
    picks = tuple(Grenades(frag, GRENADE_PICKS - frag) for frag in range(GRENADE_PICKS, -1, -1))
    return (Grenades(), *picks)


def read_grenades(frag: Any, krak: Any) -> Grenades:
    if any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in (frag, krak)):
        raise ProfileError(
            [Problem("grenades", "Grenade counts must be whole numbers, 0 or more.")]
        )
    choice = Grenades(frag, krak)
    if choice not in grenade_choices():
        raise ProfileError(
            [
                Problem(
                    "grenades",
                    "Explosive grenades come as a pick of two: 2 frag, 2 krak, or one of each "
                    f"(or none); got {frag} frag and {krak} krak.",
                )
            ]
        )
    return choice


# --- Equipment: the other pieces (docs/killteam-readings.md, 'Universal equipment') ----------


def read_kit(data: Any) -> tuple[tuple[str, int], ...]:
    """The other universal equipment a team picked, {key: how many} ("mines": 1, "stun_grenade":
    2), in the text's order. The text sets no limit on how many pieces a team picks; each piece
    is picked once, but the utility grenades: up to two between them (2 smoke, 2 stun, or one of
    each)."""
    if not isinstance(data, Mapping):
        raise ProfileError([Problem("kit", "The equipment must be a table of pieces.")])
    picked: dict[str, int] = {}
    for key, count in data.items():
        try:
            item = kit_item(key)
        except RulesError as error:
            raise ProfileError([Problem("kit", str(error))]) from None
        most = equipment().utility_picks if item.utility else 1
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= most:
            raise ProfileError(
                [Problem("kit", f"{item.name}: pick it 0 to {most} times; got {count!r}.")]
            )
        if count:
            picked[item.key] = count
    utility = sum(count for key, count in picked.items() if kit_item(key).utility)
    if utility > equipment().utility_picks:
        raise ProfileError(
            [
                Problem(
                    "kit",
                    f"Utility grenades come as up to {equipment().utility_picks}: 2 smoke, 2 "
                    "stun, or one of each.",
                )
            ]
        )
    return tuple((item.key, picked[item.key]) for item in kit_items() if item.key in picked)


# --- Teams ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Operative:
    id: int  # stable within its team: forms name it, so a stale form changes nothing
    name: str  # the player's own name for it; "" means its profile's name
    profile: OperativeProfile
    entered_by: str = ""  # who typed the profile in, as the library said when it was added
    source: str = ""  # the library profile it was built from ("<pack>:<profile id>"), if known

    @property
    def title(self) -> str:
        return self.name or self.profile.name


@dataclass(frozen=True)
class Team:
    name: str
    operatives: tuple[Operative, ...] = ()
    grenades: Grenades = Grenades()
    next_id: int = 1
    ploys: tuple[Ploy, ...] = ()  # its own ploys, named by its players (rules.killteam.ploys)
    kit: tuple[tuple[str, int], ...] = ()
    """The other universal equipment picked, (key, how many), in the text's order."""

    def operative(self, operative_id: int) -> Operative:
        for operative in self.operatives:
            if operative.id == operative_id:
                return operative
        raise ProfileError([Problem("operative", "That operative is no longer in the team.")])


def new_team(name: str) -> Team:
    return Team(name=name)


def _operative_name(name: Any) -> str:
    text = " ".join(name.split()) if isinstance(name, str) else ""
    if len(text) > MAX_NAME:
        raise ProfileError(
            [Problem("name", f"An operative's name can be at most {MAX_NAME} characters.")]
        )
    return text


def add_operative(
    team: Team,
    profile: OperativeProfile,
    *,
    name: str = "",
    entered_by: str = "",
    source: str = "",
) -> Team:
    if len(team.operatives) >= MAX_OPERATIVES:
        raise ProfileError(
            [
                Problem(
                    "operative",
                    f"A team in Blitz holds at most {MAX_OPERATIVES} operatives "
                    "(a size limit of the app; the rules set none).",
                )
            ]
        )
    operative = Operative(team.next_id, _operative_name(name), profile, entered_by, source[:80])
    return replace(team, operatives=(*team.operatives, operative), next_id=team.next_id + 1)


def change_operative(
    team: Team,
    operative_id: int,
    *,
    name: str,
    profile: OperativeProfile | None = None,
    entered_by: str | None = None,
    source: str | None = None,
) -> Team:
    """Rename an operative and, given a ``profile``, build it from that profile instead."""
    current = team.operative(operative_id)
    changed = replace(
        current,
        name=_operative_name(name),
        profile=profile or current.profile,
        entered_by=current.entered_by if entered_by is None else entered_by,
        source=current.source if source is None else source[:80],
    )
    operatives = tuple(changed if o.id == operative_id else o for o in team.operatives)
    return replace(team, operatives=operatives)


def update_profiles(team: Team, latest: Mapping[int, tuple[OperativeProfile, str, str]]) -> Team:
    """Each operative named in ``latest`` (id -> (profile, entered_by, source)) rebuilt from
    that newer version of its profile; its own name stays. Ids no longer in the team are passed
    over."""
    operatives = tuple(
        replace(o, profile=latest[o.id][0], entered_by=latest[o.id][1], source=latest[o.id][2])
        if o.id in latest
        else o
        for o in team.operatives
    )
    return replace(team, operatives=operatives)


def profile_changes(old: OperativeProfile, new: OperativeProfile) -> list[str]:
    """What a newer version of a profile changes, in words: "Wounds 8 → 9", "Rifle changed",
    "Knife added", "Pistol removed", "renamed Gunner" (empty: nothing)."""
    words = []
    if old.name != new.name:
        words.append(f"renamed {new.name}")
    for label, key in (("APL", "apl"), ("Move", "move"), ("Save", "save"), ("Wounds", "wounds")):
        before, after = getattr(old, key), getattr(new, key)
        if before != after:
            words.append(f"{label} {before} → {after}")
    old_weapons = {w.name: w for w in old.weapons}
    new_weapons = {w.name: w for w in new.weapons}
    for name, weapon in new_weapons.items():
        if name not in old_weapons:
            words.append(f"{name} added")
        elif old_weapons[name] != weapon:
            words.append(f"{name} changed")
    words += [f"{name} removed" for name in old_weapons if name not in new_weapons]
    return words


def remove_operative(team: Team, operative_id: int) -> Team:
    team.operative(operative_id)
    return replace(team, operatives=tuple(o for o in team.operatives if o.id != operative_id))


def set_grenades(team: Team, frag: Any, krak: Any) -> Team:
    return replace(team, grenades=read_grenades(frag, krak))


def name_ploy(team: Team, name: Any, kind: Any, cost: Any) -> Team:
    return replace(team, ploys=add_ploy(team.ploys, name, kind, cost))


def drop_ploy(team: Team, name: str) -> Team:
    return replace(team, ploys=remove_ploy(team.ploys, name))


def set_kit(team: Team, kit: Any) -> Team:
    return replace(team, kit=read_kit(kit))


def rename_team(team: Team, name: str) -> Team:
    return replace(team, name=name)


def read_team(data: Any) -> Team:
    """A team from its stored (or imported) form, checked whole; ProfileError names each
    problem with its operative."""
    if not isinstance(data, Mapping):
        raise ProfileError([Problem("", "This is not a Kill Team roster.")])
    problems: list[Problem] = []
    name = data.get("name")
    if not isinstance(name, str):
        problems.append(Problem("name", "The roster has no name."))
        name = ""  # not kept: the problem is raised below
    raw = data.get("operatives", [])
    if isinstance(raw, str) or not isinstance(raw, list | tuple):
        raise ProfileError([*problems, Problem("operatives", "The operatives must be a list.")])
    if len(raw) > MAX_OPERATIVES:
        raise ProfileError(
            [*problems, Problem("operatives", f"At most {MAX_OPERATIVES} operatives.")]
        )
    operatives: list[Operative] = []
    for index, item in enumerate(raw):
        where = f"Operative {index + 1}: "
        if not isinstance(item, Mapping):
            problems.append(Problem(f"operatives.{index}", f"{where}not an operative."))
            continue
        try:
            profile = read_profile(item.get("profile"))
            own_name = _operative_name(item.get("name", ""))
        except ProfileError as error:
            problems += [Problem(f"operatives.{index}", where + p.message) for p in error.problems]
            continue
        number = item.get("id")
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            number = 0  # renumbered below
        entered_by = item.get("entered_by", "")
        entered_by = entered_by[:150] if isinstance(entered_by, str) else ""
        source = item.get("source", "")
        source = source[:80] if isinstance(source, str) else ""
        operatives.append(Operative(number, own_name, profile, entered_by, source))
    grenades = data.get("grenades") or {}
    try:
        chosen = (
            read_grenades(grenades.get("frag", 0), grenades.get("krak", 0))
            if isinstance(grenades, Mapping)
            else read_grenades(None, None)
        )
    except ProfileError as error:
        problems += error.problems
        chosen = Grenades()
    try:
        ploys = read_ploys(data.get("ploys"))
    except ProfileError as error:
        problems += error.problems
        ploys = ()
    try:
        kit = read_kit(data.get("kit") or {})
    except ProfileError as error:
        problems += error.problems
        kit = ()
    if problems:
        raise ProfileError(problems)
    return _numbered(Team(name, tuple(operatives), chosen, _next_id(data), ploys, kit))


def _next_id(data: Mapping[str, Any]) -> int:
    value = data.get("next_id", 1)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 1


def _numbered(team: Team) -> Team:
    """Every operative with its own id, and ``next_id`` past them all: an imported file with
    missing or repeated ids is renumbered, never refused."""
    seen: set[int] = set()
    operatives = []
    next_id = max([team.next_id, *(o.id + 1 for o in team.operatives)])
    for operative in team.operatives:
        if operative.id < 1 or operative.id in seen:
            operative = replace(operative, id=next_id)
            next_id += 1
        seen.add(operative.id)
        operatives.append(operative)
    return replace(team, operatives=tuple(operatives), next_id=next_id)


def team_to_dict(team: Team) -> dict[str, Any]:
    """The stored form ``read_team`` reads back."""
    return {
        "name": team.name,
        "operatives": [
            {
                "id": operative.id,
                "name": operative.name,
                "entered_by": operative.entered_by,
                "source": operative.source,
                "profile": profile_to_dict(operative.profile),
            }
            for operative in team.operatives
        ],
        "grenades": {"frag": team.grenades.frag, "krak": team.grenades.krak},
        "next_id": team.next_id,
        "ploys": [ploy_to_dict(ploy) for ploy in team.ploys],
        "kit": dict(team.kit),
    }


__all__ = [
    "GRENADE_PICKS",
    "MAX_OPERATIVES",
    "Grenades",
    "Operative",
    "Ploy",
    "Team",
    "add_operative",
    "change_operative",
    "drop_ploy",
    "grenade_choices",
    "name_ploy",
    "new_team",
    "profile_changes",
    "read_grenades",
    "read_kit",
    "read_team",
    "remove_operative",
    "rename_team",
    "set_grenades",
    "set_kit",
    "team_to_dict",
    "update_profiles",
]
