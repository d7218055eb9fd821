"""Army rosters: value types, TV cost, legality, changes, presets and model profiles.

A roster is a frozen value: every change returns a new one. Rosters hold ids (stable strings from
the data files) plus the display names they were built with, so a roster stored as JSON still loads
when the data later drops an entry: unknown ids are kept, shown by their stored names, and reported
as problems. Validation warns, it never refuses to represent a roster: ``roster_problems`` lists
every broken rule as a plain sentence. The changes refuse only what cannot be done at all (an option
the model cannot take, an index out of range), with a RulesError.

TV: a squad's printed TV pays for its printed composition; options and group upgrades add their own
TV change. The texts give no per-model TV, so a model beyond the printed composition costs its
``tv`` if a host data file gives one, and otherwise the cost is incomplete (``complete`` False).

Indexes in the API are 0-based; sentences number groups and models from 1 ("Combat Group 2").

Choosing an option that shares a ``choice`` with one the model already has (MAC, FGC or RFB for a
Warrior's single LAC; one swap per Spitting Cobra) replaces it: a player who picks the FGC expects
it to take the MAC's place.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rules.bounds import check_room_for_group, check_room_for_model
from rules.catalog import (
    Catalog,
    Limit,
    Model,
    Mount,
    MovementLine,
    Ranges,
    Skills,
    Squad,
    Weapon,
    number_word,
    sentence_case,
    with_article,
)
from rules.errors import RulesError

FORMAT_VERSION = 1
MAX_TV_LIMIT = 10000
MAX_NAME_LENGTH = 200

LIMIT_CODES = frozenset(
    {"limit_too_many", "army_limit_too_many", "over_tv_limit", "group_too_large"}
)
"""Problem codes that mean "this choice breaks a limit" (used by the available_* helpers)."""


# --- Value types ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelEntry:
    """A model in a combat group: its model id and the ids of the options it takes.

    ``model_name`` and ``option_names`` are the display names it was built or stored with; they are
    shown when an id is no longer in the data, and take no part in equality.
    """

    model: str
    options: tuple[str, ...] = ()
    model_name: str = field(default="", compare=False)
    option_names: tuple[str, ...] = field(default=(), compare=False)

    def stored_option_name(self, index: int) -> str:
        return _stored_name(self.options, self.option_names, index)


@dataclass(frozen=True)
class CombatGroup:
    """A combat group: a squad of the data, its models, and the ids of its group upgrades."""

    squad: str
    models: tuple[ModelEntry, ...] = ()
    upgrades: tuple[str, ...] = ()
    squad_name: str = field(default="", compare=False)
    upgrade_names: tuple[str, ...] = field(default=(), compare=False)

    def stored_upgrade_name(self, index: int) -> str:
        return _stored_name(self.upgrades, self.upgrade_names, index)


def _stored_name(ids: tuple[str, ...], names: tuple[str, ...], index: int) -> str:
    """The display name stored beside id ``index``, or the id when none was stored."""
    if index < len(names) and names[index]:
        return names[index]
    return ids[index]


@dataclass(frozen=True)
class Roster:
    """An army. ``data_version`` and ``data_fingerprint`` record the data it was last built with."""

    faction: str
    tv_limit: int
    groups: tuple[CombatGroup, ...] = ()
    name: str = ""
    data_version: str = field(default="", compare=False)
    data_fingerprint: str = field(default="", compare=False)


@dataclass(frozen=True)
class Problem:
    """A broken rule or a gap, in a plain sentence. ``group``/``model`` are 0-based or None."""

    code: str
    message: str
    group: int | None = None
    model: int | None = None


@dataclass(frozen=True)
class CostItem:
    """One priced thing: an option or an upgrade, with its TV change."""

    id: str
    label: str
    tv: int
    known: bool = True
    note: str = ""


@dataclass(frozen=True)
class ModelCost:
    """What a model adds to its group: its own TV (0 when the squad's TV pays for it), options."""

    index: int
    model: str
    name: str
    tv: int
    in_squad_tv: bool
    tv_known: bool
    options: tuple[CostItem, ...]
    total: int


@dataclass(frozen=True)
class GroupCost:
    index: int
    squad: str
    name: str
    base: int
    upgrades: tuple[CostItem, ...]
    models: tuple[ModelCost, ...]
    total: int


@dataclass(frozen=True)
class RosterCost:
    """The army's TV and where every point goes. ``total`` is the sum of the breakdown.

    ``complete`` is False when something could not be priced (``gaps`` says what, in sentences).
    """

    total: int
    groups: tuple[GroupCost, ...]
    complete: bool
    gaps: tuple[str, ...] = ()


@dataclass(frozen=True)
class OptionChoice:
    """An option a model may take, as the builder offers it."""

    id: str
    label: str
    tv: int
    tv_printed: bool
    tv_note: str
    chosen: bool
    replaces: tuple[str, ...] = ()
    breaks: tuple[str, ...] = ()

    @property
    def would_break_limit(self) -> bool:
        return bool(self.breaks)


@dataclass(frozen=True)
class UpgradeChoice:
    """A group upgrade a combat group may take, as the builder offers it."""

    id: str
    label: str
    tv: int
    tv_printed: bool
    tv_note: str
    chosen: bool
    breaks: tuple[str, ...] = ()

    @property
    def would_break_limit(self) -> bool:
        return bool(self.breaks)


@dataclass(frozen=True)
class ProfileWeapon:
    """A weapon a model carries: its mount (arc, ammo) and arsenal figures (None: not given)."""

    mount: Mount
    weapon: Weapon | None

    @property
    def code(self) -> str:
        return self.mount.weapon

    @property
    def name(self) -> str:
        return self.weapon.name if self.weapon else self.mount.weapon

    @property
    def dm(self) -> int | None:
        return self.weapon.dm if self.weapon else None

    @property
    def accuracy(self) -> int | None:
        return self.weapon.accuracy if self.weapon else None

    @property
    def ranges(self) -> Ranges:
        return self.weapon.ranges if self.weapon else Ranges()

    @property
    def rof(self) -> int | None:
        return self.weapon.rof if self.weapon else None


@dataclass(frozen=True)
class ModelProfile:
    """A model as it plays: skills after upgrades, weapons after swaps, damage track, figures."""

    group: int
    index: int
    model: str
    name: str
    known: bool
    leader: bool
    skills: Skills
    weapons: tuple[ProfileWeapon, ...]
    loadout_complete: bool
    damage_track: tuple[str, ...]
    armor: int | None
    size: int | None
    sensors: int | None
    movement: tuple[MovementLine, ...]
    options: tuple[str, ...]


# --- Sentences ------------------------------------------------------------------------------------


def _plural(name: str, count: int) -> str:
    if count == 1:
        return name
    if name.endswith("y") and name[-2:-1].lower() not in "aeiou":
        return name[:-1] + "ies"
    return name + "s"


def _at(group: int, model: int | None = None) -> str:
    if model is None:
        return f"(Combat Group {group + 1})"
    return f"(Combat Group {group + 1}, model {model + 1})"


# --- Reading a group against the data -------------------------------------------------------------


@dataclass(frozen=True)
class _Member:
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


def _members(group: CombatGroup, squad: Squad | None, catalog: Catalog) -> list[_Member]:
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
        members.append(_Member(index, entry, model, in_tv, leader, effective))
    return members


def _model_label(member: _Member) -> str:
    if member.effective is not None:
        return member.effective.name
    return member.entry.model_name or member.entry.model


def _squad_label(group: CombatGroup, catalog: Catalog) -> str:
    squad = catalog.squads.get(group.squad)
    return squad.name if squad else (group.squad_name or group.squad)


# --- Cost -----------------------------------------------------------------------------------------


def roster_cost(roster: Roster, catalog: Catalog) -> RosterCost:
    """The army's TV with a breakdown per combat group, upgrade, model and option."""
    return _cost(roster, catalog)[0]


def _cost(roster: Roster, catalog: Catalog) -> tuple[RosterCost, list[Problem]]:
    """The cost, and the gaps as problems (code "tv_not_given" for a model the texts do not
    price; "unpriced" for an id no longer in the data, which roster_problems reports apart)."""
    gaps: list[Problem] = []
    groups = [
        _group_cost(group_index, group, catalog, gaps)
        for group_index, group in enumerate(roster.groups)
    ]
    cost = RosterCost(
        total=sum(group.total for group in groups),
        groups=tuple(groups),
        complete=not gaps,
        gaps=tuple(gap.message for gap in gaps),
    )
    return cost, gaps


def _group_cost(
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
    for member in _members(group, squad, catalog):
        models.append(_model_cost(member, group_index, squad, catalog, gaps))
    total = base + sum(item.tv for item in upgrades) + sum(model.total for model in models)
    return GroupCost(
        index=group_index,
        squad=group.squad,
        name=_squad_label(group, catalog),
        base=base,
        upgrades=tuple(upgrades),
        models=tuple(models),
        total=total,
    )


def _model_cost(
    member: _Member, group_index: int, squad: Squad | None, catalog: Catalog, gaps: list[Problem]
) -> ModelCost:
    entry = member.entry
    name = _model_label(member)
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


# --- Legality -------------------------------------------------------------------------------------


def roster_problems(roster: Roster, catalog: Catalog) -> tuple[Problem, ...]:
    """Every broken rule and every gap of the roster, each in a plain sentence."""
    problems: list[Problem] = []
    faction = catalog.factions.get(roster.faction)
    if faction is None:
        problems.append(
            Problem(
                "unknown_faction",
                f"The army's faction '{roster.faction}' is not in the current data.",
            )
        )
    for group_index, group in enumerate(roster.groups):
        _group_problems(roster, group_index, group, catalog, problems)
    problems.extend(_army_limit_problems(roster, catalog))
    cost, gaps = _cost(roster, catalog)
    problems.extend(gap for gap in gaps if gap.code == "tv_not_given")
    over = _over_limit(roster, cost.total, cost.complete)
    if over:
        problems.append(over)
    return tuple(problems)


def _army_limit_problems(roster: Roster, catalog: Catalog) -> list[Problem]:
    """The faction's army-wide limits (one veteran command squad, three Armored Jackets)."""
    faction = catalog.factions.get(roster.faction)
    if faction is None:
        return []
    problems = []
    for limit in faction.limits:
        count = 0
        for group in roster.groups:
            if limit.upgrades and any(u in limit.upgrades for u in group.upgrades):
                count += 1
            if limit.options:
                for entry in group.models:
                    if any(o in limit.options for o in entry.options):
                        count += 1
        message = _limit_message(limit, count, "", -1)
        if message:
            code = "army_limit_too_many" if message[0] == "many" else "army_limit_too_few"
            problems.append(Problem(code, message[1]))
    return problems


def _over_limit(roster: Roster, total: int, complete: bool) -> Problem | None:
    if total <= roster.tv_limit:
        return None
    at_least = "" if complete else "at least "
    return Problem(
        "over_tv_limit",
        f"The army costs {at_least}{total} TV, over its {roster.tv_limit} TV limit.",
    )


def roster_is_legal(roster: Roster, catalog: Catalog) -> bool:
    """True when the roster has no problems at all."""
    return not roster_problems(roster, catalog)


def _limit_message(
    limit: Limit, count: int, squad_name: str, group_index: int
) -> tuple[str, str] | None:
    """("many" or "few", the sentence) when ``count`` breaks the limit, else None."""
    values = {
        "count": number_word(count),
        "max": number_word(limit.max) if limit.max is not None else "",
        "min": number_word(limit.min) if limit.min is not None else "",
        "squad": squad_name,
        "group": group_index + 1,
    }
    if limit.max is not None and count > limit.max:
        return ("many", sentence_case(limit.too_many.format(**values)))
    if limit.min is not None and count < limit.min:
        return ("few", sentence_case(limit.too_few.format(**values)))
    return None


def _group_problems(
    roster: Roster, group_index: int, group: CombatGroup, catalog: Catalog, out: list[Problem]
) -> None:
    g = group_index
    squad = catalog.squads.get(group.squad)
    size = len(group.models)
    most = catalog.rules.max_group_size
    if size > most:
        out.append(
            Problem(
                "group_too_large",
                f"Combat Group {g + 1} has {size} models; a combat group holds at most {most}.",
                g,
            )
        )
    if squad is None:
        out.append(
            Problem(
                "unknown_squad",
                f"Combat Group {g + 1}'s squad, {group.squad_name or group.squad}, is not in the "
                "current data; shown as stored.",
                g,
            )
        )
    elif squad.faction != roster.faction and roster.faction in catalog.factions:
        theirs = catalog.factions.get(squad.faction)
        ours = catalog.factions[roster.faction]
        out.append(
            Problem(
                "wrong_faction",
                f"Combat Group {g + 1} is {with_article(theirs.name if theirs else squad.faction)} "
                f"squad ({squad.name}); this is {with_article(ours.name)} army.",
                g,
            )
        )

    # Group upgrades.
    seen_upgrades: set[str] = set()
    for position, upgrade_id in enumerate(group.upgrades):
        upgrade = catalog.upgrades.get(upgrade_id)
        if upgrade is None:
            out.append(
                Problem(
                    "unknown_upgrade",
                    f"The upgrade {group.stored_upgrade_name(position)} of Combat Group {g + 1} "
                    "is not in the current data; shown as stored.",
                    g,
                )
            )
        elif squad is not None and upgrade_id not in squad.upgrades:
            out.append(
                Problem(
                    "upgrade_not_allowed",
                    f'"{upgrade.label}" is not an upgrade of the {squad.name} {_at(g)}.',
                    g,
                )
            )
        if upgrade_id in seen_upgrades:
            out.append(
                Problem(
                    "duplicate_upgrade",
                    f"Combat Group {g + 1} takes the upgrade "
                    f"{upgrade.label if upgrade else upgrade_id} twice.",
                    g,
                )
            )
        seen_upgrades.add(upgrade_id)

    members = _members(group, squad, catalog)

    # Composition.
    if squad is not None:
        counts: dict[str, int] = {}
        for member in members:
            counts[member.entry.model] = counts.get(member.entry.model, 0) + 1
        for slot in squad.slots:
            have = counts.get(slot.model, 0)
            if have != slot.count:
                model = catalog.models.get(slot.model)
                name = model.name if model else slot.model
                has = f"has {have} {_plural(name, have)}" if have else f"has no {name}"
                out.append(
                    Problem(
                        "missing_models" if have < slot.count else "extra_models",
                        f"Combat Group {g + 1} {has}; the {squad.name} has {slot.count}.",
                        g,
                    )
                )
    for member in members:
        m = member.index
        if member.model is None:
            out.append(
                Problem(
                    "unknown_model",
                    f"Model {m + 1} of Combat Group {g + 1}, "
                    f"{member.entry.model_name or member.entry.model}, is not in the current "
                    "data; shown as stored.",
                    g,
                    m,
                )
            )
        elif squad is not None and squad.slot_for(member.entry.model) is None:
            out.append(
                Problem(
                    "model_not_in_squad",
                    f"Combat Group {g + 1} has {with_article(member.model.name)} (model {m + 1}), "
                    f"which the {squad.name} does not include.",
                    g,
                    m,
                )
            )
        _option_problems(member, g, squad, catalog, out)

    # Squad limits.
    if squad is not None:
        for limit in squad.limits:
            count = 0
            if limit.options:
                for member in members:
                    if any(o in limit.options for o in member.entry.options):
                        count += 1
            if limit.upgrades and any(u in limit.upgrades for u in group.upgrades):
                count += 1
            message = _limit_message(limit, count, squad.name, g)
            if message:
                code = "limit_too_many" if message[0] == "many" else "limit_too_few"
                out.append(Problem(code, message[1], g))


def _option_problems(
    member: _Member, g: int, squad: Squad | None, catalog: Catalog, out: list[Problem]
) -> None:
    entry = member.entry
    m = member.index
    if not entry.options:
        return
    choices: dict[str, str] = {}
    seen: set[str] = set()
    for position, option_id in enumerate(entry.options):
        option = catalog.options.get(option_id)
        if option is None:
            out.append(
                Problem(
                    "unknown_option",
                    f"The option {entry.stored_option_name(position)} of model {m + 1} of "
                    f"Combat Group {g + 1} is not in the current data; shown as stored.",
                    g,
                    m,
                )
            )
            continue
        if option_id in seen:
            out.append(
                Problem(
                    "duplicate_option",
                    f'{sentence_case(with_article(_model_label(member)))} takes "{option.label}" '
                    f"twice {_at(g, m)}.",
                    g,
                    m,
                )
            )
            continue
        seen.add(option_id)
        if squad is not None and option_id not in squad.options:
            out.append(
                Problem(
                    "option_not_in_squad",
                    f'"{option.label}" is not an option of the {squad.name} {_at(g, m)}.',
                    g,
                    m,
                )
            )
        elif member.effective is not None:
            refusal = catalog.refusal(member.effective.id, option_id)
            if refusal:
                out.append(Problem("option_not_allowed", f"{refusal[:-1]} {_at(g, m)}.", g, m))
        if option.choice is not None:
            other = choices.get(option.choice)
            if other is not None:
                out.append(
                    Problem(
                        "option_conflict",
                        f"{sentence_case(with_article(_model_label(member)))} may take only one "
                        f'of "{other}" and "{option.label}" {_at(g, m)}.',
                        g,
                        m,
                    )
                )
            else:
                choices[option.choice] = option.label


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
        option_names=tuple(_option_label(catalog, option_id) for option_id in options),
    )


def _option_label(catalog: Catalog, option_id: str, stored: str = "") -> str:
    option = catalog.options.get(option_id)
    return option.label if option else (stored or option_id)


def _upgrade_label(catalog: Catalog, upgrade_id: str, stored: str = "") -> str:
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
        upgrade_names=tuple(_upgrade_label(catalog, upgrade_id) for upgrade_id in upgrades),
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
    roster = Roster(faction=faction_id, tv_limit=_check_tv_limit(limit), name=_check_name(name))
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


def _group_at(roster: Roster, group_index: int) -> CombatGroup:
    _check_index(group_index, len(roster.groups), "Combat Group")
    return roster.groups[group_index]


def _entry_at(roster: Roster, group_index: int, model_index: int) -> ModelEntry:
    group = _group_at(roster, group_index)
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
    _group_at(roster, group_index)
    groups = roster.groups[:group_index] + roster.groups[group_index + 1 :]
    return replace(roster, groups=groups)


def add_model(roster: Roster, catalog: Catalog, group_index: int, model_id: str) -> Roster:
    """Add a model at the end of a combat group (beyond the printed composition it is flagged)."""
    group = _group_at(roster, group_index)
    if model_id not in catalog.models:
        raise RulesError(f"There is no model '{model_id}' in the game data.")
    check_room_for_model(roster, group_index)
    group = replace(group, models=(*group.models, _entry(catalog, model_id)))
    return _stamp(_with_group(roster, group_index, group), catalog)


def remove_model(roster: Roster, group_index: int, model_index: int) -> Roster:
    """Remove a model from a combat group."""
    group = _group_at(roster, group_index)
    _entry_at(roster, group_index, model_index)
    models = group.models[:model_index] + group.models[model_index + 1 :]
    return _with_group(roster, group_index, replace(group, models=models))


def _effective_member(
    roster: Roster, catalog: Catalog, group_index: int, model_index: int
) -> tuple[CombatGroup, Squad | None, _Member]:
    group = _group_at(roster, group_index)
    _entry_at(roster, group_index, model_index)
    squad = catalog.squads.get(group.squad)
    member = _members(group, squad, catalog)[model_index]
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
    group, squad, member = _effective_member(roster, catalog, group_index, model_index)
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
    group = _group_at(roster, group_index)
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


def _check_name(name: object) -> str:
    if not isinstance(name, str):
        raise RulesError(f"An army's name is text; got {name!r}.")
    name = name.strip()
    if len(name) > MAX_NAME_LENGTH:
        raise RulesError(f"An army's name has at most {MAX_NAME_LENGTH} characters.")
    return name


def _check_tv_limit(tv_limit: object) -> int:
    if isinstance(tv_limit, bool) or not isinstance(tv_limit, int):
        raise RulesError(f"A TV limit is a whole number; got {tv_limit!r}.")
    if not 1 <= tv_limit <= MAX_TV_LIMIT:
        raise RulesError(f"A TV limit is a whole number from 1 to {MAX_TV_LIMIT}; got {tv_limit}.")
    return tv_limit


def rename(roster: Roster, name: str) -> Roster:
    """Give the army a name (text, at most 200 characters, spaces trimmed)."""
    return replace(roster, name=_check_name(name))


def set_tv_limit(roster: Roster, tv_limit: int) -> Roster:
    """Set the army's TV limit: a whole number from 1 to 10000."""
    return replace(roster, tv_limit=_check_tv_limit(tv_limit))


# --- What the builder offers ----------------------------------------------------------------------


@dataclass(frozen=True)
class OfferBaseline:
    """What the builder's offers compare against: the roster's current problems and TV.

    Make it once with ``offer_baseline`` and pass it to ``available_options`` and
    ``available_group_upgrades`` for every model of a page: each offer then re-checks only the
    group it changes, the army-wide limits and the TV limit.
    """

    messages: frozenset[str]
    total: int
    complete: bool
    group_totals: tuple[int, ...]


def offer_baseline(roster: Roster, catalog: Catalog) -> OfferBaseline:
    cost = roster_cost(roster, catalog)
    return OfferBaseline(
        messages=frozenset(problem.message for problem in roster_problems(roster, catalog)),
        total=cost.total,
        complete=cost.complete,
        group_totals=tuple(group.total for group in cost.groups),
    )


def _new_breaks(
    base: OfferBaseline, taken: Roster, catalog: Catalog, group_index: int
) -> tuple[str, ...]:
    """The limits that ``taken`` (the roster with one change to one group) breaks anew."""
    return tuple(
        problem.message for problem in _new_break_problems(base, taken, catalog, group_index)
    )


def _new_break_problems(
    base: OfferBaseline, taken: Roster, catalog: Catalog, group_index: int
) -> tuple[Problem, ...]:
    after: list[Problem] = []
    _group_problems(taken, group_index, taken.groups[group_index], catalog, after)
    after.extend(_army_limit_problems(taken, catalog))
    group_total = _group_cost(group_index, taken.groups[group_index], catalog, []).total
    total = base.total - base.group_totals[group_index] + group_total
    over = _over_limit(taken, total, base.complete)
    if over:
        after.append(over)
    return tuple(
        problem
        for problem in after
        if problem.code in LIMIT_CODES and problem.message not in base.messages
    )


def available_options(
    roster: Roster,
    catalog: Catalog,
    group_index: int,
    model_index: int,
    baseline: OfferBaseline | None = None,
) -> tuple[OptionChoice, ...]:
    """The options this model may take, in the squad's order, with TV change, chosen flag, the
    options taking it would replace, and the limits taking it now would break."""
    group, squad, member = _effective_member(roster, catalog, group_index, model_index)
    if squad is None or member.effective is None:
        return ()
    base = baseline or offer_baseline(roster, catalog)
    out = []
    for option_id in squad.options:
        option = catalog.options[option_id]
        if catalog.refusal(member.effective.id, option_id):
            continue
        chosen = option_id in member.entry.options
        replaces: tuple[str, ...] = ()
        breaks: tuple[str, ...] = ()
        if not chosen:
            if option.choice is not None:
                replaces = tuple(
                    other
                    for other in member.entry.options
                    if other in catalog.options and catalog.options[other].choice == option.choice
                )
            taken = set_option(roster, catalog, group_index, model_index, option_id, True)
            breaks = _new_breaks(base, taken, catalog, group_index)
        out.append(
            OptionChoice(
                id=option_id,
                label=option.label,
                tv=option.tv,
                tv_printed=option.tv_printed,
                tv_note=option.tv_note,
                chosen=chosen,
                replaces=replaces,
                breaks=breaks,
            )
        )
    return tuple(out)


def available_group_upgrades(
    roster: Roster, catalog: Catalog, group_index: int, baseline: OfferBaseline | None = None
) -> tuple[UpgradeChoice, ...]:
    """The upgrades this combat group may take, with TV, chosen flag and limits they would break."""
    group = _group_at(roster, group_index)
    squad = catalog.squads.get(group.squad)
    if squad is None:
        return ()
    base = baseline or offer_baseline(roster, catalog)
    out = []
    for upgrade_id in squad.upgrades:
        upgrade = catalog.upgrades[upgrade_id]
        chosen = upgrade_id in group.upgrades
        breaks: tuple[str, ...] = ()
        if not chosen:
            taken = set_group_upgrade(roster, catalog, group_index, upgrade_id, True)
            breaks = _new_breaks(base, taken, catalog, group_index)
        out.append(
            UpgradeChoice(
                id=upgrade_id,
                label=upgrade.label,
                tv=upgrade.tv,
                tv_printed=upgrade.tv_printed,
                tv_note=upgrade.tv_note,
                chosen=chosen,
                breaks=breaks,
            )
        )
    return tuple(out)


def identical_models(
    roster: Roster, catalog: Catalog, group_index: int, model_index: int
) -> tuple[int, ...]:
    """The models of the group identical to this one (the same model, as leader or not, with the
    same options), this one included, in the group's order."""
    group, squad, member = _effective_member(roster, catalog, group_index, model_index)

    def signature(other: _Member) -> tuple:
        effective = other.effective.id if other.effective else other.entry.model
        return (other.entry.model, effective, other.leader, frozenset(other.entry.options))

    mine = signature(member)
    return tuple(
        other.index for other in _members(group, squad, catalog) if signature(other) == mine
    )


@dataclass(frozen=True)
class BulkChoice:
    """An option offered to every identical model of a group at once ("Apply to all 3 Hunters").

    ``chosen`` True means they all have it and the offer drops it from all of them. ``breaks``
    holds only the TV limit the change would break: a bulk change that would break a limit on how
    many models may take an option is not offered (``set_option_for_identical`` refuses it).
    """

    id: str
    label: str
    chosen: bool
    models: tuple[int, ...]
    name: str
    breaks: tuple[str, ...] = ()

    @property
    def count(self) -> int:
        return len(self.models)


def _bulk_refusal(
    roster: Roster,
    catalog: Catalog,
    group_index: int,
    models: tuple[int, ...],
    option_id: str,
    chosen: bool,
    base: OfferBaseline,
) -> tuple[Roster, tuple[str, ...], str]:
    """The roster with the option taken or dropped for ``models``, the limits it breaks anew,
    and why the change is refused ("" when it is allowed)."""
    taken = roster
    for m in models:
        taken = set_option(taken, catalog, group_index, m, option_id, chosen)
    problems = _new_break_problems(base, taken, catalog, group_index)
    breaks = tuple(problem.message for problem in problems)
    counted = [problem.message for problem in problems if problem.code != "over_tv_limit"]
    if counted:
        member = _members(roster.groups[group_index], None, catalog)[models[0]]
        name = _plural(_model_label(member), len(models))
        label = _option_label(catalog, option_id)
        numbers = [str(m + 1) for m in models]
        which = ", ".join(numbers[:-1]) + " and " + numbers[-1]
        every = "both" if len(models) == 2 else "all"
        return (
            taken,
            breaks,
            f"The {number_word(len(models))} {name} (models {which}) of Combat Group "
            f'{group_index + 1} cannot {every} take "{label}": {" ".join(counted)}',
        )
    return taken, breaks, ""


def set_option_for_identical(
    roster: Roster,
    catalog: Catalog,
    group_index: int,
    model_index: int,
    option_id: str,
    chosen: bool,
) -> Roster:
    """Take or drop an option for this model and every identical model of its group, as one
    change. Refused with a RulesError when one of them cannot take it at all, or when taking it
    for all of them would break a limit on how many models may take it (going over the TV limit
    is allowed and shows in roster_problems, as for one model)."""
    models = identical_models(roster, catalog, group_index, model_index)
    base = offer_baseline(roster, catalog)
    taken, _, refusal = _bulk_refusal(roster, catalog, group_index, models, option_id, chosen, base)
    if refusal:
        raise RulesError(refusal)
    return taken


def available_bulk_options(
    roster: Roster,
    catalog: Catalog,
    group_index: int,
    model_index: int,
    baseline: OfferBaseline | None = None,
) -> tuple[BulkChoice, ...]:
    """The options this model and every identical model of its group may take (or drop)
    together; empty when the model has no identical model in its group."""
    models = identical_models(roster, catalog, group_index, model_index)
    if len(models) < 2:
        return ()
    group, squad, member = _effective_member(roster, catalog, group_index, model_index)
    if squad is None or member.effective is None:
        return ()
    base = baseline or offer_baseline(roster, catalog)
    out = []
    for option_id in squad.options:
        if catalog.refusal(member.effective.id, option_id):
            continue
        chosen = option_id in member.entry.options
        _, breaks, refusal = _bulk_refusal(
            roster, catalog, group_index, models, option_id, not chosen, base
        )
        if refusal:
            continue
        out.append(
            BulkChoice(
                id=option_id,
                label=catalog.options[option_id].label,
                chosen=chosen,
                models=models,
                name=_plural(_model_label(member), len(models)),
                breaks=breaks,
            )
        )
    return tuple(out)


# --- Model profile --------------------------------------------------------------------------------


def model_profile(
    roster: Roster, catalog: Catalog, group_index: int, model_index: int
) -> ModelProfile:
    """The model as it plays: name, skills after upgrades, weapons after swaps and their side
    effects (each weapon's figures, None where the texts give none), damage track, Armor."""
    group, squad, member = _effective_member(roster, catalog, group_index, model_index)
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
        name=_model_label(member),
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


# --- Stored form ----------------------------------------------------------------------------------


def roster_to_dict(roster: Roster) -> dict[str, Any]:
    """The roster as plain JSON types, with display names so it survives data changes."""
    return {
        "format": FORMAT_VERSION,
        "name": roster.name,
        "faction": roster.faction,
        "tv_limit": roster.tv_limit,
        "data": {"version": roster.data_version, "fingerprint": roster.data_fingerprint},
        "groups": [
            {
                "squad": group.squad,
                "name": group.squad_name or group.squad,
                "upgrades": [
                    {"id": upgrade_id, "name": group.stored_upgrade_name(i)}
                    for i, upgrade_id in enumerate(group.upgrades)
                ],
                "models": [
                    {
                        "model": entry.model,
                        "name": entry.model_name or entry.model,
                        "options": [
                            {"id": option_id, "name": entry.stored_option_name(i)}
                            for i, option_id in enumerate(entry.options)
                        ],
                    }
                    for entry in group.models
                ],
            }
            for group in roster.groups
        ],
    }


def _require_type(value: Any, kind: type | tuple[type, ...], what: str, expected: str) -> Any:
    if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
        raise RulesError(f"In the stored roster, {what} must be {expected}; got {value!r}.")
    return value


def _stored_ref(item: Any, what: str) -> tuple[str, str]:
    """An option or upgrade as stored: "id" or {"id": ..., "name": ...}."""
    if isinstance(item, str) and item:
        return item, ""
    if isinstance(item, Mapping):
        ref = _require_type(item.get("id"), str, f"the id of {what}", "text")
        name = _require_type(item.get("name", ""), str, f"the name of {what}", "text")
        if ref:
            return ref, name
    raise RulesError(f"In the stored roster, {what} must be an id or an {{id, name}} object.")


def roster_from_dict(data: Any, catalog: Catalog) -> Roster:
    """Read a roster stored by roster_to_dict. Malformed input raises RulesError; ids no longer in
    the data are kept, with their stored names, and reported by roster_problems."""
    _require_type(data, Mapping, "the roster", "an object")
    version = data.get("format", FORMAT_VERSION)
    if version != FORMAT_VERSION:
        raise RulesError(
            f"The stored roster has format {version!r}; this version reads format {FORMAT_VERSION}."
        )
    faction = _require_type(data.get("faction"), str, "the faction", "text")
    if faction not in catalog.factions:
        raise RulesError(f"The stored roster's faction '{faction}' is not in the current data.")
    try:
        tv_limit = _check_tv_limit(data.get("tv_limit"))
        name = _check_name(data.get("name", ""))
    except RulesError as error:
        raise RulesError(f"In the stored roster: {error}") from None
    stored_data = data.get("data", {})
    _require_type(stored_data, Mapping, "'data'", "an object")
    data_version = _require_type(stored_data.get("version", ""), str, "the data version", "text")
    fingerprint = _require_type(
        stored_data.get("fingerprint", ""), str, "the data fingerprint", "text"
    )
    groups_data = _require_type(data.get("groups", []), list, "'groups'", "a list")
    groups = []
    for group_number, group_data in enumerate(groups_data, 1):
        where = f"Combat Group {group_number}"
        _require_type(group_data, Mapping, where, "an object")
        squad_id = _require_type(group_data.get("squad"), str, f"{where}'s squad", "text")
        squad_name = _require_type(group_data.get("name", ""), str, f"{where}'s name", "text")
        squad = catalog.squads.get(squad_id)
        upgrades_data = _require_type(
            group_data.get("upgrades", []), list, f"{where}'s upgrades", "a list"
        )
        upgrade_refs = [
            _stored_ref(item, f"upgrade {n} of {where}") for n, item in enumerate(upgrades_data, 1)
        ]
        models_data = _require_type(
            group_data.get("models", []), list, f"{where}'s models", "a list"
        )
        entries = []
        for model_number, model_data in enumerate(models_data, 1):
            at = f"model {model_number} of {where}"
            _require_type(model_data, Mapping, at, "an object")
            model_id = _require_type(model_data.get("model"), str, f"the model id of {at}", "text")
            model_name = _require_type(model_data.get("name", ""), str, f"the name of {at}", "text")
            options_data = _require_type(
                model_data.get("options", []), list, f"the options of {at}", "a list"
            )
            option_refs = [
                _stored_ref(item, f"option {n} of {at}") for n, item in enumerate(options_data, 1)
            ]
            model = catalog.models.get(model_id)
            entries.append(
                ModelEntry(
                    model=model_id,
                    options=tuple(ref for ref, _ in option_refs),
                    model_name=model.name if model else (model_name or model_id),
                    option_names=tuple(_option_label(catalog, ref, nm) for ref, nm in option_refs),
                )
            )
        groups.append(
            CombatGroup(
                squad=squad_id,
                models=tuple(entries),
                upgrades=tuple(ref for ref, _ in upgrade_refs),
                squad_name=squad.name if squad else (squad_name or squad_id),
                upgrade_names=tuple(_upgrade_label(catalog, ref, nm) for ref, nm in upgrade_refs),
            )
        )
    return Roster(
        faction=faction,
        tv_limit=tv_limit,
        groups=tuple(groups),
        name=name,
        data_version=data_version,
        data_fingerprint=fingerprint,
    )
