"""The game data's types: frozen dataclasses for weapons, models, squads, options, upgrades,
factions, presets and the catalog that holds them, and the names the data uses.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from rules.errors import RulesError
from rules.hgb.catalog.sentences import (
    sentence_case,
    with_article,
)

NOT_PROVIDED = "not provided"
ENV_DATA_DIRS = "BLITZ_DATA_DIRS"
BUILTIN_PREFIX = "rules/hgb/data/"

ARC_NAMES = {
    "F": "Forward arc",
    "Ff": "Fixed Forward arc",
    "Rr": "Rear arc",
    "FRr": "Fixed Rear arc",
}
"""Weapon arcs as the English quickstart abbreviates them ("Weapon Arcs")."""

BOX_KINDS = ("sturdy", "light", "heavy", "critical")
"""Damage box names: the values of ``rules.hgb.damage.BoxKind``."""

RANGE_BANDS = ("point_blank", "short", "medium", "long", "extreme")
MOVEMENT_MODES = ("walker", "ground")
SPEEDS = ("stationary", "combat", "top")
EDITIONS = ("english", "translated")
KINDS = ("weapons", "models", "factions", "squads", "options", "upgrades", "presets")


class DataError(RulesError):
    """The game data is invalid. ``messages`` holds one sentence per problem."""

    def __init__(self, messages: Iterable[str]) -> None:
        self.messages = tuple(messages)
        super().__init__("\n".join(self.messages))


def show_figure(value: object, unit: str = "") -> str:
    """A game figure for display: "not provided" when the texts do not give it."""
    if value is None:
        return NOT_PROVIDED
    return f"{value}{unit}"


# --- Types ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ranges:
    """A weapon's five range bands, in inches (the upper end of each band); None: not provided."""

    point_blank: int | None = None
    short: int | None = None
    medium: int | None = None
    long: int | None = None
    extreme: int | None = None

    @property
    def provided(self) -> bool:
        return any(getattr(self, band) is not None for band in RANGE_BANDS)


@dataclass(frozen=True)
class Weapon:
    """A weapon of the Quick Start Arsenal. Figures the texts do not give are None."""

    code: str
    name: str
    aliases: tuple[str, ...] = ()
    parts: tuple[str, ...] = ()
    dm: int | None = None
    accuracy: int | None = None
    ranges: Ranges = Ranges()
    rof: int | None = None
    traits: tuple[str, ...] | None = None
    notes: str = ""


@dataclass(frozen=True)
class Mount:
    """A weapon as a model carries it: arc, Reloads and Limited Ammo, as the list prints them."""

    weapon: str
    arc: str | None = None
    reloads: bool | None = None
    limited_ammo: int | None = None
    note: str = ""

    @property
    def arc_name(self) -> str:
        return ARC_NAMES[self.arc] if self.arc else NOT_PROVIDED

    @property
    def ammo_text(self) -> str:
        """ "Reloads", "no Reloads", "Limited Ammo 2", or "not provided"."""
        parts = []
        if self.reloads is not None:
            parts.append("Reloads" if self.reloads else "no Reloads")
        if self.limited_ammo is not None:
            parts.append(f"Limited Ammo {self.limited_ammo}")
        if self.note:
            parts.append(self.note)
        return ", ".join(parts) if parts else NOT_PROVIDED


@dataclass(frozen=True)
class MovementLine:
    """MP and movement modifiers for one movement mode and speed (all not provided by the texts)."""

    mode: str
    speed: str
    mp: int | None = None
    attack_modifier: int | None = None
    defense_modifier: int | None = None


@dataclass(frozen=True)
class Skills:
    """A skill line: Attack, Defense, Electronic Warfare, Leadership. None: not provided."""

    att: int | None = None
    defense: int | None = None
    ew: int | None = None
    ld: int | None = None

    def line(self) -> str:
        """The line as the army lists print it, e.g. "ATT 2, DEF 2, EW 1, LD 0"."""
        return (
            f"ATT {show_figure(self.att)}, DEF {show_figure(self.defense)}, "
            f"EW {show_figure(self.ew)}, LD {show_figure(self.ld)}"
        )

    def over(self, base: Skills) -> Skills:
        """These skills, each missing one taken from ``base``."""
        return Skills(
            att=base.att if self.att is None else self.att,
            defense=base.defense if self.defense is None else self.defense,
            ew=base.ew if self.ew is None else self.ew,
            ld=base.ld if self.ld is None else self.ld,
        )

    @property
    def empty(self) -> bool:
        return self == Skills()


@dataclass(frozen=True)
class Model:
    """A model (a Gear). The loadout is only as far as the texts name it unless loadout_complete."""

    id: str
    name: str
    faction: str | None = None
    counts_as: str | None = None
    loadout: tuple[Mount, ...] = ()
    loadout_complete: bool = False
    damage_track: tuple[str, ...] = BOX_KINDS
    armor: int | None = None
    size: int | None = None
    sensors: int | None = None
    tv: int | None = None
    movement: tuple[MovementLine, ...] = ()
    perks: tuple[str, ...] = ()
    """Perks the texts give this model ("ecm"), beside those of its faction (``Faction.perks``)."""
    notes: str = ""

    @property
    def kinds(self) -> frozenset[str]:
        """The model ids this model answers to for options: its own and the one it counts as."""
        return frozenset(filter(None, (self.id, self.counts_as)))

    @property
    def carried(self) -> frozenset[str]:
        """Codes of the weapons the texts name it as carrying."""
        return frozenset(mount.weapon for mount in self.loadout)

    def movement_for(self, mode: str, speed: str) -> MovementLine | None:
        for line in self.movement:
            if line.mode == mode and line.speed == speed:
                return line
        return None


@dataclass(frozen=True)
class Slot:
    """A line of a squad's printed composition: so many of a model, with their skill line."""

    model: str
    count: int
    skills: Skills = Skills()
    leader: bool = False
    note: str = ""


@dataclass(frozen=True)
class Limit:
    """How many models (or groups) may take some options (or upgrades), and what to say if not."""

    options: tuple[str, ...] = ()
    upgrades: tuple[str, ...] = ()
    min: int | None = None
    max: int | None = None
    too_many: str = ""
    too_few: str = ""


@dataclass(frozen=True)
class Choice:
    """An option given to the nth model of a kind in a squad's printed composition (nth from 1)."""

    option: str
    model: str
    nth: int = 1


@dataclass(frozen=True)
class Squad:
    """A combat-group template: printed TV for its composition, its options and upgrades."""

    id: str
    name: str
    faction: str
    tv: int
    slots: tuple[Slot, ...]
    tv_note: str = ""
    options: tuple[str, ...] = ()
    upgrades: tuple[str, ...] = ()
    limits: tuple[Limit, ...] = ()
    defaults: tuple[Choice, ...] = ()
    default_upgrades: tuple[str, ...] = ()
    edition: str = "english"
    notes: str = ""

    @property
    def composition(self) -> tuple[str, ...]:
        """The printed models, one model id per model, in printed order."""
        return tuple(slot.model for slot in self.slots for _ in range(slot.count))

    @property
    def size(self) -> int:
        return sum(slot.count for slot in self.slots)

    def slot_for(self, model_id: str) -> Slot | None:
        for slot in self.slots:
            if slot.model == model_id:
                return slot
        return None


@dataclass(frozen=True)
class Option:
    """A per-model option: a weapon swap or an upgrade such as an Armored Jacket.

    ``removes`` are weapons the model must carry and gives up; ``adds`` are the mounts it gains.
    Options with the same ``choice`` are mutually exclusive on one model (one LAC, one swap).
    ``tv_printed`` is False where the text prints no TV change of its own (``tv_note`` says why).
    """

    id: str
    label: str
    tv: int
    tv_printed: bool = True
    tv_note: str = ""
    applies_to: tuple[str, ...] = ()
    removes: tuple[str, ...] = ()
    adds: tuple[Mount, ...] = ()
    sturdy_boxes: int = 0
    choice: str | None = None
    notes: str = ""


@dataclass(frozen=True)
class Upgrade:
    """A combat-group upgrade: skills for its models and its leader, a new leader model, TV."""

    id: str
    label: str
    tv: int
    tv_printed: bool = True
    tv_note: str = ""
    skills: Skills = Skills()
    leader_skills: Skills = Skills()
    leader_model: str | None = None
    notes: str = ""


@dataclass(frozen=True)
class Faction:
    id: str
    name: str
    short: str = ""
    order: int = 0
    tv_limit: int | None = None
    limits: tuple[Limit, ...] = ()
    perks: tuple[str, ...] = ()
    """Perks every model of the faction has ("ecm")."""
    notes: str = ""


@dataclass(frozen=True)
class PresetGroup:
    squad: str
    options: tuple[Choice, ...] = ()
    upgrades: tuple[str, ...] = ()


@dataclass(frozen=True)
class Preset:
    """A starter force as printed: its groups, and the TV the text prints for it."""

    id: str
    name: str
    faction: str
    tv: int
    groups: tuple[PresetGroup, ...]
    edition: str = "english"
    default: bool = False
    notes: str = ""


@dataclass(frozen=True)
class CoreRules:
    max_group_size: int
    default_tv_limit: int
    damage_track: tuple[str, ...]
    default_skills: Skills
    priority_level: int | None = None


@dataclass(frozen=True)
class Source:
    """A data file that was loaded."""

    path: str
    data_version: str
    builtin: bool


@dataclass(frozen=True, eq=False)
class Catalog:
    """Everything loaded: look entries up by id in the mappings.

    Compared and hashed by identity (two loads of the same data share a ``fingerprint``).
    """

    data_version: str
    fingerprint: str
    sources: tuple[Source, ...]
    rules: CoreRules
    weapons: Mapping[str, Weapon]
    models: Mapping[str, Model]
    factions: Mapping[str, Faction]
    squads: Mapping[str, Squad]
    options: Mapping[str, Option]
    upgrades: Mapping[str, Upgrade]
    presets: Mapping[str, Preset]
    _refusals: dict[tuple[str, str], str | None] = field(
        default_factory=dict, compare=False, repr=False
    )

    def perks_of(self, model_id: str) -> frozenset[str]:
        """The perks of a model: its own and its faction's (empty for a model the data lacks)."""
        model = self.models.get(model_id)
        if model is None:
            return frozenset()
        faction = self.factions.get(model.faction or "")
        return frozenset(model.perks) | frozenset(faction.perks if faction else ())

    def counts(self) -> dict[str, int]:
        return {kind: len(getattr(self, kind)) for kind in KINDS}

    def refusal(self, model_id: str, option_id: str) -> str | None:
        """Why the model cannot take the option at all, as a sentence; None if it can."""
        key = (model_id, option_id)
        if key not in self._refusals:
            model = self.models.get(model_id)
            option = self.options.get(option_id)
            reason: str | None
            if model is None or option is None:
                reason = "That model or option is not in the current data."
            else:
                reason = option_refusal(model, option)
            self._refusals[key] = reason
        return self._refusals[key]

    def squads_of(self, faction_id: str) -> tuple[Squad, ...]:
        return tuple(squad for squad in self.squads.values() if squad.faction == faction_id)

    def presets_in_order(self) -> tuple[Preset, ...]:
        """Presets by faction order, the default (English) one of a faction first."""
        position = {preset_id: index for index, preset_id in enumerate(self.presets)}

        def key(preset: Preset) -> tuple[int, int, int]:
            faction = self.factions.get(preset.faction)
            return (
                faction.order if faction else 0,
                0 if preset.default else 1,
                position[preset.id],
            )

        return tuple(sorted(self.presets.values(), key=key))


def option_refusal(model: Model, option: Option) -> str | None:
    """Why ``model`` cannot take ``option`` at all, as a sentence; None if it can."""
    if option.applies_to and not (model.kinds & set(option.applies_to)):
        return f'{sentence_case(with_article(model.name))} cannot take "{option.label}".'
    carried = model.carried
    for code in option.removes:
        if code not in carried:
            return (
                f"{sentence_case(with_article(model.name))} cannot swap {with_article(code)} "
                "it does not carry."
            )
    return None
