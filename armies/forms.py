from __future__ import annotations

from django import forms

import rules.hgb.datapack
from armies import systems as builders
from blitz_site import systems
from blitz_site.once import OnceKeyField
from blitz_site.text import StorableTextMixin
from rules.killteam import packfile

MAX_IMPORT_BYTES = 256 * 1024


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


def library_choices() -> list[tuple[str, str]]:
    """The games players keep datacard packs of, in the registry's order."""
    return [(b.system.id, b.system.name) for b in builders.every() if b.has_library]


class PackCreateForm(StorableTextMixin, forms.Form):
    system = forms.ChoiceField(label="Game", choices=library_choices, required=False)
    name = forms.CharField(label="Pack name", max_length=80, required=False)
    key = OnceKeyField()

    def clean_system(self) -> systems.GameSystem:
        """The game of the new pack: Heavy Gear Blitz unless another is asked for."""
        return systems.find(self.cleaned_data.get("system")) or systems.DEFAULT


class PackImportForm(forms.Form):
    file = forms.FileField(label="Data file (.toml, or .json for Kill Team)")
    key = OnceKeyField()

    def clean_file(self):
        upload = self.cleaned_data["file"]
        largest = max(rules.hgb.datapack.MAX_IMPORT_BYTES, packfile.MAX_FILE_BYTES)
        if upload.size > largest:
            raise forms.ValidationError("That file is too large to be a datacard pack.")
        return upload
