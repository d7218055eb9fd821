"""Building the catalog's values from the entries read, and cross-checking them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.hgb.catalog.fields import (
    RULES_SCHEMA,
    SCHEMAS,
    SINGULAR,
)
from rules.hgb.catalog.reading import (
    Entry,
    Store,
    entry_error,
)
from rules.hgb.catalog.schema import (
    BOX_KINDS,
    KINDS,
    RANGE_BANDS,
    Choice,
    Faction,
    Limit,
    Model,
    Mount,
    MovementLine,
    Option,
    Preset,
    PresetGroup,
    Ranges,
    Skills,
    Slot,
    Squad,
    Upgrade,
    Weapon,
    option_refusal,
)

# --- Building and cross-checking ------------------------------------------------------------------


class _Checker:
    """Cross-reference checks over the merged entries; each error names file, entry, field."""

    def __init__(self, store: Store, built: dict[str, dict[str, Any]]) -> None:
        self.store = store
        self.entries = store.entries
        self.built = built

    def error(self, entry: Entry, path: tuple[str | int, ...], problem: str) -> None:
        file = entry.field_files.get(str(path[0]), entry.origin) if path else entry.origin
        self.store.errors.append(entry_error(file, entry.kind, entry.id, path, problem))

    def exists(self, kind: str, entry_id: str) -> bool:
        return entry_id in self.entries[kind]

    def ref(self, entry: Entry, path: tuple[str | int, ...], kind: str, entry_id: str) -> bool:
        if self.exists(kind, entry_id):
            return True
        known = ", ".join(sorted(self.entries[kind])) or "none"
        self.error(entry, path, f"names the unknown {SINGULAR[kind]} '{entry_id}' (known: {known})")
        return False


def check_required(store: Store) -> None:
    for kind in KINDS:
        for entry in store.entries[kind].values():
            for key, (_check, required) in SCHEMAS[kind].items():
                if required and key not in entry.fields:
                    store.errors.append(
                        entry_error(entry.origin, kind, entry.id, (key,), "is missing")
                    )
    for key, (_check, required) in RULES_SCHEMA.items():
        if required and key not in store.rules:
            store.errors.append(f"The data has no [rules] field '{key}'.")


def build_skills(table: Mapping[str, Any] | None) -> Skills:
    table = table or {}
    return Skills(
        att=table.get("att"), defense=table.get("def"), ew=table.get("ew"), ld=table.get("ld")
    )


def _mount(table: Mapping[str, Any]) -> Mount:
    return Mount(
        weapon=table["weapon"],
        arc=table.get("arc"),
        reloads=table.get("reloads"),
        limited_ammo=table.get("limited_ammo"),
        note=table.get("note", ""),
    )


def _limit(table: Mapping[str, Any]) -> Limit:
    return Limit(
        options=tuple(table.get("options", ())),
        upgrades=tuple(table.get("upgrades", ())),
        min=table.get("min"),
        max=table.get("max"),
        too_many=table.get("too_many", ""),
        too_few=table.get("too_few", ""),
    )


def _choice(table: Mapping[str, Any]) -> Choice:
    return Choice(option=table["option"], model=table["model"], nth=table.get("nth", 1))


def build(store: Store) -> dict[str, dict[str, Any]]:
    rules = store.rules
    track = tuple(rules.get("damage_track", BOX_KINDS))
    built: dict[str, dict[str, Any]] = {kind: {} for kind in KINDS}
    for entry_id, entry in store.entries["weapons"].items():
        f = entry.fields
        ranges = f.get("ranges", {})
        built["weapons"][entry_id] = Weapon(
            code=entry_id,
            name=f["name"],
            aliases=tuple(f.get("aliases", ())),
            parts=tuple(f.get("parts", ())),
            dm=f.get("dm"),
            accuracy=f.get("accuracy"),
            ranges=Ranges(**{band: ranges.get(band) for band in RANGE_BANDS}),
            rof=f.get("rof"),
            traits=tuple(f["traits"]) if "traits" in f else None,
            notes=f.get("notes", ""),
        )
    for entry_id, entry in store.entries["models"].items():
        f = entry.fields
        built["models"][entry_id] = Model(
            id=entry_id,
            name=f["name"],
            faction=f.get("faction"),
            counts_as=f.get("counts_as"),
            loadout=tuple(_mount(item) for item in f.get("loadout", ())),
            loadout_complete=f.get("loadout_complete", False),
            damage_track=tuple(f.get("damage_track", track)),
            armor=f.get("armor"),
            size=f.get("size"),
            sensors=f.get("sensors"),
            tv=f.get("tv"),
            movement=tuple(MovementLine(**item) for item in f.get("movement", ())),
            perks=tuple(f.get("perks", ())),
            notes=f.get("notes", ""),
        )
    for entry_id, entry in store.entries["factions"].items():
        f = entry.fields
        built["factions"][entry_id] = Faction(
            id=entry_id,
            name=f["name"],
            short=f.get("short", ""),
            order=f.get("order", 0),
            tv_limit=f.get("tv_limit"),
            limits=tuple(_limit(item) for item in f.get("limits", ())),
            perks=tuple(f.get("perks", ())),
            notes=f.get("notes", ""),
        )
    for entry_id, entry in store.entries["squads"].items():
        f = entry.fields
        built["squads"][entry_id] = Squad(
            id=entry_id,
            name=f["name"],
            faction=f["faction"],
            tv=f["tv"],
            tv_note=f.get("tv_note", ""),
            slots=tuple(
                Slot(
                    model=slot["model"],
                    count=slot["count"],
                    skills=build_skills(slot),
                    leader=slot.get("leader", False),
                    note=slot.get("note", ""),
                )
                for slot in f["slots"]
            ),
            options=tuple(f.get("options", ())),
            upgrades=tuple(f.get("upgrades", ())),
            limits=tuple(_limit(item) for item in f.get("limits", ())),
            defaults=tuple(_choice(item) for item in f.get("defaults", ())),
            default_upgrades=tuple(f.get("default_upgrades", ())),
            edition=f.get("edition", "english"),
            notes=f.get("notes", ""),
        )
    for entry_id, entry in store.entries["options"].items():
        f = entry.fields
        built["options"][entry_id] = Option(
            id=entry_id,
            label=f["label"],
            tv=f["tv"],
            tv_printed=f.get("tv_printed", True),
            tv_note=f.get("tv_note", ""),
            applies_to=tuple(f.get("applies_to", ())),
            removes=tuple(f.get("removes", ())),
            adds=tuple(_mount(item) for item in f.get("adds", ())),
            sturdy_boxes=f.get("sturdy_boxes", 0),
            choice=f.get("choice"),
            notes=f.get("notes", ""),
        )
    for entry_id, entry in store.entries["upgrades"].items():
        f = entry.fields
        built["upgrades"][entry_id] = Upgrade(
            id=entry_id,
            label=f["label"],
            tv=f["tv"],
            tv_printed=f.get("tv_printed", True),
            tv_note=f.get("tv_note", ""),
            skills=build_skills(f.get("skills")),
            leader_skills=build_skills(f.get("leader_skills")),
            leader_model=f.get("leader_model"),
            notes=f.get("notes", ""),
        )
    for entry_id, entry in store.entries["presets"].items():
        f = entry.fields
        built["presets"][entry_id] = Preset(
            id=entry_id,
            name=f["name"],
            faction=f["faction"],
            tv=f["tv"],
            groups=tuple(
                PresetGroup(
                    squad=group["squad"],
                    options=tuple(_choice(item) for item in group.get("options", ())),
                    upgrades=tuple(group.get("upgrades", ())),
                )
                for group in f["groups"]
            ),
            edition=f.get("edition", "english"),
            default=f.get("default", False),
            notes=f.get("notes", ""),
        )
    return built


def cross_check(store: Store, built: dict[str, dict[str, Any]]) -> None:
    check = _Checker(store, built)
    entries = store.entries
    models: dict[str, Model] = built["models"]
    options: dict[str, Option] = built["options"]
    squads: dict[str, Squad] = built["squads"]

    def mounts(entry: Entry, key: str, items: tuple[Mount, ...]) -> None:
        for index, mount in enumerate(items, 1):
            check.ref(entry, (key, index, "weapon"), "weapons", mount.weapon)

    for model in models.values():
        entry = entries["models"][model.id]
        if model.faction is not None:
            check.ref(entry, ("faction",), "factions", model.faction)
        if model.counts_as is not None:
            if model.counts_as == model.id:
                check.error(entry, ("counts_as",), "a model cannot count as itself")
            else:
                check.ref(entry, ("counts_as",), "models", model.counts_as)
        mounts(entry, "loadout", model.loadout)

    for faction in built["factions"].values():
        entry = entries["factions"][faction.id]
        for index, limit in enumerate(faction.limits, 1):
            for option_id in limit.options:
                check.ref(entry, ("limits", index, "options"), "options", option_id)
            for upgrade_id in limit.upgrades:
                check.ref(entry, ("limits", index, "upgrades"), "upgrades", upgrade_id)

    for option in options.values():
        entry = entries["options"][option.id]
        for code in option.removes:
            check.ref(entry, ("removes",), "weapons", code)
        mounts(entry, "adds", option.adds)
        for model_id in option.applies_to:
            check.ref(entry, ("applies_to",), "models", model_id)

    for upgrade in built["upgrades"].values():
        entry = entries["upgrades"][upgrade.id]
        if upgrade.leader_model is not None:
            check.ref(entry, ("leader_model",), "models", upgrade.leader_model)

    for squad in squads.values():
        _check_squad(check, squad, models, options)

    for preset in built["presets"].values():
        entry = entries["presets"][preset.id]
        check.ref(entry, ("faction",), "factions", preset.faction)
        for number, group in enumerate(preset.groups, 1):
            if not check.ref(entry, ("groups", number, "squad"), "squads", group.squad):
                continue
            squad = squads[group.squad]
            if squad.faction != preset.faction:
                check.error(
                    entry,
                    ("groups", number, "squad"),
                    f"the squad '{squad.id}' is of the faction '{squad.faction}', "
                    f"not '{preset.faction}'",
                )
            _check_choices(check, entry, ("groups", number, "options"), squad, group.options)
            for upgrade_id in group.upgrades:
                if upgrade_id not in squad.upgrades:
                    check.error(
                        entry,
                        ("groups", number, "upgrades"),
                        f"the squad '{squad.id}' has no upgrade '{upgrade_id}'",
                    )


def _check_squad(
    check: _Checker, squad: Squad, models: Mapping[str, Model], options: Mapping[str, Option]
) -> None:
    entry = check.entries["squads"][squad.id]
    check.ref(entry, ("faction",), "factions", squad.faction)
    seen: set[str] = set()
    for index, slot in enumerate(squad.slots, 1):
        check.ref(entry, ("slots", index, "model"), "models", slot.model)
        if slot.model in seen:
            check.error(entry, ("slots", index, "model"), f"the model '{slot.model}' has two slots")
        seen.add(slot.model)
    leaders = [slot for slot in squad.slots if slot.leader]
    if len(leaders) > 1 or (leaders and leaders[0].count != 1):
        check.error(entry, ("slots",), "a squad has at most one leader slot, of one model")
    slot_models = [models[slot.model] for slot in squad.slots if slot.model in models]
    for option_id in squad.options:
        if not check.ref(entry, ("options",), "options", option_id):
            continue
        option = options[option_id]
        refusals = [option_refusal(model, option) for model in slot_models]
        if slot_models and all(refusals):
            check.error(
                entry,
                ("options",),
                f"no model of the squad can take the option '{option_id}' ({refusals[0]})",
            )
    for upgrade_id in (*squad.upgrades, *squad.default_upgrades):
        check.ref(entry, ("upgrades",), "upgrades", upgrade_id)
    for upgrade_id in squad.default_upgrades:
        if upgrade_id not in squad.upgrades:
            check.error(
                entry, ("default_upgrades",), f"'{upgrade_id}' is not one of the squad's upgrades"
            )
    for index, limit in enumerate(squad.limits, 1):
        for option_id in limit.options:
            if option_id not in squad.options:
                check.error(
                    entry,
                    ("limits", index, "options"),
                    f"'{option_id}' is not one of the squad's options",
                )
        for upgrade_id in limit.upgrades:
            if upgrade_id not in squad.upgrades:
                check.error(
                    entry,
                    ("limits", index, "upgrades"),
                    f"'{upgrade_id}' is not one of the squad's upgrades",
                )
    # Two options that give up the same weapon cannot both be taken: they must share a choice.
    known = [options[option_id] for option_id in squad.options if option_id in options]
    for position, first in enumerate(known):
        for second in known[position + 1 :]:
            shared = set(first.removes) & set(second.removes)
            if shared and (first.choice is None or first.choice != second.choice):
                check.error(
                    entry,
                    ("options",),
                    f"the options '{first.id}' and '{second.id}' both give up "
                    f"{', '.join(sorted(shared))}, so they need the same 'choice'",
                )
    _check_choices(check, entry, ("defaults",), squad, squad.defaults)


def _check_choices(
    check: _Checker,
    entry: Entry,
    path: tuple[str | int, ...],
    squad: Squad,
    choices: tuple[Choice, ...],
) -> None:
    for index, choice in enumerate(choices, 1):
        where = (*path, index)
        if choice.option not in squad.options:
            check.error(
                entry, (*where, "option"), f"'{choice.option}' is not an option of '{squad.id}'"
            )
            continue
        slot = squad.slot_for(choice.model)
        if slot is None:
            check.error(entry, (*where, "model"), f"the squad '{squad.id}' has no '{choice.model}'")
            continue
        if choice.nth > slot.count:
            check.error(
                entry,
                (*where, "nth"),
                f"the squad '{squad.id}' has only {slot.count} of '{choice.model}'",
            )
            continue
        model = check.built["models"].get(choice.model)
        option = check.built["options"].get(choice.option)
        if model is None or option is None:
            continue
        refusal = option_refusal(model, option)
        if refusal:
            check.error(entry, (*where, "option"), refusal.rstrip("."))
