"""Reading a combat group against the data: its leader and members, and their labels."""

from __future__ import annotations

from dataclasses import dataclass

from rules.hgb.army.values import (
    CombatGroup,
    ModelEntry,
)
from rules.hgb.catalog import (
    Catalog,
    Model,
    Squad,
)

# --- Reading a group against the data -------------------------------------------------------------


@dataclass(frozen=True)
class Member:
    index: int
    entry: ModelEntry
    model: Model | None
    in_squad_tv: bool
    leader: bool
    effective: Model | None


def _leader_model(group: CombatGroup, catalog: Catalog) -> Model | None:
    for upgrade_id in group.upgrades:
        upgrade = catalog.upgrades.get(upgrade_id)
        if upgrade is not None and upgrade.leader_model is not None:
            return catalog.models.get(upgrade.leader_model)
    return None


def group_members(group: CombatGroup, squad: Squad | None, catalog: Catalog) -> list[Member]:
    slots = {slot.model: slot for slot in squad.slots} if squad else {}
    leader_model = _leader_model(group, catalog) if group.upgrades else None
    seen: dict[str, int] = {}
    members = []
    models = catalog.models
    for index, entry in enumerate(group.models):
        model = models.get(entry.model)
        slot = slots.get(entry.model)
        earlier = seen.get(entry.model, 0)
        seen[entry.model] = earlier + 1
        in_tv = slot is not None and earlier < slot.count
        leader = slot is not None and slot.leader and earlier == 0
        effective = leader_model if leader and leader_model is not None else model
        members.append(Member(index, entry, model, in_tv, leader, effective))
    return members


def model_label(member: Member) -> str:
    if member.effective is not None:
        return member.effective.name
    return member.entry.model_name or member.entry.model


def squad_label(group: CombatGroup, catalog: Catalog) -> str:
    squad = catalog.squads.get(group.squad)
    return squad.name if squad else (group.squad_name or group.squad)
