"""Reading what every game's match forms send: a tap's client key, a player's name, the join
form."""

from __future__ import annotations

import re

from django import forms

from blitz_site import inputs
from blitz_site.text import StorableTextMixin
from matches.models import Match


def client_key(value: object) -> str:
    """The key a tap carries so that sending it twice applies it once."""
    return inputs.once_key(value)


# --- A player's name, joining a match ------------------------------------------------------------

PLAYER_NAME_MAX = Match._meta.get_field("a_player").max_length
CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f]")


def player_name_field() -> forms.CharField:
    """ "Your name", as the log, the summary and the export show it; blank (or only spaces) means
    none, and the match then says "Player A" or "Player B"."""
    return forms.CharField(
        label="Your name (optional)",
        required=False,
        max_length=PLAYER_NAME_MAX,
        error_messages={
            "max_length": f"Keep your name to {PLAYER_NAME_MAX} characters or fewer.",
            "null_characters_not_allowed": "Your name can only hold letters, digits, spaces "
            "and punctuation.",
        },
        help_text="Shown to the other player and in the match log. Leave it empty to be "
        '"Player A" or "Player B".',
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )


def clean_player_name(value: str) -> str:
    if CONTROL_CHARACTERS.search(value):
        raise forms.ValidationError(
            "Your name can only hold letters, digits, spaces and punctuation."
        )
    return " ".join(value.split())


class MatchJoinForm(StorableTextMixin, forms.Form):
    name = player_name_field()

    def clean_name(self) -> str:
        return clean_player_name(self.cleaned_data["name"])
