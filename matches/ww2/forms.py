"""The WWII skirmish match start form: two of the player's forces (or a shared one), and the one
setting the text leaves open: whether running-gear damage counts as a damage (no default)."""

from __future__ import annotations

from django import forms

from matches.forms import StartForm

RUNNING_GEAR = [
    ("yes", "Yes: it is one of the two damages (a second damage destroys)"),
    ("no", "No: it only stops the vehicle moving"),
]


class Ww2StartForm(StartForm):
    running_gear = forms.ChoiceField(
        label="Does running-gear damage count as a damage?",
        choices=RUNNING_GEAR,
        widget=forms.RadioSelect,
        help_text="Not in the rules text: agree on it before the battle.",
        error_messages={"required": "Choose whether running-gear damage counts as a damage."},
    )
