"""A match's starting sides, built from stored rosters with the army rules.

TV per model: the texts give only squad TV (and each option's TV change), never a model's own TV.
A model's share is its group's squad and group-upgrade TV split equally among the models the
squad's printed TV pays for, plus the TV of its own options (an Armored Jacket, a MAC) and its own
TV if it is beyond the printed composition. The shares of a group add up to the group's TV. "TV
destroyed" is the sum of the shares of the models out of the game; the board says it is an
estimate on that basis.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules.hgb.army import ProfileWeapon, model_profile, roster_cost, roster_from_dict
from rules.hgb.catalog import RANGE_BANDS, Catalog, Mount
from rules.hgb.match import (
    GroupSpec,
    MatchWeapon,
    ModelFigures,
    MovementFigures,
    SideSpec,
    UnitSpec,
)

HAND_GRENADE = "HG"


def side_from_roster(roster_data: Mapping[str, Any], catalog: Catalog) -> SideSpec:
    """A side of a match from a roster stored by ``roster_to_dict``; RulesError if malformed."""
    roster = roster_from_dict(roster_data, catalog)
    cost = roster_cost(roster, catalog)
    faction = catalog.factions.get(roster.faction)
    groups = []
    for group_index, group in enumerate(roster.groups):
        group_cost = cost.groups[group_index]
        shared = group_cost.base + sum(item.tv for item in group_cost.upgrades)
        paid = [m for m in group_cost.models if m.in_squad_tv] or list(group_cost.models)
        share = Fraction(shared, len(paid)) if paid else Fraction(0)
        units = []
        for model_index in range(len(group.models)):
            profile = model_profile(roster, catalog, group_index, model_index)
            model_cost = group_cost.models[model_index]
            units.append(
                UnitSpec(
                    name=profile.name,
                    model=profile.model,
                    skills=profile.skills,
                    boxes=tuple(profile.damage_track),
                    leader=profile.leader,
                    armor=profile.armor,
                    ammo=tuple(
                        (weapon.code, weapon.name, weapon.mount.limited_ammo)
                        for weapon in profile.weapons
                        if weapon.mount.limited_ammo
                    ),
                    tv=(share if model_cost in paid else Fraction(0)) + model_cost.total,
                    weapons=tuple(match_weapon(weapon) for weapon in profile.weapons),
                    figures=model_figures(profile.model, catalog),
                )
            )
        groups.append(GroupSpec(name=group_cost.name, units=tuple(units), tv=group_cost.total))
    return SideSpec(
        roster_name=roster.name,
        faction=(faction.short or faction.name) if faction else roster.faction,
        groups=tuple(groups),
        tv=cost.total,
        tv_complete=cost.complete,
        grenade=hand_grenade(catalog),
    )


def model_figures(model_id: str, catalog: Catalog) -> ModelFigures:
    """A model's datacard figures as a match records them: Size, Sensors, the movement modifiers
    of each mode and speed, its perks and its faction's (empty for a model the data lacks)."""
    model = catalog.models.get(model_id)
    if model is None:
        return ModelFigures()
    return ModelFigures(
        size=model.size,
        sensors=model.sensors,
        movement=tuple(
            MovementFigures(line.mode, line.speed, line.attack_modifier, line.defense_modifier)
            for line in model.movement
        ),
        perks=tuple(sorted(catalog.perks_of(model_id))),
    )


def hand_grenade(catalog: Catalog) -> MatchWeapon:
    """The Hand Grenade a match offers a model the data gives no grenade: its figures as the data
    has them (none when the data has no Hand Grenade)."""
    weapon = catalog.weapons.get(HAND_GRENADE)
    if weapon is None:
        return MatchWeapon(HAND_GRENADE, "Hand Grenade")
    return match_weapon(ProfileWeapon(Mount(HAND_GRENADE), weapon))


def match_weapon(weapon: ProfileWeapon) -> MatchWeapon:
    """A mounted weapon as a match records it: mount and arsenal figures, copied."""
    mount, arsenal = weapon.mount, weapon.weapon
    ranges = arsenal.ranges if arsenal else None
    notes = arsenal.notes if arsenal else ""
    if mount.note and mount.note.lower() not in notes.lower():  # the list's words, if new
        notes = f"{mount.note[:1].upper()}{mount.note[1:]}. {notes}".strip()
    return MatchWeapon(
        code=weapon.code,
        name=weapon.name,
        arc=mount.arc,
        reloads=mount.reloads,
        limited_ammo=mount.limited_ammo,
        dm=weapon.dm,
        accuracy=weapon.accuracy,
        rof=weapon.rof,
        ranges=tuple(getattr(ranges, band) for band in RANGE_BANDS)
        if ranges and ranges.provided
        else (),
        traits=tuple(arsenal.traits or ()) if arsenal else (),
        parts=tuple(arsenal.parts) if arsenal else (),
        notes=notes,
    )
