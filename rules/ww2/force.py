"""A WWII skirmish force: vehicles (each with its crew) and infantry, read from the roster
document and checked as a whole against what the rules text states.

Every refusal is a ``ForceError`` naming the vehicle or soldier, the field it is about
(``field``, for a form to show it beside that field) and the rule, quoted short. What the text
only calls "standard" (the seats of an APC and of a tank) is a note, not a refusal. The text
names costs ("paid for", "command points") but gives none: a force has no points.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rules.checks import is_whole
from rules.errors import RulesError

KINDS = {
    "tank": "Tank",
    "apc": "APC",
    "truck": "Truck",
    "tractor": "Tracked tractor",
    "gun": "Gun or howitzer (towed)",
    "other": "Other",
}
MACHINE_GUNS = {"hull": "Hull MG", "turret": "Turret MG", "armour": "MG on the armour"}
SPECIALISATIONS = {
    "spotter": "Spotter",
    "mine_trawl": "Mine trawl",
    "active_armour": "Active armour",
}
RANKS = {"soldier": "Soldier", "commander": "Commander", "officer": "Officer"}

STANDARD_SEATS = {"apc": 12, "tank": 6}  # «12 для БТР, 6 для танков»: "standard", a card may differ
TRUCK_SEATS = (4, 16)  # «4-16 для автомобиля»
CREW = (1, 5)  # «Экипаж состоит из 1-5 бойцов»
ACTIVE_ARMOUR_CLASSES = (2, 6)  # «Только на классы брони 2-6»
TEXT_CLASSES = (1, 7)  # the classes the text's (garbled) table and rules mention
TOW_SEATS = 6  # «на автомашинах, имеющих от 6 посадочных мест»

# Bounds of the app, not of the game: a form field or a file cannot hold more.
MAX_NAME = 60
MAX_NUMBER = 99
MAX_VEHICLES = 60
MAX_INFANTRY = 200

_ID = re.compile(r"[a-z0-9]{1,12}")


class ForceError(RulesError):
    """A force the rules text refuses: ``entry`` is the vehicle's or soldier's id ("" for the
    force), ``field`` the field the sentence is about."""

    def __init__(self, sentence: str, *, entry: str = "", field: str = "") -> None:
        super().__init__(sentence)
        self.entry = entry
        self.field = field


@dataclass(frozen=True)
class CrewMember:
    id: str
    name: str
    commander: bool = False


@dataclass(frozen=True)
class Vehicle:
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
    crew: tuple[CrewMember, ...] = ()

    @property
    def kind_label(self) -> str:
        return self.kind_name if self.kind == "other" and self.kind_name else KINDS[self.kind]

    @property
    def title(self) -> str:
        return f"“{self.name}” ({self.kind_label.lower()})"


@dataclass(frozen=True)
class Soldier:
    id: str
    name: str
    rank: str = "soldier"

    @property
    def rank_label(self) -> str:
        return RANKS[self.rank]


@dataclass(frozen=True)
class Force:
    vehicles: tuple[Vehicle, ...] = ()
    infantry: tuple[Soldier, ...] = field(default=())

    def vehicle(self, vehicle_id: str) -> Vehicle:
        for vehicle in self.vehicles:
            if vehicle.id == vehicle_id:
                return vehicle
        raise ForceError("That vehicle is no longer in the force.", entry=vehicle_id)

    def soldier(self, soldier_id: str) -> Soldier:
        for soldier in self.infantry:
            if soldier.id == soldier_id:
                return soldier
        raise ForceError("That soldier is no longer in the force.", entry=soldier_id)


# --- Reading the document ----------------------------------------------------------------------


def _text(value: Any, what: str, *, entry: str, field: str, required: bool = True) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise ForceError(f"{what} must be text.", entry=entry, field=field)
    clean = " ".join(value.split())
    if required and not clean:
        raise ForceError(f"{what} is missing: give a name.", entry=entry, field=field)
    if len(clean) > MAX_NAME:
        raise ForceError(f"{what} can be at most {MAX_NAME} characters.", entry=entry, field=field)
    return clean


def _number(value: Any, what: str, *, entry: str, field: str, low: int) -> int:
    if not is_whole(value) or not low <= value <= MAX_NUMBER:
        shown = value if is_whole(value) else repr(value)
        raise ForceError(
            f"{what} must be a whole number from {low} to {MAX_NUMBER}; got {shown}.",
            entry=entry,
            field=field,
        )
    return value


def _optional_number(value: Any, what: str, *, entry: str, field: str, low: int) -> int | None:
    return None if value is None else _number(value, what, entry=entry, field=field, low=low)


def _flag(value: Any, what: str, *, entry: str, field: str) -> bool:
    if not isinstance(value, bool):
        raise ForceError(f"{what} must be yes or no.", entry=entry, field=field)
    return value


def _picks(
    value: Any, known: Mapping[str, str], what: str, *, entry: str, field: str
) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or any(v not in known for v in value):
        raise ForceError(
            f"{what} can only be: {', '.join(known.values())}.", entry=entry, field=field
        )
    if len(set(value)) != len(value):
        raise ForceError(f"{what}: each can be taken once.", entry=entry, field=field)
    return tuple(key for key in known if key in value)  # in the text's order


def _id(value: Any, what: str) -> str:
    if not isinstance(value, str) or not _ID.fullmatch(value):
        raise ForceError(f"{what} has no readable id (got {str(value)[:20]!r}).")
    return value


def _mapping(value: Any, what: str, entry: str = "") -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ForceError(f"{what} is not readable.", entry=entry)
    return value


def read_crew(data: Any, vehicle_id: str, vehicle_name: str) -> tuple[CrewMember, ...]:
    if not isinstance(data, list):
        raise ForceError(f"The crew of “{vehicle_name}” is not readable.", entry=vehicle_id)
    crew = []
    for number, item in enumerate(data, 1):
        member = _mapping(item, f"Crew member {number} of “{vehicle_name}”", vehicle_id)
        crew.append(
            CrewMember(
                id=_id(member.get("id"), f"Crew member {number} of “{vehicle_name}”"),
                name=_text(
                    member.get("name"),
                    f"The name of crew member {number} of “{vehicle_name}”",
                    entry=vehicle_id,
                    field="crew",
                ),
                commander=_flag(
                    member.get("commander", False),
                    f"Commander (crew member {number})",
                    entry=vehicle_id,
                    field="crew",
                ),
            )
        )
    return tuple(crew)


def read_vehicle(data: Any, number: int = 1) -> Vehicle:
    """One vehicle of the document, read and checked (``check_vehicle``)."""
    item = _mapping(data, f"Vehicle {number}")
    vid = _id(item.get("id"), f"Vehicle {number}")
    name = _text(item.get("name"), f"The name of vehicle {number}", entry=vid, field="name")
    kind = item.get("kind")
    if kind not in KINDS:
        raise ForceError(
            f"“{name}”: the kind must be one of {', '.join(KINDS.values())}.",
            entry=vid,
            field="kind",
        )

    def whole(key: str, what: str, low: int = 1) -> int | None:
        return _optional_number(item.get(key), f"“{name}”: {what}", entry=vid, field=key, low=low)

    vehicle = Vehicle(
        id=vid,
        name=name,
        kind=kind,
        kind_name=_text(
            item.get("kind_name", ""),
            f"“{name}”: the kind's name",
            entry=vid,
            field="kind_name",
            required=False,
        ),
        armour_class=whole("armour_class", "the armour class"),
        gun_class=whole("gun_class", "the gun class"),
        seats=whole("seats", "the seats", low=0),
        mgs=_picks(
            item.get("mgs", []), MACHINE_GUNS, f"“{name}”: machine guns", entry=vid, field="mgs"
        ),
        flamethrower=_flag(
            item.get("flamethrower", False),
            f"“{name}”: flamethrower",
            entry=vid,
            field="flamethrower",
        ),
        napalm=whole("napalm", "napalm ammunition cards", low=0) or 0,
        smoke=whole("smoke", "smoke ammunition cards", low=0) or 0,
        specialisations=_picks(
            item.get("specialisations", []),
            SPECIALISATIONS,
            f"“{name}”: specialisations",
            entry=vid,
            field="specialisations",
        ),
        crew=read_crew(item.get("crew", []), vid, name),
    )
    return check_vehicle(vehicle)


def read_soldier(data: Any, number: int = 1) -> Soldier:
    item = _mapping(data, f"Soldier {number}")
    sid = _id(item.get("id"), f"Soldier {number}")
    name = _text(item.get("name"), f"The name of soldier {number}", entry=sid, field="name")
    rank = item.get("rank", "soldier")
    if rank not in RANKS:
        raise ForceError(
            f"“{name}”: the rank must be soldier, commander or officer.", entry=sid, field="rank"
        )
    return Soldier(id=sid, name=name, rank=rank)


def read_force(data: Any) -> Force:
    """The roster document (``{"vehicles": [...], "infantry": [...]}``), read and checked
    whole: the first thing the rules text (or the document's shape) refuses raises."""
    doc = _mapping(data, "The force")
    vehicles = doc.get("vehicles", [])
    infantry = doc.get("infantry", [])
    if not isinstance(vehicles, list) or not isinstance(infantry, list):
        raise ForceError("The force's vehicles and infantry must be lists.")
    if len(vehicles) > MAX_VEHICLES or len(infantry) > MAX_INFANTRY:
        raise ForceError(
            f"A force in Blitz holds at most {MAX_VEHICLES} vehicles and {MAX_INFANTRY} soldiers."
        )
    force = Force(
        vehicles=tuple(read_vehicle(v, n) for n, v in enumerate(vehicles, 1)),
        infantry=tuple(read_soldier(s, n) for n, s in enumerate(infantry, 1)),
    )
    ids = [v.id for v in force.vehicles] + [s.id for s in force.infantry]
    ids += [m.id for v in force.vehicles for m in v.crew]
    if len(set(ids)) != len(ids):
        raise ForceError("Two entries of the force have the same id.")
    return force


# --- The rules text's constraints --------------------------------------------------------------


def check_vehicle(vehicle: Vehicle) -> Vehicle:
    """The vehicle, if the rules text allows it; else the ``ForceError`` of the first rule it
    breaks."""
    v, title = vehicle.id, vehicle.title
    if vehicle.kind == "other" and not vehicle.kind_name:
        raise ForceError(
            f"“{vehicle.name}”: name its kind (an armoured car, a self-propelled gun…).",
            entry=v,
            field="kind_name",
        )
    low, high = TRUCK_SEATS
    if vehicle.kind == "truck" and (vehicle.seats is None or not low <= vehicle.seats <= high):
        got = "none entered" if vehicle.seats is None else f"{vehicle.seats} entered"
        raise ForceError(
            f"{title}: a truck has {low}–{high} seats (the text: “4-16 for a motor vehicle”); "
            f"{got}.",
            entry=v,
            field="seats",
        )
    if "mine_trawl" in vehicle.specialisations and vehicle.kind != "tank":
        raise ForceError(
            f"{title}: a mine trawl goes on a tank only (the text: “Tank only”).",
            entry=v,
            field="specialisations",
        )
    low, high = ACTIVE_ARMOUR_CLASSES
    armour = vehicle.armour_class
    if "active_armour" in vehicle.specialisations and (armour is None or not low <= armour <= high):
        got = "no armour class entered" if armour is None else f"armour class {armour}"
        raise ForceError(
            f"{title}: active armour goes on armour classes {low}–{high} only (the text: "
            f"“Only on armour classes 2-6”); it has {got}.",
            entry=v,
            field="specialisations",
        )
    low, high = CREW
    if len(vehicle.crew) > high:
        raise ForceError(
            f"{title}: a crew is {low}–{high} soldiers (the text: “the crew consists of 1-5 "
            f"soldiers”); it has {len(vehicle.crew)}.",
            entry=v,
            field="crew",
        )
    return vehicle


def vehicle_notes(vehicle: Vehicle) -> list[str]:
    """What the page says of a vehicle the text allows but a player may want to check."""
    notes = []
    standard = STANDARD_SEATS.get(vehicle.kind)
    if standard is not None and vehicle.seats is not None and vehicle.seats != standard:
        notes.append(
            f"{vehicle.seats} seats: the text's standard for {_a(vehicle.kind)} is {standard} "
            "(kept as your card gives it)."
        )
    for what, value in (("armour class", vehicle.armour_class), ("gun class", vehicle.gun_class)):
        if value is not None and value > TEXT_CLASSES[1]:
            notes.append(
                f"{what.capitalize()} {value}: the rules text's classes run "
                f"{TEXT_CLASSES[0]}–{TEXT_CLASSES[1]} (kept as your card gives it)."
            )
    if vehicle.napalm and not vehicle.flamethrower:
        notes.append("Napalm is fired by a tank flamethrower, and this vehicle has none.")
    if "armour" in vehicle.mgs:
        notes.append("The MG on the armour fires only with at least 1 rider aboard.")
    if vehicle.crew and not any(member.commander for member in vehicle.crew):
        notes.append("No commander marked in the crew.")
    return notes


def _a(kind: str) -> str:
    return "an APC" if kind == "apc" else "a tank"


def seats_of(vehicle: Vehicle) -> int | None:
    """The seats the vehicle carries riders in: as entered, else the text's standard (an APC
    12, a tank 6); None when neither gives a number."""
    return vehicle.seats if vehicle.seats is not None else STANDARD_SEATS.get(vehicle.kind)


# --- Changes -----------------------------------------------------------------------------------


def _next_id(used: Sequence[str], prefix: str) -> str:
    numbers = [
        int(i[len(prefix) :]) for i in used if i.startswith(prefix) and i[len(prefix) :].isdigit()
    ]
    return f"{prefix}{max(numbers, default=0) + 1}"


def new_force() -> Force:
    return Force()


def crew_from_names(
    vehicle_id: str, names: Sequence[tuple[str, bool]], old: Sequence[CrewMember] = ()
) -> tuple[CrewMember, ...]:
    """A crew from (name, commander) rows in order, keeping the ids of the rows it had."""
    crew: list[CrewMember] = []
    for position, (name, commander) in enumerate(names):
        used = [m.id for m in old] + [m.id for m in crew]
        member_id = old[position].id if position < len(old) else _next_id(used, f"{vehicle_id}c")
        crew.append(CrewMember(member_id, name, commander))
    return tuple(crew)


def add_vehicle(force: Force, vehicle: Vehicle) -> tuple[Force, str]:
    """The force with ``vehicle`` added under a new id (its crew's ids made from it)."""
    if len(force.vehicles) >= MAX_VEHICLES:
        raise ForceError(f"A force in Blitz holds at most {MAX_VEHICLES} vehicles.")
    new_id = _next_id([v.id for v in force.vehicles], "v")
    crew = crew_from_names(new_id, [(m.name, m.commander) for m in vehicle.crew])
    added = check_vehicle(replace(vehicle, id=new_id, crew=crew))
    return replace(force, vehicles=(*force.vehicles, added)), new_id


def change_vehicle(force: Force, vehicle: Vehicle) -> Force:
    """The force with the vehicle of the same id replaced by ``vehicle``."""
    old = force.vehicle(vehicle.id)
    crew = crew_from_names(vehicle.id, [(m.name, m.commander) for m in vehicle.crew], old.crew)
    changed = check_vehicle(replace(vehicle, crew=crew))
    return replace(
        force, vehicles=tuple(changed if v.id == vehicle.id else v for v in force.vehicles)
    )


def remove_vehicle(force: Force, vehicle_id: str) -> Force:
    """The force without that vehicle (already gone: the same force)."""
    return replace(force, vehicles=tuple(v for v in force.vehicles if v.id != vehicle_id))


def add_soldier(force: Force, name: str, rank: str) -> tuple[Force, str]:
    if len(force.infantry) >= MAX_INFANTRY:
        raise ForceError(f"A force in Blitz holds at most {MAX_INFANTRY} soldiers.")
    new_id = _next_id([s.id for s in force.infantry], "i")
    soldier = read_soldier({"id": new_id, "name": name, "rank": rank})
    return replace(force, infantry=(*force.infantry, soldier)), new_id


def change_soldier(force: Force, soldier_id: str, name: str, rank: str) -> Force:
    force.soldier(soldier_id)
    changed = read_soldier({"id": soldier_id, "name": name, "rank": rank})
    return replace(
        force, infantry=tuple(changed if s.id == soldier_id else s for s in force.infantry)
    )


def remove_soldier(force: Force, soldier_id: str) -> Force:
    return replace(force, infantry=tuple(s for s in force.infantry if s.id != soldier_id))


# --- Writing the document ----------------------------------------------------------------------


def vehicle_to_dict(vehicle: Vehicle) -> dict[str, Any]:
    return {
        "id": vehicle.id,
        "name": vehicle.name,
        "kind": vehicle.kind,
        "kind_name": vehicle.kind_name,
        "armour_class": vehicle.armour_class,
        "gun_class": vehicle.gun_class,
        "seats": vehicle.seats,
        "mgs": list(vehicle.mgs),
        "flamethrower": vehicle.flamethrower,
        "napalm": vehicle.napalm,
        "smoke": vehicle.smoke,
        "specialisations": list(vehicle.specialisations),
        "crew": [{"id": m.id, "name": m.name, "commander": m.commander} for m in vehicle.crew],
    }


def force_to_dict(force: Force) -> dict[str, Any]:
    """The roster document (``Roster.army``)."""
    return {
        "vehicles": [vehicle_to_dict(v) for v in force.vehicles],
        "infantry": [{"id": s.id, "name": s.name, "rank": s.rank} for s in force.infantry],
    }
