from __future__ import annotations

import re

from django import forms

import rules.hgb
import rules.hgb.datapack
from blitz_site import systems
from blitz_site.once import OnceKeyField
from blitz_site.text import StorableTextMixin

MAX_IMPORT_BYTES = 256 * 1024


def start_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    catalog = rules.hgb.default_catalog()
    presets = [
        (f"preset:{preset.id}", f"{preset.name} ({preset.tv} TV)")
        for preset in catalog.presets_in_order()
    ]
    factions = sorted(catalog.factions.values(), key=lambda faction: faction.order)
    empty = [(f"faction:{faction.id}", f"Empty {faction.name} roster") for faction in factions]
    return [("Starter forces", presets), ("Start from scratch", empty)]


class CreateForm(StorableTextMixin, forms.Form):
    start = forms.ChoiceField(label="Start from", choices=start_choices)
    name = forms.CharField(label="Name (optional)", max_length=80, required=False)
    key = OnceKeyField()


class RosterListForm(StorableTextMixin, forms.Form):
    """The roster list's sort and name filter (GET). Anything invalid falls back to the default."""

    SORTS = {
        "changed": "Last changed",
        "name": "Name (A to Z)",
        "faction": "Faction",
        "tv": "TV (highest first)",
    }
    DEFAULT_SORT = "changed"

    q = forms.CharField(label="Name contains", max_length=80, required=False)
    sort = forms.ChoiceField(label="Sort by", choices=list(SORTS.items()), required=False)

    def choice(self) -> tuple[str, str]:
        """The name filter and the sort to use: "" and the default for anything invalid."""
        self.is_valid()
        data = getattr(self, "cleaned_data", {})
        query = " ".join(data.get("q", "").split()) if "q" in data else ""
        return query, data.get("sort") or self.DEFAULT_SORT


class RenameForm(StorableTextMixin, forms.Form):
    name = forms.CharField(label="Roster name", max_length=80)


class TvLimitForm(forms.Form):
    tv_limit = forms.IntegerField(
        label="TV limit",
        min_value=1,
        max_value=rules.hgb.army.MAX_TV_LIMIT,
        error_messages={"invalid": "The TV limit is a whole number, like 610."},
    )


class ImportForm(StorableTextMixin, forms.Form):
    file = forms.FileField(label="Roster file (.json)", required=False)
    text = forms.CharField(label="…or paste the JSON", widget=forms.Textarea, required=False)
    key = OnceKeyField()

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        if upload:
            if upload.size > MAX_IMPORT_BYTES:
                raise forms.ValidationError("That file is too large to be a roster export.")
            try:
                # utf-8-sig: a file saved with a byte order mark (Windows editors) reads too.
                data["json"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError as error:
                raise forms.ValidationError("That file is not a text (JSON) file.") from error
        elif data.get("text", "").strip():
            if len(data["text"]) > MAX_IMPORT_BYTES:
                raise forms.ValidationError("That text is too long to be a roster export.")
            data["json"] = data["text"].removeprefix("\ufeff")
        else:
            raise forms.ValidationError("Choose a roster file or paste its JSON.")
        return data


# --- Datacard packs -------------------------------------------------------------------------------

FIGURE = re.compile(r"-?[0-9]{1,4}")  # ASCII digits only: "²" or "٣" is not a figure here


class PackCreateForm(StorableTextMixin, forms.Form):
    system = forms.ChoiceField(label="Game", choices=systems.choices, required=False)
    name = forms.CharField(label="Pack name", max_length=80, required=False)
    key = OnceKeyField()

    def clean_system(self) -> systems.GameSystem:
        """The game of the new pack: Heavy Gear Blitz unless another is asked for."""
        return systems.find(self.cleaned_data.get("system")) or systems.DEFAULT


class PackImportForm(forms.Form):
    file = forms.FileField(label="Data file (.toml)")
    key = OnceKeyField()

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > rules.hgb.datapack.MAX_IMPORT_BYTES:
            raise forms.ValidationError("That file is too large to be a datacard pack.")
        return upload


class FiguresForm(StorableTextMixin, forms.Form):
    """The figures of one model or weapon a pack may give: one field per figure the data leaves
    empty (those it gives are shown read-only, never a field). Each figure is checked with the
    pack's own bounds, in a sentence naming it."""

    def __init__(self, data=None, *, fields, initial_figures):
        super().__init__(data)
        self.figure_fields = {}
        for figure in fields:
            name = figure.key.replace(".", "__")
            initial = initial_figures.get(figure.key)
            if figure.is_list:
                self.fields[name] = forms.CharField(
                    label=f"{figure.label} (separated by commas)",
                    required=False,
                    max_length=800,
                    initial=", ".join(initial or ()),
                )
            else:
                self.fields[name] = forms.CharField(
                    label=figure.label,
                    required=False,
                    max_length=8,
                    initial="" if initial is None else str(initial),
                    widget=forms.TextInput(
                        attrs={"inputmode": "numeric", "pattern": "-?[0-9]*", "autocomplete": "off"}
                    ),
                )
            self.figure_fields[name] = figure

    def clean(self):
        data = super().clean()
        figures = {}
        for name, figure in self.figure_fields.items():
            if name not in data:
                continue  # its own error already
            text = data[name].strip()
            if not text:
                continue
            if figure.is_list:
                value = [part.strip() for part in text.split(",") if part.strip()]
            elif not FIGURE.fullmatch(text):
                self.add_error(name, f"{figure.label} must be a whole number, like 7.")
                continue
            else:
                value = int(text)
            problem = rules.hgb.datapack.check_figure(figure, value)
            if problem:
                self.add_error(name, f"{figure.label} {problem}.")
            else:
                figures[figure.key] = value
        data["figures"] = figures
        return data


class RosterPackForm(forms.Form):
    pack = forms.CharField(required=False, max_length=12)
