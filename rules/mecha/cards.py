"""Unit and weapon cards of the mecha attack rules: the roster document read and checked.

The text gives no unit or weapon profiles, so every figure is the players' and may stay empty.
What it does state about a card is checked here, each check a sentence that names the card and
quotes the rule briefly (docs/mecha-readings.md gives the readings):

- a refusal (``CardError``, naming the field it is about) for a card the text rules out;
- a note (``weapon_notes``, ``unit_notes``) for what the card may be, but the text limits.
``check_held`` is the hand-held declaration check, for the builder and the tracker alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from rules.errors import RulesError

KINDS = {
    "infantry": "Infantry",
    "scaru": "SRACU (also SCARU)",
    "mobile_suit": "Mobile Suit",
    "other": "Another kind",
}
TYPES = {
    "anti_personal": "Anti-Personal",
    "artillery": "Artillery",
    "heavy_range": "Heavy Range",
    "long_melee": "Long Melee",
    "melee": "Melee",
    "rammers": "Rammers",
    "range": "Range",
    "unarmed": "Unarmed",
}
RANGED_TYPES = frozenset({"anti_personal", "artillery", "heavy_range", "long_melee", "range"})
FIXES = {
    "1_handed": "1 Handed",
    "2_handed": "2 Handed",
    "1_2_handed": "1/2 Handed",
    "arc": "X Arc",
    "fixed_handed": "Fixed Handed",
    "turret": "Turret",
    "stand": "Stand",
}
HAND_HELD = frozenset({"1_handed", "2_handed", "1_2_handed"})
ARCS = {
    "front": "Front",
    "front_left": "Front Left",
    "front_right": "Front Right",
    "left": "Left",
    "right": "Right",
    "rear_left": "Rear Left",
    "rear": "Rear",
    "rear_right": "Rear Right (inferred)",
}
DICE = (3, 6, 10)
LINKS = {"attached_main": "Weapon Main", "attached_addon": "Weapon Add-On", "linked": "Linked"}
TWO_HANDS = frozenset({"mobile_suit", "infantry"})  # "the Mobile Suit and Infantry units have two"
FIGURES = {
    "size_class": "Size Class",
    "strength": "Strength",
    "armour": "Armour",
    "range_attack": "Range Attack",
    "melee_attack": "Melee Attack",
    "hands": "Hands",
    "action_counters": "Action Counters",
}
MAX_FIGURE = 99
MAX_DICE = 20
MAX_NAME = 60
MAX_SUB_TYPES = 6
MAX_UNITS = 40
MAX_WEAPONS = 12

NOT_IN_TEXT = "not in the rules text"
RANGE_ZERO = "Range 0: cannot be used in range based attacks (“If the weapon's range value is o it cannot be used in range based attacks”)."  # noqa: E501
ONE_HAND_2H = "Used with one hand: “it will suffer a heavy penalty to its attack values”; the penalty is not given by the text."  # noqa: E501
ONE_HAND_HALF = "Used with one hand: “the units suffers a penalty to its attack values”; the penalty is not given by the text."  # noqa: E501


class CardError(RulesError):
    """A card the rules text rules out; ``field`` names the figure it is about ("" for the
    whole card) and ``where`` the card ("Unit 1 (“Zaku”), weapon 2 (“Beam rifle”)")."""

    def __init__(self, message: str, *, field: str = "", where: str = "") -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.sentence = message
        self.field = field
        self.where = where


@dataclass(frozen=True)
class Damage:
    count: int
    die: int

    def __str__(self) -> str:
        return f"{self.count}D{self.die}" if self.count > 1 else f"D{self.die}"


@dataclass(frozen=True)
class Link:
    kind: str  # attached_main | attached_addon | linked
    set: str  # the set's name: the number after "Weapon Main" / "Weapon Add-On", or a Link set

    def __str__(self) -> str:
        return f"{LINKS[self.kind]} {self.set}".strip()


@dataclass(frozen=True)
class Weapon:
    id: str
    name: str
    type: str
    fix: str
    sub_types: tuple[str, ...] = ()
    range: int | None = None
    damage: Damage | None = None
    arc: str = ""
    link: Link | None = None

    @property
    def hand_held(self) -> bool:
        return self.fix in HAND_HELD

    @property
    def type_label(self) -> str:
        return TYPES[self.type]

    @property
    def fix_label(self) -> str:
        return f"{ARCS[self.arc]} Arc" if self.fix == "arc" else FIXES[self.fix]


@dataclass(frozen=True)
class Unit:
    id: str
    name: str
    kind: str
    kind_name: str = ""
    size_class: int | None = None
    strength: int | None = None
    armour: int | None = None
    range_attack: int | None = None
    melee_attack: int | None = None
    hands: int | None = None  # None: the text's default (two for Mobile Suits and Infantry)
    has_arms: bool = False
    action_counters: int | None = None
    heavy_fire: bool = False  # the pilot's "Heavy Fire" skill (a label: its rule is not given)
    stable_platform: bool = False  # the unit's "Stable Platform" ability (a label, as above)
    weapons: tuple[Weapon, ...] = ()

    @property
    def kind_label(self) -> str:
        return self.kind_name if self.kind == "other" else KINDS[self.kind]


@dataclass(frozen=True)
class Force:
    units: tuple[Unit, ...] = ()


# --- What the text says of hands, ranges and unarmed attacks ------------------------------------


def hands(unit: Unit) -> int | None:
    """How many hands the unit has: as entered, else two for a Mobile Suit or Infantry ("Unless
    other wised stated, the Mobile Suit and Infantry units have two hands"), else not known."""
    if unit.hands is not None:
        return unit.hands
    return 2 if unit.kind in TWO_HANDS else None


def has_arms(unit: Unit) -> bool:
    """Whether the unit may hold weapons: "Only SRACUs and Infantry, as well as other units with
    arms have hand held weapons" (a unit with hands has arms: inferred)."""
    return unit.kind in ("infantry", "scaru") or unit.has_arms or bool(hands(unit))


def free_hands(unit: Unit) -> int | None:
    """Hands left for hand-held weapons: Fixed Handed weapons "replace the hand or entire arm"."""
    known = hands(unit)
    if known is None:
        return None
    return known - sum(1 for weapon in unit.weapons if weapon.fix == "fixed_handed")


def can_attack_unarmed(unit: Unit) -> bool:
    """ "Only Infantry and SCARUs (unless as well as Units that have arms) can make unarmed
    attacks", read as "as well as units that have arms"."""
    return unit.kind in ("infantry", "scaru") or unit.has_arms


def can_fire_ranged(weapon: Weapon) -> bool:
    """Whether the weapon may make a range based attack: a ranged type (or Long Melee) with a
    Range other than 0 ("If the weapon's range value is o it cannot be used in range based
    attacks"); a Range not entered is the players' to judge."""
    return weapon.type in RANGED_TYPES and weapon.range != 0


# --- Reading the document -----------------------------------------------------------------------


def _where_unit(index: int, raw: Mapping[str, Any]) -> str:
    name = raw.get("name") if isinstance(raw.get("name"), str) else ""
    return f"Unit {index} (“{name[:MAX_NAME]}”)" if name else f"Unit {index}"


def _where_weapon(unit_where: str, index: int, raw: Mapping[str, Any]) -> str:
    name = raw.get("name") if isinstance(raw.get("name"), str) else ""
    return f"{unit_where}, weapon {index}" + (f" (“{name[:MAX_NAME]}”)" if name else "")


def _name(raw: Mapping[str, Any], what: str) -> str:
    value = raw.get("name")
    name = " ".join(value.split()) if isinstance(value, str) else ""
    if not name:
        raise CardError(f"Give the {what} a name.", field="name")
    if len(name) > MAX_NAME:
        raise CardError(f"A {what}'s name can be at most {MAX_NAME} characters.", field="name")
    return name


def _figure(raw: Mapping[str, Any], field: str, label: str) -> int | None:
    value = raw.get(field)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_FIGURE:
        raise CardError(
            f"{label} must be a whole number from 0 to {MAX_FIGURE}, or left empty.", field=field
        )
    return value


def _choice(raw: Mapping[str, Any], field: str, choices: Mapping[str, str], sentence: str) -> str:
    value = raw.get(field)
    if not isinstance(value, str) or value not in choices:
        raise CardError(sentence, field=field)
    return value


def read_damage(value: object) -> Damage | None:
    """The weapon's Damage dice: "This is normally D3s, D6s or D10s"."""
    if value is None:
        return None
    count = value.get("count") if isinstance(value, Mapping) else None
    die = value.get("die") if isinstance(value, Mapping) else None
    if die not in DICE or isinstance(die, bool):
        raise CardError("Damage is rolled as D3s, D6s or D10s.", field="damage")
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_DICE:
        raise CardError(f"Damage is 1 to {MAX_DICE} dice.", field="damage")
    return Damage(count, die)


def read_link(value: object) -> Link | None:
    if value is None:
        return None
    kind = value.get("kind") if isinstance(value, Mapping) else None
    name = value.get("set") if isinstance(value, Mapping) else None
    if kind not in LINKS:
        raise CardError("Link is Weapon Main, Weapon Add-On or Linked.", field="link")
    if not isinstance(name, str) or len(name.strip()) > 20:
        raise CardError("A link set's name is at most 20 characters.", field="link")
    name = name.strip()
    if kind == "linked" and not name:
        raise CardError("Name the Link set, so its weapons can be told apart.", field="link")
    return Link(kind, name)


def read_weapon(raw: object) -> Weapon:
    """One weapon card from its document, with the checks of a weapon on its own."""
    if not isinstance(raw, Mapping):
        raise CardError("A weapon must be a set of fields.")
    name = _name(raw, "weapon")
    kind = _choice(raw, "type", TYPES, "Pick the weapon's Type: one of the eight in the text.")
    fix = _choice(raw, "fix", FIXES, "Pick how the weapon is carried (its Fix).")
    sub_types = raw.get("sub_types", [])
    if not isinstance(sub_types, list) or not all(isinstance(s, str) for s in sub_types):
        raise CardError("Sub-Types must be a list of words.", field="sub_types")
    sub_types = tuple(dict.fromkeys(" ".join(s.split()) for s in sub_types if s.strip()))
    if len(sub_types) > MAX_SUB_TYPES or any(len(s) > 30 for s in sub_types):
        raise CardError(
            f"At most {MAX_SUB_TYPES} Sub-Types, each at most 30 characters.", field="sub_types"
        )
    arc = raw.get("arc", "") if fix == "arc" else ""
    if fix == "arc" and arc not in ARCS:
        raise CardError(
            "An X Arc weapon needs its location (“There are eight different locations this can "
            "be”): Front, Front Left, Front Right, Left, Right, Rear Left, Rear or Rear Right.",
            field="arc",
        )
    weapon = Weapon(
        id=str(raw.get("id", "")),
        name=name,
        type=kind,
        fix=fix,
        sub_types=sub_types,
        range=_figure(raw, "range", "Range"),
        damage=read_damage(raw.get("damage")),
        arc=arc,
        link=read_link(raw.get("link")),
    )
    if weapon.type == "melee" and weapon.range not in (None, 0):
        raise CardError(
            "A Melee weapon has Range 0 (“All Melee type weapons have a Range value of 0”).",
            field="range",
        )
    return weapon


def read_unit(raw: object, *, weapons: bool = True) -> Unit:
    """One unit card from its document (and its weapons, unless ``weapons`` is False), with
    every check the text states; CardError names the field (not the unit: see read_force)."""
    if not isinstance(raw, Mapping):
        raise CardError("A unit must be a set of fields.")
    kind = _choice(raw, "kind", KINDS, "Pick the unit's kind.")
    kind_name = raw.get("kind_name", "")
    kind_name = " ".join(kind_name.split()) if isinstance(kind_name, str) else ""
    if kind == "other" and not kind_name:
        raise CardError("Name the unit's kind.", field="kind_name")
    if len(kind_name) > 30:
        raise CardError("A kind's name can be at most 30 characters.", field="kind_name")
    values: dict[str, Any] = {field: _figure(raw, field, label) for field, label in FIGURES.items()}
    for flag in ("has_arms", "heavy_fire", "stable_platform"):
        if not isinstance(raw.get(flag, False), bool):
            raise CardError("Tick it or leave it.", field=flag)
        values[flag] = raw.get(flag, False)
    unit = Unit(
        id=str(raw.get("id", "")),
        name=_name(raw, "unit"),
        kind=kind,
        kind_name=kind_name if kind == "other" else "",
        **values,
    )
    if unit.hands is not None and unit.hands > 8:
        raise CardError("Hands must be 0 to 8.", field="hands")
    if not weapons:
        return unit
    listed = raw.get("weapons", [])
    if not isinstance(listed, list) or len(listed) > MAX_WEAPONS:
        raise CardError(f"A unit carries at most {MAX_WEAPONS} weapons.", field="weapons")
    return replace(unit, weapons=tuple(read_weapon(weapon) for weapon in listed))


def check_weapon(unit: Unit, weapon: Weapon) -> None:
    """What the text says of this weapon on this unit (CardError naming the field)."""
    if weapon.hand_held and hands(unit) == 0:
        raise CardError(
            f"{unit.name} has no hands to hold a {FIXES[weapon.fix]} weapon (“these weapons are "
            "carried by the unit hands”).",
            field="fix",
        )
    if weapon.hand_held and not has_arms(unit):
        raise CardError(
            f"{unit.name} cannot carry a {FIXES[weapon.fix]} weapon: “Only SRACUs and Infantry, "
            "as well as other units with arms have hand held weapons” (tick “has arms” or "
            "enter its hands).",
            field="fix",
        )
    if weapon.type == "unarmed" and not can_attack_unarmed(unit):
        raise CardError(
            f"{unit.name} cannot make unarmed attacks: “Only Infantry and SCARUs (… as well as "
            "Units that have arms) can make unarmed attacks”.",
            field="type",
        )


def check_unit(unit: Unit) -> None:
    """Every weapon on the unit (CardError naming the weapon in ``where``), then the unit's
    Fixed Handed weapons against its hands."""
    for index, weapon in enumerate(unit.weapons, 1):
        try:
            check_weapon(unit, weapon)
        except CardError as error:
            raise CardError(
                error.sentence, field=error.field, where=f"Weapon {index} (“{weapon.name}”)"
            ) from error
    free = free_hands(unit)
    if free is not None and free < 0:
        raise CardError(
            f"{unit.name} has more Fixed Handed weapons than hands: they “replace the hand or "
            "entire arm meaning the hand cannot be used for any other weapon”.",
            field="hands",
        )


def read_force(document: object) -> Force:
    """The whole roster document, read and checked; CardError names unit, weapon and field
    ("Unit 2 (“Zaku”), weapon 1 (“Beam rifle”): ...")."""
    units = document.get("units") if isinstance(document, Mapping) else None
    if not isinstance(units, list):
        raise CardError("The force must hold a list of units.")
    if len(units) > MAX_UNITS:
        raise CardError(f"A force holds at most {MAX_UNITS} units.")
    read = []
    for index, raw in enumerate(units, 1):
        where = _where_unit(index, raw if isinstance(raw, Mapping) else {})
        try:
            unit = read_unit(raw, weapons=False)
        except CardError as error:
            raise CardError(error.sentence, field=error.field, where=where) from error
        listed = raw.get("weapons", [])
        if not isinstance(listed, list) or len(listed) > MAX_WEAPONS:
            raise CardError(f"A unit carries at most {MAX_WEAPONS} weapons.", where=where)
        weapons = []
        for number, weapon in enumerate(listed, 1):
            try:
                weapons.append(read_weapon(weapon))
            except CardError as error:
                at = _where_weapon(where, number, weapon if isinstance(weapon, Mapping) else {})
                raise CardError(error.sentence, field=error.field, where=at) from error
        unit = replace(unit, weapons=tuple(weapons))
        try:
            check_unit(unit)
        except CardError as error:
            at = f"{where}, {error.where[0].lower()}{error.where[1:]}" if error.where else where
            raise CardError(error.sentence, field=error.field, where=at) from error
        read.append(unit)
    return renumbered(Force(tuple(read)))


def renumbered(force: Force) -> Force:
    """Ids given to the cards that have none or share one (an imported or hand-made file):
    "u1", "u2"... and "u1w1"...; ids a card already has stay."""
    seen: set[str] = set()
    units = []
    for unit in force.units:
        unit_id = unit.id if unit.id and unit.id not in seen else new_id(seen, "u")
        seen.add(unit_id)
        weapons = []
        for weapon in unit.weapons:
            weapon_id = weapon.id if weapon.id and weapon.id not in seen else ""
            weapon_id = weapon_id or new_id(seen, f"{unit_id}w")
            seen.add(weapon_id)
            weapons.append(replace(weapon, id=weapon_id))
        units.append(replace(unit, id=unit_id, weapons=tuple(weapons)))
    return Force(tuple(units))


def new_id(taken: set[str] | frozenset[str], prefix: str) -> str:
    """The first ``prefix1``, ``prefix2``... not taken."""
    number = 1
    while f"{prefix}{number}" in taken:
        number += 1
    return f"{prefix}{number}"


def all_ids(force: Force) -> set[str]:
    return {unit.id for unit in force.units} | {
        weapon.id for unit in force.units for weapon in unit.weapons
    }


def unit_by_id(force: Force, unit_id: str) -> Unit:
    """The unit with this id; KeyError when there is none."""
    for unit in force.units:
        if unit.id == unit_id:
            return unit
    raise KeyError(unit_id)


def weapon_by_id(unit: Unit, weapon_id: str) -> Weapon:
    for weapon in unit.weapons:
        if weapon.id == weapon_id:
            return weapon
    raise KeyError(weapon_id)


# --- Writing the document -----------------------------------------------------------------------


def weapon_to_dict(weapon: Weapon) -> dict[str, Any]:
    return {
        "id": weapon.id,
        "name": weapon.name,
        "type": weapon.type,
        "sub_types": list(weapon.sub_types),
        "range": weapon.range,
        "damage": {"count": weapon.damage.count, "die": weapon.damage.die}
        if weapon.damage
        else None,
        "fix": weapon.fix,
        "arc": weapon.arc,
        "link": {"kind": weapon.link.kind, "set": weapon.link.set} if weapon.link else None,
    }


def unit_to_dict(unit: Unit) -> dict[str, Any]:
    return {
        "id": unit.id,
        "name": unit.name,
        "kind": unit.kind,
        "kind_name": unit.kind_name,
        **{field: getattr(unit, field) for field in FIGURES},
        "has_arms": unit.has_arms,
        "heavy_fire": unit.heavy_fire,
        "stable_platform": unit.stable_platform,
        "weapons": [weapon_to_dict(weapon) for weapon in unit.weapons],
    }


def force_to_dict(force: Force) -> dict[str, Any]:
    return {"units": [unit_to_dict(unit) for unit in force.units]}


# --- Notes: what a card may be, but the text limits ---------------------------------------------


def weapon_notes(unit: Unit, weapon: Weapon) -> tuple[str, ...]:
    """What the text says of this weapon that a player should see on its card."""
    notes = []
    if weapon.range == 0 and weapon.type != "melee":
        notes.append(RANGE_ZERO)
    if weapon.fix == "2_handed" and (hands(unit) or 0) < 2 and hands(unit) is not None:
        notes.append(ONE_HAND_2H)
    if weapon.fix == "1_2_handed" and hands(unit) == 1:
        notes.append(ONE_HAND_HALF)
    if len(weapon.sub_types) > 1:
        notes.append(
            "Two or more Sub-Types: the pilot needs “Weapons Specialist” for at least two of them "
            f"“to gain the bonus for one of them”; the bonus is {NOT_IN_TEXT}."
        )
    if weapon.type == "rammers":
        notes.append(
            "Rammers “improve on ramming damage of the unit and … their push back”: how much "
            f"the push back changes is {NOT_IN_TEXT}."
        )
    return tuple(notes)


def link_sets(unit: Unit) -> dict[tuple[str, str], list[Weapon]]:
    """The unit's combined weapons by set: ("attached", name) or ("linked", name)."""
    sets: dict[tuple[str, str], list[Weapon]] = {}
    for weapon in unit.weapons:
        if weapon.link:
            family = "linked" if weapon.link.kind == "linked" else "attached"
            sets.setdefault((family, weapon.link.set), []).append(weapon)
    return sets


def unit_notes(unit: Unit) -> tuple[str, ...]:
    """What the text says of the unit's combined weapons and hands, as the card shows it."""
    notes = []
    if hands(unit) is None and any(weapon.hand_held for weapon in unit.weapons):
        notes.append(
            "Hands not entered: the text gives two only to Mobile Suits and Infantry; enter "
            "this unit's hands."
        )
    for (family, name), members in link_sets(unit).items():
        label = f"“{name}”" if name else "without a number"
        if family == "linked" and len(members) < 2:
            notes.append(
                f"Link set {label} has one weapon: “Two or more weapons can be linked together”."
            )
        kinds = {weapon.link.kind for weapon in members if weapon.link}
        if family == "attached" and kinds != {"attached_main", "attached_addon"}:
            notes.append(
                f"Attached set {label} needs a Weapon Main and a Weapon Add-On (“These are noted "
                "as Weapon Main and Weapon Add-On”)."
            )
    return tuple(notes)


# --- Declaring hand-held weapons ----------------------------------------------------------------


def check_held(unit: Unit, held: Mapping[str, int]) -> tuple[str, ...]:
    """A declaration of the unit's hand-held weapons in use (weapon id -> hands holding it):
    CardError for what the text rules out, else the notes a player should see (a weapon used
    with fewer hands than it needs: its penalty is not in the text)."""
    by_id = {weapon.id: weapon for weapon in unit.weapons}
    notes = []
    for weapon_id, count in held.items():
        weapon = by_id.get(weapon_id)
        if weapon is None or not weapon.hand_held:
            raise CardError(f"{unit.name} holds no such hand-held weapon.", field="held")
        if count not in (1, 2) or (weapon.fix == "1_handed" and count != 1):
            how = "one hand" if weapon.fix == "1_handed" else "one or two hands"
            raise CardError(f"{weapon.name} is held in {how}.", field="held")
        if weapon.fix == "2_handed" and count == 1:
            notes.append(f"{weapon.name}: {ONE_HAND_2H}")
        if weapon.fix == "1_2_handed" and count == 1:
            notes.append(f"{weapon.name}: {ONE_HAND_HALF}")
    halves = [by_id[weapon_id].name for weapon_id in held if by_id[weapon_id].fix == "1_2_handed"]
    if len(halves) > 1:
        raise CardError(
            f"{' and '.join(halves)} are both 1/2 Handed: “a unit cannot use two 1/2 Handed "
            "weapons at the same time unless otherwise stated”.",
            field="held",
        )
    free = free_hands(unit)
    if free is not None and sum(held.values()) > free:
        raise CardError(
            f"{unit.name} has {free} free hand{'' if free == 1 else 's'}; this uses "
            f"{sum(held.values())}.",
            field="held",
        )
    return tuple(notes)
