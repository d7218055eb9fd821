"""Reading what the mecha forms send. What a card must be is checked by ``rules.mecha.cards``,
whose sentences land on the field they are about."""

from __future__ import annotations

from django import forms

from blitz_site.once import OnceKeyField
from blitz_site.text import StorableTextMixin


class ForceCreateForm(StorableTextMixin, forms.Form):
    name = forms.CharField(label="Name (optional)", max_length=80, required=False)
    key = OnceKeyField()
