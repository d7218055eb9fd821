"""Checks of the plain values every game's rules take (a whole number, a yes or no): each
returns the value or raises a ``RulesError`` that says what was expected and what was given."""

from __future__ import annotations

from typing import TypeGuard

from rules.errors import RulesError


def is_whole(value: object) -> TypeGuard[int]:
    """True for an int that is not a bool (True and False are ints in Python)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_whole(value: object, sentence: str, minimum: int) -> int:
    """Return ``value`` if it is a whole number of at least ``minimum``, else raise.

    ``sentence`` says what was expected; the error adds what was given.
    """
    if not is_whole(value) or value < minimum:
        shown = value if is_whole(value) else repr(value)
        raise RulesError(f"{sentence}; got {shown}.")
    return value


def check_flag(value: object, name: str) -> bool:
    """Return ``value`` if it is True or False, else raise."""
    if not isinstance(value, bool):
        raise RulesError(f"{name} must be yes or no (True or False); got {value!r}.")
    return value
