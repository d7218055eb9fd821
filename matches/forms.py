"""Reading what every game's match forms send: a tap's client key, a player's name, the join
form."""

from __future__ import annotations

import re

from django import forms

from armies.models import Roster
from blitz_site import inputs
from blitz_site.once import OnceKeyField
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


# --- Starting a match ----------------------------------------------------------------------------


class StartForm(StorableTextMixin, forms.Form):
    """What every game's start form asks: the player's name, their roster and the opponent's
    (one of theirs, or the shared one the link named). A game's form adds its own fields and
    names its rosters (``noun``, ``mine_label``, ``opponent_label``)."""

    noun = "force"
    mine_label = "Your force"
    opponent_label = "Your opponent's force"

    name = player_name_field()
    mine = forms.ChoiceField()
    opponent = forms.ChoiceField()
    against = forms.CharField(required=False, widget=forms.HiddenInput)
    key = OnceKeyField()

    def __init__(self, *args, rosters: list[Roster], shared: Roster | None, **kwargs):
        super().__init__(*args, **kwargs)
        self.rosters = {f"roster:{r.pk}": r for r in rosters}
        if shared is not None:
            self.rosters[f"shared:{shared.share_slug}"] = shared
        mine = [(f"roster:{r.pk}", r.name) for r in rosters]
        self.fields["mine"].choices = mine
        self.fields["mine"].label = self.mine_label
        opponent = [(f"shared:{shared.share_slug}", f"{shared.name} (shared)")] if shared else []
        self.fields["opponent"].choices = opponent + mine
        self.fields["opponent"].label = self.opponent_label

    def roster(self, value: str) -> Roster:
        """The roster a choice names, if it is one of those offered."""
        if value not in self.rosters:
            raise forms.ValidationError(f"Choose one of the {self.noun}s offered.")
        return self.rosters[value]

    def clean_name(self) -> str:
        return clean_player_name(self.cleaned_data["name"])

    def clean_mine(self) -> Roster:
        return self.roster(self.cleaned_data["mine"])

    def clean_opponent(self) -> Roster:
        return self.roster(self.cleaned_data["opponent"])
