"""TV cost: printed squad TV, options and group upgrades, models beyond the printed composition."""

from __future__ import annotations

from rules.hgb.army.members import (
    Member,
    group_members,
    model_label,
    squad_label,
)
from rules.hgb.army.values import (
    CombatGroup,
    CostItem,
    GroupCost,
    ModelCost,
    Problem,
    Roster,
    RosterCost,
)
from rules.hgb.catalog import (
    Catalog,
    Squad,
    with_article,
)

# --- Cost -----------------------------------------------------------------------------------------


def roster_cost(roster: Roster, catalog: Catalog) -> RosterCost:
    """The army's TV with a breakdown per combat group, upgrade, model and option."""
    return cost_and_problems(roster, catalog)[0]


def cost_and_problems(roster: Roster, catalog: Catalog) -> tuple[RosterCost, list[Problem]]:
    """The cost, and the gaps as problems (code "tv_not_given" for a model the texts do not
    price; "unpriced" for an id no longer in the data, which roster_problems reports apart)."""
    gaps: list[Problem] = []
    groups = [
        group_cost(group_index, group, catalog, gaps)
        for group_index, group in enumerate(roster.groups)
    ]
    cost = RosterCost(
        total=sum(group.total for group in groups),
        groups=tuple(groups),
        complete=not gaps,
        gaps=tuple(gap.message for gap in gaps),
    )
    return cost, gaps


def group_cost(
    group_index: int, group: CombatGroup, catalog: Catalog, gaps: list[Problem]
) -> GroupCost:
    """One combat group's TV and its breakdown; gaps are added to ``gaps``."""
    squad = catalog.squads.get(group.squad)
    if squad is None:
        base = 0
        gaps.append(
            Problem(
                "unpriced",
                f"Combat Group {group_index + 1}'s squad, {group.squad_name or group.squad}, "
                "is not in the current data, so its TV is not counted.",
                group_index,
            )
        )
    else:
        base = squad.tv
    upgrades = []
    for position, upgrade_id in enumerate(group.upgrades):
        upgrade = catalog.upgrades.get(upgrade_id)
        if upgrade is None:
            label = group.stored_upgrade_name(position)
            upgrades.append(CostItem(upgrade_id, label, 0, known=False))
            gaps.append(
                Problem(
                    "unpriced",
                    f"The upgrade {label} of Combat Group {group_index + 1} is not in the "
                    "current data, so its TV is not counted.",
                    group_index,
                )
            )
        else:
            upgrades.append(CostItem(upgrade_id, upgrade.label, upgrade.tv, note=upgrade.tv_note))
    models = []
    for member in group_members(group, squad, catalog):
        models.append(_model_cost(member, group_index, squad, catalog, gaps))
    total = base + sum(item.tv for item in upgrades) + sum(model.total for model in models)
    return GroupCost(
        index=group_index,
        squad=group.squad,
        name=squad_label(group, catalog),
        base=base,
        upgrades=tuple(upgrades),
        models=tuple(models),
        total=total,
    )


def _model_cost(
    member: Member, group_index: int, squad: Squad | None, catalog: Catalog, gaps: list[Problem]
) -> ModelCost:
    entry = member.entry
    name = model_label(member)
    tv_known = True
    if member.in_squad_tv:
        tv = 0
    elif member.model is not None and member.model.tv is not None:
        tv = member.model.tv
    else:
        tv = 0
        tv_known = False
        if squad is not None:  # an unknown squad has its own gap sentence
            gaps.append(
                Problem(
                    "tv_not_given",
                    f"The texts do not give the TV of {with_article(name)}, so model "
                    f"{member.index + 1} of Combat Group {group_index + 1}, beyond the "
                    f"{squad.name}'s printed composition, is not counted.",
                    group_index,
                    member.index,
                )
            )
    options = []
    for position, option_id in enumerate(entry.options):
        option = catalog.options.get(option_id)
        if option is None:
            label = entry.stored_option_name(position)
            options.append(CostItem(option_id, label, 0, known=False))
            gaps.append(
                Problem(
                    "unpriced",
                    f"The option {label} of model {member.index + 1} of Combat Group "
                    f"{group_index + 1} is not in the current data, so its TV is not counted.",
                    group_index,
                    member.index,
                )
            )
        else:
            options.append(CostItem(option_id, option.label, option.tv, note=option.tv_note))
    return ModelCost(
        index=member.index,
        model=entry.model,
        name=name,
        tv=tv,
        in_squad_tv=member.in_squad_tv,
        tv_known=tv_known,
        options=tuple(options),
        total=tv + sum(item.tv for item in options),
    )
