"""Reading data files: the built-in TOML files and a host's own directories, entry by entry."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from rules.files import FileError, read_toml
from rules.hgb.catalog.fields import (
    IDENT,
    RULES_SCHEMA,
    SCHEMAS,
    SINGULAR,
    BadField,
    check_fields,
    describe_path,
)
from rules.hgb.catalog.schema import (
    BUILTIN_PREFIX,
    ENV_DATA_DIRS,
    KINDS,
    DataError,
    Source,
)

# --- Reading files --------------------------------------------------------------------------------

MAX_HOST_FILE_BYTES = 16 * 1024 * 1024  # a host data file: far larger than any Blitz writes


@dataclass
class Entry:
    kind: str
    id: str
    fields: dict[str, Any]
    origin: str
    field_files: dict[str, str]


@dataclass
class Store:
    entries: dict[str, dict[str, Entry]] = field(
        default_factory=lambda: {kind: {} for kind in KINDS}
    )
    rules: dict[str, Any] = field(default_factory=dict)
    rules_files: dict[str, str] = field(default_factory=dict)
    sources: list[Source] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def entry_error(
    file: str, kind: str, entry_id: str, path: tuple[str | int, ...], problem: str
) -> str:
    where = f"{SINGULAR[kind]} entry '{entry_id}'"
    if path:
        where += f", field {describe_path(path)}"
    return f"{file}: {where}: {problem}."


def read_file(store: Store, name: str, raw: bytes, *, builtin: bool) -> None:
    """Parse one data file, check its fields, and merge its entries into the store."""
    try:
        document = read_toml(name, raw, max_bytes=MAX_HOST_FILE_BYTES)
    except FileError as error:
        store.errors.append(str(error))
        return
    version = document.get("data_version")
    if not isinstance(version, str) or not version.strip():
        store.errors.append(f"{name}: 'data_version' must be given, as a non-empty string.")
        version = ""
    store.sources.append(Source(path=name, data_version=version, builtin=builtin))
    for key, value in document.items():
        if key == "data_version":
            continue
        if key == "rules":
            _read_rules(store, name, value)
        elif key in KINDS:
            _read_kind(store, name, key, value, builtin=builtin)
        else:
            known = ", ".join(("data_version", "rules", *KINDS))
            store.errors.append(f"{name}: '{key}' is not a known top-level key (known: {known}).")


def _read_rules(store: Store, name: str, value: Any) -> None:
    try:
        checked = check_fields(value, RULES_SCHEMA, require=False)
    except BadField as bad:
        store.errors.append(f"{name}: [rules], field {describe_path(bad.path)}: {bad.problem}.")
        return
    for key, element in checked.items():
        store.rules[key] = element
        store.rules_files[key] = name


def _read_kind(store: Store, name: str, kind: str, value: Any, *, builtin: bool) -> None:
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        store.errors.append(f"{name}: '{kind}' must be a list of tables ([[{kind}]]).")
        return
    schema = SCHEMAS[kind]
    seen_here: set[str] = set()
    repeats: dict[str, int] = {}  # an id given again in this file: how often in all
    for number, item in enumerate(value, 1):
        entry_id = item.get("id")
        if not isinstance(entry_id, str) or not IDENT.match(entry_id):
            store.errors.append(
                f"{name}: {SINGULAR[kind]} entry {number} has no valid 'id' "
                f"(letters, digits and underscores); got {entry_id!r}."
            )
            continue
        if entry_id in seen_here:
            repeats[entry_id] = repeats.get(entry_id, 1) + 1
            continue
        seen_here.add(entry_id)
        try:
            checked = check_fields(item, schema, require=False)
        except BadField as bad:
            store.errors.append(entry_error(name, kind, entry_id, bad.path, bad.problem))
            continue
        existing = store.entries[kind].get(entry_id)
        if existing is not None and builtin:
            store.errors.append(
                entry_error(
                    name, kind, entry_id, ("id",), f"duplicate id (also in {existing.origin})"
                )
            )
            continue
        if existing is None:
            store.entries[kind][entry_id] = Entry(
                kind, entry_id, dict(checked), name, {key: name for key in checked}
            )
        else:  # a host override: replace the fields this file gives
            existing.fields.update(checked)
            existing.field_files.update({key: name for key in checked})
    for entry_id, times in repeats.items():  # one sentence per id, however often it repeats
        problem = f"duplicate id in the same file (given {times} times; give it once)"
        store.errors.append(entry_error(name, kind, entry_id, ("id",), problem))


def read_host_entries(
    name: str, document: Mapping[str, Any]
) -> dict[str, dict[str, dict[str, Any]]]:
    """The entries of one host data file (already parsed TOML), checked field by field as
    ``load_catalog`` checks a host file: ``{kind: {id: fields}}``. Raises DataError naming the
    file, the entry and the field of every problem."""
    store = Store()
    version = document.get("data_version")
    if not isinstance(version, str) or not version.strip():
        store.errors.append(f"{name}: 'data_version' must be given, as a non-empty string.")
    for key, value in document.items():
        if key == "data_version":
            continue
        if key in KINDS:
            _read_kind(store, name, key, value, builtin=False)
        else:
            store.errors.append(f"{name}: '{key}' is not a known top-level key here.")
    if store.errors:
        raise DataError(store.errors)
    return {
        kind: {entry_id: dict(entry.fields) for entry_id, entry in entries.items()}
        for kind, entries in store.entries.items()
        if entries
    }


def builtin_files() -> list[tuple[str, bytes]]:
    folder = resources.files("rules.hgb").joinpath("data")
    files = [item for item in folder.iterdir() if item.name.endswith(".toml") and item.is_file()]
    return [(BUILTIN_PREFIX + item.name, item.read_bytes()) for item in sorted(files, key=_name)]


def _name(item: Traversable) -> str:
    return item.name


def env_data_dirs() -> tuple[str, ...]:
    """The directories named in BLITZ_DATA_DIRS, in order (empty parts skipped)."""
    value = os.environ.get(ENV_DATA_DIRS, "")
    return tuple(part for part in value.split(os.pathsep) if part.strip())


def host_files(store: Store, directory: str | os.PathLike[str]) -> list[tuple[str, bytes]]:
    path = Path(directory)
    if not path.is_dir():
        store.errors.append(f"{path}: not a directory, so no data could be read from it.")
        return []
    return [(str(item), item.read_bytes()) for item in sorted(path.glob("*.toml"))]
