"""Text a player sends, checked once for what no database can store (and for the direction
controls that would turn a name backwards on every page showing it).

PostgreSQL refuses the NUL character in text and jsonb columns (a ``DataError``, so a 500), and a
lone surrogate (``\\ud800``, which only a JSON escape can produce) cannot be encoded as UTF-8 for
any database. Every form that stores text uses :class:`StorableTextMixin`; the JSON import walks
the whole document with :func:`storable`; slugs in URLs must match :data:`TOKEN`.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.validators import ProhibitNullCharactersValidator, RegexValidator
from django.urls import register_converter

# NUL and lone surrogates no database stores; the direction controls (U+202A to U+202E, U+2066
# to U+2069) every database stores, but one in a name ("\u202eyxalaG") turns it, and the text
# after it on the page, backwards: refused too, in the same sentence. Right-to-left names
# (Arabic, Hebrew) need none of them.
UNSTORABLE = re.compile("[\x00\ud800-\udfff\u202a-\u202e\u2066-\u2069]")
MESSAGE = (
    "Text can't contain control characters (such as NUL, or U+202E that turns text "
    "backwards) or broken characters; remove them and try again."
)
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")  # the alphabet of every slug Blitz makes

validate_storable = RegexValidator(UNSTORABLE, MESSAGE, code="unstorable", inverse_match=True)


def storable(value: Any) -> bool:
    """Whether every string in ``value`` (text, or JSON: lists, objects and their keys) can be
    stored."""
    if isinstance(value, str):
        return UNSTORABLE.search(value) is None
    if isinstance(value, dict):
        return all(storable(key) and storable(item) for key, item in value.items())
    if isinstance(value, list | tuple):
        return all(storable(item) for item in value)
    return True


def is_token(value: str) -> bool:
    """Whether ``value`` could be a slug Blitz made (anything else is looked up as not found)."""
    return bool(TOKEN.fullmatch(value or ""))


class StorableTextMixin:
    """A form whose text fields refuse what cannot be stored, in one plain sentence.

    It replaces Django's own NUL check ("Null characters are not allowed.") on every CharField,
    including fields a form adds in its ``__init__``, so a field never shows two errors.
    """

    def full_clean(self) -> None:
        for field in self.fields.values():
            if isinstance(field, forms.CharField):
                field.validators = [
                    validator
                    for validator in field.validators
                    if not isinstance(validator, ProhibitNullCharactersValidator)
                    and validator is not validate_storable
                ] + [validate_storable]
        super().full_clean()


class TokenConverter:
    """``<token:slug>`` in a URL: a slug's alphabet only, so a NUL never reaches a query."""

    regex = TOKEN.pattern

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(TokenConverter, "token")  # once, when the first URLconf imports this module
