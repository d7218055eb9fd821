"""Building rosters (new, from a preset) and changing them: every change returns a new roster."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.errors import RulesError
from rules.hgb.army.members import (
    Member,
    group_members,
)
from rules.hgb.army.values import (
    MAX_NAME_LENGTH,
    MAX_TV_LIMIT,
    CombatGroup,
    ModelEntry,
    Roster,
)
from rules.hgb.bounds import check_room_for_group, check_room_for_model
from rules.hgb.catalog import (
    Catalog,
    Squad,
)

# --- Building rosters -----------------------------------------------------------------------------


def _stamp(roster: Roster, catalog: Catalog) -> Roster:
    if (
        roster.data_fingerprint == catalog.fingerprint
        and roster.data_version == catalog.data_version
    ):
        return roster
    return replace(roster, data_version=catalog.data_version, data_fingerprint=catalog.fingerprint)


def _entry(
    catalog: Catalog, model_id: str, options: list[str] | tuple[str, ...] = ()
) -> ModelEntry:
    model = catalog.models.get(model_id)
    return ModelEntry(
        model=model_id,
        options=tuple(options),
        model_name=model.name if model else model_id,
        option_names=tuple(option_label(catalog, option_id) for option_id in options),
    )


def option_label(catalog: Catalog, option_id: str, stored: str = "") -> str:
    option = catalog.options.get(option_id)
    return option.label if option else (stored or option_id)


def upgrade_label(catalog: Catalog, upgrade_id: str, stored: str = "") -> str:
    upgrade = catalog.upgrades.get(upgrade_id)
    return upgrade.label if upgrade else (stored or upgrade_id)


def _build_group(
    catalog: Catalog, squad: Squad, choices: tuple[Any, ...], upgrades: tuple[str, ...]
) -> CombatGroup:
    composition = squad.composition
    options: list[list[str]] = [[] for _ in composition]
    for choice in choices:
        seen = 0
        for index, model_id in enumerate(composition):
            if model_id == choice.model:
                seen += 1
                if seen == choice.nth:
                    if choice.option not in options[index]:
                        options[index].append(choice.option)
                    break
    return CombatGroup(
        squad=squad.id,
        models=tuple(
            _entry(catalog, model_id, options[index]) for index, model_id in enumerate(composition)
        ),
        upgrades=tuple(upgrades),
        squad_name=squad.name,
        upgrade_names=tuple(upgrade_label(catalog, upgrade_id) for upgrade_id in upgrades),
    )


def new_roster(
    catalog: Catalog, faction_id: str, name: str = "", tv_limit: int | None = None
) -> Roster:
    """An empty army of a faction, with the faction's TV limit unless one is given."""
    faction = catalog.factions.get(faction_id)
    if faction is None:
        raise RulesError(f"There is no faction '{faction_id}' in the game data.")
    limit = (
        tv_limit if tv_limit is not None else (faction.tv_limit or catalog.rules.default_tv_limit)
    )
    roster = Roster(faction=faction_id, tv_limit=check_tv_limit(limit), name=check_name(name))
    return _stamp(roster, catalog)


def preset_roster(catalog: Catalog, preset_id: str) -> Roster:
    """The starter force ``preset_id`` as printed (see ``catalog.presets``)."""
    preset = catalog.presets.get(preset_id)
    if preset is None:
        known = ", ".join(catalog.presets)
        raise RulesError(f"There is no starter force '{preset_id}'; the presets are: {known}.")
    faction = catalog.factions[preset.faction]
    groups = tuple(
        _build_group(catalog, catalog.squads[group.squad], group.options, group.upgrades)
        for group in preset.groups
    )
    roster = Roster(
        faction=preset.faction,
        tv_limit=faction.tv_limit or catalog.rules.default_tv_limit,
        groups=groups,
        name=preset.name,
    )
    return _stamp(roster, catalog)


# --- Changes --------------------------------------------------------------------------------------


def _check_index(index: object, size: int, what: str) -> int:
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < size:
        raise RulesError(f"There is no {what} {_human(index)}; there are {size}.")
    return index


def _human(index: object) -> str:
    return str(index + 1) if isinstance(index, int) and not isinstance(index, bool) else repr(index)


def group_at(roster: Roster, group_index: int) -> CombatGroup:
    _check_index(group_index, len(roster.groups), "Combat Group")
    return roster.groups[group_index]


def _entry_at(roster: Roster, group_index: int, model_index: int) -> ModelEntry:
    group = group_at(roster, group_index)
    if isinstance(model_index, bool) or not isinstance(model_index, int):
        raise RulesError(f"There is no model {model_index!r} in Combat Group {group_index + 1}.")
    if not 0 <= model_index < len(group.models):
        raise RulesError(
            f"There is no model {model_index + 1} in Combat Group {group_index + 1}; "
            f"it has {len(group.models)}."
        )
    return group.models[model_index]


def _with_group(roster: Roster, group_index: int, group: CombatGroup) -> Roster:
    groups = list(roster.groups)
    groups[group_index] = group
    return replace(roster, groups=tuple(groups))


def _with_entry(roster: Roster, group_index: int, model_index: int, entry: ModelEntry) -> Roster:
    group = roster.groups[group_index]
    models = list(group.models)
    models[model_index] = entry
    return _with_group(roster, group_index, replace(group, models=tuple(models)))


def add_group(roster: Roster, catalog: Catalog, squad_id: str) -> Roster:
    """Add a combat group: the squad's printed composition with its default (required) options."""
    squad = catalog.squads.get(squad_id)
    if squad is None:
        raise RulesError(f"There is no squad '{squad_id}' in the game data.")
    if squad.faction != roster.faction:
        theirs = catalog.factions.get(squad.faction)
        ours = catalog.factions.get(roster.faction)
        raise RulesError(
            f"The {squad.name} '{squad_id}' is a {theirs.name if theirs else squad.faction} "
            f"squad; this is a {ours.name if ours else roster.faction} army."
        )
    check_room_for_group(roster)
    group = _build_group(catalog, squad, squad.defaults, squad.default_upgrades)
    return _stamp(replace(roster, groups=(*roster.groups, group)), catalog)


def remove_group(roster: Roster, group_index: int) -> Roster:
    """Remove a combat group."""
    group_at(roster, group_index)
    groups = roster.groups[:group_index] + roster.groups[group_index + 1 :]
    return replace(roster, groups=groups)


def add_model(roster: Roster, catalog: Catalog, group_index: int, model_id: str) -> Roster:
    """Add a model at the end of a combat group (beyond the printed composition it is flagged)."""
    group = group_at(roster, group_index)
    if model_id not in catalog.models:
        raise RulesError(f"There is no model '{model_id}' in the game data.")
    check_room_for_model(roster, group_index)
    group = replace(group, models=(*group.models, _entry(catalog, model_id)))
    return _stamp(_with_group(roster, group_index, group), catalog)


def remove_model(roster: Roster, group_index: int, model_index: int) -> Roster:
    """Remove a model from a combat group."""
    group = group_at(roster, group_index)
    _entry_at(roster, group_index, model_index)
    models = group.models[:model_index] + group.models[model_index + 1 :]
    return _with_group(roster, group_index, replace(group, models=models))


def effective_member(
    roster: Roster, catalog: Catalog, group_index: int, model_index: int
) -> tuple[CombatGroup, Squad | None, Member]:
    group = group_at(roster, group_index)
    _entry_at(roster, group_index, model_index)
    squad = catalog.squads.get(group.squad)
    member = group_members(group, squad, catalog)[model_index]
    return group, squad, member


def set_option(
    roster: Roster,
    catalog: Catalog,
    group_index: int,
    model_index: int,
    option_id: str,
    chosen: bool,
) -> Roster:
    """Take (chosen=True) or drop an option for a model.

    Taking an option the model cannot take at all raises RulesError. Taking one of an exclusive
    choice replaces the model's other option of that choice. Breaking a limit is allowed: it shows
    in roster_problems. Dropping works for any stored id, even one no longer in the data.
    """
    group, squad, member = effective_member(roster, catalog, group_index, model_index)
    entry = member.entry
    if not chosen:
        if option_id not in entry.options:
            return roster
        keep = [i for i, o in enumerate(entry.options) if o != option_id]
        new_entry = replace(
            entry,
            options=tuple(entry.options[i] for i in keep),
            option_names=tuple(entry.stored_option_name(i) for i in keep),
        )
        return _stamp(_with_entry(roster, group_index, model_index, new_entry), catalog)
    where = f"Combat Group {group_index + 1}"
    if squad is None:
        raise RulesError(
            f"{where}'s squad is not in the current data, so its models cannot take options."
        )
    option = catalog.options.get(option_id)
    if option is None:
        raise RulesError(f"The {squad.name} has no option '{option_id}'.")
    if option_id not in squad.options:
        raise RulesError(f'"{option.label}" is not an option of the {squad.name}.')
    if member.effective is None:
        raise RulesError(
            f"Model {model_index + 1} of {where} is not in the current data, so it cannot take "
            "options."
        )
    refusal = catalog.refusal(member.effective.id, option_id)
    if refusal:
        raise RulesError(refusal)
    if option_id in entry.options:
        return _stamp(roster, catalog)
    keep = []
    for i, other_id in enumerate(entry.options):
        other = catalog.options.get(other_id)
        if option.choice is not None and other is not None and other.choice == option.choice:
            continue
        keep.append(i)
    new_entry = replace(
        entry,
        options=(*(entry.options[i] for i in keep), option_id),
        option_names=(*(entry.stored_option_name(i) for i in keep), option.label),
    )
    return _stamp(_with_entry(roster, group_index, model_index, new_entry), catalog)


def set_group_upgrade(
    roster: Roster, catalog: Catalog, group_index: int, upgrade_id: str, chosen: bool
) -> Roster:
    """Take or drop a group upgrade. An upgrade the squad does not offer raises RulesError;
    a second veteran command squad is allowed and shows in roster_problems."""
    group = group_at(roster, group_index)
    if not chosen:
        if upgrade_id not in group.upgrades:
            return roster
        keep = [i for i, u in enumerate(group.upgrades) if u != upgrade_id]
        group = replace(
            group,
            upgrades=tuple(group.upgrades[i] for i in keep),
            upgrade_names=tuple(group.stored_upgrade_name(i) for i in keep),
        )
        return _stamp(_with_group(roster, group_index, group), catalog)
    squad = catalog.squads.get(group.squad)
    if squad is None:
        raise RulesError(
            f"Combat Group {group_index + 1}'s squad is not in the current data, so it cannot "
            "take upgrades."
        )
    upgrade = catalog.upgrades.get(upgrade_id)
    if upgrade is None or upgrade_id not in squad.upgrades:
        label = f'"{upgrade.label}"' if upgrade else f"'{upgrade_id}'"
        raise RulesError(f"The {squad.name} has no upgrade {label}.")
    if upgrade_id in group.upgrades:
        return _stamp(roster, catalog)
    group = replace(
        group,
        upgrades=(*group.upgrades, upgrade_id),
        upgrade_names=(
            *(group.stored_upgrade_name(i) for i in range(len(group.upgrades))),
            upgrade.label,
        ),
    )
    return _stamp(_with_group(roster, group_index, group), catalog)


def check_name(name: object) -> str:
    if not isinstance(name, str):
        raise RulesError(f"An army's name is text; got {name!r}.")
    name = name.strip()
    if len(name) > MAX_NAME_LENGTH:
        raise RulesError(f"An army's name has at most {MAX_NAME_LENGTH} characters.")
    return name


def check_tv_limit(tv_limit: object) -> int:
    if isinstance(tv_limit, bool) or not isinstance(tv_limit, int):
        raise RulesError(f"A TV limit is a whole number; got {tv_limit!r}.")
    if not 1 <= tv_limit <= MAX_TV_LIMIT:
        raise RulesError(f"A TV limit is a whole number from 1 to {MAX_TV_LIMIT}; got {tv_limit}.")
    return tv_limit


def rename(roster: Roster, name: str) -> Roster:
    """Give the army a name (text, at most 200 characters, spaces trimmed)."""
    return replace(roster, name=check_name(name))


def set_tv_limit(roster: Roster, tv_limit: int) -> Roster:
    """Set the army's TV limit: a whole number from 1 to 10000."""
    return replace(roster, tv_limit=check_tv_limit(tv_limit))
