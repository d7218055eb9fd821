"""A WWII skirmish battle as the tracker holds it: the turn, each vehicle's damage, running gear,
capture, cards and hitch, each soldier's condition and where he rides. Immutable; only events
change it (``rules.ww2.play``). What the text gives and how it is read: docs/ww2-readings.md."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from rules.errors import RulesError
from rules.eventlog import UnknownId

SIDES = ("a", "b")
KINDS = {
    "tank": "Tank",
    "apc": "APC",
    "truck": "Truck",
    "tractor": "Tracked tractor",
    "gun": "Gun / howitzer",
    "other": "Other",
}
RIDER_KINDS = ("tank", "apc", "truck")
"""The kinds the text says carry infantry (L15)."""
HEALTHY, WOUNDED, RECOVERING, DEAD, PRISONER = (
    "healthy",
    "wounded",
    "recovering",
    "dead",
    "prisoner",
)
CREW, RIDER = "crew", "rider"
DESTROYED_AT = 2
"""A second damage destroys the vehicle (L25)."""


def other_side(side: str) -> str:
    return "b" if side == "a" else "a"


@dataclass(frozen=True)
class Vehicle:
    """A vehicle of side ``id[0]``; ``id`` is "<side>-<roster id>" ("a-v1"). The card's values are
    as the player's card gives them (None: not given). ``damage``: 0 intact, 1 damaged, 2
    destroyed; ``controller``: the side using it (another side's after 'Use enemy vehicle')."""

    id: str
    name: str
    kind: str
    kind_name: str = ""
    armour_class: int | None = None
    gun_class: int | None = None
    seats: int | None = None
    mgs: tuple[str, ...] = ()
    flamethrower: bool = False
    napalm: int = 0
    smoke: int = 0
    specialisations: tuple[str, ...] = ()
    # what events change
    controller: str = ""
    damage: int = 0
    running_gear: bool = False
    captured: bool = False
    napalm_used: int = 0
    smoke_used: int = 0
    trawl_used: bool = False
    armour_used: bool = False
    hitched_to: str = ""
    hitched_turn: int = 0
    fired_turn: int = 0
    capture_turn: int = 0

    @property
    def side(self) -> str:
        return self.id[0]

    @property
    def destroyed(self) -> bool:
        return self.damage >= DESTROYED_AT

    @property
    def kind_label(self) -> str:
        return self.kind_name or KINDS.get(self.kind, self.kind)

    @property
    def condition(self) -> str:
        if self.destroyed:
            return "destroyed"
        return "damaged" if self.damage else "intact"


@dataclass(frozen=True)
class Soldier:
    """A soldier of side ``id[0]`` (infantry or crew); ``id`` is "<side>-<roster id>".
    ``status`` healthy, wounded, recovering, dead or prisoner; ``vehicle`` the vehicle he is in
    (``seat`` crew or rider) or ""; the ``*_turn`` fields the turn something happened (0: never)."""

    id: str
    name: str
    rank: str = "soldier"
    status: str = HEALTHY
    vehicle: str = ""
    seat: str = ""
    wounded_turn: int = 0
    tested_turn: int = 0
    recovered_turn: int = 0
    embarked_turn: int = 0
    disembarked_turn: int = 0
    fought_turn: int = 0
    attacked_turn: int = 0
    carrying_turn: int = 0
    far_turn: int = 0

    @property
    def side(self) -> str:
        return self.id[0]

    @property
    def out(self) -> bool:
        """Dead or a prisoner: a loss (L48)."""
        return self.status in (DEAD, PRISONER)

    @property
    def leader(self) -> bool:
        return self.rank in ("commander", "officer")


@dataclass(frozen=True)
class SideLabel:
    """A side as the shared match pages name it (the join page: ``state.sides.1.label``)."""

    key: str
    label: str


@dataclass(frozen=True)
class Ww2State:
    """The battle: ``labels`` of the sides, the ``turn`` (one counter the players advance,
    docs/ww2-readings.md), whether running-gear damage counts as a damage (the players' setting),
    the smoke screens placed (turn, vehicle id), ``ended`` and its ``result``."""

    labels: tuple[str, str]
    vehicles: tuple[Vehicle, ...]
    soldiers: tuple[Soldier, ...]
    running_gear_counts: bool
    turn: int = 1
    smoke: tuple[tuple[int, str], ...] = ()
    ended: bool = False
    result: str = ""

    def label(self, side: str) -> str:
        return self.labels[SIDES.index(side)]

    @property
    def sides(self) -> tuple[SideLabel, SideLabel]:
        return SideLabel("a", self.labels[0]), SideLabel("b", self.labels[1])

    def vehicle(self, vehicle_id: object) -> Vehicle:
        for vehicle in self.vehicles:
            if vehicle.id == vehicle_id:
                return vehicle
        raise UnknownId(f"This battle has no vehicle {vehicle_id!r}.")

    def soldier(self, soldier_id: object) -> Soldier:
        for soldier in self.soldiers:
            if soldier.id == soldier_id:
                return soldier
        raise UnknownId(f"This battle has no soldier {soldier_id!r}.")

    def has(self, unit_id: str) -> bool:
        units: tuple[Vehicle | Soldier, ...] = (*self.vehicles, *self.soldiers)
        return any(u.id == unit_id for u in units)

    def aboard(self, vehicle_id: str, seat: str | None = None) -> tuple[Soldier, ...]:
        return tuple(
            s
            for s in self.soldiers
            if s.vehicle == vehicle_id and not s.out and (seat is None or s.seat == seat)
        )

    def with_vehicle(self, new: Vehicle) -> Ww2State:
        return replace(self, vehicles=tuple(new if v.id == new.id else v for v in self.vehicles))

    def with_soldiers(self, *new: Soldier) -> Ww2State:
        by_id = {s.id: s for s in new}
        return replace(self, soldiers=tuple(by_id.get(s.id, s) for s in self.soldiers))


def new_battle(
    armies: tuple[Mapping[str, Any], Mapping[str, Any]],
    labels: tuple[str, str],
    *,
    running_gear_counts: bool,
) -> Ww2State:
    """A battle between two forces written as the builder's roster document (``Roster.army``:
    vehicles with their crews, infantry). Malformed documents raise RulesError."""
    vehicles: list[Vehicle] = []
    soldiers: list[Soldier] = []
    for side, army in zip(SIDES, armies, strict=True):
        try:
            for v in army.get("vehicles", ()):
                vid = f"{side}-{v['id']}"
                vehicles.append(
                    Vehicle(
                        id=vid,
                        name=str(v["name"]),
                        kind=v["kind"] if v["kind"] in KINDS else "other",
                        kind_name=str(v.get("kind_name") or ""),
                        armour_class=_whole(v.get("armour_class")),
                        gun_class=_whole(v.get("gun_class")),
                        seats=_whole(v.get("seats")),
                        mgs=tuple(str(m) for m in v.get("mgs", ())),
                        flamethrower=bool(v.get("flamethrower")),
                        napalm=_whole(v.get("napalm")) or 0,
                        smoke=_whole(v.get("smoke")) or 0,
                        specialisations=tuple(str(s) for s in v.get("specialisations", ())),
                        controller=side,
                    )
                )
                for c in v.get("crew", ()):
                    rank = "commander" if c.get("commander") else "soldier"
                    soldiers.append(
                        Soldier(f"{side}-{c['id']}", str(c["name"]), rank, vehicle=vid, seat=CREW)
                    )
            for i in army.get("infantry", ()):
                rank = i.get("rank") if i.get("rank") in ("commander", "officer") else "soldier"
                soldiers.append(Soldier(f"{side}-{i['id']}", str(i["name"]), rank))
        except (KeyError, TypeError, AttributeError) as error:
            raise RulesError(f"A force list is malformed: {error!r}.") from None
    ids = [v.id for v in vehicles] + [s.id for s in soldiers]
    if len(set(ids)) != len(ids):
        raise RulesError("A force list names two units with the same id.")
    return Ww2State((labels[0], labels[1]), tuple(vehicles), tuple(soldiers), running_gear_counts)


def _whole(value: object) -> int | None:
    if value is None or isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


def dynamic_fields(cls: type) -> tuple[str, ...]:
    """The fields events change: those after ``controller`` (vehicles) or ``rank`` (soldiers)."""
    names = [f.name for f in fields(cls)]
    first = "controller" if cls is Vehicle else "status"
    return tuple(names[names.index(first) :])
