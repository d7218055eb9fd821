"""The state of a match: its sides, combat groups and models, the round, and what they mean.

Frozen dataclasses, the errors an event can raise, and ``new_match`` (the state at the start of
round 1). A state changes only through ``rules.hgb.match.step``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction

from rules.errors import RulesError
from rules.eventlog import EventError, UnknownId
from rules.hgb.catalog import Skills
from rules.hgb.damage import BoxKind, DamageState, DamageTrack

SIDES = ("a", "b")


class Speed(Enum):
    STATIONARY = "stationary"
    COMBAT = "combat"
    TOP = "top"

    @property
    def label(self) -> str:
        return _SPEED_LABELS[self]

    @property
    def level(self) -> int:
        return _SPEED_LEVELS[self]


_SPEED_LABELS = {Speed.STATIONARY: "Stationary", Speed.COMBAT: "Combat", Speed.TOP: "Top"}
_SPEED_LEVELS = {Speed.STATIONARY: 0, Speed.COMBAT: 1, Speed.TOP: 2}


class Mode(Enum):
    WALKER = "walker"
    GROUND = "ground"

    @property
    def label(self) -> str:
        return self.value.capitalize()


class Phase(Enum):
    INITIATIVE = "initiative"
    ACTIVATIONS = "activations"
    ENDED = "ended"


def other_side(side: str) -> str:
    return "b" if side == "a" else "a"


@dataclass(frozen=True)
class AmmoCounter:
    """A weapon with Limited Ammo: how many shots it has and how many were fired."""

    weapon: str
    name: str
    capacity: int
    fired: int = 0

    @property
    def left(self) -> int:
        return self.capacity - self.fired


@dataclass(frozen=True)
class MatchWeapon:
    """A weapon a model carries, as the match recorded it when it started: the code and name, the
    mount as the army list prints it (arc, Reloads, Limited Ammo) and the arsenal's figures.
    None (or empty) is a figure the game data does not give. Recorded once, so a later change to
    the data never alters a match in progress."""

    code: str
    name: str
    arc: str | None = None
    reloads: bool | None = None
    limited_ammo: int | None = None
    dm: int | None = None
    accuracy: int | None = None
    rof: int | None = None
    ranges: tuple[int | None, ...] = ()
    """Point-Blank, Short, Medium, Long, Extreme (inches), or () when none is given."""
    traits: tuple[str, ...] = ()
    parts: tuple[str, ...] = ()
    """The weapons a linked weapon is made of (the Paratroop Rifle: LAC and LGL)."""
    notes: str = ""


@dataclass(frozen=True)
class MovementFigures:
    """The movement modifiers of one movement mode and speed, as the match recorded them: to the
    model's attack rolls and to the rolls against it (None: the data did not give it)."""

    mode: str
    speed: str
    attack_modifier: int | None = None
    defense_modifier: int | None = None


@dataclass(frozen=True)
class ModelFigures:
    """The datacard figures of a model that an attack or an ECM contest reads, beyond its Armor,
    skills and weapons, as the match recorded them when it started (from the game data completed
    by its side's datacard pack). None (or empty) is a figure the data did not give. Recorded
    once, so a later change to the data never alters a match in progress."""

    size: int | None = None
    sensors: int | None = None
    movement: tuple[MovementFigures, ...] = ()
    perks: tuple[str, ...] = ()
    """Its perks and its faction's ("ecm")."""

    def movement_for(self, mode: Mode, speed: Speed) -> MovementFigures | None:
        for line in self.movement:
            if line.mode == mode.value and line.speed == speed.value:
                return line
        return None


@dataclass(frozen=True)
class Unit:
    """A model in play. ``id`` is "<side>-<group>-<model>", numbered from 1 ("a-1-3")."""

    id: str
    name: str
    model: str
    skills: Skills
    track: DamageTrack
    leader: bool = False
    armor: int | None = None
    tv: Fraction | None = None
    speed: Speed = Speed.COMBAT
    mode: Mode = Mode.WALKER
    used: bool = False
    kept_action: bool = False
    fo_mark: bool = False
    ammo: tuple[AmmoCounter, ...] = ()
    speed_round: int = 0
    """The round in which the speed last changed (0: never)."""
    mode_round: int = 0
    weapons: tuple[MatchWeapon, ...] | None = None
    """None: a match stored before matches recorded their weapons."""
    figures: ModelFigures | None = None
    """None: a match stored before matches recorded their datacard figures."""
    actions: tuple[tuple[str, str], ...] = ()
    """What the model spent its action on this round, in order: (kind, words), kind "attack"
    or "fo" (a forward observation), words naming the event ("#12: its LAC at Jaguar (South
    CG1)"). "End round" clears them."""

    @property
    def side(self) -> str:
        return self.id[0]

    @property
    def group_id(self) -> str:
        return self.id.rsplit("-", 1)[0]

    @property
    def is_out(self) -> bool:
        return self.track.is_out

    @property
    def state(self) -> DamageState:
        return self.track.state

    @property
    def penalty(self) -> int:
        return self.track.penalty


@dataclass(frozen=True)
class Group:
    """A combat group. ``tv`` is the group's TV as the roster prices it (None: not known)."""

    id: str
    number: int
    name: str
    units: tuple[Unit, ...]
    tv: int | None = None

    @property
    def side(self) -> str:
        return self.id[0]

    @property
    def can_activate(self) -> bool:
        """True while a model of the group is still in the game."""
        return any(not unit.is_out for unit in self.units)


@dataclass(frozen=True)
class Side:
    """A player's army as it started the match: roster name, faction, TV, combat groups."""

    key: str
    label: str
    roster_name: str
    faction: str
    groups: tuple[Group, ...]
    tv: int | None = None
    tv_complete: bool = True
    grenade: MatchWeapon | None = None
    """The Hand Grenade as the side's data gave it when the match started, offered to a model the
    data gives no grenade (None: a match stored before matches recorded it)."""

    @property
    def units(self) -> tuple[Unit, ...]:
        return tuple(unit for group in self.groups for unit in group.units)


@dataclass(frozen=True)
class MatchState:
    """Everything about a match in progress. Change it only through ``step``."""

    sides: tuple[Side, Side]
    round: int = 1
    phase: Phase = Phase.INITIATIVE
    rolls: tuple[int | None, int | None] = (None, None)
    """This round's initiative dice, side a and side b (None: not rolled yet)."""
    ties: int = 0
    """Ties rolled for initiative this round."""
    last_tie: int | None = None
    winner: str | None = None
    """The side that won this round's initiative and chooses who goes first."""
    first: str | None = None
    turn: str | None = None
    """The side due to activate next, by alternation (see ``whose_turn``)."""
    active_group: str | None = None
    activated: tuple[str, ...] = ()
    result: str | None = None
    """When the match has ended: "a" or "b" (the winner) or "draw"."""
    note: str = ""

    def side(self, key: str) -> Side:
        if key not in SIDES:
            raise UnknownId(f"A side is a or b; got {key!r}.")
        return self.sides[SIDES.index(key)]

    def group(self, group_id: object) -> Group:
        side, number = _parse_id(group_id, 2, "combat group")
        groups = self.side(side).groups
        if not 1 <= number[0] <= len(groups):
            raise UnknownId(f"This match has no combat group {group_id}.")
        return groups[number[0] - 1]

    def unit(self, unit_id: object) -> Unit:
        side, (group_number, model_number) = _parse_id(unit_id, 3, "model")
        groups = self.side(side).groups
        if not 1 <= group_number <= len(groups):
            raise UnknownId(f"This match has no model {unit_id}.")
        units = groups[group_number - 1].units
        if not 1 <= model_number <= len(units):
            raise UnknownId(f"This match has no model {unit_id}.")
        return units[model_number - 1]

    @property
    def units(self) -> tuple[Unit, ...]:
        return self.sides[0].units + self.sides[1].units


_ID_NUMBER = re.compile(r"[0-9]{1,3}")  # a group or model number in an id such as "a-1-2"


def _parse_id(value: object, parts: int, what: str) -> tuple[str, tuple[int, ...]]:
    if not isinstance(value, str):
        raise EventError(f"A {what} is named by text such as 'a-1-2'; got {value!r}.")
    pieces = value.split("-")
    if (
        len(pieces) != parts
        or pieces[0] not in SIDES
        # ASCII digits only: "²".isdigit() is True but int() refuses it, and "٣" would read as 3
        or not all(_ID_NUMBER.fullmatch(p) for p in pieces[1:])
    ):
        raise UnknownId(f"This match has no {what} {value!r}.")
    return pieces[0], tuple(int(p) for p in pieces[1:])


@dataclass(frozen=True)
class UnitSpec:
    """A model as a roster gives it: name, skills, damage track, Armor, Limited Ammo weapons."""

    name: str
    model: str
    skills: Skills
    boxes: tuple[str, ...] = ("sturdy", "light", "heavy", "critical")
    leader: bool = False
    armor: int | None = None
    ammo: tuple[tuple[str, str, int], ...] = ()
    """(code, name, Limited Ammo) of each weapon with Limited Ammo."""
    tv: Fraction | None = None
    weapons: tuple[MatchWeapon, ...] | None = None
    """Every weapon the model carries (None: not known, the board then lists none)."""
    figures: ModelFigures | None = None


@dataclass(frozen=True)
class GroupSpec:
    name: str
    units: tuple[UnitSpec, ...]
    tv: int | None = None


@dataclass(frozen=True)
class SideSpec:
    roster_name: str
    faction: str
    groups: tuple[GroupSpec, ...]
    tv: int | None = None
    tv_complete: bool = True
    grenade: MatchWeapon | None = None


def new_match(a: SideSpec, b: SideSpec) -> MatchState:
    """The state at the start of round 1: every model undamaged, at Combat Speed, Walker mode."""
    if not a.groups or not b.groups:
        raise RulesError("Each side needs at least one combat group with a model in it.")
    labels = [a.faction or "Side A", b.faction or "Side B"]
    if labels[0] == labels[1]:
        labels = [f"{labels[0]} (A)", f"{labels[1]} (B)"]
    sides = (_new_side(SIDES[0], labels[0], a), _new_side(SIDES[1], labels[1], b))
    return MatchState(sides=sides)


def _new_side(key: str, label: str, spec: SideSpec) -> Side:
    groups = []
    for number, group in enumerate(spec.groups, 1):
        if not group.units:
            raise RulesError(f"Combat Group {number} of {label} has no models.")
        counts: dict[str, int] = {}
        for unit in group.units:
            counts[unit.name] = counts.get(unit.name, 0) + 1
        seen: dict[str, int] = {}
        units = []
        for index, unit in enumerate(group.units, 1):
            seen[unit.name] = seen.get(unit.name, 0) + 1
            name = unit.name if counts[unit.name] == 1 else f"{unit.name} {seen[unit.name]}"
            try:
                boxes = tuple(BoxKind(box) for box in unit.boxes)
            except ValueError:
                raise RulesError(f"{name} has an unknown damage box in {unit.boxes}.") from None
            units.append(
                Unit(
                    id=f"{key}-{number}-{index}",
                    name=name,
                    model=unit.model,
                    skills=unit.skills,
                    track=DamageTrack(boxes=boxes),
                    leader=unit.leader,
                    armor=unit.armor,
                    tv=unit.tv,
                    ammo=tuple(AmmoCounter(code, wname, n) for code, wname, n in unit.ammo),
                    weapons=unit.weapons,
                    figures=unit.figures,
                )
            )
        groups.append(
            Group(
                id=f"{key}-{number}",
                number=number,
                name=group.name,
                units=tuple(units),
                tv=group.tv,
            )
        )
    return Side(
        key=key,
        label=label,
        roster_name=spec.roster_name,
        faction=spec.faction,
        groups=tuple(groups),
        tv=spec.tv,
        tv_complete=spec.tv_complete,
        grenade=spec.grenade,
    )


def groups_left(state: MatchState, side: str) -> tuple[Group, ...]:
    """The side's combat groups that have not activated this round and still have a model."""
    return tuple(
        group
        for group in state.side(side).groups
        if group.id not in state.activated and group.can_activate
    )


def whose_turn(state: MatchState) -> str | None:
    """The side that activates the next combat group, or None (not in activations, or all done)."""
    if state.phase is not Phase.ACTIVATIONS or state.turn is None:
        return None
    for side in (state.turn, other_side(state.turn)):
        if groups_left(state, side):
            return side
    return None


def tv_destroyed(side: Side) -> Fraction:
    """TV of the side's destroyed and overkilled models (see ``Unit.tv`` for how it is shared)."""
    return sum((unit.tv or Fraction(0) for unit in side.units if unit.is_out), Fraction(0))


def tv_remaining(side: Side) -> Fraction:
    return Fraction(side.tv or 0) - tv_destroyed(side)


def penalised(skill: int | None, penalty: int) -> str:
    """A skill with the damage penalty: "2" or "2 -1" (dice, then the modifier to the result)."""
    if skill is None:
        return "?"
    return f"{skill} {penalty:+d}".replace("-", "\u2212") if penalty else str(skill)


def with_unit(state: MatchState, unit: Unit) -> MatchState:
    """The state with ``unit`` in place of the model with its id (the rest shared, not copied)."""
    side_index = SIDES.index(unit.side)
    group_number, model_number = (int(p) for p in unit.id.split("-")[1:])
    side = state.sides[side_index]
    group = side.groups[group_number - 1]
    units = group.units[: model_number - 1] + (unit,) + group.units[model_number:]
    groups = (
        side.groups[: group_number - 1]
        + (replace(group, units=units),)
        + side.groups[group_number:]
    )
    changed = replace(side, groups=groups)
    sides = (changed, state.sides[1]) if side_index == 0 else (state.sides[0], changed)
    return replace(state, sides=sides)


def unit_label(state: MatchState, unit: Unit) -> str:
    """A model named so that no other model of the match has the same label: "Hunter 1 (North
    CG2)". Models that share a name within a combat group are numbered when the match starts
    (Hunter 1, Hunter 2 ...); the side and the combat group tell the rest apart."""
    group_number = unit.id.split("-")[1]
    return f"{unit.name} ({state.side(unit.side).label} CG{group_number})"
