"""A once-only key for a form that creates something (a roster, an import, a match).

The form renders a fresh random key in a hidden field; the first submit with that key creates,
and a second submit with the same key (a double click, a retried request, a second tab sending
the same page) gets what the first one made. The key is stored on the created row under a unique
constraint per owner, so two submits at the same moment still make one row.

A key that is missing or is not 8 to 64 letters, digits, ``-`` or ``_`` is read as no key: the
submit creates as a plain form always did (a page cached before keys existed, a hand-made
request), never a refusal.
"""

from __future__ import annotations

import re
import secrets

from django import forms

ONCE_KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")


def new_key() -> str:
    return secrets.token_urlsafe(16)


def read_key(value: object) -> str:
    """The once-only key a plain button form sent (``<input name="key">``), or "" for none."""
    return value if isinstance(value, str) and ONCE_KEY.fullmatch(value) else ""


class OnceKeyField(forms.CharField):
    """A hidden field holding a fresh key; cleans to the key, or "" when it is not one."""

    widget = forms.HiddenInput

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("initial", new_key)  # a callable: a new key for each form drawn
        super().__init__(**kwargs)

    def clean(self, value: object) -> str:
        return read_key(value)
