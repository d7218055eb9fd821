"""The attack helper's rules: every modifier with where it comes from, exact odds, resolution.

Direct fire (quickstart, "Actions and Attacking", "Attack Modifiers", "Cover", "Defense
Modifiers"), Rate of Fire (Spray and Concentrated Fire), Area Effect, and the perks Autopilot,
Reinforced Arc and Weak Facing. Indirect fire, hand grenades and ECM are in ``rules.indirect``;
Reaction Fire is in ``rules.attack_reaction``.

An attack is described by two plain values: an ``Attacker`` (the shooting model and its weapon)
and a ``Target`` (the model attacked, with the range band, cover and facing the attack comes in
on). A figure the data does not give is ``None``: the functions never guess it, they raise
``MissingInputs`` naming each figure in a sentence the helper can ask. ``missing_inputs`` lists
them without raising. A figure the player typed in is recorded with ``answered`` so that the
modifier list can say "typed in" instead of "from the datacard".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from functools import lru_cache
from typing import Any

from rules.damage import (
    STANDARD_BOXES,
    WEAK_FACING_BONUS,
    AttackOutcome,
    AttackResult,
    DamageState,
    check_armor,
    check_damage_multiplier,
    check_result,
    damage_table,
    margin_of_success,
    resolve_attack,
)
from rules.dice import (
    Roll,
    _roll_counts,
    apply_modifier,
    check_dice,
    check_flag,
    check_modifier,
    check_whole,
    is_whole,
    read_roll,
)
from rules.errors import RulesError
from rules.odds import attack_odds

AUTOPILOT_DEFENSE_DICE = 1
"""Autopilot: "It only rolls 1 dice for defense that turn, but may make a second attack"."""

REAR_ARC_MODIFIER = -1
"""Angle of Attack: "-1 against attacks from attackers in the Rear arc"."""

FROM_THE_DATACARD = "from the datacard"
TYPED_IN = "typed in"

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


def _check_state(value: object, whose: str) -> DamageState:
    if not isinstance(value, DamageState):
        raise RulesError(f"{whose} damage state must be a DamageState; got {value!r}.")
    return value


def _penalty_modifier(state: DamageState, subject: str) -> Modifier | None:
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

    def __post_init__(self) -> None:
        check_dice(self.attack_dice)
        _check_state(self.state, "The attacker's")
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

    def __post_init__(self) -> None:
        check_dice(self.defense_dice)
        _check_state(self.state, "The target's")
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


def _answered(obj: Any, allowed: tuple[str, ...], figures: dict[str, int], whose: str) -> Any:
    unknown = sorted(set(figures) - set(allowed))
    if unknown:
        raise RulesError(
            f"Only {', '.join(allowed)} can be typed in for {whose}; got {', '.join(unknown)}."
        )
    return dataclasses.replace(obj, **figures, typed_in=obj.typed_in | set(figures))


def _origin(obj: Attacker | Target, name: str) -> str:
    return TYPED_IN if name in obj.typed_in else FROM_THE_DATACARD


def _possessive(subject: str) -> str:
    return f"{subject}'s"


# --- What must be asked --------------------------------------------------------------------------


def _attacker_questions(attacker: Attacker, *, damage: bool) -> list[MissingInput]:
    missing = []
    whose = "the attacker's" if not attacker.name else f"the {attacker.name}'s"
    weapon = f"the {attacker.weapon}'s" if attacker.weapon else "the weapon's"
    if attacker.movement_modifier is None:
        missing.append(
            MissingInput(
                "movement_modifier",
                f"Enter {whose} movement modifier for its current speed: "
                "the data does not give it.",
            )
        )
    if attacker.accuracy is None:
        missing.append(
            MissingInput("accuracy", f"Enter {weapon} Accuracy: the data does not give it.")
        )
    if damage and attacker.damage_multiplier is None:
        missing.append(
            MissingInput(
                "damage_multiplier",
                f"Enter {weapon} Damage Multiplier (DM): the data does not give it.",
            )
        )
    if attacker.rof is None and attacker.rof_points:
        missing.append(
            MissingInput(
                "rof",
                f"Enter {weapon} Rate of Fire (RoF) rating: RoF points are used and the data "
                "does not give it.",
            )
        )
    return missing


def _target_questions(
    target: Target, index: int, *, damage: bool, direct: bool
) -> list[MissingInput]:
    missing = []
    whose = "the defender's" if not target.name else f"the {target.name}'s"
    to = "the target" if not target.name else f"the {target.name}"
    if direct and target.range_band is None:
        missing.append(
            MissingInput(
                "range_band",
                f"Choose the range band to {to}: Point-Blank, Short, Medium, Long or Extreme.",
                index,
            )
        )
    if direct and target.cover is None:
        missing.append(
            MissingInput(
                "cover",
                f"Choose {whose} cover, seen from the attacker: Open, Some, Partial or Full.",
                index,
            )
        )
    if target.movement_modifier is None:
        missing.append(
            MissingInput(
                "movement_modifier",
                f"Enter {whose} movement modifier for its mode and speed: "
                "the data does not give it.",
                index,
            )
        )
    if damage and target.armor is None:
        missing.append(
            MissingInput("armor", f"Enter {whose} Armor: the data does not give it.", index)
        )
    return missing


def _check_targets(targets: object) -> tuple[Target, ...]:
    if isinstance(targets, Target):
        return (targets,)
    if isinstance(targets, (str, bytes)) or not isinstance(targets, Iterable):
        raise RulesError(f"The targets must be a list of Target values; got {targets!r}.")
    checked = tuple(targets)
    if not checked:
        raise RulesError("An attack needs at least one target.")
    for target in checked:
        if not isinstance(target, Target):
            raise RulesError(f"Each target must be a Target; got {target!r}.")
    return checked


def _check_attacker(attacker: object) -> Attacker:
    if not isinstance(attacker, Attacker):
        raise RulesError(f"The attacker must be an Attacker; got {attacker!r}.")
    return attacker


def missing_inputs(attacker: Attacker, *targets: Target) -> tuple[MissingInput, ...]:
    """Every figure the helper must ask for before it can show the odds of a direct attack.

    The attacker's first, then each target's in order (``target_index`` says which). Empty when
    nothing is missing.
    """
    _check_attacker(attacker)
    checked = _check_targets(targets)
    missing = _attacker_questions(attacker, damage=True)
    for index, target in enumerate(checked):
        missing.extend(_target_questions(target, index, damage=True, direct=True))
    return tuple(missing)


def _roll_questions(attacker: Attacker) -> list[MissingInput]:
    """What the attacker's roll modifiers need: its movement modifier and weapon accuracy."""
    return [
        item
        for item in _attacker_questions(attacker, damage=False)
        if item.field in ("movement_modifier", "accuracy")
    ]


def _raise_if_missing(missing: list[MissingInput]) -> None:
    if missing:
        raise MissingInputs(missing)


# --- Modifiers -----------------------------------------------------------------------------------


def attacker_roll_modifiers(attacker: Attacker) -> tuple[Modifier, ...]:
    """The attacker's own modifiers: movement, weapon accuracy, damage penalty (if any).

    Raises ``MissingInputs`` if the movement modifier or the accuracy is not known.
    """
    _check_attacker(attacker)
    _raise_if_missing(_roll_questions(attacker))
    assert attacker.movement_modifier is not None and attacker.accuracy is not None
    modifiers = [
        Modifier(
            attacker.movement_modifier,
            f"{_possessive(attacker.subject)} movement modifier "
            f"({_origin(attacker, 'movement_modifier')})",
        ),
        Modifier(
            attacker.accuracy,
            f"{attacker.weapon or 'Weapon'} accuracy ({_origin(attacker, 'accuracy')})",
        ),
    ]
    penalty = _penalty_modifier(attacker.state, attacker.subject)
    if penalty:
        modifiers.append(penalty)
    return tuple(modifiers)


def defense_modifiers(target: Target) -> tuple[Modifier, ...]:
    """The defender's modifiers: movement, rear arc (if), damage penalty (if).

    Raises ``MissingInputs`` if the defender's movement modifier is not known.
    """
    if not isinstance(target, Target):
        raise RulesError(f"The target must be a Target; got {target!r}.")
    if target.movement_modifier is None:
        raise MissingInputs(_target_questions(target, 0, damage=False, direct=False))
    modifiers = [
        Modifier(
            target.movement_modifier,
            f"{_possessive(target.subject)} movement modifier "
            f"({_origin(target, 'movement_modifier')})",
        )
    ]
    if target.rear_arc:
        modifiers.append(Modifier(REAR_ARC_MODIFIER, "Attacked from the rear arc"))
    penalty = _penalty_modifier(target.state, target.subject)
    if penalty:
        modifiers.append(penalty)
    return tuple(modifiers)


def attack_modifiers(
    attacker: Attacker, target: Target
) -> tuple[tuple[Modifier, ...], tuple[Modifier, ...]]:
    """(modifiers to the attack roll, modifiers to the defense roll) of a direct attack.

    Attack: range band, cover seen from the attacker, the attacker's movement modifier, weapon
    accuracy, the attacker's damage penalty. Defense: the defender's movement modifier, rear arc,
    the defender's damage penalty. Raises ``MissingInputs`` naming every missing figure.
    """
    _check_attacker(attacker)
    (target,) = _check_targets((target,))
    missing = _roll_questions(attacker)
    missing += _target_questions(target, 0, damage=False, direct=True)
    _raise_if_missing(missing)
    assert target.range_band is not None and target.cover is not None
    attack = (
        Modifier(target.range_band.modifier, target.range_band.source),
        Modifier(target.cover.modifier, target.cover.label),
        *attacker_roll_modifiers(attacker),
    )
    return attack, defense_modifiers(target)


def mos_modifiers(target: Target) -> tuple[Modifier, ...]:
    """The Weak Facing bonus to the MoS, when the attack comes from that facing."""
    if target.weak_facing:
        return (
            Modifier(
                WEAK_FACING_BONUS,
                "Weak Facing: +2 MoS on a successful attack, and a tie (MoF 0) succeeds",
            ),
        )
    return ()


def damage_multiplier_parts(attacker: Attacker) -> tuple[Modifier, ...]:
    """The weapon's DM, and +1 per Concentrated Fire point. Raises if the DM is not known."""
    if attacker.damage_multiplier is None:
        raise MissingInputs(
            [
                item
                for item in _attacker_questions(attacker, damage=True)
                if item.field == "damage_multiplier"
            ]
        )
    parts = [
        Modifier(
            attacker.damage_multiplier,
            f"{attacker.weapon or 'Weapon'} Damage Multiplier "
            f"({_origin(attacker, 'damage_multiplier')})",
        )
    ]
    if attacker.concentrated:
        points = "point" if attacker.concentrated == 1 else "points"
        parts.append(
            Modifier(
                attacker.concentrated,
                f"Concentrated Fire: {attacker.concentrated} RoF {points}, +1 DM each",
            )
        )
    return tuple(parts)


def armor_parts(target: Target) -> tuple[Modifier, ...]:
    """The target's Armor, and a Reinforced Arc's value. Raises if the Armor is not known."""
    if target.armor is None:
        raise MissingInputs(
            [
                item
                for item in _target_questions(target, 0, damage=True, direct=False)
                if item.field == "armor"
            ]
        )
    parts = [
        Modifier(target.armor, f"{_possessive(target.subject)} Armor ({_origin(target, 'armor')})")
    ]
    if target.reinforced_arc:
        parts.append(
            Modifier(
                target.reinforced_arc,
                f"Reinforced Arc: +{target.reinforced_arc} Armor against attacks from that arc",
            )
        )
    return tuple(parts)


# --- Rate of Fire and blast areas ----------------------------------------------------------------


def _check_rate_of_fire(attacker: Attacker, main_target: Target) -> None:
    if attacker.rof_points and main_target.range_band is RangeBand.EXTREME:
        raise RulesError(
            "RoF can't be used at Extreme range: only against targets at Long range or closer."
        )


def rate_of_fire_warnings(
    rof_points: int, targets: Iterable[tuple[str, RangeBand | None]]
) -> list[str]:
    """A sentence for every model attacked with RoF points from beyond Long range.

    "RoF may only be used on attacks against targets in the weapon's long range band or closer":
    every target counts, not only the main one (a Spray Fire area can reach a model further off).
    ``targets`` are (name, range band); a band not given is not checked.
    """
    if not rof_points:
        return []
    return [
        f"{name} is at Extreme range: RoF may only be used on attacks against targets at Long "
        "range or closer."
        for name, band in targets
        if band is not None and not band.allows_rate_of_fire
    ]


def _check_several_targets(attacker: Attacker, count: int) -> None:
    if count > 1 and not attacker.spray and not attacker.area_effect:
        raise RulesError(
            "Only Spray Fire or an Area Effect weapon attacks several models at once: use RoF "
            "points on Spray Fire, or enter the weapon's Area Effect rating."
        )


@dataclass(frozen=True)
class BlastArea:
    """The area an attack covers, in words and inches: everyone in it defends separately."""

    radius_inches: int
    centre: str
    who_defends: str
    direction: str
    shooter: str
    """Whether the attacking model itself is caught, as the translated edition says ("" when
    only the target defends)."""


def blast_area(*, area_effect: int = 0, spray: int = 0, indirect: bool = False) -> BlastArea:
    """The area of an attack: ``area_effect`` (the AE rating, a radius in inches) plus 1 inch per
    Spray Fire point.

    Spray Fire alone is measured around the main target's base; an Area Effect, and any indirect
    attack, around the point where it landed (the translated edition's clarifications). Every
    model in the area, friend or foe, defends separately with its own modifiers, and an Area
    Effect attack comes from the direction of the attacking model.

    The texts do not say how Spray Fire combines with an AE weapon; Spray Fire "makes the attack
    cover a larger area", one inch per point, so its inches are added to the AE radius.
    """
    check_whole(area_effect, "An Area Effect rating must be a whole number of inches, 0 or more", 0)
    check_whole(spray, "Spray Fire points must be a whole number of 0 or more", 0)
    check_flag(indirect, "Indirect")
    radius = area_effect + spray
    if indirect or area_effect:
        centre = "the point where the attack landed"
    else:
        centre = "the main target's base"
    if radius == 0:
        who = "Only the target defends."
        shooter = ""
    else:
        who = (
            f"Every model within {radius} inch{'es' if radius != 1 else ''} of {centre}, "
            "friend or foe, defends separately with its own modifiers."
        )
        shooter = (
            "The attacking model defends too if it is inside the area (translated edition)."
            if area_effect
            else "The attacking model itself does not defend (translated edition)."
        )
    return BlastArea(
        radius_inches=radius,
        centre=centre,
        who_defends=who,
        shooter=shooter,
        direction=(
            "The attack comes from the direction of the attacking model: use that direction for "
            "each model's rear arc, Weak Facing and Reinforced Arc."
        ),
    )


def attacks_this_round(autopilot: bool) -> int:
    """Attacks a model may make this round: 2 with its Autopilot on, else 1."""
    return 2 if check_flag(autopilot, "Autopilot") else 1


# --- Summaries with exact odds -------------------------------------------------------------------


@dataclass(frozen=True)
class AttackSummary:
    """Everything the helper shows before the roll, for one target.

    ``odds`` has every ``AttackOutcome`` as a key; its chances add up to exactly 1.
    """

    target: Target
    attack_dice: int
    attack_dice_source: str
    attack_modifiers: tuple[Modifier, ...]
    defense_dice: int
    defense_dice_source: str
    defense_modifiers: tuple[Modifier, ...]
    mos_modifiers: tuple[Modifier, ...]
    damage_multiplier_parts: tuple[Modifier, ...]
    armor_parts: tuple[Modifier, ...]
    notes: tuple[str, ...]
    odds: dict[AttackOutcome, Fraction]
    hit_chance: Fraction
    expected_boxes: Fraction
    kill_chance: Fraction
    boxes_left: int | None

    @property
    def attack_modifier(self) -> int:
        return total(self.attack_modifiers)

    @property
    def defense_modifier(self) -> int:
        return total(self.defense_modifiers)

    @property
    def damage_multiplier(self) -> int:
        return total(self.damage_multiplier_parts)

    @property
    def armor(self) -> int:
        return total(self.armor_parts)

    @property
    def weak_facing(self) -> bool:
        return bool(self.mos_modifiers)


@dataclass(frozen=True)
class _Plan:
    """One target's side of an attack, with every figure known and checked."""

    target: Target
    attack_modifiers: tuple[Modifier, ...]
    attack_modifier: int
    defense_modifiers: tuple[Modifier, ...]
    defense_modifier: int
    mos_modifiers: tuple[Modifier, ...]
    damage_multiplier_parts: tuple[Modifier, ...]
    damage_multiplier: int
    armor_parts: tuple[Modifier, ...]
    armor: int


def _plan(attacker: Attacker, target: Target, given_attack: tuple[Modifier, ...] | None) -> _Plan:
    """``given_attack`` None: the direct attack's modifiers; else the attack modifiers to use
    (none for a model defending against an indirect attack's unmodified roll)."""
    if given_attack is None:
        attack, defense = attack_modifiers(attacker, target)
    else:
        attack, defense = given_attack, defense_modifiers(target)
    dm_parts = damage_multiplier_parts(attacker)
    armor = armor_parts(target)
    return _Plan(
        target=target,
        attack_modifiers=attack,
        attack_modifier=total(attack),
        defense_modifiers=defense,
        defense_modifier=total(defense),
        mos_modifiers=mos_modifiers(target),
        damage_multiplier_parts=dm_parts,
        damage_multiplier=total(dm_parts),
        armor_parts=armor,
        armor=total(armor),
    )


def _direct_plans(attacker: Attacker, targets: tuple[Target, ...]) -> list[_Plan]:
    missing = _attacker_questions(attacker, damage=True)
    for index, target in enumerate(targets):
        missing.extend(_target_questions(target, index, damage=True, direct=True))
    _raise_if_missing(missing)
    _check_rate_of_fire(attacker, targets[0])
    _check_several_targets(attacker, len(targets))
    return [_plan(attacker, target, None) for target in targets]


def _rof_notes(attacker: Attacker, *, indirect: bool = False) -> tuple[str, ...]:
    notes = []
    if attacker.spray:
        area = blast_area(
            area_effect=attacker.area_effect or 0, spray=attacker.spray, indirect=indirect
        )
        notes.append(
            f"Spray Fire: {attacker.spray} RoF point{'s' if attacker.spray != 1 else ''}, "
            f"+{attacker.spray} inch{'es' if attacker.spray != 1 else ''} of area. "
            + area.who_defends
        )
    if attacker.concentrated:
        notes.append(f"Concentrated Fire: +{attacker.concentrated} DM.")
    return tuple(notes)


def _summary(
    attacker: Attacker,
    plan: _Plan,
    odds: dict[AttackOutcome, Fraction],
    notes: tuple[str, ...],
) -> AttackSummary:
    target = plan.target
    # Every chance is a whole number of the 6**(attack + defense dice) equally likely rolls:
    # add up those counts as integers and make one fraction each (the same values as
    # rules.odds.hit_chance, expected_boxes and kill_chance, several times faster).
    rolls = 6 ** (attacker.attack_dice + target.dice)
    counts = {outcome: p.numerator * (rolls // p.denominator) for outcome, p in odds.items()}
    left = len(STANDARD_BOXES) if target.boxes_left is None else target.boxes_left
    hits = boxes = kills = 0
    for outcome, count in counts.items():
        if not outcome.hit:
            continue
        hits += count
        crossed = outcome.boxes
        boxes += count * (left if crossed is None else min(crossed, left))
        if crossed is None or crossed > left:
            kills += count
    return AttackSummary(
        target=target,
        attack_dice=attacker.attack_dice,
        attack_dice_source=f"Attack Skill {attacker.attack_dice}",
        attack_modifiers=plan.attack_modifiers,
        defense_dice=target.dice,
        defense_dice_source=target.dice_source,
        defense_modifiers=plan.defense_modifiers,
        mos_modifiers=plan.mos_modifiers,
        damage_multiplier_parts=plan.damage_multiplier_parts,
        armor_parts=plan.armor_parts,
        notes=notes,
        odds=odds,
        hit_chance=Fraction(hits, rolls),
        expected_boxes=Fraction(boxes, rolls),
        kill_chance=Fraction(kills, rolls),
        boxes_left=target.boxes_left,
    )


def _direct_odds(attacker: Attacker, plan: _Plan) -> dict[AttackOutcome, Fraction]:
    return attack_odds(
        attack_dice=attacker.attack_dice,
        attack_modifier=plan.attack_modifier,
        defense_dice=plan.target.dice,
        defense_modifier=plan.defense_modifier,
        damage_multiplier=plan.damage_multiplier,
        armor=plan.armor,
        weak_facing=plan.target.weak_facing,
    )


def attack_summary(attacker: Attacker, target: Target) -> AttackSummary:
    """Every modifier with its source, and the exact odds, of a direct attack on one target.

    Raises ``MissingInputs`` if a figure is missing, ``RulesError`` if RoF is used at Extreme
    range.
    """
    _check_attacker(attacker)
    (plan,) = _direct_plans(attacker, _check_targets((target,)))
    return _summary(attacker, plan, _direct_odds(attacker, plan), _rof_notes(attacker))


@dataclass(frozen=True)
class MultiTargetSummary:
    """One attack against several models (Spray Fire or an Area Effect).

    ``targets`` holds each model's own summary: its chances are its marginal odds. The attacker
    rolls once for all of them and each defender rolls separately, so the hits are not
    independent; ``targets_hit`` gives the exact chance of each number of models hit, and
    ``expected_boxes`` the expected boxes over all of them.
    """

    targets: tuple[AttackSummary, ...]
    targets_hit: dict[int, Fraction]
    expected_boxes: Fraction
    notes: tuple[str, ...]

    @property
    def expected_hits(self) -> Fraction:
        return sum((k * p for k, p in self.targets_hit.items()), Fraction(0))


@lru_cache(maxsize=8192)
def _hits_by_attack_result(
    attack_dice: int,
    attack_modifier: int | None,
    defense_dice: int,
    defense_modifier: int,
    weak_facing: bool,
) -> tuple[int, ...]:
    """For each result of the attacker's dice (in ``_roll_counts`` order), the number of the
    defender's 6**defense_dice rolls that lose to it. ``attack_modifier`` None: the attacker's
    roll is not modified at all (the roll a model under an indirect attack defends against).
    """
    defense = [
        (apply_modifier(result, defense_modifier), count)
        for result, count in _roll_counts(defense_dice)
    ]
    hits = []
    for result, _ in _roll_counts(attack_dice):
        final = result if attack_modifier is None else apply_modifier(result, attack_modifier)
        hits.append(
            sum(
                count
                for defense_final, count in defense
                if final > defense_final or (weak_facing and final == defense_final)
            )
        )
    return tuple(hits)


def _targets_hit(
    attack_dice: int, rows: list[tuple[int, ...]], totals: list[int], counted: Sequence[bool]
) -> dict[int, Fraction]:
    """Exact chance of each number of targets hit, conditioning on the attacker's one roll.

    ``rows[i][j]``: rolls of target i's dice that lose to the attacker's j-th result, out of
    ``totals[i]``. ``counted[j]``: False when that result hits nobody (an indirect scatter).
    """
    weights = [0] * (len(rows) + 1)
    for j, (_, ways) in enumerate(_roll_counts(attack_dice)):
        if not counted[j]:
            weights[0] += ways * _product(totals)
            continue
        poly = [1]
        for row, total_rolls in zip(rows, totals, strict=True):
            hit = row[j]
            miss = total_rolls - hit
            grown = [0] * (len(poly) + 1)
            for k, value in enumerate(poly):
                grown[k] += value * miss
                grown[k + 1] += value * hit
            poly = grown
        for k, value in enumerate(poly):
            weights[k] += ways * value
    denominator = 6**attack_dice * _product(totals)
    return {k: Fraction(value, denominator) for k, value in enumerate(weights)}


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _product(values: Iterable[int]) -> int:
    result = 1
    for value in values:
        result *= value
    return result


def multi_target_summary(attacker: Attacker, targets: Sequence[Target]) -> MultiTargetSummary:
    """The odds of one direct attack against several models: Spray Fire or an Area Effect.

    The first target is the main target (RoF can't be used if it is at Extreme range). Each model
    has its own range band, cover and defense, as "All Attacker and Defender modifiers are
    determined individually for each target"; the Concentrated Fire DM applies to all of them.
    """
    _check_attacker(attacker)
    checked = _check_targets(targets)
    plans = _direct_plans(attacker, checked)
    notes = _rof_notes(attacker)
    summaries = tuple(
        _summary(attacker, plan, _direct_odds(attacker, plan), notes) for plan in plans
    )
    rows = [
        _hits_by_attack_result(
            attacker.attack_dice,
            plan.attack_modifier,
            plan.target.dice,
            plan.defense_modifier,
            plan.target.weak_facing,
        )
        for plan in plans
    ]
    totals = [6**plan.target.dice for plan in plans]
    counted = [True] * len(_roll_counts(attacker.attack_dice))
    return MultiTargetSummary(
        targets=summaries,
        targets_hit=_targets_hit(attacker.attack_dice, rows, totals, counted),
        expected_boxes=sum((summary.expected_boxes for summary in summaries), Fraction(0)),
        notes=notes,
    )


# --- Resolving rolled attacks --------------------------------------------------------------------

RollEntry = int | Roll | Sequence[int]
"""What a player enters for a roll: its result (0 for a Fumble), a ``Roll``, or the dice."""


def read_result(entry: RollEntry, dice: int, whose: str) -> int:
    """The result of a roll entered as a result, a ``Roll`` or the individual dice.

    ``dice`` is how many dice the roll is made with; entered dice must match it, and a result must
    be one those dice can give. ``whose`` starts the error sentences ("The attacker's").
    """
    check_dice(dice)
    if is_whole(entry):
        result = check_result(entry, whose)
        if result > 5 + dice:
            raise RulesError(
                f"{whose} result can be at most {5 + dice} with {dice} "
                f"{'die' if dice == 1 else 'dice'}; got {result}."
            )
        return result
    roll = entry if isinstance(entry, Roll) else read_roll(entry)  # type: ignore[arg-type]
    if len(roll.dice) != dice:
        raise RulesError(
            f"{whose} roll is made with {dice} {'die' if dice == 1 else 'dice'}; "
            f"{len(roll.dice)} were entered."
        )
    return roll.result


@dataclass(frozen=True)
class ResolvedAttack:
    """One target's side of a rolled attack: the rolls, every modifier, and what happened."""

    target: Target
    attack_result: int
    """The attacker's result as rolled (0 for a Fumble), before modifiers."""
    defense_result: int
    """The defender's result as rolled (0 for a Fumble), before modifiers."""
    attack_modifiers: tuple[Modifier, ...]
    defense_modifiers: tuple[Modifier, ...]
    mos_modifiers: tuple[Modifier, ...]
    damage_multiplier_parts: tuple[Modifier, ...]
    armor_parts: tuple[Modifier, ...]
    result: AttackResult

    @property
    def outcome(self) -> AttackOutcome:
        return self.result.outcome

    @property
    def hit(self) -> bool:
        return self.result.hit

    @property
    def damage_multiplier(self) -> int:
        return total(self.damage_multiplier_parts)

    @property
    def armor(self) -> int:
        return total(self.armor_parts)

    def describe(self) -> str:
        """The whole resolution in one sentence."""
        r = self.result
        attack = _final_words(self.attack_result, total(self.attack_modifiers), r.attack_final)
        defense = _final_words(self.defense_result, total(self.defense_modifiers), r.defense_final)
        head = f"Attack {attack} against defense {defense}"
        if not r.hit:
            return f"{head}: miss (MoF {r.mof})."
        bonus = " with Weak Facing" if self.mos_modifiers else ""
        return (
            f"{head}: MoS {r.mos}{bonus} x DM {self.damage_multiplier} = {r.damage} damage "
            f"against Armor {self.armor}: {r.outcome.label}."
        )


def _final_words(result: int, modifier: int, final: int) -> str:
    if result == 0:
        return "0 (Fumble, no modifiers)"
    if modifier == 0:
        return str(final)
    return f"{result} {'+' if modifier > 0 else '-'} {abs(modifier)} = {final}"


def _resolve(plan: _Plan, attack_result: int, defense_roll: RollEntry) -> ResolvedAttack:
    target = plan.target
    whose = f"The {target.name}'s" if target.name else "The defender's"
    defense_result = read_result(defense_roll, target.dice, whose)
    result = resolve_attack(
        attack_result=attack_result,
        defense_result=defense_result,
        damage_multiplier=plan.damage_multiplier,
        armor=plan.armor,
        attack_modifier=plan.attack_modifier,
        defense_modifier=plan.defense_modifier,
        weak_facing=target.weak_facing,
    )
    return ResolvedAttack(
        target=target,
        attack_result=attack_result,
        defense_result=defense_result,
        attack_modifiers=plan.attack_modifiers,
        defense_modifiers=plan.defense_modifiers,
        mos_modifiers=plan.mos_modifiers,
        damage_multiplier_parts=plan.damage_multiplier_parts,
        armor_parts=plan.armor_parts,
        result=result,
    )


def resolve_direct(
    attacker: Attacker, target: Target, attack_roll: RollEntry, defense_roll: RollEntry
) -> ResolvedAttack:
    """Resolve a rolled direct attack: margin, MoS x DM (+ Concentrated Fire), outcome.

    Each roll is entered as its result (0 for a Fumble), a ``Roll``, or the individual dice.
    """
    (resolved,) = resolve_multi_target(attacker, (target,), attack_roll, (defense_roll,))
    return resolved


def resolve_multi_target(
    attacker: Attacker,
    targets: Sequence[Target],
    attack_roll: RollEntry,
    defense_rolls: Sequence[RollEntry],
) -> tuple[ResolvedAttack, ...]:
    """Resolve one attack roll against several models, each with its own defense roll."""
    _check_attacker(attacker)
    checked = _check_targets(targets)
    if isinstance(defense_rolls, (str, bytes)) or not isinstance(defense_rolls, Sequence):
        raise RulesError("Enter one defense roll for each target.")
    if len(defense_rolls) != len(checked):
        raise RulesError(
            "Enter one defense roll for each target: "
            f"{_count(len(checked), 'target')}, {_count(len(defense_rolls), 'roll')}."
        )
    plans = _direct_plans(attacker, checked)
    attack_result = read_result(attack_roll, attacker.attack_dice, "The attacker's")
    return tuple(
        _resolve(plan, attack_result, roll) for plan, roll in zip(plans, defense_rolls, strict=True)
    )


# --- Shared with rules.indirect ------------------------------------------------------------------


@lru_cache(maxsize=8192)
def _outcomes_by_attack_result(
    attack_dice: int,
    defense_dice: int,
    defense_modifier: int,
    damage_multiplier: int,
    armor: int,
    weak_facing: bool,
) -> tuple[tuple[int, ...], ...]:
    """For each result of the attacker's dice, unmodified (``_roll_counts`` order), the number of
    the defender's rolls giving each outcome, in ``AttackOutcome`` order."""
    order = {outcome: index for index, outcome in enumerate(AttackOutcome)}
    defense = [
        (apply_modifier(result, defense_modifier), count)
        for result, count in _roll_counts(defense_dice)
    ]
    rows = []
    for attack_result, _ in _roll_counts(attack_dice):
        counts = [0] * len(order)
        for defense_final, count in defense:
            mos = margin_of_success(attack_result - defense_final, weak_facing)
            if mos is None:
                counts[0] += count
            else:
                counts[order[damage_table(mos * damage_multiplier, armor)]] += count
        rows.append(tuple(counts))
    return tuple(rows)
