"""Typing an army's figures quickly: a model's card as one grid of fields (its figures, its
movement modes, its weapons, laid out as the printed card), the models of the player's rosters
with how many of their figures are known, and the models a card can copy figures from."""

from __future__ import annotations

from dataclasses import dataclass, field

from django import forms

import rules.hgb
from armies.hgb.forms import FiguresForm
from armies.models import DataPack, Owner, Roster
from blitz_site.systems import HGB
from rules.hgb.catalog import MOVEMENT_MODES, SPEEDS
from rules.hgb.datapack import (
    BAND_LABELS,
    FIELDS,
    HOST_DATA,
    MOVE_LABELS,
    RULES_TEXT,
    SOURCE_WORDS,
    SPEED_LABELS,
)

SHORT = {
    "armor": "Armor",
    "size": "Size",
    "sensors": "Sensors",
    "mp": "MP",
    "attack_modifier": "Attack mod.",
    "defense_modifier": "Defense mod.",
    "accuracy": "Acc",
    "dm": "DM",
    "rof": "RoF",
    "traits": "Traits",
    **{f"ranges.{band}": label for band, label in BAND_LABELS.items()},
    "ranges.point_blank": "Pt-Blank",
}


@dataclass
class GridCell:
    """One figure of the card: a field to type it in, or the data's own figure (read-only)."""

    label: str
    short: str
    field: forms.BoundField | None = None
    fixed: object = None
    source: str = ""
    wide: bool = False


@dataclass
class WeaponBlock:
    code: str
    name: str
    cells: list[GridCell]
    form: FiguresForm


@dataclass
class Card:
    """A model's card: its own figures, a row per movement mode and speed, then its weapons."""

    model: rules.hgb.Model
    head: list[GridCell]
    movement: list[tuple[str, list[tuple[str, list[GridCell]]]]]
    weapons: list[WeaponBlock]
    form: FiguresForm
    forms: list[FiguresForm] = field(default_factory=list)

    def is_valid(self) -> bool:
        return all([form.is_valid() for form in self.forms])  # every form checked: all errors

    def errors(self) -> list[str]:
        """Every problem of the card's forms, a weapon's named by its code."""
        named = [(self.form, ""), *((block.form, f"{block.code}: ") for block in self.weapons)]
        found = []
        for form, where in named:
            if form.is_bound:
                found += [where + e for e in form.non_field_errors()]
                found += [where + e for f in form for e in f.errors]
        return found

    def entries(self) -> dict[tuple[str, str], dict]:
        """(kind, id) to the figures typed in: the model's and each weapon's."""
        entries = {("models", self.model.id): self.form.cleaned_data["figures"]}
        for block in self.weapons:
            if block.form.fields:
                entries[("weapons", block.code)] = block.form.cleaned_data["figures"]
        return entries


def _cells(kind: str, entry_id: str, form: FiguresForm, keys: list[str]) -> list[GridCell]:
    data, builtin = rules.hgb.default_catalog(), rules.hgb.builtin_catalog()
    by_key = {f.key: f for f in FIELDS[kind]}
    cells = []
    for key in keys:
        figure, short = by_key[key], SHORT[key.rsplit(".", 1)[-1] if "movement" in key else key]
        name = key.replace(".", "__")
        if name in form.fields:
            cells.append(GridCell(figure.label, short, field=form[name], wide=figure.is_list))
            continue
        value = rules.hgb.figure_of(data, kind, entry_id, key)
        given = rules.hgb.figure_of(builtin, kind, entry_id, key) is not None
        source = SOURCE_WORDS[RULES_TEXT if given else HOST_DATA]
        if isinstance(value, list):
            value = ", ".join(value)
        cells.append(GridCell(figure.label, short, fixed=value, source=source, wide=figure.is_list))
    return cells


def _form(data, kind: str, entry_id: str, initial: dict, prefix: str) -> FiguresForm:
    catalog = rules.hgb.default_catalog()
    open_fields = [
        f for f in FIELDS[kind] if rules.hgb.figure_of(catalog, kind, entry_id, f.key) is None
    ]
    return FiguresForm(data, fields=open_fields, initial_figures=initial, prefix=prefix)


def card(pack: DataPack, model_id: str, data=None, initial: dict | None = None) -> Card:
    """The card of a model for ``pack`` (``initial``: the model's figures to show instead of the
    pack's, after a copy); ``data`` a POST to check."""
    catalog = rules.hgb.default_catalog()
    model = catalog.models[model_id]
    figures = pack.figures or {}
    mine = initial if initial is not None else (figures.get("models") or {}).get(model_id, {})
    form = _form(data, "models", model_id, mine, "m")
    head = _cells("models", model_id, form, ["armor", "size", "sensors"])
    movement = []
    for mode in MOVEMENT_MODES:
        rows = []
        for speed in SPEEDS:
            keys = [f"movement.{mode}.{speed}.{part}" for part in MOVE_LABELS]
            rows.append((SPEED_LABELS[speed], _cells("models", model_id, form, keys)))
        movement.append((mode.capitalize(), rows))
    blocks = []
    for code in rules.hgb.card_weapons(catalog, model_id):
        current = (figures.get("weapons") or {}).get(code, {})
        weapon_form = _form(data, "weapons", code, current, f"w-{code}")
        keys = [f.key for f in FIELDS["weapons"]]
        cells = _cells("weapons", code, weapon_form, keys)
        blocks.append(WeaponBlock(code, catalog.weapons[code].name, cells, weapon_form))
    result = Card(model, head, movement, blocks, form)
    result.forms = [form, *(block.form for block in blocks)]
    return result


# --- The models of my rosters -------------------------------------------------------------------


@dataclass(frozen=True)
class RosterModel:
    id: str
    name: str
    weapons: tuple[str, ...]
    rosters: tuple[str, ...]
    known: int
    total: int


def roster_models(owner: Owner, pack: DataPack) -> list[RosterModel]:
    """Every model in the owner's Heavy Gear Blitz rosters (each once, in the order of the
    lists), with the weapons it carries in them and how many of their figures are known with
    this pack."""
    catalog = rules.hgb.default_catalog()
    done = rules.hgb.complete_catalog(catalog, pack.figures)
    found: dict[str, tuple[dict[str, None], dict[str, None]]] = {}
    for roster in Roster.objects.live().owned_by(owner).filter(system=HGB.id).order_by("pk"):
        try:
            army = rules.hgb.roster_from_dict(roster.army, catalog)
        except rules.hgb.RulesError:
            continue  # a roster the data cannot read any more: its page says so
        for model_id, codes in rules.hgb.army_models(army, catalog).items():
            weapons, names = found.setdefault(model_id, ({}, {}))
            weapons.update(dict.fromkeys(codes))
            names[roster.name] = None
    rows = []
    for model_id, (weapons, names) in found.items():
        entries = [("models", model_id), *(("weapons", code) for code in weapons)]
        known, total = rules.hgb.figure_progress(done, entries)
        name = catalog.models[model_id].name
        rows.append(RosterModel(model_id, name, tuple(weapons), tuple(names), known, total))
    return rows


def pack_progress(pack: DataPack, rows: list[RosterModel]) -> tuple[int, int]:
    """How many figures of all the rows' models and weapons (each once) are known."""
    done = rules.hgb.complete_catalog(rules.hgb.default_catalog(), pack.figures)
    entries = [("models", r.id) for r in rows] + [("weapons", c) for r in rows for c in r.weapons]
    return rules.hgb.figure_progress(done, entries)


def progress_words(known: int, total: int) -> str:
    return f"{known} of {total} figures"


# --- Copy figures from ----------------------------------------------------------------------------


def copy_choices(packs: list[DataPack], pack: DataPack, model_id: str) -> list[tuple[str, str]]:
    """The models whose figures a card may copy: each model with figures in one of the owner's
    packs (not the card's own model in its own pack); the data's figures come with them."""
    catalog = rules.hgb.default_catalog()
    choices = []
    for source in packs:
        for other in sorted((source.figures or {}).get("models") or {}):
            if (source.pk, other) != (pack.pk, model_id) and other in catalog.models:
                label = f"{catalog.models[other].name} (in “{source.name}”)"
                choices.append((f"{source.pk}:{other}", label))
    return choices


def copied(
    source: DataPack, source_model: str, pack: DataPack, model_id: str
) -> tuple[dict, int, list[str]]:
    """The card's model figures with the source model's filling every empty field it can (its
    pack's figures and the data's): the figures, how many were copied, and the sentences of
    those kept because the card already had a different one. Nothing is saved here."""
    catalog = rules.hgb.default_catalog()
    done = rules.hgb.complete_catalog(catalog, source.figures)
    mine = dict(((pack.figures or {}).get("models") or {}).get(model_id, {}))
    count, kept = 0, []
    for figure in FIELDS["models"]:
        if rules.hgb.figure_of(catalog, "models", model_id, figure.key) is not None:
            continue  # the data gives it: no field
        value = rules.hgb.figure_of(done, "models", source_model, figure.key)
        if value is None:
            continue
        if mine.get(figure.key) is None:
            mine[figure.key] = value
            count += 1
        elif mine[figure.key] != value:
            kept.append(f"{figure.label}: yours {mine[figure.key]}, theirs {value}")
    return mine, count, kept
