"""Loading a catalog: read, build, check, fingerprint; the cached default catalog."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from types import MappingProxyType

from rules.hgb.catalog.building import (
    build,
    build_skills,
    check_required,
    cross_check,
)
from rules.hgb.catalog.reading import (
    Store,
    builtin_files,
    env_data_dirs,
    host_files,
    read_file,
)
from rules.hgb.catalog.schema import (
    Catalog,
    CoreRules,
    DataError,
)


def _canonical(store: Store) -> str:
    content = {
        "rules": store.rules,
        **{
            kind: {entry_id: entry.fields for entry_id, entry in sorted(entries.items())}
            for kind, entries in store.entries.items()
        },
    }
    return json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def load_catalog(extra_dirs: Iterable[str | os.PathLike[str]] | None = None) -> Catalog:
    """Load the built-in data, then the host files of ``extra_dirs``, in order.

    Raises DataError with every problem found, each naming its file, entry and field.
    """
    store = Store()
    for name, raw in builtin_files():
        read_file(store, name, raw, builtin=True)
    builtin_versions = {source.data_version for source in store.sources if source.data_version}
    if len(builtin_versions) > 1:
        store.errors.append(
            "The built-in data files state different data versions: "
            + ", ".join(sorted(builtin_versions))
            + "."
        )
    for directory in extra_dirs or ():
        for name, raw in host_files(store, directory):
            read_file(store, name, raw, builtin=False)
    if store.errors:
        raise DataError(store.errors)
    check_required(store)
    if store.errors:
        raise DataError(store.errors)
    built = build(store)
    cross_check(store, built)
    if store.errors:
        raise DataError(store.errors)
    data_version = min(builtin_versions) if builtin_versions else ""
    digest = hashlib.sha256(f"{data_version}\n{_canonical(store)}".encode()).hexdigest()
    rules = store.rules
    return Catalog(
        data_version=data_version,
        fingerprint=digest[:16],
        sources=tuple(store.sources),
        rules=CoreRules(
            max_group_size=rules["max_group_size"],
            default_tv_limit=rules["default_tv_limit"],
            damage_track=tuple(rules["damage_track"]),
            default_skills=build_skills(rules["default_skills"]),
            priority_level=rules.get("priority_level"),
        ),
        weapons=MappingProxyType(built["weapons"]),
        models=MappingProxyType(built["models"]),
        factions=MappingProxyType(built["factions"]),
        squads=MappingProxyType(built["squads"]),
        options=MappingProxyType(built["options"]),
        upgrades=MappingProxyType(built["upgrades"]),
        presets=MappingProxyType(built["presets"]),
    )


_default: Catalog | None = None


def default_catalog() -> Catalog:
    """The built-in data plus the directories of BLITZ_DATA_DIRS, loaded once and cached."""
    global _default
    if _default is None:
        _default = load_catalog(env_data_dirs())
    return _default


def reset_default_catalog() -> None:
    """Forget the cached default catalog (tests, or after the host data changed)."""
    global _default
    _default = None
