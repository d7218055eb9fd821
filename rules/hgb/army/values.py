"""A roster's value types (roster, groups, models, costs, problems, choices, profiles), words."""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.hgb.catalog import (
    Mount,
    MovementLine,
    Ranges,
    Skills,
    Weapon,
)

FORMAT_VERSION = 1
MAX_TV_LIMIT = 10000
MAX_NAME_LENGTH = 200

LIMIT_CODES = frozenset(
    {"limit_too_many", "army_limit_too_many", "over_tv_limit", "group_too_large"}
)
"""Problem codes that mean "this choice breaks a limit" (used by the available_* helpers)."""


# --- Value types ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelEntry:
    """A model in a combat group: its model id and the ids of the options it takes.

    ``model_name`` and ``option_names`` are the display names it was built or stored with; they are
    shown when an id is no longer in the data, and take no part in equality.
    """

    model: str
    options: tuple[str, ...] = ()
    model_name: str = field(default="", compare=False)
    option_names: tuple[str, ...] = field(default=(), compare=False)

    def stored_option_name(self, index: int) -> str:
        return _stored_name(self.options, self.option_names, index)


@dataclass(frozen=True)
class CombatGroup:
    """A combat group: a squad of the data, its models, and the ids of its group upgrades."""

    squad: str
    models: tuple[ModelEntry, ...] = ()
    upgrades: tuple[str, ...] = ()
    squad_name: str = field(default="", compare=False)
    upgrade_names: tuple[str, ...] = field(default=(), compare=False)

    def stored_upgrade_name(self, index: int) -> str:
        return _stored_name(self.upgrades, self.upgrade_names, index)


def _stored_name(ids: tuple[str, ...], names: tuple[str, ...], index: int) -> str:
    """The display name stored beside id ``index``, or the id when none was stored."""
    if index < len(names) and names[index]:
        return names[index]
    return ids[index]


@dataclass(frozen=True)
class Roster:
    """An army. ``data_version`` and ``data_fingerprint`` record the data it was last built with."""

    faction: str
    tv_limit: int
    groups: tuple[CombatGroup, ...] = ()
    name: str = ""
    data_version: str = field(default="", compare=False)
    data_fingerprint: str = field(default="", compare=False)


@dataclass(frozen=True)
class Problem:
    """A broken rule or a gap, in a plain sentence. ``group``/``model`` are 0-based or None."""

    code: str
    message: str
    group: int | None = None
    model: int | None = None


@dataclass(frozen=True)
class CostItem:
    """One priced thing: an option or an upgrade, with its TV change."""

    id: str
    label: str
    tv: int
    known: bool = True
    note: str = ""


@dataclass(frozen=True)
class ModelCost:
    """What a model adds to its group: its own TV (0 when the squad's TV pays for it), options."""

    index: int
    model: str
    name: str
    tv: int
    in_squad_tv: bool
    tv_known: bool
    options: tuple[CostItem, ...]
    total: int


@dataclass(frozen=True)
class GroupCost:
    index: int
    squad: str
    name: str
    base: int
    upgrades: tuple[CostItem, ...]
    models: tuple[ModelCost, ...]
    total: int


@dataclass(frozen=True)
class RosterCost:
    """The army's TV and where every point goes. ``total`` is the sum of the breakdown.

    ``complete`` is False when something could not be priced (``gaps`` says what, in sentences).
    """

    total: int
    groups: tuple[GroupCost, ...]
    complete: bool
    gaps: tuple[str, ...] = ()


@dataclass(frozen=True)
class OptionChoice:
    """An option a model may take, as the builder offers it."""

    id: str
    label: str
    tv: int
    tv_printed: bool
    tv_note: str
    chosen: bool
    replaces: tuple[str, ...] = ()
    breaks: tuple[str, ...] = ()

    @property
    def would_break_limit(self) -> bool:
        return bool(self.breaks)


@dataclass(frozen=True)
class UpgradeChoice:
    """A group upgrade a combat group may take, as the builder offers it."""

    id: str
    label: str
    tv: int
    tv_printed: bool
    tv_note: str
    chosen: bool
    breaks: tuple[str, ...] = ()

    @property
    def would_break_limit(self) -> bool:
        return bool(self.breaks)


@dataclass(frozen=True)
class ProfileWeapon:
    """A weapon a model carries: its mount (arc, ammo) and arsenal figures (None: not given)."""

    mount: Mount
    weapon: Weapon | None

    @property
    def code(self) -> str:
        return self.mount.weapon

    @property
    def name(self) -> str:
        return self.weapon.name if self.weapon else self.mount.weapon

    @property
    def dm(self) -> int | None:
        return self.weapon.dm if self.weapon else None

    @property
    def accuracy(self) -> int | None:
        return self.weapon.accuracy if self.weapon else None

    @property
    def ranges(self) -> Ranges:
        return self.weapon.ranges if self.weapon else Ranges()

    @property
    def rof(self) -> int | None:
        return self.weapon.rof if self.weapon else None


@dataclass(frozen=True)
class ModelProfile:
    """A model as it plays: skills after upgrades, weapons after swaps, damage track, figures."""

    group: int
    index: int
    model: str
    name: str
    known: bool
    leader: bool
    skills: Skills
    weapons: tuple[ProfileWeapon, ...]
    loadout_complete: bool
    damage_track: tuple[str, ...]
    armor: int | None
    size: int | None
    sensors: int | None
    movement: tuple[MovementLine, ...]
    options: tuple[str, ...]


# --- Sentences ------------------------------------------------------------------------------------


def plural(name: str, count: int) -> str:
    if count == 1:
        return name
    if name.endswith("y") and name[-2:-1].lower() not in "aeiou":
        return name[:-1] + "ies"
    return name + "s"


def spot(group: int, model: int | None = None) -> str:
    """Where in the roster, for a sentence: "(Combat Group 2, model 1)"."""
    if model is None:
        return f"(Combat Group {group + 1})"
    return f"(Combat Group {group + 1}, model {model + 1})"
