"""Datacard packs: figures a player typed in, completing the game data where it gives none.

A pack is plain data: ``{"models": {model_id: {key: value}}, "weapons": {code: {key: value}}}``
with flat keys ("armor", "movement.walker.combat.mp", "ranges.short", "traits"). It can only
fill a figure the catalog leaves empty (None): the rules text, then the host's data files, always
win, and ``figure_sources`` tells which of the three gave each figure.

A pack is exported as a host data file (the ``BLITZ_DATA_DIRS`` format, so ``python -m rules
check`` accepts it) and read back from one with the catalog loader's own checks, plus the pack's:
only datacard figures, of models and weapons the data knows, in sane ranges.

The ranges below are sanity bounds on what a player may type, never game figures.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from rules.files import FileError, read_toml
from rules.hgb.catalog import (
    MOVEMENT_MODES,
    RANGE_BANDS,
    SPEEDS,
    Catalog,
    DataError,
    Model,
    MovementLine,
    Weapon,
    load_catalog,
    read_host_entries,
)

PACK_KINDS = ("models", "weapons")
MAX_PACK_ENTRIES = 400
"""At most this many models and weapons in one pack (the data knows far fewer)."""
MAX_TRAITS = 12
MAX_TRAIT_LENGTH = 60
MAX_IMPORT_BYTES = 128 * 1024

RULES_TEXT, HOST_DATA, PACK = "rules", "host", "pack"
SOURCE_WORDS = {RULES_TEXT: "rules text", HOST_DATA: "host data", PACK: "yours"}

SPEED_LABELS = {"stationary": "Stationary", "combat": "Combat", "top": "Top Speed"}
MOVE_LABELS = {"mp": "MP", "attack_modifier": "Attack mod.", "defense_modifier": "Defense mod."}
BAND_LABELS = {
    "point_blank": "Point-Blank",
    "short": "Short",
    "medium": "Medium",
    "long": "Long",
    "extreme": "Extreme",
}


@dataclass(frozen=True)
class FigureField:
    """A datacard figure a pack may give: its flat key, label and sane bounds."""

    key: str
    label: str
    low: int = 0
    high: int = 99
    is_list: bool = False


def _model_fields() -> tuple[FigureField, ...]:
    fields = [
        FigureField("armor", "Armor", 1, 99),
        FigureField("size", "Size", 1, 20),
        FigureField("sensors", "Sensors", -9, 20),
    ]
    for mode in MOVEMENT_MODES:
        for speed in SPEEDS:
            for part, label in MOVE_LABELS.items():
                low, high = (0, 99) if part == "mp" else (-9, 9)
                fields.append(
                    FigureField(
                        f"movement.{mode}.{speed}.{part}",
                        f"{mode.capitalize()}, {SPEED_LABELS[speed]}: {label}",
                        low,
                        high,
                    )
                )
    return tuple(fields)


MODEL_FIELDS = _model_fields()
WEAPON_FIELDS = (
    FigureField("accuracy", "Accuracy", -9, 9),
    FigureField("dm", "Damage Multiplier (DM)", 1, 99),
    FigureField("rof", "Rate of Fire (RoF)", 0, 9),
    *(
        FigureField(f"ranges.{band}", f"Range {BAND_LABELS[band]} (in.)", 0, 999)
        for band in RANGE_BANDS
    ),
    FigureField("traits", "Traits", is_list=True),
)
FIELDS = {"models": MODEL_FIELDS, "weapons": WEAPON_FIELDS}
_BY_KEY = {kind: {f.key: f for f in fields} for kind, fields in FIELDS.items()}
_SINGULAR = {"models": "model", "weapons": "weapon"}


class PackError(DataError):
    """A pack (typed in, stored or imported) is not valid; one sentence per problem."""


# --- Reading figures --------------------------------------------------------------------------


def figure_of(catalog: Catalog, kind: str, entry_id: str, key: str) -> Any:
    """The figure ``key`` of a model or weapon in the catalog; None when not given."""
    entry = getattr(catalog, kind).get(entry_id)
    if entry is None:
        return None
    parts = key.split(".")
    if parts[0] == "movement":
        line = entry.movement_for(parts[1], parts[2])
        return getattr(line, parts[3]) if line else None
    if parts[0] == "ranges":
        return getattr(entry.ranges, parts[1])
    value = getattr(entry, key)
    return list(value) if isinstance(value, tuple) else value


def figure_sources(
    builtin: Catalog, hosted: Catalog, kind: str, entry_id: str, pack: Mapping[str, Any]
) -> dict[str, str | None]:
    """Where each figure of an entry comes from: rules text, host data, the pack, or None."""
    entry_pack = (pack.get(kind) or {}).get(entry_id) or {}
    sources: dict[str, str | None] = {}
    for field in FIELDS[kind]:
        if figure_of(builtin, kind, entry_id, field.key) is not None:
            sources[field.key] = RULES_TEXT
        elif figure_of(hosted, kind, entry_id, field.key) is not None:
            sources[field.key] = HOST_DATA
        elif entry_pack.get(field.key) is not None:
            sources[field.key] = PACK
        else:
            sources[field.key] = None
    return sources


# --- Completing a catalog -------------------------------------------------------------------------


def _complete_model(model: Model, figures: Mapping[str, Any]) -> Model:
    changes: dict[str, Any] = {}
    for key in ("armor", "size", "sensors"):
        if getattr(model, key) is None and figures.get(key) is not None:
            changes[key] = figures[key]
    lines = list(model.movement)
    for mode in MOVEMENT_MODES:
        for speed in SPEEDS:
            read = {part: figures.get(f"movement.{mode}.{speed}.{part}") for part in MOVE_LABELS}
            given: dict[str, Any] = {
                part: value for part, value in read.items() if value is not None
            }
            if not given:
                continue
            line = model.movement_for(mode, speed)
            if line is None:
                lines.append(MovementLine(mode=mode, speed=speed, **given))
            else:
                filled = {k: v for k, v in given.items() if getattr(line, k) is None}
                lines[lines.index(line)] = replace(line, **filled)
    if lines != list(model.movement):
        changes["movement"] = tuple(lines)
    return replace(model, **changes) if changes else model


def _complete_weapon(weapon: Weapon, figures: Mapping[str, Any]) -> Weapon:
    changes: dict[str, Any] = {}
    for key in ("accuracy", "dm", "rof"):
        if getattr(weapon, key) is None and figures.get(key) is not None:
            changes[key] = figures[key]
    bands = {
        band: figures[f"ranges.{band}"]
        for band in RANGE_BANDS
        if getattr(weapon.ranges, band) is None and figures.get(f"ranges.{band}") is not None
    }
    if bands:
        changes["ranges"] = replace(weapon.ranges, **bands)
    if weapon.traits is None and figures.get("traits"):
        changes["traits"] = tuple(figures["traits"])
    return replace(weapon, **changes) if changes else weapon


def complete_catalog(catalog: Catalog, pack: Mapping[str, Any] | None) -> Catalog:
    """The catalog with the pack's figures filling only what it leaves empty (None).

    Entries the catalog does not know and figures it already gives are ignored; the army data
    (and so the fingerprint) is unchanged. An empty pack gives the catalog itself."""
    if not pack or not any(pack.get(kind) for kind in PACK_KINDS):
        return catalog
    models = dict(catalog.models)
    for model_id, figures in (pack.get("models") or {}).items():
        if model_id in models and isinstance(figures, Mapping):
            models[model_id] = _complete_model(models[model_id], figures)
    weapons = dict(catalog.weapons)
    for code, figures in (pack.get("weapons") or {}).items():
        if code in weapons and isinstance(figures, Mapping):
            weapons[code] = _complete_weapon(weapons[code], figures)
    return replace(
        catalog,
        models=MappingProxyType(models),
        weapons=MappingProxyType(weapons),
        _refusals={},
    )


# --- Checking a pack ------------------------------------------------------------------------------


def check_figure(field: FigureField, value: Any) -> str | None:
    """Why a figure cannot be kept, as a sentence fragment; None when it can."""
    if field.is_list:
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            return "must be a list of words"
        if len(value) > MAX_TRAITS:
            return f"may list at most {MAX_TRAITS} traits"
        if any(not v.strip() or len(v) > MAX_TRAIT_LENGTH for v in value):
            return f"each trait must be 1 to {MAX_TRAIT_LENGTH} characters"
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        return "must be a whole number"
    if not field.low <= value <= field.high:
        return f"must be a whole number from {field.low} to {field.high}"
    return None


def check_pack(
    pack: Mapping[str, Any], catalog: Catalog, *, file: str = "the pack"
) -> dict[str, dict[str, dict[str, Any]]]:
    """The pack, checked whole: known models and weapons, known figures, sane values, and never
    a figure the catalog (rules text or host data) already gives. Raises PackError with one
    sentence per problem (file, entry and field); returns the pack without empty entries."""
    errors: list[str] = []
    out: dict[str, dict[str, dict[str, Any]]] = {}
    if not isinstance(pack, Mapping):
        raise PackError([f"{file}: not a datacard pack."])
    count = 0
    for kind in pack:
        if kind not in PACK_KINDS:
            errors.append(
                f"{file}: '{kind}' is not part of a datacard pack (only models, weapons)."
            )
    for kind in PACK_KINDS:
        entries = pack.get(kind) or {}
        if not isinstance(entries, Mapping):
            errors.append(f"{file}: '{kind}' must be a table.")
            continue
        known = getattr(catalog, kind)
        for entry_id, figures in entries.items():
            where = f"{file}: {_SINGULAR[kind]} entry '{entry_id}'"
            if entry_id not in known:
                errors.append(f"{where}: the data has no {_SINGULAR[kind]} with this id.")
                continue
            if not isinstance(figures, Mapping):
                errors.append(f"{where}: must be a table of figures.")
                continue
            kept = {}
            for key, value in figures.items():
                field = _BY_KEY[kind].get(key)
                if field is None:
                    errors.append(f"{where}, field '{key}': is not a datacard figure.")
                    continue
                if value is None or value == [] or value == ():
                    continue
                problem = check_figure(field, value)
                if problem:
                    errors.append(f"{where}, field '{key}': {problem}; got {value!r}.")
                elif figure_of(catalog, kind, entry_id, key) is not None:
                    errors.append(
                        f"{where}, field '{key}': the data already gives this figure "
                        f"({figure_of(catalog, kind, entry_id, key)!r}); a pack cannot change it."
                    )
                else:
                    kept[key] = list(value) if field.is_list else value
            if kept:
                out.setdefault(kind, {})[entry_id] = kept
                count += 1
    if count > MAX_PACK_ENTRIES:
        errors.append(f"{file}: a pack holds at most {MAX_PACK_ENTRIES} models and weapons.")
    if errors:
        raise PackError(errors)
    return out


# --- Host data files ------------------------------------------------------------------------------


def _toml_value(value: Any) -> str:
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        escaped = "".join(c if c >= " " or c == "\t" else f"\\u{ord(c):04x}" for c in escaped)
        return f'"{escaped}"'
    return str(value)


def _comment(text: str) -> str:
    return " ".join(text.split())


def pack_to_toml(pack: Mapping[str, Any], catalog: Catalog, *, name: str, owner: str) -> str:
    """The pack as a host data file (``BLITZ_DATA_DIRS`` format), headed with where its figures
    came from. A host file replaces a table or list field whole, so the ranges and movement lines
    it writes carry the data's own figures beside the pack's."""
    fingerprint = catalog.fingerprint
    completed = complete_catalog(catalog, pack)
    lines = [
        f"# Blitz datacard pack: {_comment(name)}",
        f"# Figures entered by {_comment(owner)}, not from the rules text: check them against",
        "# your printed datacards before relying on them.",
        f"# Entered against Blitz data {fingerprint}.",
        "",
        f"data_version = {_toml_value('pack-' + fingerprint)}",
    ]
    for kind in PACK_KINDS:
        for entry_id, figures in sorted((pack.get(kind) or {}).items()):
            lines += ["", f"[[{kind}]]", f"id = {_toml_value(entry_id)}"]
            plain = {k: v for k, v in figures.items() if "." not in k}
            for key in (f.key for f in FIELDS[kind]):
                if key in plain:
                    lines.append(f"{key} = {_toml_value(plain[key])}")
            ranges = {}
            if any(key.startswith("ranges.") for key in figures):
                ranges = {
                    band: figure_of(completed, kind, entry_id, f"ranges.{band}")
                    for band in RANGE_BANDS
                }
                ranges = {band: value for band, value in ranges.items() if value is not None}
            if ranges:
                inner = ", ".join(f"{band} = {value}" for band, value in ranges.items())
                lines.append(f"ranges = {{ {inner} }}")
            movement = []
            moving = any(key.startswith("movement.") for key in figures)
            for mode in MOVEMENT_MODES:
                for speed in SPEEDS:
                    parts = (
                        {
                            part: figure_of(
                                completed, kind, entry_id, f"movement.{mode}.{speed}.{part}"
                            )
                            for part in MOVE_LABELS
                        }
                        if moving
                        else {}
                    )
                    parts = {k: v for k, v in parts.items() if v is not None}
                    if parts:
                        inner = ", ".join(f"{k} = {v}" for k, v in parts.items())
                        movement.append(f'  {{ mode = "{mode}", speed = "{speed}", {inner} }},')
            if movement:
                lines += ["movement = [", *movement, "]"]
    return "\n".join(lines) + "\n"


def _flatten(kind: str, fields: Mapping[str, Any]) -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in fields.items():
        if key == "id":
            continue
        if key == "ranges":
            for band, figure in value.items():
                flat[f"ranges.{band}"] = figure
        elif key == "movement" and kind == "models":
            for line in value:
                for part in MOVE_LABELS:
                    if part in line:
                        flat[f"movement.{line['mode']}.{line['speed']}.{part}"] = line[part]
        else:
            flat[key] = list(value) if isinstance(value, tuple) else value
    return flat


AUTHOR = re.compile(r"^# Figures entered by (.+?), not from the rules text", re.MULTILINE)
NAME = re.compile(r"^# Blitz datacard pack: (.+)$", re.MULTILINE)


def _heading(pattern: re.Pattern[str], raw: bytes) -> str:
    text = raw[:2048].decode("utf-8", "replace").removeprefix("\ufeff")
    found = pattern.search(text)
    return found.group(1).strip() if found else ""


def pack_file_author(raw: bytes) -> str:
    """Who a pack file says entered its figures (the heading ``pack_to_toml`` writes), or ""."""
    return _heading(AUTHOR, raw)


def pack_file_name(raw: bytes) -> str:
    """The pack's name a pack file gives in its heading (``pack_to_toml`` writes it), or ""."""
    return _heading(NAME, raw)


def read_pack_file(name: str, raw: bytes, catalog: Catalog) -> dict[str, dict[str, dict[str, Any]]]:
    """A pack from a host data file: checked as the loader checks host files, then as a pack
    (only figures, known ids, sane values, never over the data). PackError names every problem
    with its file, entry and field; nothing of a bad file is kept."""
    try:
        document = read_toml(name, raw, max_bytes=MAX_IMPORT_BYTES)
    except FileError as error:
        raise PackError([str(error)]) from None
    try:
        entries = read_host_entries(name, document)
    except DataError as error:
        raise PackError(error.messages) from None
    errors = [
        f"{name}: '{kind}' entries cannot be part of a datacard pack (only models, weapons)."
        for kind in entries
        if kind not in PACK_KINDS
    ]
    if errors:
        raise PackError(errors)
    pack = {
        kind: {entry_id: _flatten(kind, fields) for entry_id, fields in items.items()}
        for kind, items in entries.items()
    }
    return check_pack(pack, catalog, file=name)


_builtin: Catalog | None = None


def builtin_catalog() -> Catalog:
    """The rules text alone (no host data files), loaded once: what ``figure_sources`` calls the
    rules text."""
    global _builtin
    if _builtin is None:
        _builtin = load_catalog(())
    return _builtin


__all__ = [
    "FIELDS",
    "HOST_DATA",
    "MAX_IMPORT_BYTES",
    "MAX_PACK_ENTRIES",
    "MODEL_FIELDS",
    "PACK",
    "RULES_TEXT",
    "SOURCE_WORDS",
    "WEAPON_FIELDS",
    "FigureField",
    "PackError",
    "builtin_catalog",
    "check_figure",
    "check_pack",
    "complete_catalog",
    "figure_of",
    "figure_sources",
    "pack_file_author",
    "pack_file_name",
    "pack_to_toml",
    "read_pack_file",
]
