"""Reading what Heavy Gear Blitz's board buttons and its start and end forms send."""

from __future__ import annotations

import secrets

from django import forms

from armies.models import Roster
from blitz_site import inputs
from blitz_site.once import OnceKeyField
from blitz_site.text import StorableTextMixin
from matches.forms import clean_player_name, player_name_field
from matches.hgb.services import SideChoice
from matches.models import Match
from matches.taps import Request, parse_undo
from rules.hgb.catalog import Catalog
from rules.hgb.match import MAX_NOTE, Event, EventError, parse_event

FLAGS = {"1": True, "0": False}

# op word -> (event kind, names of the words after the first)
UNIT_OPS = {
    "mark": ("mark_box", ("box",)),  # "mark a-1-2 3": cross off box 3 (the box the player saw)
    "clear": ("clear_box", ("box",)),
    "destroy": ("destroy", ()),
    "overkill": ("overkill", ()),
    "unoverkill": ("clear_overkill", ()),
    "speed": ("set_speed", ("speed",)),
    "mode": ("set_mode", ("mode",)),
    "used": ("set_used", ("used",)),
    "keep": ("keep_action", ("kept",)),
    "fo": ("fo_mark", ("marked",)),
    "fire": ("fire", ("weapon",)),
}
FLAG_FIELDS = {"used", "kept", "marked"}
# Words a tap may leave out: taps kept on a device by an older page say "mark a-1-2" (the next box).
OPTIONAL_WORDS = {"box"}


def _number(word: str, what: str) -> int:
    return inputs.whole_number(word, what)


def parse_op(op: object) -> Request:
    """Read a button's op, such as "mark a-1-2", "speed a-1-2 top", "roll a 5", "undo last"."""
    if not isinstance(op, str) or not op.strip():
        raise EventError("Say what to change: the request has no op.")
    word, *args = inputs.words(op, "A change")
    if word == "fo" and len(args) == 3:
        # "fo b-1-2 1 a-2-1": mark b-1-2, observed by a-2-1 (the observation spends its action).
        if args[1] != "1":
            raise EventError(f"'fo' names its observer only when it marks; got {op!r}.")
        return parse_event(
            {"kind": "fo_mark", "unit": args[0], "marked": True, "observer": args[2]}
        )
    if word in UNIT_OPS:
        kind, names = UNIT_OPS[word]
        if len(args) == len(names) and set(names) <= OPTIONAL_WORDS:
            names = ()
        if len(args) != 1 + len(names):
            raise EventError(f"'{word}' takes a model and {len(names)} more word(s); got {op!r}.")
        data: dict[str, object] = {"unit": args[0]}
        for name, value in zip(names, args[1:], strict=True):
            if name in FLAG_FIELDS:
                if value not in FLAGS:
                    raise EventError(f"'{word}' takes 1 or 0; got {value!r}.")
                data[name] = FLAGS[value]
            elif name == "weapon":
                data[name] = _number(value, "A weapon number") - 1
            elif name == "box":
                data[name] = _number(value, "A box number")
            else:
                data[name] = value
        return parse_event({"kind": kind, **data})
    if word == "roll" and len(args) == 2:
        side, die = args
        if die == "screen":
            return parse_event(
                {
                    "kind": "initiative_roll",
                    "side": side,
                    "die": secrets.randbelow(6) + 1,
                    "on_screen": True,
                }
            )
        return parse_event({"kind": "initiative_roll", "side": side, "die": _number(die, "A die")})
    if word == "first" and len(args) == 1:
        return parse_event({"kind": "choose_first", "side": args[0]})
    if word == "activate" and len(args) == 1:
        return parse_event({"kind": "activate", "group": args[0]})
    if word == "end-round" and len(args) <= 1:
        # "end-round 3": end round 3 (the round the player saw); a second such tap is stale.
        ending = _number(args[0], "A round number") if args else 0
        return parse_event({"kind": "end_round", "round": ending})
    if (undo := parse_undo(word, args)) is not None:
        return undo
    raise EventError(f"Unknown change {inputs.shown(op)}.")


def _choices(rosters, presets, shared: Roster | None, *, mine: bool) -> list:
    groups = []
    if shared is not None and not mine:
        groups.append(("Shared list", [(f"shared:{shared.share_slug}", shared.name)]))
    if rosters:
        groups.append(
            (
                "My rosters" if mine else "Another of my rosters",
                [(f"roster:{r.pk}", r.name) for r in rosters],
            )
        )
    groups.append(("Starter forces", [(f"preset:{p.id}", p.name) for p in presets]))
    return groups


class MatchStartForm(StorableTextMixin, forms.Form):
    name = player_name_field()
    mine = forms.ChoiceField(label="Your army")
    opponent = forms.ChoiceField(label="Your opponent's army")
    against = forms.CharField(required=False, widget=forms.HiddenInput)
    key = OnceKeyField()

    def __init__(self, *args, rosters, catalog: Catalog, shared: Roster | None, **kwargs):
        super().__init__(*args, **kwargs)
        self.rosters = {str(r.pk): r for r in rosters}
        self.shared = shared
        self.catalog = catalog
        presets = catalog.presets_in_order()
        self.fields["mine"].choices = _choices(rosters, presets, None, mine=True)
        self.fields["opponent"].choices = _choices(rosters, presets, shared, mine=False)

    def _side(self, value: str) -> SideChoice:
        source, _, ref = value.partition(":")
        if source == "roster" and ref in self.rosters:
            return SideChoice(Match.Source.ROSTER, roster=self.rosters[ref])
        if source == "shared" and self.shared is not None and ref == self.shared.share_slug:
            return SideChoice(Match.Source.SHARED, roster=self.shared)
        if source == "preset" and ref in self.catalog.presets:
            return SideChoice(Match.Source.PRESET, preset=ref)
        raise forms.ValidationError("Choose one of the lists offered.")

    def clean_name(self) -> str:
        return clean_player_name(self.cleaned_data["name"])

    def clean_mine(self) -> SideChoice:
        return self._side(self.cleaned_data["mine"])

    def clean_opponent(self) -> SideChoice:
        return self._side(self.cleaned_data["opponent"])


class MatchEndForm(StorableTextMixin, forms.Form):
    winner = forms.ChoiceField(label="Result", widget=forms.RadioSelect)
    note = forms.CharField(
        label="Note (optional)",
        required=False,
        max_length=MAX_NOTE,
        widget=forms.TextInput(attrs={"placeholder": "Held the bridge until round 4"}),
    )

    def __init__(self, *args, labels: dict[str, str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [
            ("a", f"{labels['a']} won"),
            ("b", f"{labels['b']} won"),
            ("draw", "A draw"),
        ]

    def event(self) -> Event:
        return parse_event(
            {
                "kind": "end_match",
                "winner": self.cleaned_data["winner"],
                "note": self.cleaned_data["note"],
            }
        )
