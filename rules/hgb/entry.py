"""Typing an army's figures quickly: the weapons a model's card lists, how many of its figures are
known, and a pasted table of figures (CSV, or tab-separated as a spreadsheet copies it) read into
a datacard pack, checked by the pack's own checker (``check_pack``) row by row.

A table has a header row naming its columns: ``id`` first (a model's id or name, or a weapon's
code or name), then any datacard figure by its pack key ("armor", "movement.walker.combat.mp",
"ranges.short", "traits"). An empty cell gives nothing; a blank line starts another table with
its own header row, so models and weapons can be pasted together.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping
from typing import Any

from rules.hgb.army import Roster, model_profile
from rules.hgb.catalog import Catalog
from rules.hgb.datapack import (
    FIELDS,
    MAX_IMPORT_BYTES,
    MAX_PACK_ENTRIES,
    PackError,
    check_pack,
    figure_of,
)

NUMBER = re.compile(r"[-\u2212]?[0-9]{1,4}")
"""A whole number as typed: ASCII digits, with a minus sign (or the typographic one a phone
keyboard or a spreadsheet may give)."""


def card_weapons(catalog: Catalog, model_id: str) -> tuple[str, ...]:
    """The codes of the weapons a model's card may list: its loadout, then every weapon an option
    of one of its squads adds to it (options it cannot take left out), each once."""
    model = catalog.models.get(model_id)
    if model is None:
        return ()
    codes = [mount.weapon for mount in model.loadout]
    for squad in catalog.squads.values():
        if model_id not in squad.composition:
            continue
        for option_id in squad.options:
            option = catalog.options.get(option_id)
            if option is None or catalog.refusal(model_id, option_id):
                continue
            codes += [mount.weapon for mount in option.adds]
    return tuple(dict.fromkeys(code for code in codes if code in catalog.weapons))


def army_models(army: Roster, catalog: Catalog) -> dict[str, tuple[str, ...]]:
    """Each model of an army (by id, in the order of the list, each once) with the codes of the
    weapons it carries in it, after its options."""
    models: dict[str, dict[str, None]] = {}
    for g, group in enumerate(army.groups):
        for m, _entry in enumerate(group.models):
            profile = model_profile(army, catalog, g, m)
            if profile.known:
                codes = models.setdefault(profile.model, {})
                codes.update((w.code, None) for w in profile.weapons if w.weapon is not None)
    return {model_id: tuple(codes) for model_id, codes in models.items()}


def figure_progress(catalog: Catalog, entries: Iterable[tuple[str, str]]) -> tuple[int, int]:
    """How many figures of the given (kind, id) entries the catalog (completed with a pack)
    knows, and how many a datacard has: "12 of 18 figures"."""
    known = total = 0
    for kind, entry_id in dict.fromkeys(entries):
        for field in FIELDS[kind]:
            total += 1
            known += figure_of(catalog, kind, entry_id, field.key) is not None
    return known, total


# --- A pasted table -------------------------------------------------------------------------------

_KEYS = {kind: {field.key: field for field in fields} for kind, fields in FIELDS.items()}


def _lookup(catalog: Catalog, text: str) -> tuple[str, str] | None:
    """(kind, id) of a model or weapon named by its id, code or name (any case)."""
    wanted = " ".join(text.split()).casefold()
    for model in catalog.models.values():
        if wanted in (model.id.casefold(), model.name.casefold()):
            return "models", model.id
    for weapon in catalog.weapons.values():
        if wanted in (weapon.code.casefold(), weapon.name.casefold()):
            return "weapons", weapon.code
    return None


def _cell_value(text: str, is_list: bool) -> Any:
    if is_list:
        return [part.strip() for part in re.split(r"[;,]", text) if part.strip()]
    if NUMBER.fullmatch(text):
        return int(text.replace("\u2212", "-"))
    return text  # not a number: the pack's checker says so, naming the row and column


def _rows(text: str) -> list[tuple[int, list[str]]]:
    """The table's rows with their line numbers (1 for the first), blank lines as []. Each
    table is read with commas, or with tabs when its header row has a tab (a spreadsheet's copy)."""
    rows: list[tuple[int, list[str]]] = []
    dialect = ""
    for number, line in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        if not line.strip():
            rows.append((number, []))
            dialect = ""
            continue
        if not dialect:
            dialect = "excel-tab" if "\t" in line else "excel"
        cells = next(csv.reader([line], dialect=dialect), [])
        rows.append((number, [cell.strip() for cell in cells]))
    return rows


def read_figure_table(
    text: str, catalog: Catalog, *, name: str = "The table"
) -> dict[str, dict[str, dict[str, Any]]]:
    """A pack's figures from a pasted table, checked whole by ``check_pack`` (each row as its own
    small pack, so every sentence names its row and column). Raises PackError naming every
    problem; nothing of a table with a problem is kept."""
    if len(text.encode("utf-8")) > MAX_IMPORT_BYTES:
        raise PackError([f"{name} is larger than {MAX_IMPORT_BYTES // 1024} KB."])
    if "\x00" in text:
        raise PackError([f"{name} holds characters a table of figures cannot have."])
    errors: list[str] = []
    pack: dict[str, dict[str, dict[str, Any]]] = {}
    seen: dict[tuple[str, str], int] = {}
    header: list[str] | None = None
    for line, cells in _rows(text):
        if not any(cells):
            header = None  # a blank line: the next row is another table's header
            continue
        if header is None:
            header = [cell.casefold() for cell in cells]
            errors += _header_problems(line, header)
            continue
        if len(seen) >= MAX_PACK_ENTRIES:
            errors.append(f"{name} holds more than {MAX_PACK_ENTRIES} models and weapons.")
            break
        errors += _read_row(catalog, line, header, cells, pack, seen)
    if not seen and not errors:
        errors.append(
            f"{name} has no figures: its first row names the columns (id, then figures), "
            "and each row after it gives one model or weapon."
        )
    if errors:
        raise PackError(errors)
    return check_pack(pack, catalog, file=name)


def _header_problems(line: int, header: list[str]) -> list[str]:
    if not header or header[0] != "id":
        return [f"Row {line}: the first row of a table names its columns, starting with id."]
    known = set(_KEYS["models"]) | set(_KEYS["weapons"])
    problems = [
        f"Row {line}, column {number} (“{key}”): is not a datacard figure."
        for number, key in enumerate(header[1:], start=2)
        if key not in known
    ]
    doubled = sorted({key for key in header if header.count(key) > 1})
    problems += [f"Row {line}: the column “{key}” is named twice." for key in doubled]
    return problems


def _read_row(
    catalog: Catalog,
    line: int,
    header: list[str],
    cells: list[str],
    pack: dict[str, dict[str, dict[str, Any]]],
    seen: dict[tuple[str, str], int],
) -> list[str]:
    """Add one row to ``pack`` (checked by ``check_pack``); the sentences of its problems."""
    if len(cells) > len(header):
        return [f"Row {line} has {len(cells)} cells; its table's header names {len(header)}."]
    found = _lookup(catalog, cells[0])
    if found is None:
        return [f"Row {line}, column 1: the data has no model or weapon “{cells[0]}”."]
    if found in seen:
        return [f"Row {line}: “{cells[0]}” is already in row {seen[found]}."]
    seen[found] = line
    kind, entry_id = found
    figures: dict[str, Any] = {}
    for key, cell in zip(header[1:], cells[1:], strict=False):
        if not cell or key not in _KEYS["models"] | _KEYS["weapons"]:
            continue
        field = _KEYS[kind].get(key)
        figures[key] = _cell_value(cell, field.is_list if field else False)
    if not figures:
        return []
    try:
        checked = check_pack({kind: {entry_id: figures}}, catalog, file=f"Row {line}")
    except PackError as error:
        return list(error.messages)
    if checked:
        pack.setdefault(kind, {})[entry_id] = checked[kind][entry_id]
    return []


def write_figure_table(
    pack: Mapping[str, Any], catalog: Catalog, entries: Iterable[tuple[str, str]]
) -> str:
    """The entries as a table to fill in and paste back (``read_figure_table``): a table of
    models, a blank line, a table of weapons; the pack's figures in it, the data's own left out
    (a pack cannot change them)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    wanted = list(dict.fromkeys(entries))
    for kind in FIELDS:
        ids = [entry_id for k, entry_id in wanted if k == kind]
        if not ids:
            continue
        if out.tell():
            writer.writerow([])
        keys = [field.key for field in FIELDS[kind]]
        writer.writerow(["id", *keys])
        for entry_id in ids:
            figures = (pack.get(kind) or {}).get(entry_id) or {}
            row = [entry_id]
            for key in keys:
                value = (
                    None
                    if figure_of(catalog, kind, entry_id, key) is not None
                    else figures.get(key)
                )
                row.append(
                    "; ".join(value) if isinstance(value, list) else "" if value is None else value
                )
            writer.writerow(row)
    return out.getvalue()


def merge_figures(
    pack: Mapping[str, Any], table: Mapping[str, Mapping[str, Mapping[str, Any]]]
) -> tuple[dict[str, dict[str, dict[str, Any]]], int, int]:
    """The pack with a table's figures put in (the table's win), and how many figures were new
    and how many replaced a different figure the pack had."""
    merged = {k: {e: dict(f) for e, f in (pack.get(k) or {}).items()} for k in FIELDS}
    added = replaced = 0
    for kind, entries in table.items():
        for entry_id, figures in entries.items():
            entry = merged[kind].setdefault(entry_id, {})
            for key, value in figures.items():
                if key not in entry:
                    added += 1
                elif entry[key] != value:
                    replaced += 1
                entry[key] = value
    return {k: v for k, v in merged.items() if v}, added, replaced


__all__ = [
    "army_models",
    "card_weapons",
    "figure_progress",
    "merge_figures",
    "read_figure_table",
    "write_figure_table",
]
