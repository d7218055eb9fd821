"""The stored form of a roster: to and from a plain dict (JSON)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.errors import RulesError
from rules.hgb.army.changes import (
    check_name,
    check_tv_limit,
    option_label,
    upgrade_label,
)
from rules.hgb.army.values import (
    FORMAT_VERSION,
    CombatGroup,
    ModelEntry,
    Roster,
)
from rules.hgb.catalog import (
    Catalog,
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
        tv_limit = check_tv_limit(data.get("tv_limit"))
        name = check_name(data.get("name", ""))
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
                    option_names=tuple(option_label(catalog, ref, nm) for ref, nm in option_refs),
                )
            )
        groups.append(
            CombatGroup(
                squad=squad_id,
                models=tuple(entries),
                upgrades=tuple(ref for ref, _ in upgrade_refs),
                squad_name=squad.name if squad else (squad_name or squad_id),
                upgrade_names=tuple(upgrade_label(catalog, ref, nm) for ref, nm in upgrade_refs),
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
