"""Reading what the mecha forms send. Numbers are read as typed; what a card must be is checked
by ``rules.mecha.cards``, whose sentences land on the field they are about (``add_card_error``).
Every figure may stay empty: the rules text gives none."""

from __future__ import annotations

import re

from django import forms

from blitz_site.once import OnceKeyField
from blitz_site.text import StorableTextMixin
from rules.mecha import cards

NUMBER = re.compile(r"[0-9]{1,2}")  # ASCII digits only: "²" or "٣" is not a figure here
NOT_GIVEN = "Not in the rules text: type the figure from your own cards, or leave it empty."
NUMBER_ATTRS = {"inputmode": "numeric", "autocomplete": "off", "class": "figure-input"}


class ForceCreateForm(StorableTextMixin, forms.Form):
    name = forms.CharField(label="Name (optional)", max_length=80, required=False)
    key = OnceKeyField()


class FigureField(forms.CharField):
    """A figure the players type: empty, or a whole number 0 to 99."""

    def __init__(self, label: str, **kwargs) -> None:
        kwargs.setdefault("help_text", "")
        super().__init__(
            label=label,
            required=False,
            max_length=4,
            error_messages={"max_length": f"{label} must be a whole number from 0 to 99."},
            widget=forms.TextInput(attrs=NUMBER_ATTRS),
            **kwargs,
        )

    def clean(self, value):
        text = (super().clean(value) or "").strip()
        if not text:
            return None
        if not NUMBER.fullmatch(text):
            raise forms.ValidationError(f"{self.label} must be a whole number from 0 to 99.")
        return int(text)


def _choices(table: dict[str, str], empty: str = "") -> list[tuple[str, str]]:
    return ([("", empty)] if empty else []) + list(table.items())


class CardForm(StorableTextMixin, forms.Form):
    card_fields: dict[str, str] = {}  # a card's field -> the form field that types it

    def add_card_error(self, error: cards.CardError) -> None:
        """The rules' refusal next to the field it is about (else above the form)."""
        field = self.card_fields.get(error.field, error.field)
        if field in self.fields:
            self.add_error(field, error.sentence)
        else:
            self.add_error(None, str(error))


class UnitForm(CardForm):
    name = forms.CharField(label="Unit's name", max_length=cards.MAX_NAME)
    kind = forms.ChoiceField(label="Kind", choices=_choices(cards.KINDS))
    kind_name = forms.CharField(
        label="Its kind's name (for another kind)", max_length=30, required=False
    )
    size_class = FigureField("Size Class")
    strength = FigureField("Strength")
    armour = FigureField("Armour")
    range_attack = FigureField("Range Attack")
    melee_attack = FigureField("Melee Attack")
    hands = FigureField(
        "Hands (empty: two for a Mobile Suit or Infantry, as the text says; else type them)"
    )
    has_arms = forms.BooleanField(label="Has arms (may hold hand-held weapons)", required=False)
    action_counters = FigureField("Action Counters a turn")
    heavy_fire = forms.BooleanField(label="Pilot has the “Heavy Fire” skill", required=False)
    stable_platform = forms.BooleanField(
        label="Unit has the “Stable Platform” ability", required=False
    )
    key = OnceKeyField()

    @classmethod
    def initial_for(cls, unit: cards.Unit) -> dict:
        return {name: getattr(unit, name) for name in cls.base_fields if name != "key"}

    def document(self) -> dict:
        return {name: value for name, value in self.cleaned_data.items() if name != "key"}


DIE_CHOICES = [("", "No damage dice (not given)"), *((str(d), f"D{d}") for d in cards.DICE)]
LINK_CHOICES = [("", "Not combined"), *cards.LINKS.items()]


class WeaponForm(CardForm):
    card_fields = {"damage": "damage_count", "link": "link_set"}
    name = forms.CharField(label="Weapon's name", max_length=cards.MAX_NAME)
    type = forms.ChoiceField(label="Type", choices=_choices(cards.TYPES))
    sub_types = forms.CharField(
        label="Sub-Types (comma between them, e.g. beam, cannon)", max_length=200, required=False
    )
    range = FigureField("Range (inches)")
    damage_count = FigureField("Damage: how many dice")
    damage_die = forms.ChoiceField(label="Damage: which die", choices=DIE_CHOICES, required=False)
    fix = forms.ChoiceField(label="Fix (how it is carried)", choices=_choices(cards.FIXES))
    arc = forms.ChoiceField(
        label="X Arc location (for an X Arc weapon)",
        choices=_choices(cards.ARCS, "Not an X Arc weapon"),
        required=False,
    )
    link_kind = forms.ChoiceField(label="Link", choices=LINK_CHOICES, required=False)
    link_set = forms.CharField(label="Link set (its number or name)", max_length=20, required=False)
    key = OnceKeyField()

    @classmethod
    def initial_for(cls, weapon: cards.Weapon) -> dict:
        return {
            "name": weapon.name,
            "type": weapon.type,
            "sub_types": ", ".join(weapon.sub_types),
            "range": weapon.range,
            "damage_count": weapon.damage.count if weapon.damage else None,
            "damage_die": str(weapon.damage.die) if weapon.damage else "",
            "fix": weapon.fix,
            "arc": weapon.arc,
            "link_kind": weapon.link.kind if weapon.link else "",
            "link_set": weapon.link.set if weapon.link else "",
        }

    def clean(self):
        data = super().clean()
        count, die = data.get("damage_count"), data.get("damage_die")
        if die and count is None:
            data["damage_count"] = 1
        elif count is not None and not die:
            self.add_error("damage_die", "Pick the die: D3, D6 or D10.")
        if data.get("link_set") and not data.get("link_kind"):
            self.add_error("link_kind", "Pick how the weapon is combined: Main, Add-On or Linked.")
        return data

    def document(self) -> dict:
        data = self.cleaned_data
        die = data.get("damage_die")
        return {
            "name": data["name"],
            "type": data["type"],
            "sub_types": [part for part in data.get("sub_types", "").split(",") if part.strip()],
            "range": data.get("range"),
            "damage": {"count": data.get("damage_count"), "die": int(die)} if die else None,
            "fix": data["fix"],
            "arc": data.get("arc", ""),
            "link": {"kind": data["link_kind"], "set": data.get("link_set", "")}
            if data.get("link_kind")
            else None,
        }


class RemoveForm(forms.Form):
    key = OnceKeyField()
