"""Changes to a mecha force (the builder's): a unit or a weapon put in, replaced or removed,
each checked by ``rules.mecha.cards``; ids stay stable across edits."""

from __future__ import annotations

from dataclasses import replace

from rules.mecha.cards import (
    MAX_UNITS,
    MAX_WEAPONS,
    CardError,
    Force,
    Unit,
    Weapon,
    all_ids,
    check_unit,
    check_weapon,
    new_id,
    unit_by_id,
    weapon_by_id,
)


def put_unit(force: Force, unit: Unit) -> Force:
    """The force with this unit (replacing the one with its id, keeping its weapons; a new id
    is added at the end), checked."""
    old = next((u for u in force.units if u.id == unit.id), None)
    if old is None:
        if len(force.units) >= MAX_UNITS:
            raise CardError(f"A force holds at most {MAX_UNITS} units.")
        unit = replace(unit, id=new_id(all_ids(force), "u"), weapons=())
        units = (*force.units, unit)
    else:
        unit = replace(unit, weapons=old.weapons)
        units = tuple(unit if u.id == unit.id else u for u in force.units)
    check_unit(unit)
    return Force(units)


def put_weapon(force: Force, unit_id: str, weapon: Weapon) -> Force:
    """The force with this weapon on the unit (replacing the one with its id, else added),
    checked against the unit (CardError naming the field); KeyError for an unknown unit."""
    unit = unit_by_id(force, unit_id)
    if any(w.id == weapon.id for w in unit.weapons):
        weapons = tuple(weapon if w.id == weapon.id else w for w in unit.weapons)
    else:
        if len(unit.weapons) >= MAX_WEAPONS:
            raise CardError(f"A unit carries at most {MAX_WEAPONS} weapons.")
        weapon = replace(weapon, id=new_id(all_ids(force), f"{unit.id}w"))
        weapons = (*unit.weapons, weapon)
    check_weapon(unit, weapon)
    changed = replace(unit, weapons=weapons)
    check_unit(changed)
    return Force(tuple(changed if u.id == unit_id else u for u in force.units))


def remove_unit(force: Force, unit_id: str) -> Force:
    unit_by_id(force, unit_id)
    return Force(tuple(u for u in force.units if u.id != unit_id))


def remove_weapon(force: Force, unit_id: str, weapon_id: str) -> Force:
    unit = unit_by_id(force, unit_id)
    weapon_by_id(unit, weapon_id)
    changed = replace(unit, weapons=tuple(w for w in unit.weapons if w.id != weapon_id))
    return Force(tuple(changed if u.id == unit_id else u for u in force.units))
