"""An attack's inputs: range bands, cover, modifiers with their sources, attacker and target.

A figure the data does not give is ``None``: the functions never guess it. A figure the player
typed in is recorded with ``answered`` so that the modifier list can say "typed in" instead of
"from the datacard".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, TypeVar

from rules.checks import check_flag, check_whole
from rules.errors import RulesError
from rules.hgb.damage import (
    DamageState,
    check_armor,
    check_damage_multiplier,
)
from rules.hgb.dice import check_dice, check_modifier

AUTOPILOT_DEFENSE_DICE = 1
"""Autopilot: "It only rolls 1 dice for defense that turn, but may make a second attack"."""

REAR_ARC_MODIFIER = -1
"""Angle of Attack: "-1 against attacks from attackers in the Rear arc"."""

FROM_THE_DATACARD = "from the datacard"
TYPED_IN = "typed in"

DEFAULT_SKILL = 2
""""Unless otherwise stated ... Attack and Defense are Level 2" (the quickstart)."""
DEFAULT_EW = 1
"""... "and Electronic Warfare is Level 1"."""


def attack_skill(value: int | None) -> int:
    """A model's Attack or Defense skill: its datacard's, or the quickstart's default."""
    return DEFAULT_SKILL if value is None else value


def ew_skill(value: int | None) -> int:
    """A model's Electronic Warfare skill: its datacard's, or the quickstart's default."""
    return DEFAULT_EW if value is None else value


def limited_ammo_counter(counters: Sequence[Any], weapon_code: str) -> int | None:
    """Which of a model's Limited Ammo counters (each with ``weapon`` and ``left``) a shot of
    ``weapon_code`` spends: the first of that weapon with a shot left, else the first of that
    weapon (the shot is then refused as out of ammo), else None (no such counter)."""
    matching = [index for index, counter in enumerate(counters) if counter.weapon == weapon_code]
    for index in matching:
        if counters[index].left:
            return index
    return matching[0] if matching else None


def signed(value: int) -> str:
    """A modifier as players write it: +1, 0 (as +0), −2."""
    return f"{value:+d}".replace("-", "\u2212")


# --- Range bands and cover -----------------------------------------------------------------------


class RangeBand(Enum):
    """The weapon's range band the target is in, and its modifier to the attack roll."""

    POINT_BLANK = "point_blank"
    SHORT = "short"
    MEDIUM = "medium"
    LONG = "long"
    EXTREME = "extreme"

    @property
    def modifier(self) -> int:
        return _RANGE_MODIFIERS[self]

    @property
    def label(self) -> str:
        """The band's name as the quickstart prints it: "Point-Blank", "Short", ..."""
        return _RANGE_LABELS[self]

    @property
    def source(self) -> str:
        """Where the modifier comes from, in words: "Medium range"."""
        return f"{self.label} range"

    @property
    def allows_rate_of_fire(self) -> bool:
        """False at Extreme range: "RoF may only be used on attacks against targets in the
        weapon's long range band or closer"."""
        return self is not RangeBand.EXTREME


_RANGE_MODIFIERS = {
    RangeBand.POINT_BLANK: 1,
    RangeBand.SHORT: 0,
    RangeBand.MEDIUM: -1,
    RangeBand.LONG: -2,
    RangeBand.EXTREME: -3,
}
_RANGE_LABELS = {
    RangeBand.POINT_BLANK: "Point-Blank",
    RangeBand.SHORT: "Short",
    RangeBand.MEDIUM: "Medium",
    RangeBand.LONG: "Long",
    RangeBand.EXTREME: "Extreme",
}


class Cover(Enum):
    """The target's cover, seen from the attacker (from the spotter for indirect fire)."""

    OPEN = "open"
    SOME = "some"
    PARTIAL = "partial"
    FULL = "full"

    @property
    def modifier(self) -> int:
        return _COVER_MODIFIERS[self]

    @property
    def label(self) -> str:
        """ "Open target", "Some cover", "Partial cover" or "Full cover"."""
        return _COVER_LABELS[self]

    @property
    def meaning(self) -> str:
        """What the level means, from the quickstart's Cover section."""
        return _COVER_MEANINGS[self]


_COVER_MODIFIERS = {Cover.OPEN: 1, Cover.SOME: 0, Cover.PARTIAL: -1, Cover.FULL: -2}
_COVER_LABELS = {
    Cover.OPEN: "Open target",
    Cover.SOME: "Some cover",
    Cover.PARTIAL: "Partial cover",
    Cover.FULL: "Full cover",
}
_COVER_MEANINGS = {
    Cover.OPEN: "The target is not blocked at all.",
    Cover.SOME: "The target is up to half covered, but can still be seen easily.",
    Cover.PARTIAL: "The target is more than half hidden, but its main body can be seen.",
    Cover.FULL: (
        "The target is fully hidden; a model with only a weapon or part of a limb showing "
        "counts as fully hidden."
    ),
}


# --- Modifiers with their sources ----------------------------------------------------------------


@dataclass(frozen=True)
class Modifier:
    """A number and where it comes from, in words: ``Modifier(-1, "Medium range")``.

    Roll modifiers are added to a roll's result (never to a Fumble). The same type lists the parts
    of a Damage Multiplier or an Armor figure (the weapon's DM, +1 per Concentrated Fire point) and
    the MoS bonus of a Weak Facing.
    """

    value: int
    source: str

    def __post_init__(self) -> None:
        check_modifier(self.value, "A modifier's value")
        if not isinstance(self.source, str) or not self.source.strip():
            raise RulesError("A modifier needs a source in words, such as 'Medium range'.")

    @property
    def signed(self) -> str:
        """The value with its sign: "+1", "+0", "-2"."""
        return f"{self.value:+d}"

    def __str__(self) -> str:
        return f"{self.signed} {self.source}"


def total(modifiers: Iterable[Modifier]) -> int:
    """The sum of the values."""
    return sum(modifier.value for modifier in modifiers)


@dataclass(frozen=True)
class MissingInput:
    """A figure the helper must ask for because the data does not give it.

    ``target_index`` is None for the attacker, else the position of the target in the list given.
    ``question`` is a plain sentence to show the player.
    """

    field: str
    question: str
    target_index: int | None = None


class MissingInputs(RulesError):
    """Raised when figures are missing; ``missing`` lists them, the message asks for each."""

    def __init__(self, missing: Sequence[MissingInput]) -> None:
        self.missing = tuple(missing)
        super().__init__(" ".join(item.question for item in self.missing))


# --- The attacker and the target -----------------------------------------------------------------

_ATTACKER_TYPABLE = ("movement_modifier", "accuracy", "damage_multiplier", "rof", "area_effect")
_TARGET_TYPABLE = ("movement_modifier", "armor")


def _check_typed_in(value: object, allowed: tuple[str, ...], whose: str) -> frozenset[str]:
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise RulesError(f"{whose} typed-in figures must be a set of names; got {value!r}.")
    names = frozenset(value)
    unknown = sorted(str(name) for name in names - set(allowed))
    if unknown:
        raise RulesError(
            f"Only {', '.join(allowed)} can be typed in for {whose.lower()}; "
            f"got {', '.join(unknown)}."
        )
    return names


def _check_text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise RulesError(f"{what} must be text; got {value!r}.")
    return value.strip()


def _check_optional(value: object, check: Any, *args: Any) -> Any:
    return None if value is None else check(value, *args)


def check_state(value: object, whose: str) -> DamageState:
    if not isinstance(value, DamageState):
        raise RulesError(f"{whose} damage state must be a DamageState; got {value!r}.")
    return value


def penalty_modifier(state: DamageState, subject: str) -> Modifier | None:
    """The damage-state penalty as a modifier: "Hunter at Heavy damage: -1 to all rolls"."""
    if state.penalty == 0:
        return None
    return Modifier(
        state.penalty, f"{subject} at {state.value.capitalize()} damage: {state.effect_text}"
    )


@dataclass(frozen=True)
class Attacker:
    """The attacking model and the weapon it fires.

    ``None`` means the data does not give the figure (the helper asks for it). ``rof`` is the
    weapon's Rate of Fire rating (0 for a weapon without RoF); it is needed only when RoF points
    are used. ``spray`` and ``concentrated`` split the RoF points used. ``area_effect`` is the
    weapon's AE rating in inches (0 for none); it is needed only to work out a blast area.
    ``typed_in`` names the figures the player typed in (see ``answered``).
    """

    attack_dice: int
    state: DamageState = DamageState.UNDAMAGED
    movement_modifier: int | None = None
    accuracy: int | None = None
    damage_multiplier: int | None = None
    rof: int | None = None
    spray: int = 0
    concentrated: int = 0
    area_effect: int | None = None
    name: str = ""
    weapon: str = ""
    typed_in: frozenset[str] = field(default_factory=frozenset)
    given_by: tuple[tuple[str, str], ...] = ()
    """Where a figure came from when not the rules text: (figure, "entered by jan")."""

    def __post_init__(self) -> None:
        check_dice(self.attack_dice)
        check_state(self.state, "The attacker's")
        if self.state.is_out:
            raise RulesError("A destroyed model can't attack.")
        _check_optional(self.movement_modifier, check_modifier, "The attacker's movement modifier")
        _check_optional(self.accuracy, check_modifier, "The weapon's accuracy")
        _check_optional(self.damage_multiplier, check_damage_multiplier)
        _check_optional(
            self.rof, check_whole, "A Rate of Fire rating must be a whole number of 0 or more", 0
        )
        check_whole(self.spray, "Spray Fire points must be a whole number of 0 or more", 0)
        check_whole(
            self.concentrated, "Concentrated Fire points must be a whole number of 0 or more", 0
        )
        _check_optional(
            self.area_effect,
            check_whole,
            "An Area Effect rating must be a whole number of inches, 0 or more",
            0,
        )
        object.__setattr__(self, "name", _check_text(self.name, "The attacker's name"))
        object.__setattr__(self, "weapon", _check_text(self.weapon, "The weapon's name"))
        object.__setattr__(
            self, "typed_in", _check_typed_in(self.typed_in, _ATTACKER_TYPABLE, "The attacker's")
        )
        if self.rof is not None and self.rof_points > self.rof:
            raise RulesError(
                f"{self.weapon_words} has RoF {self.rof}, so at most {self.rof} RoF points can be "
                f"used; {self.rof_points} were chosen ({self.spray} Spray, "
                f"{self.concentrated} Concentrated)."
            )

    @property
    def rof_points(self) -> int:
        """RoF points used: Spray plus Concentrated."""
        return self.spray + self.concentrated

    @property
    def subject(self) -> str:
        return self.name or "Attacker"

    @property
    def weapon_words(self) -> str:
        return f"The {self.weapon}" if self.weapon else "The weapon"

    def answered(self, **figures: int) -> Attacker:
        """A copy with figures the player typed in (``movement_modifier=-1``), marked as typed."""
        return _answered(self, _ATTACKER_TYPABLE, figures, "the attacker")


@dataclass(frozen=True)
class Target:
    """The model attacked, and how the attack reaches it.

    ``range_band`` and ``cover`` are the attacker's view of this target (cover seen from the
    attacker); a model caught by an indirect attack defends against the unmodified roll and does
    not need them. ``rear_arc``: the attacker is in the target's rear arc. ``weak_facing``: the
    attack comes from its Weak Facing. ``reinforced_arc``: the value of a Reinforced Arc perk in the
    arc the attack comes from (0 for none). ``autopilot``: its Autopilot is on this round.
    ``boxes_left`` is used for the expected boxes (None: an undamaged standard track of 4).
    """

    defense_dice: int
    state: DamageState = DamageState.UNDAMAGED
    movement_modifier: int | None = None
    armor: int | None = None
    range_band: RangeBand | None = None
    cover: Cover | None = None
    rear_arc: bool = False
    weak_facing: bool = False
    reinforced_arc: int = 0
    autopilot: bool = False
    boxes_left: int | None = None
    name: str = ""
    typed_in: frozenset[str] = field(default_factory=frozenset)
    given_by: tuple[tuple[str, str], ...] = ()
    """Where a figure came from when not the rules text: (figure, "entered by jan")."""

    def __post_init__(self) -> None:
        check_dice(self.defense_dice)
        check_state(self.state, "The target's")
        if self.state.is_out:
            raise RulesError("This model is already destroyed: it can't be attacked.")
        _check_optional(self.movement_modifier, check_modifier, "The defender's movement modifier")
        _check_optional(self.armor, check_armor)
        if self.range_band is not None and not isinstance(self.range_band, RangeBand):
            raise RulesError(
                "The range band is Point-Blank, Short, Medium, Long or Extreme; "
                f"got {self.range_band!r}."
            )
        if self.cover is not None and not isinstance(self.cover, Cover):
            raise RulesError(f"Cover is Open, Some, Partial or Full; got {self.cover!r}.")
        check_flag(self.rear_arc, "Rear arc")
        check_flag(self.weak_facing, "Weak Facing")
        check_whole(
            self.reinforced_arc, "A Reinforced Arc value must be a whole number of 0 or more", 0
        )
        check_flag(self.autopilot, "Autopilot")
        _check_optional(
            self.boxes_left, check_whole, "Boxes left must be a whole number of 0 or more", 0
        )
        object.__setattr__(self, "name", _check_text(self.name, "The target's name"))
        object.__setattr__(
            self, "typed_in", _check_typed_in(self.typed_in, _TARGET_TYPABLE, "The target's")
        )

    @property
    def dice(self) -> int:
        """Dice rolled for defense: the Defense Skill, or 1 with Autopilot on."""
        return AUTOPILOT_DEFENSE_DICE if self.autopilot else self.defense_dice

    @property
    def dice_source(self) -> str:
        if self.autopilot:
            return f"Autopilot on: 1 die for defense (Defense Skill {self.defense_dice})"
        return f"Defense Skill {self.defense_dice}"

    @property
    def subject(self) -> str:
        return self.name or "Defender"

    def answered(self, **figures: int) -> Target:
        """A copy with figures the player typed in (``armor=15``), marked as typed."""
        return _answered(self, _TARGET_TYPABLE, figures, "the target")


Answerable = TypeVar("Answerable", Attacker, Target)


def _answered(
    obj: Answerable, allowed: tuple[str, ...], figures: dict[str, int], whose: str
) -> Answerable:
    unknown = sorted(set(figures) - set(allowed))
    if unknown:
        raise RulesError(
            f"Only {', '.join(allowed)} can be typed in for {whose}; got {', '.join(unknown)}."
        )
    # The names are checked against ``allowed`` above, so the figures may go in by name.
    typed: dict[str, Any] = dict(figures)
    return dataclasses.replace(obj, **typed, typed_in=obj.typed_in | set(figures))


def figure_origin(obj: Attacker | Target, name: str) -> str:
    """ "typed in", the player who entered it in a datacard pack ("entered by jan"), or "from
    the datacard"."""
    if name in obj.typed_in:
        return TYPED_IN
    return dict(obj.given_by).get(name) or FROM_THE_DATACARD


def possessive(subject: str) -> str:
    return f"{subject}'s"


def count_words(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"
