from __future__ import annotations

from django import forms

import rules
from blitz_site.once import OnceKeyField
from blitz_site.text import StorableTextMixin

MAX_IMPORT_BYTES = 256 * 1024


def start_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    catalog = rules.default_catalog()
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
        max_value=rules.army.MAX_TV_LIMIT,
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
