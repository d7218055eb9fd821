"""Heavy Gear Blitz's forms: the new roster, the editor's settings, a datacard's figures."""

from __future__ import annotations

import re

from django import forms

import rules.hgb
import rules.hgb.datapack
from blitz_site.once import OnceKeyField
from blitz_site.text import StorableTextMixin


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


class RenameForm(StorableTextMixin, forms.Form):
    name = forms.CharField(label="Roster name", max_length=80)


class TvLimitForm(forms.Form):
    tv_limit = forms.IntegerField(
        label="TV limit",
        min_value=1,
        max_value=rules.hgb.army.MAX_TV_LIMIT,
        error_messages={"invalid": "The TV limit is a whole number, like 610."},
    )


FIGURE = re.compile(r"[-+]?[0-9]{1,4}")  # ASCII digits only: "²" or "٣" is not a figure here
MINUS_SIGNS = str.maketrans({"\u2212": "-", "\u2013": "-"})  # "−3" or "–3" as a keyboard types it


def figure_attrs(figure: rules.hgb.datapack.FigureField) -> dict[str, str]:
    """A figure's text box: a phone's number keypad where the figure is never negative; the
    full keyboard where it can be (iPhone's numeric keypad has no minus sign). No ``pattern``:
    the form's own sentence says what is wrong, never the browser's bubble."""
    attrs = {"autocomplete": "off", "spellcheck": "false"}
    if figure.low >= 0:
        attrs["inputmode"] = "numeric"
    return attrs


class FiguresForm(StorableTextMixin, forms.Form):
    """The figures of one model or weapon a pack may give: one field per figure the data leaves
    empty (those it gives are shown read-only, never a field). Each figure is checked with the
    pack's own bounds, in a sentence naming it."""

    def __init__(self, data=None, *, fields, initial_figures, prefix=None):
        super().__init__(data, prefix=prefix)
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
                    widget=forms.TextInput(attrs=figure_attrs(figure)),
                )
            self.figure_fields[name] = figure

    def clean(self):
        data = super().clean()
        figures = {}
        for name, figure in self.figure_fields.items():
            if name not in data:
                continue  # its own error already
            text = data[name].strip().translate(MINUS_SIGNS)
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


class CopyFromForm(forms.Form):
    """Which model's figures a card copies (``<pack id>:<model id>``, from the given choices)."""

    copy = forms.ChoiceField(label="Copy figures from", choices=())

    def __init__(self, data=None, *, choices):
        super().__init__(data)
        self.fields["copy"].choices = [("", "Choose a model"), *choices]

    def source(self) -> tuple[int, str]:
        pack_id, model_id = self.cleaned_data["copy"].split(":", 1)
        return int(pack_id), model_id


class PasteForm(StorableTextMixin, forms.Form):
    table = forms.CharField(
        label="Table of figures",
        max_length=rules.hgb.datapack.MAX_IMPORT_BYTES,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false", "autocomplete": "off"}),
        error_messages={"required": "Paste a table of figures first."},
    )
