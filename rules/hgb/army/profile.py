"""A model's profile as the datacard shows it: its figures and weapons with their options."""

from __future__ import annotations

from rules.hgb.army.changes import (
    effective_member,
)
from rules.hgb.army.members import (
    model_label,
)
from rules.hgb.army.values import (
    ModelProfile,
    ProfileWeapon,
    Roster,
)
from rules.hgb.catalog import (
    Catalog,
    Mount,
    Skills,
)

# --- Model profile --------------------------------------------------------------------------------


def model_profile(
    roster: Roster, catalog: Catalog, group_index: int, model_index: int
) -> ModelProfile:
    """The model as it plays: name, skills after upgrades, weapons after swaps and their side
    effects (each weapon's figures, None where the texts give none), damage track, Armor."""
    group, squad, member = effective_member(roster, catalog, group_index, model_index)
    model = member.effective
    entry = member.entry
    slot = squad.slot_for(entry.model) if squad else None
    skills = (slot.skills if slot else Skills()).over(catalog.rules.default_skills)
    for upgrade_id in group.upgrades:
        upgrade = catalog.upgrades.get(upgrade_id)
        if upgrade is None:
            continue
        if member.leader and not upgrade.leader_skills.empty:
            skills = upgrade.leader_skills.over(skills)
        else:
            skills = upgrade.skills.over(skills)
    mounts: list[Mount] = list(model.loadout) if model else []
    track: tuple[str, ...] = model.damage_track if model else catalog.rules.damage_track
    extra_sturdy = 0
    labels = []
    for position, option_id in enumerate(entry.options):
        option = catalog.options.get(option_id)
        if option is None:
            labels.append(entry.stored_option_name(position))
            continue
        labels.append(option.label)
        if model is None or catalog.refusal(model.id, option_id):
            continue
        at = len(mounts)
        for code in option.removes:
            for index, mount in enumerate(mounts):
                if mount.weapon == code:
                    del mounts[index]
                    at = min(at, index)
                    break
        # The new weapons take the place of the first weapon given up.
        mounts[at:at] = option.adds
        extra_sturdy += option.sturdy_boxes
    weapons = tuple(ProfileWeapon(mount, catalog.weapons.get(mount.weapon)) for mount in mounts)
    return ModelProfile(
        group=group_index,
        index=model_index,
        model=model.id if model else entry.model,
        name=model_label(member),
        known=model is not None,
        leader=member.leader,
        skills=skills,
        weapons=weapons,
        loadout_complete=model.loadout_complete if model else False,
        damage_track=("sturdy",) * extra_sturdy + track,
        armor=model.armor if model else None,
        size=model.size if model else None,
        sensors=model.sensors if model else None,
        movement=model.movement if model else (),
        options=tuple(labels),
    )
