"""The mecha match start form: two of the player's forces (or a shared one), and the reading of
the ram sentence the players agree on (the text does not decide it: no default)."""

from __future__ import annotations

from django import forms

from matches.forms import StartForm
from rules.mecha.damage import FORMULAS, SCOPES


class MechaStartForm(StartForm):
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
