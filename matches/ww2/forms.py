"""The WWII skirmish match start form: two of the player's forces (or a shared one), and the one
setting the text leaves open: whether running-gear damage counts as a damage (no default)."""

from __future__ import annotations

from django import forms

from armies.models import Roster
from blitz_site.once import OnceKeyField
from blitz_site.text import StorableTextMixin
from matches.forms import clean_player_name, player_name_field

RUNNING_GEAR = [
    ("yes", "Yes: it is one of the two damages (a second damage destroys)"),
    ("no", "No: it only stops the vehicle moving"),
]


class Ww2StartForm(StorableTextMixin, forms.Form):
    name = player_name_field()
    mine = forms.ChoiceField(label="Your force")
    opponent = forms.ChoiceField(label="Your opponent's force")
    running_gear = forms.ChoiceField(
        label="Does running-gear damage count as a damage?",
        choices=RUNNING_GEAR,
        widget=forms.RadioSelect,
        help_text="Not in the rules text: agree on it before the battle.",
        error_messages={"required": "Choose whether running-gear damage counts as a damage."},
    )
    against = forms.CharField(required=False, widget=forms.HiddenInput)
    key = OnceKeyField()

    def __init__(self, *args, rosters: list[Roster], shared: Roster | None, **kwargs):
        super().__init__(*args, **kwargs)
        self.rosters = {f"roster:{r.pk}": r for r in rosters}
        if shared is not None:
            self.rosters[f"shared:{shared.share_slug}"] = shared
        mine = [(f"roster:{r.pk}", r.name) for r in rosters]
        self.fields["mine"].choices = mine
        opponent = [(f"shared:{shared.share_slug}", f"{shared.name} (shared)")] if shared else []
        self.fields["opponent"].choices = opponent + mine

    def _force(self, value: str) -> Roster:
        if value not in self.rosters:
            raise forms.ValidationError("Choose one of the forces offered.")
        return self.rosters[value]

    def clean_name(self) -> str:
        return clean_player_name(self.cleaned_data["name"])

    def clean_mine(self) -> Roster:
        return self._force(self.cleaned_data["mine"])

    def clean_opponent(self) -> Roster:
        return self._force(self.cleaned_data["opponent"])
