"""The game data: its types, the loader, validation, host overrides and the data fingerprint.

The data lives in TOML files in ``rules/data/`` (read through ``importlib.resources``), each stating
its ``data_version``. A host may add files of its own, from the directories named in the
``BLITZ_DATA_DIRS`` environment variable (``os.pathsep``-separated) or passed as ``extra_dirs``: an
entry whose id is already loaded has the fields the host file gives replaced (a list field, such as
a loadout, is replaced whole); an entry with a new id is added and must be complete.

Never invent a game number: a figure the texts do not give is absent from the data and ``None``
here; ``show_figure`` renders it as "not provided".

Loading checks everything and fails with a ``DataError`` whose sentences each name the file, the
entry and the field.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import string
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from rules.errors import RulesError

NOT_PROVIDED = "not provided"
ENV_DATA_DIRS = "BLITZ_DATA_DIRS"
BUILTIN_PREFIX = "rules/data/"

ARC_NAMES = {
    "F": "Forward arc",
    "Ff": "Fixed Forward arc",
    "Rr": "Rear arc",
    "FRr": "Fixed Rear arc",
}
"""Weapon arcs as the English quickstart abbreviates them ("Weapon Arcs")."""

BOX_KINDS = ("sturdy", "light", "heavy", "critical")
"""Damage box names: the values of ``rules.damage.BoxKind``."""

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


# --- Sentences ------------------------------------------------------------------------------------

_AN_LETTERS = set("AEFHILMNORSX")


def article(word: str) -> str:
    """ "a" or "an" before a name or a code ("an LAC", "an MBZK", "a HeadHunter", "a Jäger")."""
    if not word:
        return "a"
    if len(word) > 1 and word.isupper() and word.isalpha():
        return "an" if word[0] in _AN_LETTERS else "a"
    return "an" if word[0].lower() in "aeiou" else "a"


def with_article(word: str) -> str:
    return f"{article(word)} {word}"


def sentence_case(text: str) -> str:
    """The text with its first letter capitalised (and nothing else changed)."""
    return text[:1].upper() + text[1:]


_NUMBER_WORDS = (
    "none",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
)


def number_word(number: int) -> str:
    """0 -> "none", 1 -> "one" ... 12 -> "twelve", then digits."""
    return _NUMBER_WORDS[number] if 0 <= number < len(_NUMBER_WORDS) else str(number)


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


# --- Field checks ---------------------------------------------------------------------------------


class _Bad(Exception):
    """A field failed its check: ``problem`` is a sentence fragment, ``path`` where it is."""

    def __init__(self, problem: str, path: tuple[str | int, ...] = ()) -> None:
        super().__init__(problem)
        self.problem = problem
        self.path = path


Check = Callable[[Any], Any]
Fields = dict[str, tuple[Check, bool]]

_IDENT = re.compile(r"^[A-Za-z0-9_]+$")


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _Bad(f"must be a non-empty string; got {value!r}")
    return value.strip()


def _note(value: Any) -> str:
    if not isinstance(value, str):
        raise _Bad(f"must be a string; got {value!r}")
    return value.strip()


def _ident(value: Any) -> str:
    if not isinstance(value, str) or not _IDENT.match(value):
        raise _Bad(f"must be an id of letters, digits and underscores; got {value!r}")
    return value


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _Bad(f"must be true or false; got {value!r}")
    return value


def _whole(minimum: int | None = None) -> Check:
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _Bad(f"must be a whole number; got {value!r}")
        if minimum is not None and value < minimum:
            raise _Bad(f"must be a whole number of {minimum} or more; got {value}")
        return value

    return check


def _one_of(allowed: Iterable[str]) -> Check:
    allowed = tuple(allowed)

    def check(value: Any) -> str:
        if value not in allowed:
            raise _Bad(f"must be one of {', '.join(allowed)}; got {value!r}")
        return value

    return check


def _list(item: Check, *, non_empty: bool = False) -> Check:
    def check(value: Any) -> tuple:
        if not isinstance(value, list):
            raise _Bad(f"must be a list; got {value!r}")
        if non_empty and not value:
            raise _Bad("must not be empty")
        out = []
        for index, element in enumerate(value, 1):
            try:
                out.append(item(element))
            except _Bad as bad:
                raise _Bad(bad.problem, (index, *bad.path)) from None
        return tuple(out)

    return check


def _check_fields(value: Any, fields: Fields, *, require: bool) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _Bad(f"must be a table; got {value!r}")
    out = {}
    for key, element in value.items():
        if key not in fields:
            raise _Bad(f"is not a known field (known: {', '.join(fields)})", (key,))
        check, _required = fields[key]
        try:
            out[key] = check(element)
        except _Bad as bad:
            raise _Bad(bad.problem, (key, *bad.path)) from None
    if require:
        for key, (_check, required) in fields.items():
            if required and key not in out:
                raise _Bad("is missing", (key,))
    return out


def _table(fields: Fields, after: Callable[[dict], None] | None = None) -> Check:
    def check(value: Any) -> dict[str, Any]:
        out = _check_fields(value, fields, require=True)
        if after:
            after(out)
        return out

    return check


_TEMPLATE_FIELDS = {"count", "max", "min", "squad", "group"}


def _template(value: Any) -> str:
    text = _text(value)
    try:
        names = {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    except ValueError as error:
        raise _Bad(f"is not a valid sentence template ({error})") from None
    unknown = names - _TEMPLATE_FIELDS
    if unknown:
        raise _Bad(
            f"uses unknown placeholders {sorted(unknown)}; "
            f"allowed: {', '.join(sorted(_TEMPLATE_FIELDS))}"
        )
    return text


def _limit_after(limit: dict) -> None:
    if not limit.get("options") and not limit.get("upgrades"):
        raise _Bad("must name at least one option or upgrade", ("options",))
    if "min" not in limit and "max" not in limit:
        raise _Bad("a limit needs a min or a max", ("max",))
    if "max" in limit and "too_many" not in limit:
        raise _Bad("is missing (the sentence for a broken max)", ("too_many",))
    if "min" in limit and "too_few" not in limit:
        raise _Bad("is missing (the sentence for a broken min)", ("too_few",))
    if "min" in limit and "max" in limit and limit["min"] > limit["max"]:
        raise _Bad(f"min {limit['min']} is above max {limit['max']}", ("min",))


_SKILL_FIELDS: Fields = {
    "att": (_whole(0), False),
    "def": (_whole(0), False),
    "ew": (_whole(0), False),
    "ld": (_whole(0), False),
}
_MOUNT = _table(
    {
        "weapon": (_ident, True),
        "arc": (_one_of(ARC_NAMES), False),
        "reloads": (_flag, False),
        "limited_ammo": (_whole(1), False),
        "note": (_note, False),
    }
)
_MOVEMENT = _table(
    {
        "mode": (_one_of(MOVEMENT_MODES), True),
        "speed": (_one_of(SPEEDS), True),
        "mp": (_whole(0), False),
        "attack_modifier": (_whole(), False),
        "defense_modifier": (_whole(), False),
    }
)
_SLOT = _table(
    {
        "model": (_ident, True),
        "count": (_whole(1), True),
        **_SKILL_FIELDS,
        "leader": (_flag, False),
        "note": (_note, False),
    }
)
_LIMIT = _table(
    {
        "options": (_list(_ident), False),
        "upgrades": (_list(_ident), False),
        "min": (_whole(0), False),
        "max": (_whole(0), False),
        "too_many": (_template, False),
        "too_few": (_template, False),
    },
    _limit_after,
)
_CHOICE = _table({"option": (_ident, True), "model": (_ident, True), "nth": (_whole(1), False)})
_PRESET_GROUP = _table(
    {
        "squad": (_ident, True),
        "options": (_list(_CHOICE), False),
        "upgrades": (_list(_ident), False),
    }
)
_SKILLS = _table(_SKILL_FIELDS)
_RANGES = _table({band: (_whole(0), False) for band in RANGE_BANDS})

_SCHEMAS: dict[str, Fields] = {
    "weapons": {
        "id": (_ident, True),
        "name": (_text, True),
        "aliases": (_list(_text), False),
        "parts": (_list(_text), False),
        "dm": (_whole(1), False),
        "accuracy": (_whole(), False),
        "ranges": (_RANGES, False),
        "rof": (_whole(0), False),
        "traits": (_list(_text), False),
        "notes": (_note, False),
    },
    "models": {
        "id": (_ident, True),
        "name": (_text, True),
        "faction": (_ident, False),
        "counts_as": (_ident, False),
        "loadout": (_list(_MOUNT), False),
        "loadout_complete": (_flag, False),
        "damage_track": (_list(_one_of(BOX_KINDS), non_empty=True), False),
        "armor": (_whole(0), False),
        "size": (_whole(0), False),
        "sensors": (_whole(), False),
        "tv": (_whole(0), False),
        "movement": (_list(_MOVEMENT), False),
        "perks": (_list(_ident), False),
        "notes": (_note, False),
    },
    "factions": {
        "id": (_ident, True),
        "name": (_text, True),
        "short": (_note, False),
        "order": (_whole(), False),
        "tv_limit": (_whole(1), False),
        "limits": (_list(_LIMIT), False),
        "perks": (_list(_ident), False),
        "notes": (_note, False),
    },
    "squads": {
        "id": (_ident, True),
        "name": (_text, True),
        "faction": (_ident, True),
        "tv": (_whole(0), True),
        "tv_note": (_note, False),
        "slots": (_list(_SLOT, non_empty=True), True),
        "options": (_list(_ident), False),
        "upgrades": (_list(_ident), False),
        "limits": (_list(_LIMIT), False),
        "defaults": (_list(_CHOICE), False),
        "default_upgrades": (_list(_ident), False),
        "edition": (_one_of(EDITIONS), False),
        "notes": (_note, False),
    },
    "options": {
        "id": (_ident, True),
        "label": (_text, True),
        "tv": (_whole(), True),
        "tv_printed": (_flag, False),
        "tv_note": (_note, False),
        "applies_to": (_list(_ident), False),
        "removes": (_list(_ident), False),
        "adds": (_list(_MOUNT), False),
        "sturdy_boxes": (_whole(0), False),
        "choice": (_ident, False),
        "notes": (_note, False),
    },
    "upgrades": {
        "id": (_ident, True),
        "label": (_text, True),
        "tv": (_whole(), True),
        "tv_printed": (_flag, False),
        "tv_note": (_note, False),
        "skills": (_SKILLS, False),
        "leader_skills": (_SKILLS, False),
        "leader_model": (_ident, False),
        "notes": (_note, False),
    },
    "presets": {
        "id": (_ident, True),
        "name": (_text, True),
        "faction": (_ident, True),
        "tv": (_whole(0), True),
        "groups": (_list(_PRESET_GROUP, non_empty=True), True),
        "edition": (_one_of(EDITIONS), False),
        "default": (_flag, False),
        "notes": (_note, False),
    },
}
_RULES_SCHEMA: Fields = {
    "max_group_size": (_whole(1), True),
    "default_tv_limit": (_whole(1), True),
    "priority_level": (_whole(1), False),
    "damage_track": (_list(_one_of(BOX_KINDS), non_empty=True), True),
    "default_skills": (_SKILLS, True),
}
_SINGULAR = {
    "weapons": "weapon",
    "models": "model",
    "factions": "faction",
    "squads": "squad",
    "options": "option",
    "upgrades": "upgrade",
    "presets": "preset",
}


def _where(path: tuple[str | int, ...]) -> str:
    """A field path for a sentence: "'slots', item 2, 'count'"."""
    parts = []
    for step in path:
        parts.append(f"item {step}" if isinstance(step, int) else f"'{step}'")
    return ", ".join(parts)


# --- Reading files --------------------------------------------------------------------------------


@dataclass
class _Entry:
    kind: str
    id: str
    fields: dict[str, Any]
    origin: str
    field_files: dict[str, str]


@dataclass
class _Store:
    entries: dict[str, dict[str, _Entry]] = field(
        default_factory=lambda: {kind: {} for kind in KINDS}
    )
    rules: dict[str, Any] = field(default_factory=dict)
    rules_files: dict[str, str] = field(default_factory=dict)
    sources: list[Source] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def _entry_error(file: str, kind: str, entry_id: str, path: tuple, problem: str) -> str:
    where = f"{_SINGULAR[kind]} entry '{entry_id}'"
    if path:
        where += f", field {_where(path)}"
    return f"{file}: {where}: {problem}."


def _read_file(store: _Store, name: str, raw: bytes, *, builtin: bool) -> None:
    """Parse one data file, check its fields, and merge its entries into the store."""
    try:
        document = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        store.errors.append(f"{name}: not UTF-8 text ({error}).")
        return
    except tomllib.TOMLDecodeError as error:
        store.errors.append(f"{name}: not valid TOML: {error}.")
        return
    version = document.get("data_version")
    if not isinstance(version, str) or not version.strip():
        store.errors.append(f"{name}: 'data_version' must be given, as a non-empty string.")
        version = ""
    store.sources.append(Source(path=name, data_version=version, builtin=builtin))
    for key, value in document.items():
        if key == "data_version":
            continue
        if key == "rules":
            _read_rules(store, name, value)
        elif key in KINDS:
            _read_kind(store, name, key, value, builtin=builtin)
        else:
            known = ", ".join(("data_version", "rules", *KINDS))
            store.errors.append(f"{name}: '{key}' is not a known top-level key (known: {known}).")


def _read_rules(store: _Store, name: str, value: Any) -> None:
    try:
        checked = _check_fields(value, _RULES_SCHEMA, require=False)
    except _Bad as bad:
        store.errors.append(f"{name}: [rules], field {_where(bad.path)}: {bad.problem}.")
        return
    for key, element in checked.items():
        store.rules[key] = element
        store.rules_files[key] = name


def _read_kind(store: _Store, name: str, kind: str, value: Any, *, builtin: bool) -> None:
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        store.errors.append(f"{name}: '{kind}' must be a list of tables ([[{kind}]]).")
        return
    schema = _SCHEMAS[kind]
    seen_here: set[str] = set()
    for number, item in enumerate(value, 1):
        entry_id = item.get("id")
        if not isinstance(entry_id, str) or not _IDENT.match(entry_id):
            store.errors.append(
                f"{name}: {_SINGULAR[kind]} entry {number} has no valid 'id' "
                f"(letters, digits and underscores); got {entry_id!r}."
            )
            continue
        try:
            checked = _check_fields(item, schema, require=False)
        except _Bad as bad:
            store.errors.append(_entry_error(name, kind, entry_id, bad.path, bad.problem))
            continue
        existing = store.entries[kind].get(entry_id)
        if entry_id in seen_here:
            store.errors.append(
                _entry_error(name, kind, entry_id, ("id",), "duplicate id in the same file")
            )
            continue
        seen_here.add(entry_id)
        if existing is not None and builtin:
            store.errors.append(
                _entry_error(
                    name, kind, entry_id, ("id",), f"duplicate id (also in {existing.origin})"
                )
            )
            continue
        if existing is None:
            store.entries[kind][entry_id] = _Entry(
                kind, entry_id, dict(checked), name, {key: name for key in checked}
            )
        else:  # a host override: replace the fields this file gives
            existing.fields.update(checked)
            existing.field_files.update({key: name for key in checked})


def read_host_entries(name: str, document: Mapping[str, Any]) -> dict[str, dict[str, dict]]:
    """The entries of one host data file (already parsed TOML), checked field by field as
    ``load_catalog`` checks a host file: ``{kind: {id: fields}}``. Raises DataError naming the
    file, the entry and the field of every problem."""
    store = _Store()
    version = document.get("data_version")
    if not isinstance(version, str) or not version.strip():
        store.errors.append(f"{name}: 'data_version' must be given, as a non-empty string.")
    for key, value in document.items():
        if key == "data_version":
            continue
        if key in KINDS:
            _read_kind(store, name, key, value, builtin=False)
        else:
            store.errors.append(f"{name}: '{key}' is not a known top-level key here.")
    if store.errors:
        raise DataError(store.errors)
    return {
        kind: {entry_id: dict(entry.fields) for entry_id, entry in entries.items()}
        for kind, entries in store.entries.items()
        if entries
    }


def _builtin_files() -> list[tuple[str, bytes]]:
    folder = resources.files("rules").joinpath("data")
    files = [item for item in folder.iterdir() if item.name.endswith(".toml") and item.is_file()]
    return [(BUILTIN_PREFIX + item.name, item.read_bytes()) for item in sorted(files, key=_name)]


def _name(item: Any) -> str:
    return item.name


def env_data_dirs() -> tuple[str, ...]:
    """The directories named in BLITZ_DATA_DIRS, in order (empty parts skipped)."""
    value = os.environ.get(ENV_DATA_DIRS, "")
    return tuple(part for part in value.split(os.pathsep) if part.strip())


def _host_files(store: _Store, directory: str | os.PathLike[str]) -> list[tuple[str, bytes]]:
    path = Path(directory)
    if not path.is_dir():
        store.errors.append(f"{path}: not a directory, so no data could be read from it.")
        return []
    return [(str(item), item.read_bytes()) for item in sorted(path.glob("*.toml"))]


# --- Building and cross-checking ------------------------------------------------------------------


class _Checker:
    """Cross-reference checks over the merged entries; each error names file, entry, field."""

    def __init__(self, store: _Store, built: dict[str, dict[str, Any]]) -> None:
        self.store = store
        self.entries = store.entries
        self.built = built

    def error(self, entry: _Entry, path: tuple, problem: str) -> None:
        file = entry.field_files.get(str(path[0]), entry.origin) if path else entry.origin
        self.store.errors.append(_entry_error(file, entry.kind, entry.id, path, problem))

    def exists(self, kind: str, entry_id: str) -> bool:
        return entry_id in self.entries[kind]

    def ref(self, entry: _Entry, path: tuple, kind: str, entry_id: str) -> bool:
        if self.exists(kind, entry_id):
            return True
        known = ", ".join(sorted(self.entries[kind])) or "none"
        self.error(
            entry, path, f"names the unknown {_SINGULAR[kind]} '{entry_id}' (known: {known})"
        )
        return False


def _require(store: _Store) -> None:
    for kind in KINDS:
        for entry in store.entries[kind].values():
            for key, (_check, required) in _SCHEMAS[kind].items():
                if required and key not in entry.fields:
                    store.errors.append(
                        _entry_error(entry.origin, kind, entry.id, (key,), "is missing")
                    )
    for key, (_check, required) in _RULES_SCHEMA.items():
        if required and key not in store.rules:
            store.errors.append(f"The data has no [rules] field '{key}'.")


def _skills(table: Mapping[str, Any] | None) -> Skills:
    table = table or {}
    return Skills(
        att=table.get("att"), defense=table.get("def"), ew=table.get("ew"), ld=table.get("ld")
    )


def _mount(table: Mapping[str, Any]) -> Mount:
    return Mount(
        weapon=table["weapon"],
        arc=table.get("arc"),
        reloads=table.get("reloads"),
        limited_ammo=table.get("limited_ammo"),
        note=table.get("note", ""),
    )


def _limit(table: Mapping[str, Any]) -> Limit:
    return Limit(
        options=tuple(table.get("options", ())),
        upgrades=tuple(table.get("upgrades", ())),
        min=table.get("min"),
        max=table.get("max"),
        too_many=table.get("too_many", ""),
        too_few=table.get("too_few", ""),
    )


def _choice(table: Mapping[str, Any]) -> Choice:
    return Choice(option=table["option"], model=table["model"], nth=table.get("nth", 1))


def _build(store: _Store) -> dict[str, dict[str, Any]]:
    rules = store.rules
    track = tuple(rules.get("damage_track", BOX_KINDS))
    built: dict[str, dict[str, Any]] = {kind: {} for kind in KINDS}
    for entry_id, entry in store.entries["weapons"].items():
        f = entry.fields
        ranges = f.get("ranges", {})
        built["weapons"][entry_id] = Weapon(
            code=entry_id,
            name=f["name"],
            aliases=tuple(f.get("aliases", ())),
            parts=tuple(f.get("parts", ())),
            dm=f.get("dm"),
            accuracy=f.get("accuracy"),
            ranges=Ranges(**{band: ranges.get(band) for band in RANGE_BANDS}),
            rof=f.get("rof"),
            traits=tuple(f["traits"]) if "traits" in f else None,
            notes=f.get("notes", ""),
        )
    for entry_id, entry in store.entries["models"].items():
        f = entry.fields
        built["models"][entry_id] = Model(
            id=entry_id,
            name=f["name"],
            faction=f.get("faction"),
            counts_as=f.get("counts_as"),
            loadout=tuple(_mount(item) for item in f.get("loadout", ())),
            loadout_complete=f.get("loadout_complete", False),
            damage_track=tuple(f.get("damage_track", track)),
            armor=f.get("armor"),
            size=f.get("size"),
            sensors=f.get("sensors"),
            tv=f.get("tv"),
            movement=tuple(MovementLine(**item) for item in f.get("movement", ())),
            perks=tuple(f.get("perks", ())),
            notes=f.get("notes", ""),
        )
    for entry_id, entry in store.entries["factions"].items():
        f = entry.fields
        built["factions"][entry_id] = Faction(
            id=entry_id,
            name=f["name"],
            short=f.get("short", ""),
            order=f.get("order", 0),
            tv_limit=f.get("tv_limit"),
            limits=tuple(_limit(item) for item in f.get("limits", ())),
            perks=tuple(f.get("perks", ())),
            notes=f.get("notes", ""),
        )
    for entry_id, entry in store.entries["squads"].items():
        f = entry.fields
        built["squads"][entry_id] = Squad(
            id=entry_id,
            name=f["name"],
            faction=f["faction"],
            tv=f["tv"],
            tv_note=f.get("tv_note", ""),
            slots=tuple(
                Slot(
                    model=slot["model"],
                    count=slot["count"],
                    skills=_skills(slot),
                    leader=slot.get("leader", False),
                    note=slot.get("note", ""),
                )
                for slot in f["slots"]
            ),
            options=tuple(f.get("options", ())),
            upgrades=tuple(f.get("upgrades", ())),
            limits=tuple(_limit(item) for item in f.get("limits", ())),
            defaults=tuple(_choice(item) for item in f.get("defaults", ())),
            default_upgrades=tuple(f.get("default_upgrades", ())),
            edition=f.get("edition", "english"),
            notes=f.get("notes", ""),
        )
    for entry_id, entry in store.entries["options"].items():
        f = entry.fields
        built["options"][entry_id] = Option(
            id=entry_id,
            label=f["label"],
            tv=f["tv"],
            tv_printed=f.get("tv_printed", True),
            tv_note=f.get("tv_note", ""),
            applies_to=tuple(f.get("applies_to", ())),
            removes=tuple(f.get("removes", ())),
            adds=tuple(_mount(item) for item in f.get("adds", ())),
            sturdy_boxes=f.get("sturdy_boxes", 0),
            choice=f.get("choice"),
            notes=f.get("notes", ""),
        )
    for entry_id, entry in store.entries["upgrades"].items():
        f = entry.fields
        built["upgrades"][entry_id] = Upgrade(
            id=entry_id,
            label=f["label"],
            tv=f["tv"],
            tv_printed=f.get("tv_printed", True),
            tv_note=f.get("tv_note", ""),
            skills=_skills(f.get("skills")),
            leader_skills=_skills(f.get("leader_skills")),
            leader_model=f.get("leader_model"),
            notes=f.get("notes", ""),
        )
    for entry_id, entry in store.entries["presets"].items():
        f = entry.fields
        built["presets"][entry_id] = Preset(
            id=entry_id,
            name=f["name"],
            faction=f["faction"],
            tv=f["tv"],
            groups=tuple(
                PresetGroup(
                    squad=group["squad"],
                    options=tuple(_choice(item) for item in group.get("options", ())),
                    upgrades=tuple(group.get("upgrades", ())),
                )
                for group in f["groups"]
            ),
            edition=f.get("edition", "english"),
            default=f.get("default", False),
            notes=f.get("notes", ""),
        )
    return built


def _cross_check(store: _Store, built: dict[str, dict[str, Any]]) -> None:
    check = _Checker(store, built)
    entries = store.entries
    models: dict[str, Model] = built["models"]
    options: dict[str, Option] = built["options"]
    squads: dict[str, Squad] = built["squads"]

    def mounts(entry: _Entry, key: str, items: tuple[Mount, ...]) -> None:
        for index, mount in enumerate(items, 1):
            check.ref(entry, (key, index, "weapon"), "weapons", mount.weapon)

    for model in models.values():
        entry = entries["models"][model.id]
        if model.faction is not None:
            check.ref(entry, ("faction",), "factions", model.faction)
        if model.counts_as is not None:
            if model.counts_as == model.id:
                check.error(entry, ("counts_as",), "a model cannot count as itself")
            else:
                check.ref(entry, ("counts_as",), "models", model.counts_as)
        mounts(entry, "loadout", model.loadout)

    for faction in built["factions"].values():
        entry = entries["factions"][faction.id]
        for index, limit in enumerate(faction.limits, 1):
            for option_id in limit.options:
                check.ref(entry, ("limits", index, "options"), "options", option_id)
            for upgrade_id in limit.upgrades:
                check.ref(entry, ("limits", index, "upgrades"), "upgrades", upgrade_id)

    for option in options.values():
        entry = entries["options"][option.id]
        for code in option.removes:
            check.ref(entry, ("removes",), "weapons", code)
        mounts(entry, "adds", option.adds)
        for model_id in option.applies_to:
            check.ref(entry, ("applies_to",), "models", model_id)

    for upgrade in built["upgrades"].values():
        entry = entries["upgrades"][upgrade.id]
        if upgrade.leader_model is not None:
            check.ref(entry, ("leader_model",), "models", upgrade.leader_model)

    for squad in squads.values():
        _check_squad(check, squad, models, options)

    for preset in built["presets"].values():
        entry = entries["presets"][preset.id]
        check.ref(entry, ("faction",), "factions", preset.faction)
        for number, group in enumerate(preset.groups, 1):
            squad = squads.get(group.squad)
            if not check.ref(entry, ("groups", number, "squad"), "squads", group.squad):
                continue
            if squad.faction != preset.faction:
                check.error(
                    entry,
                    ("groups", number, "squad"),
                    f"the squad '{squad.id}' is of the faction '{squad.faction}', "
                    f"not '{preset.faction}'",
                )
            _check_choices(check, entry, ("groups", number, "options"), squad, group.options)
            for upgrade_id in group.upgrades:
                if upgrade_id not in squad.upgrades:
                    check.error(
                        entry,
                        ("groups", number, "upgrades"),
                        f"the squad '{squad.id}' has no upgrade '{upgrade_id}'",
                    )


def _check_squad(
    check: _Checker, squad: Squad, models: Mapping[str, Model], options: Mapping[str, Option]
) -> None:
    entry = check.entries["squads"][squad.id]
    check.ref(entry, ("faction",), "factions", squad.faction)
    seen: set[str] = set()
    for index, slot in enumerate(squad.slots, 1):
        check.ref(entry, ("slots", index, "model"), "models", slot.model)
        if slot.model in seen:
            check.error(entry, ("slots", index, "model"), f"the model '{slot.model}' has two slots")
        seen.add(slot.model)
    leaders = [slot for slot in squad.slots if slot.leader]
    if len(leaders) > 1 or (leaders and leaders[0].count != 1):
        check.error(entry, ("slots",), "a squad has at most one leader slot, of one model")
    slot_models = [models[slot.model] for slot in squad.slots if slot.model in models]
    for option_id in squad.options:
        if not check.ref(entry, ("options",), "options", option_id):
            continue
        option = options[option_id]
        refusals = [option_refusal(model, option) for model in slot_models]
        if slot_models and all(refusals):
            check.error(
                entry,
                ("options",),
                f"no model of the squad can take the option '{option_id}' ({refusals[0]})",
            )
    for upgrade_id in (*squad.upgrades, *squad.default_upgrades):
        check.ref(entry, ("upgrades",), "upgrades", upgrade_id)
    for upgrade_id in squad.default_upgrades:
        if upgrade_id not in squad.upgrades:
            check.error(
                entry, ("default_upgrades",), f"'{upgrade_id}' is not one of the squad's upgrades"
            )
    for index, limit in enumerate(squad.limits, 1):
        for option_id in limit.options:
            if option_id not in squad.options:
                check.error(
                    entry,
                    ("limits", index, "options"),
                    f"'{option_id}' is not one of the squad's options",
                )
        for upgrade_id in limit.upgrades:
            if upgrade_id not in squad.upgrades:
                check.error(
                    entry,
                    ("limits", index, "upgrades"),
                    f"'{upgrade_id}' is not one of the squad's upgrades",
                )
    # Two options that give up the same weapon cannot both be taken: they must share a choice.
    known = [options[option_id] for option_id in squad.options if option_id in options]
    for position, first in enumerate(known):
        for second in known[position + 1 :]:
            shared = set(first.removes) & set(second.removes)
            if shared and (first.choice is None or first.choice != second.choice):
                check.error(
                    entry,
                    ("options",),
                    f"the options '{first.id}' and '{second.id}' both give up "
                    f"{', '.join(sorted(shared))}, so they need the same 'choice'",
                )
    _check_choices(check, entry, ("defaults",), squad, squad.defaults)


def _check_choices(
    check: _Checker, entry: _Entry, path: tuple, squad: Squad, choices: tuple[Choice, ...]
) -> None:
    for index, choice in enumerate(choices, 1):
        where = (*path, index)
        if choice.option not in squad.options:
            check.error(
                entry, (*where, "option"), f"'{choice.option}' is not an option of '{squad.id}'"
            )
            continue
        slot = squad.slot_for(choice.model)
        if slot is None:
            check.error(entry, (*where, "model"), f"the squad '{squad.id}' has no '{choice.model}'")
            continue
        if choice.nth > slot.count:
            check.error(
                entry,
                (*where, "nth"),
                f"the squad '{squad.id}' has only {slot.count} of '{choice.model}'",
            )
            continue
        model = check.built["models"].get(choice.model)
        option = check.built["options"].get(choice.option)
        if model is None or option is None:
            continue
        refusal = option_refusal(model, option)
        if refusal:
            check.error(entry, (*where, "option"), refusal.rstrip("."))


def _canonical(store: _Store) -> str:
    content = {
        "rules": store.rules,
        **{
            kind: {entry_id: entry.fields for entry_id, entry in sorted(entries.items())}
            for kind, entries in store.entries.items()
        },
    }
    return json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def load_catalog(extra_dirs: Iterable[str | os.PathLike[str]] | None = None) -> Catalog:
    """Load the built-in data, then the host files of ``extra_dirs``, in order.

    Raises DataError with every problem found, each naming its file, entry and field.
    """
    store = _Store()
    for name, raw in _builtin_files():
        _read_file(store, name, raw, builtin=True)
    builtin_versions = {source.data_version for source in store.sources if source.data_version}
    if len(builtin_versions) > 1:
        store.errors.append(
            "The built-in data files state different data versions: "
            + ", ".join(sorted(builtin_versions))
            + "."
        )
    for directory in extra_dirs or ():
        for name, raw in _host_files(store, directory):
            _read_file(store, name, raw, builtin=False)
    if store.errors:
        raise DataError(store.errors)
    _require(store)
    if store.errors:
        raise DataError(store.errors)
    built = _build(store)
    _cross_check(store, built)
    if store.errors:
        raise DataError(store.errors)
    data_version = min(builtin_versions) if builtin_versions else ""
    digest = hashlib.sha256(f"{data_version}\n{_canonical(store)}".encode()).hexdigest()
    rules = store.rules
    return Catalog(
        data_version=data_version,
        fingerprint=digest[:16],
        sources=tuple(store.sources),
        rules=CoreRules(
            max_group_size=rules["max_group_size"],
            default_tv_limit=rules["default_tv_limit"],
            damage_track=tuple(rules["damage_track"]),
            default_skills=_skills(rules["default_skills"]),
            priority_level=rules.get("priority_level"),
        ),
        **{kind: MappingProxyType(built[kind]) for kind in KINDS},
    )


_default: Catalog | None = None


def default_catalog() -> Catalog:
    """The built-in data plus the directories of BLITZ_DATA_DIRS, loaded once and cached."""
    global _default
    if _default is None:
        _default = load_catalog(env_data_dirs())
    return _default


def reset_default_catalog() -> None:
    """Forget the cached default catalog (tests, or after the host data changed)."""
    global _default
    _default = None
