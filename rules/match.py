"""A live match: its state, the events that change it, and the rules those events must follow.

The state of a match is what its events say: ``replay(initial, log)`` rebuilds it from the state
the match started with and the log of events, and ``step(state, event)`` applies one event,
refusing an illegal one with a RulesError whose message a player understands. Warnings (legal, but
worth saying) come back beside the new state.

Rules, from the English quickstart (hgb-quickstart-en.txt) unless said otherwise:

- Rounds: "both players roll one dice at the start of each round. Whoever rolls higher gets to
  decide who goes first that round. If the results are the same, re-roll." Then "the two players
  alternate activating Combat Groups". A player whose groups have all activated (or are all
  destroyed) stops; the other activates the rest in a row.
- "When a model has completed its activation, it is 'Used' and cannot move again until the next
  round." A model that holds its action ("or holding their Action") is Used with a kept action;
  "Gears may not attack once they are Used, with the exception of Reaction Fire", which spends
  the kept action. Starting the next group's activation ends the last one: its models are Used.
- Movement: "Vehicles may change their speed and their movement mode one per turn before moving.
  Speed may only be changed by one level up or down". "Per turn" is read as once per round (the
  translated text: "once per round before it begins to move and act"). A Used model has moved:
  it cannot change speed or mode. Models start a match at Combat Speed in Walker mode: the texts
  give no starting speed, and from Combat Speed every speed is one step away in round 1.
- "Moving at Top Speed requires the model to use an action": a model at Top Speed cannot keep
  an action or attack ("A Gear that spent its only action to move at Top Speed may also not
  attack").
- Damage: Heavy and Critical "cannot travel at Top Speed"; damage past Critical destroys the model
  (it stays on the table), an Overkill removes it. Penalties (-1, -2 "to all rolls") modify roll
  results, not the number of dice.
- Forward observation marks an enemy model "for the remainder of the round (or until the target
  moves)": the mark is cleared at the end of the round, or by hand.

Undo: an ``undo`` event names an earlier event. The effective events are those not undone by an
effective undo (undoing an undo redoes). An event can be undone only while no later effective event
touches what it changed (its ``writes``), and only if the rest of the log still replays.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction
from typing import Any

from rules.attack import RangeBand, attacks_this_round, rate_of_fire_warnings
from rules.catalog import Skills, default_catalog
from rules.damage import AttackOutcome, BoxKind, DamageState, DamageTrack
from rules.errors import RulesError

SIDES = ("a", "b")
DIE_FACES = range(1, 7)
MAX_NOTE = 500


class EventError(RulesError):
    """The event itself is malformed (not a rules question): the request was wrong."""


class Stale(RulesError):
    """A tap made on a screen that was out of date: what it asks for is already so, or no longer
    follows from the state. Nothing changes.

    ``template`` is the sentence with a ``{by}`` slot for who made the change the screen missed
    (" by Anna a moment ago"); ``part`` names what changed ("a-1-2:damage", "match:round"), so
    the app can look up who changed it. ``str(error)`` is the sentence without the slot.
    """

    def __init__(self, template: str, part: str):
        self.template = template
        self.part = part
        super().__init__(self.sentence(""))

    def sentence(self, by: str) -> str:
        return self.template.replace("{by}", by) + ". Nothing was changed."


class UnknownId(EventError):
    """The event names a model, group or event that the match does not have."""


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
_SPEED_WORDS = {
    Speed.STATIONARY: "Stationary",
    Speed.COMBAT: "Combat Speed",
    Speed.TOP: "Top Speed",
}


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


# --- State ---------------------------------------------------------------------------------------


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


# --- Building the starting state ------------------------------------------------------------------


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


def new_match(a: SideSpec, b: SideSpec) -> MatchState:
    """The state at the start of round 1: every model undamaged, at Combat Speed, Walker mode."""
    if not a.groups or not b.groups:
        raise RulesError("Each side needs at least one combat group with a model in it.")
    labels = [a.faction or "Side A", b.faction or "Side B"]
    if labels[0] == labels[1]:
        labels = [f"{labels[0]} (A)", f"{labels[1]} (B)"]
    sides = tuple(
        _new_side(key, label, spec) for key, label, spec in zip(SIDES, labels, (a, b), strict=True)
    )
    return MatchState(sides=sides)  # type: ignore[arg-type]


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
    )


# --- What the state means -------------------------------------------------------------------------


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


# --- Events --------------------------------------------------------------------------------------

_UNIT = {"unit": str}
EVENT_FIELDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    # ``box`` is the box the player tapped, counted from 1 (the box past Critical is the last);
    # 0 (events stored before taps named their box) means the next box, or the last crossed off.
    "mark_box": {"unit": str, "box": int},
    "clear_box": {"unit": str, "box": int},
    "destroy": _UNIT,
    "overkill": _UNIT,
    "clear_overkill": _UNIT,
    "set_speed": {"unit": str, "speed": str},
    "set_mode": {"unit": str, "mode": str},
    "set_used": {"unit": str, "used": bool},
    "keep_action": {"unit": str, "kept": bool},
    "fire": {"unit": str, "weapon": int},
    "fo_mark": {"unit": str, "marked": bool, "observer": str},
    "initiative_roll": {"side": str, "die": int, "on_screen": bool},
    "choose_first": {"side": str},
    "activate": {"group": str},
    "end_round": {"round": int},  # the round the player ended; 0 (older events): the current one
    "end_match": {"winner": str, "note": str},
    "undo": {"target": int},
    # The attack helper (see "Attacks and ECM" below).
    "attack": {
        "attacker": str,
        "targets": list,
        "ammo": int,
        "note": str,
        "figures": dict,
        "weapon": str,
        "reaction": bool,
        "autopilot": bool,
        "rof": int,
        "bands": dict,
    },
    "ecm": {"blocker": str, "target": str, "blocked": bool, "note": str, "figures": dict},
}
OPTIONAL_FIELDS = {
    "on_screen": False,
    "note": "",
    "ammo": -1,
    "figures": {},
    "observer": "",
    "weapon": "",
    "reaction": False,
    "autopilot": False,
    "rof": 0,
    "bands": {},
    "box": 0,
    "round": 0,
}
UNIT_KINDS = frozenset(kind for kind, fields in EVENT_FIELDS.items() if "unit" in fields)


@dataclass(frozen=True)
class Event:
    """One change to a match: a kind and its fields (see EVENT_FIELDS)."""

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Any:
        return self.data[name]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.data}


def make_event(kind: str, **data: Any) -> Event:
    """An event checked like ``parse_event``: ``make_event("mark_box", unit="a-1-1")``."""
    return parse_event({"kind": kind, **data})


def parse_event(data: object) -> Event:
    """Read an event from plain data; anything malformed raises EventError with a sentence."""
    if not isinstance(data, Mapping):
        raise EventError("An event is an object with a kind, such as {'kind': 'mark_box'}.")
    kind = data.get("kind")
    if kind not in EVENT_FIELDS:
        known = ", ".join(EVENT_FIELDS)
        raise EventError(f"Unknown event kind {kind!r}; the kinds are: {known}.")
    fields = EVENT_FIELDS[kind]
    extra = set(data) - set(fields) - {"kind"}
    if extra:
        raise EventError(f"A {kind} event has no field {', '.join(sorted(extra))}.")
    values: dict[str, Any] = {}
    for name, kinds in fields.items():
        if name not in data:
            if name in OPTIONAL_FIELDS:
                values[name] = OPTIONAL_FIELDS[name]
                continue
            raise EventError(f"A {kind} event needs a {name}.")
        value = data[name]
        if kinds is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise EventError(f"The {name} of a {kind} event is a whole number; got {value!r}.")
        if not isinstance(value, kinds):
            raise EventError(f"The {name} of a {kind} event has the wrong type: {value!r}.")
        values[name] = value
    return Event(kind, values)


@dataclass(frozen=True)
class Step:
    """One event applied: the new state, warnings, a sentence for the log, and what it touched.

    ``writes`` and ``reads`` are keys such as "a-1-2:damage", "turn", "round", "phase": a later
    event depends on this one when it reads or writes something this one wrote.
    """

    state: MatchState
    summary: str
    warnings: tuple[str, ...] = ()
    writes: frozenset[str] = frozenset()
    reads: frozenset[str] = frozenset()

    @property
    def units(self) -> frozenset[str]:
        """Ids of the models whose state this event changed."""
        return frozenset(key.split(":", 1)[0] for key in self.writes if ":" in key)


def apply_event(state: MatchState, event: Event) -> MatchState:
    """The state after ``event``; an illegal event raises RulesError (see ``step``)."""
    return step(state, event).state


def step(state: MatchState, event: Event, seq: int | None = None) -> Step:
    """Apply one event (not an undo: see ``plan_undo``) and say what it did.

    ``seq`` is the number the event has (or will have) in the log: an attack or a forward
    observation records it in the model's ``actions``, so a second one this round can name the
    first. Replaying gives each event its number; the app passes the number it stores."""
    if not isinstance(event, Event):
        raise EventError(f"Not an event: {event!r}.")
    if event.kind == "undo":
        raise EventError("An undo is applied to the whole log: use plan_undo.")
    handler = _HANDLERS.get(event.kind)
    if handler is None:
        raise EventError(f"Unknown event kind {event.kind!r}.")
    if state.phase is Phase.ENDED:
        if event.kind == "end_match":
            raise Stale("The match was already ended{by}", "match:phase")
        raise Stale(
            "The match was ended{by}: undo 'End match' in the log to change anything",
            "match:phase",
        )
    numbered = _NUMBERED.get(event.kind)
    if numbered is not None:
        return numbered(state, event, seq)
    return handler(state, event)


def _with_unit(state: MatchState, unit: Unit) -> MatchState:
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
    sides = list(state.sides)
    sides[side_index] = replace(side, groups=groups)
    return replace(state, sides=tuple(sides))


def unit_label(state: MatchState, unit: Unit) -> str:
    """A model named so that no other model of the match has the same label: "Hunter 1 (North
    CG2)". Models that share a name within a combat group are numbered when the match starts
    (Hunter 1, Hunter 2 ...); the side and the combat group tell the rest apart."""
    group_number = unit.id.split("-")[1]
    return f"{unit.name} ({state.side(unit.side).label} CG{group_number})"


_who = unit_label


def _in_play(state: MatchState, unit: Unit) -> None:
    if unit.track.overkilled:
        raise RulesError(f"{_who(state, unit)} was overkilled: it takes no further part.")
    if unit.track.destroyed:
        raise RulesError(f"{_who(state, unit)} is destroyed: it takes no further part.")


def _unit_step(
    state: MatchState,
    before: Unit,
    after: Unit,
    summary: str,
    writes: Iterable[str],
    warnings: Sequence[str] = (),
    reads: Iterable[str] = (),
) -> Step:
    uid = before.id
    written = frozenset(f"{uid}:{name}" for name in writes)
    return Step(
        state=_with_unit(state, after),
        summary=summary,
        warnings=tuple(warnings),
        writes=written,
        reads=written | frozenset(reads) | {"phase"},
    )


def _state_words(unit: Unit) -> str:
    state = unit.state
    if state is DamageState.UNDAMAGED:
        return "undamaged"
    return f"{state.value.capitalize()} ({state.effect_text})"


def _top_speed_warning(state: MatchState, unit: Unit) -> list[str]:
    if unit.speed is Speed.TOP and not unit.track.top_speed_allowed and not unit.is_out:
        return [
            f"{_who(state, unit)} is at {unit.state.value.capitalize()} damage and can't travel "
            "at Top Speed: slow it to Combat Speed when it next moves."
        ]
    return []


# --- Damage --------------------------------------------------------------------------------------


def _stale_box(state: MatchState, unit: Unit, box: int, mark: bool) -> None:
    """Refuse a tap on box ``box`` that the screen showed out of date (see ``Stale``)."""
    who, marked = _who(state, unit), unit.track.marked
    if not 1 <= box <= len(unit.track.boxes) + 1:
        raise EventError(f"{who} has boxes 1 to {len(unit.track.boxes) + 1}; got box {box}.")
    if unit.track.overkilled:
        raise Stale(
            f"{who} was overkilled{{by}}: it takes no further part", f"{unit.id}:overkilled"
        )
    part = f"{unit.id}:damage"
    if mark and box <= marked:
        raise Stale(f"Box {box} of {who} was already crossed off{{by}}", part)
    if mark and box > marked + 1:
        raise Stale(
            f"Box {box - 1} of {who} was cleared{{by}}, so box {box} is not the next one", part
        )
    if not mark and box > marked:
        raise Stale(f"Box {box} of {who} was already cleared{{by}}", part)
    if not mark and box < marked:
        raise Stale(f"Box {marked} of {who} was crossed off{{by}}: clear it before box {box}", part)


def _mark_box(state: MatchState, event: Event) -> Step:
    unit = state.unit(event["unit"])
    if event["box"]:
        _stale_box(state, unit, event["box"], mark=True)
    _in_play(state, unit)
    after = replace(unit, track=unit.track.mark(1))
    if after.track.destroyed:
        words = "damage past its Critical box: Destroyed (it stays on the table as rough terrain)"
    else:
        words = f"box {after.track.marked} crossed off: {_state_words(after)}"
    return _unit_step(
        state,
        unit,
        after,
        f"{_who(state, unit)}: {words}.",
        ["damage"],
        _top_speed_warning(state, after),
    )


def _clear_box(state: MatchState, event: Event) -> Step:
    unit = state.unit(event["unit"])
    if event["box"]:
        _stale_box(state, unit, event["box"], mark=False)
    if unit.track.overkilled:
        raise RulesError(f"{_who(state, unit)} was overkilled: clear the Overkill first.")
    if unit.track.marked == 0:
        raise RulesError(f"{_who(state, unit)} has no damage box crossed off.")
    after = replace(unit, track=unit.track.unmark(1))
    return _unit_step(
        state,
        unit,
        after,
        f"{_who(state, unit)}: box {unit.track.marked} cleared, now {_state_words(after)}.",
        ["damage"],
    )


def _already_out(state: MatchState, unit: Unit) -> None:
    """Overkilled or Destroyed already: the screen that offered the button was out of date."""
    who = _who(state, unit)
    if unit.track.overkilled:
        raise Stale(f"{who} was already overkilled{{by}}", f"{unit.id}:overkilled")
    if unit.track.destroyed:
        raise Stale(f"{who} was already destroyed{{by}}", f"{unit.id}:damage")


def _destroy(state: MatchState, event: Event) -> Step:
    unit = state.unit(event["unit"])
    _already_out(state, unit)
    after = replace(unit, track=unit.track.destroy())
    return _unit_step(
        state,
        unit,
        after,
        f"{_who(state, unit)}: Destroyed (it stays on the table as rough terrain).",
        ["damage"],
    )


def _overkill(state: MatchState, event: Event) -> Step:
    unit = state.unit(event["unit"])
    if unit.track.overkilled:
        _already_out(state, unit)
    _in_play(state, unit)
    after = replace(unit, track=unit.track.overkill())
    return _unit_step(
        state,
        unit,
        after,
        f"{_who(state, unit)}: Overkilled (removed from the table).",
        ["damage"],
    )


def _clear_overkill(state: MatchState, event: Event) -> Step:
    unit = state.unit(event["unit"])
    if not unit.track.overkilled:
        raise Stale(
            f"{_who(state, unit)} is not overkilled: the Overkill was cleared{{by}}",
            f"{unit.id}:overkilled",
        )
    after = replace(unit, track=unit.track.undo_overkill())
    return _unit_step(
        state,
        unit,
        after,
        f"{_who(state, unit)}: Overkill cleared, now {_state_words(after)}.",
        ["damage"],
        _top_speed_warning(state, after),
    )


# --- Speed, mode and actions ---------------------------------------------------------------------


def _can_move(state: MatchState, unit: Unit, what: str) -> None:
    _in_play(state, unit)
    if unit.used:
        raise RulesError(
            f"{_who(state, unit)} is Used: it can't change {what} until the next round."
        )


def _set_speed(state: MatchState, event: Event) -> Step:
    unit = state.unit(event["unit"])
    try:
        speed = Speed(event["speed"])
    except ValueError:
        raise EventError(f"A speed is stationary, combat or top; got {event['speed']!r}.") from None
    who = _who(state, unit)
    if speed is unit.speed:
        raise Stale(f"{who} was already set to {_SPEED_WORDS[speed]}{{by}}", f"{unit.id}:speed")
    _can_move(state, unit, "speed")
    if abs(speed.level - unit.speed.level) > 1:
        raise RulesError(
            f"Speed changes one level at a time: {who} is at {_SPEED_WORDS[unit.speed]}, so it "
            f"must spend a round at Combat Speed before {_SPEED_WORDS[speed]}."
        )
    if unit.speed_round == state.round:
        raise RulesError(f"{who} already changed speed this round: once per round.")
    if speed is Speed.TOP and not unit.track.top_speed_allowed:
        raise RulesError(
            f"{who} is at {unit.state.value.capitalize()} damage: it can't travel at Top Speed."
        )
    warnings = []
    if speed is Speed.TOP:
        warnings.append(
            f"Top Speed costs {who}'s action: it can't attack or keep an action this round."
        )
    after = replace(unit, speed=speed, speed_round=state.round)
    return _unit_step(
        state,
        unit,
        after,
        f"{who}: {_SPEED_WORDS[unit.speed]} \u2192 {_SPEED_WORDS[speed]}.",
        ["speed"],
        warnings,
        reads=[f"{unit.id}:used", "round"],
    )


def _set_mode(state: MatchState, event: Event) -> Step:
    unit = state.unit(event["unit"])
    try:
        mode = Mode(event["mode"])
    except ValueError:
        raise EventError(f"A mode is walker or ground; got {event['mode']!r}.") from None
    who = _who(state, unit)
    if mode is unit.mode:
        raise Stale(f"{who} was already set to {mode.label} mode{{by}}", f"{unit.id}:mode")
    _can_move(state, unit, "mode")
    if unit.mode_round == state.round:
        raise RulesError(f"{who} already changed movement mode this round: once per round.")
    after = replace(unit, mode=mode, mode_round=state.round)
    return _unit_step(
        state,
        unit,
        after,
        f"{who}: {unit.mode.label} \u2192 {mode.label} mode.",
        ["mode"],
        reads=[f"{unit.id}:used", "round"],
    )


def _set_used(state: MatchState, event: Event) -> Step:
    unit = state.unit(event["unit"])
    who = _who(state, unit)
    if event["used"]:
        if unit.used:
            raise Stale(f"{who} was already marked Used{{by}}", f"{unit.id}:used")
        _in_play(state, unit)
        after = replace(unit, used=True)
        return _unit_step(state, unit, after, f"{who}: Used.", ["used"])
    if not unit.used:
        raise Stale(f"{who} is not Used: that was cleared{{by}}", f"{unit.id}:used")
    after = replace(unit, used=False, kept_action=False)
    writes = ["used", "kept"] if unit.kept_action else ["used"]
    return _unit_step(state, unit, after, f"{who}: no longer Used.", writes)


def _keep_action(state: MatchState, event: Event) -> Step:
    unit = state.unit(event["unit"])
    who = _who(state, unit)
    if event["kept"]:
        if unit.kept_action:
            raise Stale(f"{who} was already set to keep its action{{by}}", f"{unit.id}:kept")
        _in_play(state, unit)
        if unit.speed is Speed.TOP:
            raise RulesError(
                f"{who} is at Top Speed: it spends its action moving, so it has none to keep."
            )
        warnings = [
            f"{who} already spent its action this round ({words}): it has no action left to keep."
            for _, words in unit.actions[:1]
        ]
        after = replace(unit, kept_action=True, used=True)
        return _unit_step(
            state,
            unit,
            after,
            f"{who}: ends its activation keeping its action (Used).",
            ["kept", "used"],
            warnings,
            reads=[f"{unit.id}:speed", f"{unit.id}:acted"],
        )
    if not unit.kept_action:
        raise Stale(f"{who} has no kept action to spend: it was spent{{by}}", f"{unit.id}:kept")
    after = replace(unit, kept_action=False)
    return _unit_step(state, unit, after, f"{who}: spends its kept action.", ["kept"])


def _fire(state: MatchState, event: Event) -> Step:
    unit = state.unit(event["unit"])
    who = _who(state, unit)
    index = event["weapon"]
    if not 0 <= index < len(unit.ammo):
        raise UnknownId(f"{who} has no Limited Ammo weapon number {index + 1}.")
    counter = unit.ammo[index]
    _in_play(state, unit)
    if counter.left <= 0:
        raise RulesError(
            f"{who}'s {counter.weapon} is out of ammo (Limited Ammo {counter.capacity})."
        )
    writes = [f"ammo{index}"]
    warnings = []
    kept = unit.kept_action
    if unit.used:
        if not unit.kept_action:
            raise RulesError(
                f"{who} is Used and has no kept action: it can't attack until the next round."
            )
        kept = False
        writes.append("kept")
        warnings.append(f"{who} spent its kept action on this shot.")
    elif unit.speed is Speed.TOP:
        raise RulesError(f"{who} spent its action moving at Top Speed: it can't attack this round.")
    ammo = list(unit.ammo)
    ammo[index] = replace(counter, fired=counter.fired + 1)
    after = replace(unit, ammo=tuple(ammo), kept_action=kept)
    left = ammo[index].left
    return _unit_step(
        state,
        unit,
        after,
        f"{who}: fired its {counter.weapon} ({left} of {counter.capacity} left).",
        writes,
        warnings,
        reads=[f"{unit.id}:used", f"{unit.id}:speed"],
    )


def _fo_mark(state: MatchState, event: Event, seq: int | None = None) -> Step:
    unit = state.unit(event["unit"])
    who = _who(state, unit)
    if event["marked"]:
        if unit.fo_mark:
            raise Stale(f"{who} was already marked by a forward observer{{by}}", f"{unit.id}:fo")
        _in_play(state, unit)
        after = replace(unit, fo_mark=True)
        if event["observer"]:
            return _observation(state, unit, after, state.unit(event["observer"]), seq)
        summary = f"{who}: marked by a forward observer until the end of the round."
    else:
        if not unit.fo_mark:
            raise Stale(f"{who}'s forward observer mark was already cleared{{by}}", f"{unit.id}:fo")
        after = replace(unit, fo_mark=False)
        summary = f"{who}: forward observer mark cleared."
    return _unit_step(state, unit, after, summary, ["fo"])


def _observation(
    state: MatchState, unit: Unit, after: Unit, observer: Unit, seq: int | None
) -> Step:
    """A forward observation by a named observer: "a friendly Model must spend an action on
    forward observation to mark a specific enemy Model". The observer spends its kept action if it
    is Used and kept one; otherwise the observation is its action this round. Warned, never
    refused: an observer with no action left, at Top Speed, or acting out of turn."""
    who, observer_who = _who(state, unit), _who(state, observer)
    _in_play(state, observer)
    if observer.side == unit.side:
        raise RulesError(
            f"A forward observer marks an enemy model: {observer_who} and {who} are on the "
            "same side."
        )
    warnings = _acting_warnings(state, observer, "marked a target for indirect fire")
    warnings += [
        f"{observer_who} already spent its action this round ({words}): a forward observation "
        "spends an action, and it has none left."
        for _, words in observer.actions[:1]
    ]
    spent = replace(
        observer,
        actions=observer.actions + (("fo", f"{_number(seq)}forward observation of {who}"),),
    )
    writes = {f"{unit.id}:fo", f"{observer.id}:acted"}
    how = "its action"
    if observer.used and observer.kept_action:
        spent = replace(spent, kept_action=False)
        writes.add(f"{observer.id}:kept")
        how = "its kept action"
    elif observer.used:
        warnings.append(
            f"{observer_who} is Used and has no kept action: a forward observation spends an "
            "action, and it has none left."
        )
    elif observer.speed is Speed.TOP:
        warnings.append(
            f"{observer_who} spent its action moving at Top Speed: a forward observation spends "
            "an action, and it has none left."
        )
    new = _with_unit(_with_unit(state, after), spent)
    reads = writes | {
        f"{observer.id}:used",
        f"{observer.id}:speed",
        f"{observer.id}:damage",
        "phase",
    }
    return Step(
        new,
        f"{who}: marked by {observer_who} for indirect fire until the end of the round "
        f"(the observation spends {how}).",
        tuple(warnings),
        writes=frozenset(writes),
        reads=frozenset(reads),
    )


def _number(seq: int | None) -> str:
    """ "#12: " before the words of an action, when the event's number is known."""
    return "" if seq is None else f"#{seq}: "


def _acting_warnings(state: MatchState, unit: Unit, doing: str) -> list[str]:
    """Is it the model's turn to act? Before initiative, no model acts; during the activations a
    model acts when its combat group activates, or later with a kept action."""
    who = _who(state, unit)
    if state.phase is Phase.INITIATIVE:
        return [
            f"{who} {doing} before initiative was rolled for round {state.round}: both players "
            "roll first, and the winner chooses who activates first."
        ]
    if unit.kept_action or state.active_group == unit.group_id:
        return []
    if state.active_group is None:
        return [
            f"{who} {doing} before any combat group activated this round, and it has no kept "
            "action: a model acts when its combat group activates."
        ]
    active = state.group(state.active_group)
    return [
        f"{who} {doing} outside its activation, with no kept action: Combat Group "
        f"{active.number} of {state.side(active.side).label} is activating."
    ]


# --- Rounds, initiative and activations -----------------------------------------------------------

_ROUND_READS = frozenset({"turn", "phase"})


def _initiative_roll(state: MatchState, event: Event) -> Step:
    side = state.side(event["side"])
    die = event["die"]
    if die not in DIE_FACES:
        raise RulesError(f"A die shows 1 to 6; got {die}.")
    if state.phase is not Phase.INITIATIVE:
        raise Stale(
            f"Round {state.round}'s initiative was already settled{{by}}: "
            f"{state.side(state.first).label if state.first else 'a side'} goes first",
            "match:first",
        )
    if state.winner is not None:
        raise RulesError(
            f"{state.side(state.winner).label} won the initiative: they choose who goes first."
        )
    index = SIDES.index(side.key)
    if state.rolls[index] is not None:
        raise Stale(
            f"{side.label}'s initiative roll of {state.rolls[index]} was already entered{{by}}; "
            f"waiting for {state.side(other_side(side.key)).label}'s roll",
            "match:rolls",
        )
    rolls = list(state.rolls)
    rolls[index] = die
    how = " on screen" if event["on_screen"] else ""
    summary = f"{side.label} rolled {die}{how} for initiative"
    if None in rolls:
        new = replace(state, rolls=tuple(rolls))
        summary += "."
    elif rolls[0] == rolls[1]:
        new = replace(state, rolls=(None, None), ties=state.ties + 1, last_tie=die)
        summary += f": a tie on {die}, both players re-roll."
    else:
        winner = SIDES[0] if rolls[0] > rolls[1] else SIDES[1]
        new = replace(state, rolls=tuple(rolls), winner=winner)
        summary += (
            f": {state.side(winner).label} wins ({rolls[0]} to {rolls[1]}) and chooses who "
            "goes first."
        )
    return Step(new, summary, writes=frozenset({"turn"}), reads=_ROUND_READS)


def _choose_first(state: MatchState, event: Event) -> Step:
    side = state.side(event["side"])
    if state.phase is not Phase.INITIATIVE:
        raise Stale(
            f"Who goes first in round {state.round} was already chosen{{by}}", "match:first"
        )
    if state.winner is None:
        raise RulesError("Both players roll for initiative first; the higher roll chooses.")
    chooser = state.side(state.winner).label
    new = replace(state, first=side.key, turn=side.key, phase=Phase.ACTIVATIONS)
    return Step(
        new,
        f"{chooser} chose: {side.label} goes first in round {state.round}.",
        writes=frozenset({"turn"}),
        reads=_ROUND_READS,
    )


def _activate(state: MatchState, event: Event) -> Step:
    group = state.group(event["group"])
    side = state.side(group.side)
    what = f"Combat Group {group.number} of {side.label}"
    if state.phase is not Phase.ACTIVATIONS:
        raise RulesError("Roll for initiative first: the winner chooses who activates first.")
    if group.id in state.activated:
        raise Stale(f"{what} was already activated this round{{by}}", "match:activated")
    if not group.can_activate:
        raise RulesError(f"Every model of {what} is out of the game.")
    turn = whose_turn(state)
    if turn is None:
        raise RulesError("Every combat group has activated this round: end the round.")
    if turn != group.side:
        raise RulesError(f"It's {state.side(turn).label}'s turn to activate a combat group.")
    new = state
    writes = {"turn"}
    if state.active_group is not None:
        for unit in state.group(state.active_group).units:
            if not unit.used and not unit.is_out:
                new = _with_unit(new, replace(unit, used=True))
                writes.add(f"{unit.id}:used")
    new = replace(
        new,
        active_group=group.id,
        activated=state.activated + (group.id,),
        turn=other_side(group.side),
    )
    summary = f"{side.label} activates Combat Group {group.number} ({group.name})."
    if len(writes) > 1:
        summary += " The models of the last group to activate are Used."
    return Step(new, summary, writes=frozenset(writes), reads=_ROUND_READS)


def _end_round(state: MatchState, event: Event) -> Step:
    ending = event["round"]
    if ending and ending < state.round:
        raise Stale(f"Round {ending} was already ended{{by}}", "match:round")
    if ending > state.round:
        raise Stale(
            f"The match is back in round {state.round}: the end of round {state.round} was "
            "undone{by}",
            "match:round",
        )
    warnings = []
    waiting = [
        f"Combat Group {group.number} of {state.side(side).label}"
        for side in SIDES
        for group in groups_left(state, side)
    ]
    if waiting:
        warnings.append(f"Round {state.round} ended before these activated: {', '.join(waiting)}.")
    writes = {"turn", "round"}
    new = state
    for unit in state.units:
        writes.update(f"{unit.id}:{name}" for name in ("used", "kept", "fo", "acted"))
        if unit.used or unit.kept_action or unit.fo_mark or unit.actions:
            new = _with_unit(
                new, replace(unit, used=False, kept_action=False, fo_mark=False, actions=())
            )
    new = replace(
        new,
        round=state.round + 1,
        phase=Phase.INITIATIVE,
        rolls=(None, None),
        ties=0,
        last_tie=None,
        winner=None,
        first=None,
        turn=None,
        active_group=None,
        activated=(),
    )
    return Step(
        new,
        f"Round {state.round} ended: Used, kept actions and forward observer marks cleared. "
        f"Round {state.round + 1} begins.",
        tuple(warnings),
        writes=frozenset(writes),
        reads=frozenset({"turn", "round", "phase"}),
    )


def _end_match(state: MatchState, event: Event) -> Step:
    winner = event["winner"]
    if winner not in (*SIDES, "draw"):
        raise EventError(f"The result is a, b or draw; got {winner!r}.")
    note = " ".join(event["note"].split())
    if len(note) > MAX_NOTE:
        raise RulesError(f"A result note can be at most {MAX_NOTE} characters.")
    new = replace(state, phase=Phase.ENDED, result=winner, note=note, active_group=None)
    words = "a draw" if winner == "draw" else f"{state.side(winner).label} won"
    return Step(
        new,
        f"The match ended in round {state.round}: {words}.",
        writes=frozenset({"phase"}),
        reads=frozenset({"phase"}),
    )


# --- Attacks and ECM (the attack helper) ----------------------------------------------------------
#
# One ``attack`` event records a whole resolved attack: who fired, what it did to each model
# that defended (one or several: Spray Fire, an Area Effect, the models under an indirect
# attack's landing point), a Limited Ammo shot if the weapon has one, and the helper's sentence
# of how it was resolved. The numbers (modifiers, margin, damage) are worked out by
# ``rules.attack`` and ``rules.indirect`` before the event is made; the event only applies each
# outcome to the damage track, so undo takes the whole attack back at once. ``figures`` keeps the
# datacard figures the players typed in for it (``{"models": {"jager": {"armor": 14}},
# "weapons": {"LAC": {"accuracy": 0}}}``): the log is where the match remembers them.
#
# Readings: a Used model attacks only with a kept action (Reaction Fire), which the attack
# spends, as the board's "fire" does; a model at Top Speed has spent its action moving. A model
# that blocks a Forward Observation with ECM does so during the enemy's activation, so it too
# spends a kept action.

MAX_ATTACK_TARGETS = 24
MAX_ATTACK_NOTE = 2000
_OUTCOMES = {outcome.value: outcome for outcome in AttackOutcome}


def _attack_note(value: str) -> str:
    note = " ".join(value.split())
    if len(note) > MAX_ATTACK_NOTE:
        raise EventError(f"An attack's note can be at most {MAX_ATTACK_NOTE} characters.")
    return note


MAX_FIGURES = 64
FIGURE_RANGE = range(-99, 1000)


def _attack_figures(value: dict) -> None:
    """Typed-in figures: {"models" or "weapons": {id: {figure: whole number}}}, kept as given."""
    problem = EventError(
        "An attack's figures are {'models' or 'weapons': {id: {figure: whole number}}}."
    )
    if set(value) - {"models", "weapons"}:
        raise problem
    count = 0
    for entries in value.values():
        if not isinstance(entries, dict):
            raise problem
        for key, figures in entries.items():
            if not isinstance(key, str) or not isinstance(figures, dict):
                raise problem
            for name, number in figures.items():
                count += 1
                if (
                    not isinstance(name, str)
                    or isinstance(number, bool)
                    or not isinstance(number, int)
                    or number not in FIGURE_RANGE
                    or count > MAX_FIGURES
                ):
                    raise problem


def _attack_targets(value: list) -> list[tuple[str, AttackOutcome]]:
    if len(value) > MAX_ATTACK_TARGETS:
        raise EventError(f"An attack names at most {MAX_ATTACK_TARGETS} models.")
    targets: list[tuple[str, AttackOutcome]] = []
    for item in value:
        if (
            not isinstance(item, list)
            or len(item) != 2
            or not all(isinstance(part, str) for part in item)
        ):
            raise EventError(
                "Each model an attack names is [model, outcome], such as ['b-1-2', 'one_box']; "
                f"got {item!r}."
            )
        uid, word = item
        if word not in _OUTCOMES:
            raise EventError(f"An attack's outcome is one of {', '.join(_OUTCOMES)}; got {word!r}.")
        if any(uid == seen for seen, _ in targets):
            raise EventError(f"An attack names the model {uid} twice.")
        targets.append((uid, _OUTCOMES[word]))
    return targets


def _damage_words(unit: Unit, outcome: AttackOutcome) -> str:
    if outcome is AttackOutcome.MISS:
        return "missed"
    if outcome is AttackOutcome.NO_EFFECT:
        return "hit, no effect"
    if outcome is AttackOutcome.OVERKILL:
        return "Overkilled (removed from the table)"
    if unit.track.destroyed:
        return "damage past its Critical box: Destroyed (it stays on the table as rough terrain)"
    boxes = "1 box" if outcome.boxes == 1 else f"{outcome.boxes} boxes"
    return f"{boxes} crossed off: {_state_words(unit)}"


def _spend_to_attack(state: MatchState, unit: Unit, who: str) -> tuple[Unit, list[str], str]:
    """The attacker after paying for its attack: a Used model spends its kept action."""
    if unit.used:
        if not unit.kept_action:
            raise RulesError(
                f"{who} is Used and has no kept action: it can't attack until the next round "
                "(Reaction Fire needs a kept action)."
            )
        return (
            replace(unit, kept_action=False),
            ["kept"],
            " (Reaction Fire: its kept action is spent)",
        )
    if unit.speed is Speed.TOP:
        raise RulesError(f"{who} spent its action moving at Top Speed: it can't attack this round.")
    return unit, [], ""


def _attack_bands(value: dict) -> dict[str, RangeBand]:
    """The range band of each model attacked ({"b-1-2": "long"}), as the helper read it."""
    bands = {}
    if len(value) > MAX_ATTACK_TARGETS:
        raise EventError(f"An attack names at most {MAX_ATTACK_TARGETS} models.")
    for uid, band in value.items():
        try:
            bands[uid] = RangeBand(band)
        except ValueError:
            raise EventError(
                "An attack's range bands are {model: point_blank, short, medium, long or "
                f"extreme}}; got {band!r}."
            ) from None
    return bands


def attack_warnings(
    state: MatchState,
    attacker: Unit,
    *,
    targets: Sequence[Unit] = (),
    reaction: bool = False,
    autopilot: bool = False,
    rof: int = 0,
    bands: Mapping[str, RangeBand | None] | None = None,
) -> list[str]:
    """What is worth saying about an attack: it is applied all the same (warned, never refused).

    - "Each Gear can attack once per round" (twice with its Autopilot on), and an action spent
      on something else (a forward observation) leaves none to attack with;
    - no model acts before initiative is rolled, and outside its combat group's activation a model
      acts only with a kept action;
    - a kept action is spent "to respond to any currently Moving Model" (Reaction Fire): an
      attack spending it otherwise, or Reaction Fire against a model that is not moving now;
    - "RoF may only be used on attacks against targets in the weapon's long range band or
      closer", for every model attacked (``rules.attack.rate_of_fire_warnings``).
    """
    who = _who(state, attacker)
    warnings = _acting_warnings(state, attacker, "attacked")
    attacks = [words for kind, words in attacker.actions if kind == "attack"]
    others = [words for kind, words in attacker.actions if kind != "attack"]
    allowed = attacks_this_round(autopilot)
    if others:
        warnings.append(
            f"{who} already spent its action this round ({others[0]}): it has no action left "
            "to attack with."
        )
    elif len(attacks) >= allowed > 1:
        warnings.append(
            f"{who} already made its {allowed} attacks this round with its Autopilot on "
            f"({'; '.join(attacks)})."
        )
    elif len(attacks) >= allowed:
        warnings.append(
            f"{who} already attacked this round ({attacks[0]}): each Gear can attack once per "
            "round."
        )
    spends_kept = attacker.used and attacker.kept_action
    if spends_kept and not reaction:
        warnings.append(
            f"{who} spends its kept action on an attack that is not Reaction Fire: a kept action "
            "is spent to respond to a model that is moving now."
        )
    elif reaction and not attacker.kept_action:
        warnings.append(
            f"{who} has no kept action: Reaction Fire spends a kept action, so this is not "
            "Reaction Fire."
        )
    elif reaction and targets:
        target = targets[0]
        if target.group_id != state.active_group or target.used:
            warnings.append(
                f"Reaction Fire responds to a model that is moving now: {_who(state, target)} "
                "is not moving (its combat group is not activating, or it is Used)."
            )
    names = {unit.id: _who(state, unit) for unit in targets}
    warnings += rate_of_fire_warnings(
        rof, [(names.get(uid, uid), band) for uid, band in (bands or {}).items()]
    )
    return warnings


def _attack_words(state: MatchState, weapon: str, targets: Sequence[Unit], seq: int | None) -> str:
    """An attack in the model's ``actions``: "#12: its LAC at Jaguar (South CG1)"."""
    words = f"its {weapon}" if weapon else "an attack"
    if targets:
        words += f" at {_who(state, targets[0])}"
        if len(targets) > 1:
            words += f" and {len(targets) - 1} more"
    return _number(seq) + words


def _attack(state: MatchState, event: Event, seq: int | None = None) -> Step:
    attacker = state.unit(event["attacker"])
    who = _who(state, attacker)
    targets = _attack_targets(event["targets"])
    note = _attack_note(event["note"])
    _attack_figures(event["figures"])
    bands = _attack_bands(event["bands"])
    weapon = " ".join(event["weapon"].split())[:60]
    rof = event["rof"]
    if not 0 <= rof <= 99:
        raise EventError(f"An attack's RoF points are a whole number from 0 to 99; got {rof}.")
    _in_play(state, attacker)
    aimed = [state.unit(uid) for uid, _ in targets]
    warnings: list[str] = attack_warnings(
        state,
        attacker,
        targets=aimed,
        reaction=event["reaction"],
        autopilot=event["autopilot"],
        rof=rof,
        bands={uid: band for uid, band in bands.items()},
    )
    after, written, how = _spend_to_attack(state, attacker, who)
    words = _attack_words(state, weapon, aimed, seq)
    after = replace(after, actions=after.actions + (("attack", words),))
    written.append("acted")
    index = event["ammo"]
    if index != -1:
        if not 0 <= index < len(attacker.ammo):
            raise UnknownId(f"{who} has no Limited Ammo weapon number {index + 1}.")
        counter = attacker.ammo[index]
        if counter.left <= 0:
            raise RulesError(
                f"{who}'s {counter.weapon} is out of ammo (Limited Ammo {counter.capacity})."
            )
        ammo = list(after.ammo)
        ammo[index] = replace(counter, fired=counter.fired + 1)
        after = replace(after, ammo=tuple(ammo))
        written.append(f"ammo{index}")
    writes = {f"{attacker.id}:{name}" for name in written}
    reads = {f"{attacker.id}:used", f"{attacker.id}:speed", f"{attacker.id}:damage", "phase"}
    new = _with_unit(state, after)
    results = []
    for uid, outcome in targets:
        unit = new.unit(uid)
        _in_play(new, unit)
        reads.add(f"{uid}:damage")
        if outcome.boxes != 0:
            unit = replace(unit, track=unit.track.apply(outcome))
            new = _with_unit(new, unit)
            writes.add(f"{uid}:damage")
            warnings += _top_speed_warning(new, unit)
        results.append(f"{_who(new, unit)}: {_damage_words(unit, outcome)}")
    summary = f"{who} attacked{how}."
    if note:
        summary += f" {note}"
    if results:
        summary += " " + "; ".join(results) + "."
    return Step(
        new, summary, tuple(warnings), writes=frozenset(writes), reads=frozenset(reads | writes)
    )


def _ecm(state: MatchState, event: Event) -> Step:
    blocker = state.unit(event["blocker"])
    target = state.unit(event["target"])
    who, marked = _who(state, blocker), _who(state, target)
    note = _attack_note(event["note"])
    _attack_figures(event["figures"])
    _in_play(state, blocker)
    if blocker.side != target.side:
        raise RulesError(
            f"{who} can only block a Forward Observation of its own side's models; "
            f"{marked} is on the other side."
        )
    if not target.fo_mark:
        raise RulesError(
            f"{marked} has no forward observer mark: there is no observation to block."
        )
    if not blocker.kept_action:
        raise RulesError(
            f"{who} has no kept action: ECM is used during the enemy's activation, so it spends "
            "a kept action."
        )
    warnings = ecm_warnings(state, blocker)
    new = _with_unit(state, replace(blocker, kept_action=False))
    writes = {f"{blocker.id}:kept"}
    if event["blocked"]:
        new = _with_unit(new, replace(new.unit(target.id), fo_mark=False))
        writes.add(f"{target.id}:fo")
        outcome = "The observation is blocked: the forward observer mark is cleared."
    else:
        outcome = "The observation goes ahead: the mark stays."
    summary = f"{who} spent its kept action on ECM against the observation of {marked}."
    if note:
        summary += f" {note}"
    summary += f" {outcome}"
    reads = writes | {f"{blocker.id}:used", f"{target.id}:fo", "phase"}
    return Step(new, summary, tuple(warnings), writes=frozenset(writes), reads=frozenset(reads))


def ecm_warnings(state: MatchState, blocker: Unit) -> list[str]:
    """ "A Model with the ECM Perk may attempt to block a Forward Observation": warned (never
    refused) when the game data gives the model no ECM perk, its own or its faction's."""
    if "ecm" in default_catalog().perks_of(blocker.model):
        return []
    return [
        f"{_who(state, blocker)} has no ECM perk in the game data: only a model with the ECM "
        "Perk may block a Forward Observation."
    ]


_HANDLERS = {
    "mark_box": _mark_box,
    "clear_box": _clear_box,
    "destroy": _destroy,
    "overkill": _overkill,
    "clear_overkill": _clear_overkill,
    "set_speed": _set_speed,
    "set_mode": _set_mode,
    "set_used": _set_used,
    "keep_action": _keep_action,
    "fire": _fire,
    "fo_mark": _fo_mark,
    "initiative_roll": _initiative_roll,
    "choose_first": _choose_first,
    "activate": _activate,
    "end_round": _end_round,
    "end_match": _end_match,
    "attack": _attack,
    "ecm": _ecm,
}
# Handlers told the event's number in the log (see ``step``).
_NUMBERED = {"attack": _attack, "fo_mark": _fo_mark}


# --- The log: replay and undo ---------------------------------------------------------------------


@dataclass(frozen=True)
class LogEntry:
    """An event of the log with its number (1, 2, 3... in the order they were applied)."""

    seq: int
    event: Event


def effective_seqs(log: Sequence[LogEntry]) -> frozenset[int]:
    """The events that count: those not undone by an undo that itself counts."""
    undone_by: dict[int, list[int]] = {}
    for entry in log:
        if entry.event.kind == "undo":
            undone_by.setdefault(entry.event["target"], []).append(entry.seq)
    effective: dict[int, bool] = {}
    for entry in sorted(log, key=lambda e: e.seq, reverse=True):
        effective[entry.seq] = not any(
            effective.get(u, False) for u in undone_by.get(entry.seq, ())
        )
    return frozenset(seq for seq, counts in effective.items() if counts)


def _replay_steps(
    initial: MatchState, log: Sequence[LogEntry], effective: frozenset[int]
) -> tuple[MatchState, dict[int, Step]]:
    state = initial
    steps: dict[int, Step] = {}
    for entry in sorted(log, key=lambda e: e.seq):
        if entry.event.kind == "undo" or entry.seq not in effective:
            continue
        result = step(state, entry.event, entry.seq)
        steps[entry.seq] = result
        state = result.state
    return state, steps


def replay(initial: MatchState, log: Sequence[LogEntry]) -> MatchState:
    """The state the log describes: the effective events applied in order to ``initial``."""
    return _replay_steps(initial, log, effective_seqs(log))[0]


def base_seq(log: Sequence[LogEntry], seq: int) -> int:
    """The event an undo chain ends at: for an undo, the event it undoes (recursively)."""
    by_seq = {entry.seq: entry for entry in log}
    while True:
        entry = by_seq.get(seq)
        if entry is None:
            raise UnknownId(f"This match has no event #{seq}.")
        if entry.event.kind != "undo":
            return seq
        seq = entry.event["target"]


def describe(log: Sequence[LogEntry], seq: int, summaries: Mapping[int, str]) -> str:
    base = base_seq(log, seq)
    return f"#{base} ({summaries.get(base, 'an earlier change').rstrip('.')})"


def plan_undo(
    initial: MatchState,
    log: Sequence[LogEntry],
    target: int,
    summaries: Mapping[int, str] | None = None,
) -> Step:
    """The step that undoes event ``target`` (an undo of an undo redoes), or a RulesError.

    ``summaries`` gives the log sentence of each event, to name them in messages.
    """
    if isinstance(target, bool) or not isinstance(target, int):
        raise EventError(f"An undo names an event by its number; got {target!r}.")
    summaries = summaries or {}
    by_seq = {entry.seq: entry for entry in log}
    if target not in by_seq:
        raise UnknownId(f"This match has no event #{target}.")
    effective = effective_seqs(log)
    if target not in effective:
        raise RulesError(f"Event #{target} is already undone.")
    base = base_seq(log, target)
    new_effective = _effective_after(log, target, effective)
    redo = base in new_effective  # an undo of an undo brings the event back
    if (base in effective) == redo:
        # Another undo of the same event still counts (#1 undone, redone, undone again: undoing
        # the redo changes nothing), so this one would change nothing.
        raise RulesError(
            f"Can't undo {describe(log, target, summaries)}: #{base} would stay "
            f"{'in effect' if redo else 'undone'} all the same, so nothing would change."
        )
    current, steps = _replay_steps(initial, log, effective)
    if current.phase is Phase.ENDED and by_seq[base].event.kind != "end_match":
        raise RulesError("The match has ended: undo 'End match' first to change anything.")
    try:
        new_state, new_steps = _replay_steps(initial, log, new_effective)
    except RulesError as error:
        raise RulesError(
            f"Can't {'redo' if redo else 'undo'} {describe(log, target, summaries)}: "
            f"the later events would not hold: {error}"
        ) from None
    changed = (new_steps if redo else steps)[base]
    for seq, later in (new_steps if redo else steps).items():
        if seq > base and changed.writes & (later.writes | later.reads):
            raise RulesError(
                f"Can't {'redo' if redo else 'undo'} {describe(log, target, summaries)}: "
                f"#{seq} ({summaries.get(seq, 'a later change').rstrip('.')}) came after and "
                f"depends on it. Undo #{seq} first."
            )
    word = "Redid" if redo else "Undid"
    return Step(
        new_state,
        f"{word} {describe(log, target, summaries)}.",
        writes=changed.writes,
        reads=changed.reads,
    )


def plan_undo_from(
    current: MatchState,
    tail: Sequence[LogEntry],
    effective: frozenset[int],
    base_before: Mapping[str, Any],
    target: int,
    summaries: Mapping[int, str] | None = None,
) -> Step | None:
    """``plan_undo`` decided from the end of the log only, without replaying it; None when it
    cannot be (then replay the whole log).

    ``tail`` is the log from the event ``target``'s undo chain ends at (its base) on,
    ``effective`` which of those events count now, ``current`` the state now and
    ``base_before`` what the base event changed, as it was before (its "before" parts). When
    every event after the base that counts belongs to the base's own undo chain, nothing else
    changed since the base was applied: the state before it is ``current`` with those parts put
    back (or ``current`` itself while the base is undone), and ``plan_undo`` on the tail from
    there gives the same step as on the whole log."""
    by_seq = {entry.seq: entry for entry in tail}
    if target not in by_seq or not tail:
        return None
    first = min(by_seq)
    try:
        if base_seq(tail, target) != first:
            return None
        if any(base_seq(tail, seq) != first for seq in effective if seq in by_seq):
            return None
    except UnknownId:  # a chain that leaves the tail
        return None
    start = apply_parts(current, base_before) if first in effective else current
    return plan_undo(start, tail, target, summaries)


def _effective_after(
    log: Sequence[LogEntry], target: int, effective: frozenset[int]
) -> frozenset[int]:
    new_seq = max((entry.seq for entry in log), default=0) + 1
    extended = list(log) + [LogEntry(new_seq, Event("undo", {"target": target}))]
    return effective_seqs(extended) - {new_seq}


def last_undoable(log: Sequence[LogEntry]) -> int | None:
    """The latest event that counts and is not itself an undo: what "Undo last" undoes."""
    effective = effective_seqs(log)
    for entry in sorted(log, key=lambda e: e.seq, reverse=True):
        if entry.seq in effective and entry.event.kind != "undo":
            return entry.seq
    return None


def undo_of(log: Sequence[LogEntry], seq: int) -> int | None:
    """The effective undo that undid ``seq`` (what "Redo" undoes), or None."""
    effective = effective_seqs(log)
    for entry in log:
        if entry.event.kind == "undo" and entry.event["target"] == seq and entry.seq in effective:
            return entry.seq
    return None


# --- Plain data ----------------------------------------------------------------------------------


def _skills_to_dict(skills: Skills) -> dict[str, int | None]:
    return {"att": skills.att, "def": skills.defense, "ew": skills.ew, "ld": skills.ld}


def _fraction_to_json(value: Fraction | None) -> str | None:
    return None if value is None else str(value)


_WEAPON_FIELDS = ("arc", "reloads", "limited_ammo", "dm", "accuracy", "rof", "notes")
_WEAPON_LISTS = ("ranges", "traits", "parts")


def weapon_to_dict(weapon: MatchWeapon) -> dict[str, Any]:
    """A recorded weapon as plain data; figures not given are left out (a state stays small)."""
    data: dict[str, Any] = {"code": weapon.code, "name": weapon.name}
    for name in _WEAPON_FIELDS:
        value = getattr(weapon, name)
        if value is not None and value != "":
            data[name] = value
    for name in _WEAPON_LISTS:
        if getattr(weapon, name):
            data[name] = list(getattr(weapon, name))
    return data


def _weapon_from_dict(data: Mapping[str, Any]) -> MatchWeapon:
    return MatchWeapon(
        code=data["code"],
        name=data["name"],
        **{name: data[name] for name in _WEAPON_FIELDS if name in data},
        **{name: tuple(data[name]) for name in _WEAPON_LISTS if name in data},
    )


def unit_to_dict(unit: Unit) -> dict[str, Any]:
    data = {
        "id": unit.id,
        "name": unit.name,
        "model": unit.model,
        "skills": _skills_to_dict(unit.skills),
        "track": unit.track.to_dict(),
        "leader": unit.leader,
        "armor": unit.armor,
        "tv": _fraction_to_json(unit.tv),
        "speed": unit.speed.value,
        "mode": unit.mode.value,
        "used": unit.used,
        "kept_action": unit.kept_action,
        "fo_mark": unit.fo_mark,
        "ammo": [[c.weapon, c.name, c.capacity, c.fired] for c in unit.ammo],
        "speed_round": unit.speed_round,
        "mode_round": unit.mode_round,
        "actions": [[kind, words] for kind, words in unit.actions],
    }
    if unit.weapons is not None:
        data["weapons"] = [weapon_to_dict(weapon) for weapon in unit.weapons]
    return data


def _round_to_dict(state: MatchState) -> dict[str, Any]:
    return {
        "round": state.round,
        "phase": state.phase.value,
        "rolls": list(state.rolls),
        "ties": state.ties,
        "last_tie": state.last_tie,
        "winner": state.winner,
        "first": state.first,
        "turn": state.turn,
        "active_group": state.active_group,
        "activated": list(state.activated),
        "result": state.result,
        "note": state.note,
    }


def _group_to_dict(group: Group) -> dict[str, Any]:
    return {
        "id": group.id,
        "number": group.number,
        "name": group.name,
        "tv": group.tv,
        "units": [unit_to_dict(unit) for unit in group.units],
    }


def _side_to_dict(side: Side) -> dict[str, Any]:
    return {
        "key": side.key,
        "label": side.label,
        "roster_name": side.roster_name,
        "faction": side.faction,
        "tv": side.tv,
        "tv_complete": side.tv_complete,
        "groups": [_group_to_dict(group) for group in side.groups],
    }


def state_to_dict(state: MatchState) -> dict[str, Any]:
    """The state as plain JSON types; ``state_from_dict`` reads it back exactly."""
    return {**_round_to_dict(state), "sides": [_side_to_dict(side) for side in state.sides]}


def state_dict_after(data: Mapping[str, Any], before: MatchState, after: MatchState) -> dict:
    """``state_to_dict(after)``, made from ``data`` (which is ``state_to_dict(before)``) by
    converting only the models that changed: a tap on a big match stays cheap."""
    sides = []
    for side_data, side_before, side_after in zip(
        data["sides"], before.sides, after.sides, strict=True
    ):
        if side_before is side_after:
            sides.append(side_data)
            continue
        groups = []
        for group_data, group_before, group_after in zip(
            side_data["groups"], side_before.groups, side_after.groups, strict=True
        ):
            if group_before is group_after:
                groups.append(group_data)
                continue
            units = [
                unit_data if unit_before is unit_after else unit_to_dict(unit_after)
                for unit_data, unit_before, unit_after in zip(
                    group_data["units"], group_before.units, group_after.units, strict=True
                )
            ]
            groups.append({**group_data, "units": units})
        sides.append({**side_data, "groups": groups})
    return {**_round_to_dict(after), "sides": sides}


def _unit_from_dict(data: Mapping[str, Any]) -> Unit:
    skills = data["skills"]
    return Unit(
        id=data["id"],
        name=data["name"],
        model=data["model"],
        skills=Skills(att=skills["att"], defense=skills["def"], ew=skills["ew"], ld=skills["ld"]),
        track=DamageTrack.from_dict(data["track"]),
        leader=data["leader"],
        armor=data["armor"],
        tv=None if data["tv"] is None else Fraction(data["tv"]),
        speed=Speed(data["speed"]),
        mode=Mode(data["mode"]),
        used=data["used"],
        kept_action=data["kept_action"],
        fo_mark=data["fo_mark"],
        ammo=tuple(AmmoCounter(w, n, c, f) for w, n, c, f in data["ammo"]),
        speed_round=data["speed_round"],
        mode_round=data["mode_round"],
        weapons=tuple(_weapon_from_dict(weapon) for weapon in data["weapons"])
        if "weapons" in data
        else None,
        # States stored before models recorded their actions have none.
        actions=tuple((str(kind), str(words)) for kind, words in data.get("actions", ())),
    )


def state_from_dict(data: Mapping[str, Any]) -> MatchState:
    """Read a state written by ``state_to_dict``; malformed data raises RulesError."""
    with _reading("match state"):
        sides = tuple(
            Side(
                key=side["key"],
                label=side["label"],
                roster_name=side["roster_name"],
                faction=side["faction"],
                tv=side["tv"],
                tv_complete=side["tv_complete"],
                groups=tuple(
                    Group(
                        id=group["id"],
                        number=group["number"],
                        name=group["name"],
                        tv=group["tv"],
                        units=tuple(_unit_from_dict(unit) for unit in group["units"]),
                    )
                    for group in side["groups"]
                ),
            )
            for side in data["sides"]
        )
        return _with_round(sides, data)  # type: ignore[arg-type]


@contextmanager
def _reading(what: str) -> Iterator[None]:
    """Turn a KeyError, TypeError, ValueError or AttributeError met reading stored data into a
    RulesError."""
    try:
        yield
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        if isinstance(error, RulesError):
            raise
        raise RulesError(f"A saved {what} is malformed: {error!r}.") from None


def _with_round(sides: tuple[Side, Side], data: Mapping[str, Any]) -> MatchState:
    """A state of ``sides`` with the round part (``_round_to_dict``) read from ``data``."""
    return MatchState(
        sides=sides,
        round=data["round"],
        phase=Phase(data["phase"]),
        rolls=tuple(data["rolls"]),  # type: ignore[arg-type]
        ties=data["ties"],
        last_tie=data["last_tie"],
        winner=data["winner"],
        first=data["first"],
        turn=data["turn"],
        active_group=data["active_group"],
        activated=tuple(data["activated"]),
        result=data["result"],
        note=data["note"],
    )


def changed_parts(before: MatchState, after: MatchState) -> tuple[dict, dict]:
    """What differs between two states, as plain data: the models that changed and the round.

    Used to record each event's "before" and "after" in the log.
    """
    old: dict[str, Any] = {}
    new: dict[str, Any] = {}
    for side_before, side_after in zip(before.sides, after.sides, strict=True):
        if side_before is side_after:
            continue
        for unit_before, unit_after in zip(side_before.units, side_after.units, strict=True):
            if unit_before is not unit_after and unit_before != unit_after:
                a, b = _dynamic(unit_before), _dynamic(unit_after)
                keys = [k for k in a if a[k] != b[k]]
                old[unit_before.id] = {k: a[k] for k in keys}
                new[unit_after.id] = {k: b[k] for k in keys}
    round_before, round_after = _round_part(before), _round_part(after)
    keys = [k for k in round_before if round_before[k] != round_after[k]]
    if keys:
        old["match"] = {k: round_before[k] for k in keys}
        new["match"] = {k: round_after[k] for k in keys}
    return old, new


_STATIC = {"id", "name", "model", "skills", "leader", "armor", "tv", "weapons"}
_TRACK_PARTS = {"damage": "marked", "overkilled": "overkilled"}  # _dynamic's names in the track


def _dynamic(unit: Unit) -> dict[str, Any]:
    data = unit_to_dict(unit)
    track = data.pop("track")
    data["damage"] = track["marked"]
    data["overkilled"] = track["overkilled"]
    return {k: v for k, v in data.items() if k not in _STATIC}


def _round_part(state: MatchState) -> dict[str, Any]:
    return _round_to_dict(state)


def apply_parts(state: MatchState, parts: Mapping[str, Any]) -> MatchState:
    """The state after a change recorded as ``changed_parts(before, after)[1]``.

    ``apply_parts(before, changed_parts(before, after)[1]) == after``: a log that keeps each
    event's "after" can bring a stored state up to date without replaying the rules. Only the
    models named are rebuilt; malformed parts raise RulesError.
    """
    with _reading("change to a match"):
        for key, values in parts.items():
            if key == "match":
                current = _round_part(state)
                if not set(values) <= set(current):
                    raise RulesError(f"A change to the round names {sorted(values)!r}.")
                state = _with_round(state.sides, {**current, **values})
                continue
            data = unit_to_dict(state.unit(key))
            for name, value in values.items():
                if name in _TRACK_PARTS:
                    data["track"] = {**data["track"], _TRACK_PARTS[name]: value}
                elif name in _STATIC or name not in data:
                    raise RulesError(f"A model's change names {name!r}, which never changes.")
                else:
                    data[name] = value
            state = _with_unit(state, _unit_from_dict(data))
    return state
