"""The mecha match start form: two of the player's forces (or a shared one), and the reading of
the ram sentence the players agree on (the text does not decide it: no default)."""

from __future__ import annotations

from django import forms

from armies.models import Roster
from blitz_site.once import OnceKeyField
from blitz_site.text import StorableTextMixin
from matches.forms import clean_player_name, player_name_field
from rules.mecha.damage import FORMULAS, SCOPES


class MechaStartForm(StorableTextMixin, forms.Form):
    name = player_name_field()
    mine = forms.ChoiceField(label="Your force")
    opponent = forms.ChoiceField(label="Your opponent's force")
    ram_formula = forms.ChoiceField(
        label="A rammer's own damage",
        choices=list(FORMULAS.items()),
        widget=forms.RadioSelect,
        error_messages={"required": "Pick one: the rules text can be read either way."},
    )
    ram_scope = forms.ChoiceField(
        label="Which rams damage the rammer",
        choices=list(SCOPES.items()),
        widget=forms.RadioSelect,
        error_messages={"required": "Pick one: the rules text can be read either way."},
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
