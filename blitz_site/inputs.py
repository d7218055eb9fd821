"""Every number, id, key and free text a request carries, read one checked way.

The bugs an outside probe keeps finding come from reading a request value by hand: ``"²".isdigit()``
is True but ``int("²")`` raises, ``int("٣")`` is 3, ``int()`` refuses more than 4,300 digits,
PostgreSQL refuses a NUL in text, no database stores a lone surrogate, and a 100 KB "name" is
stored as it came. The readers below take any value (``None``, a list, a string from a form, a
word of a tap) and either return what the code expects or raise :class:`InputError` with a
sentence a player understands, so the caller answers 400 (or a form error) in plain words.

Forms do the same with :class:`~blitz_site.text.StorableTextMixin` and bounded fields; a view or a
tap parser that reads ``request.POST`` / ``request.GET`` or a word of an op uses these.
"""

from __future__ import annotations

import re

from django.http import HttpResponse

from blitz_site.once import ONCE_KEY
from blitz_site.text import MESSAGE as UNSTORABLE_MESSAGE
from blitz_site.text import UNSTORABLE
from rules.eventlog import EventError

DIGITS = re.compile(r"[0-9]{1,9}")  # ASCII digits only, at most 999,999,999
MAX_NAME = 150  # a name, a ploy, a weapon, a note: the longest a form takes for a name
SHOWN = 40  # how much of a refused value a sentence repeats


class InputError(EventError):
    """A request value that cannot be read; ``str(error)`` says why in plain words. It is an
    EventError (a RulesError), so a view or a tap that answers those with 400 answers it too."""


def shown(value: object) -> str:
    """A refused value as a sentence may repeat it: short, and with nothing unprintable."""
    text = value if isinstance(value, str) else repr(value)
    text = UNSTORABLE.sub("?", text)
    return repr(text if len(text) <= SHOWN else text[:SHOWN] + "…")


def whole_number(value: object, what: str) -> int:
    """A whole number of ASCII digits (0 to 999,999,999): ``what`` names it in the refusal."""
    if isinstance(value, str) and DIGITS.fullmatch(value):
        return int(value)
    raise InputError(f"{what} must be a whole number (digits 0 to 9); got {shown(value)}.")


def choice_index(value: object, count: int, message: str) -> int:
    """The position of one of ``count`` choices offered ("0", "1", ...); ``message`` otherwise."""
    if isinstance(value, str) and DIGITS.fullmatch(value) and int(value) < count:
        return int(value)
    raise InputError(message)


def text(value: object, what: str, *, max_length: int = MAX_NAME) -> str:
    """Free text (a name, a note, a ploy): at most ``max_length`` characters, and nothing a
    database cannot store."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InputError(f"{what} must be text.")
    if len(value) > max_length:
        raise InputError(f"{what} is too long: at most {max_length} characters.")
    if UNSTORABLE.search(value):
        raise InputError(f"{what}: {UNSTORABLE_MESSAGE}")
    return value


def words(value: object, what: str, *, max_length: int = MAX_NAME * 2) -> list[str]:
    """A tap's op ("ploy a firefight Command Re-roll") split into words, each checked as
    :func:`text` checks a name; the whole op at most ``max_length`` characters."""
    return text(value, what, max_length=max_length).split()


def once_key(value: object) -> str:
    """The once-only key of a change (8 to 64 letters, digits, - or _)."""
    if is_once_key(value):
        return value  # type: ignore[return-value]
    raise InputError(
        "Every change needs a client key of 8 to 64 letters, digits, - or _ "
        "(the board makes one for each tap)."
    )


def is_once_key(value: object) -> bool:
    """Whether ``value`` could be a once-only key a change was stored with (anything else is
    never looked up: a NUL in a query is an error on PostgreSQL)."""
    return isinstance(value, str) and ONCE_KEY.fullmatch(value) is not None


def optional_id(value: object) -> int | None:
    """A database id from a query or a form ("12"), or None for none or anything else (looked up
    as not found)."""
    return int(value) if isinstance(value, str) and DIGITS.fullmatch(value) else None


def refusal(message: object, status: int = 400) -> HttpResponse:
    """The plain-text answer to a request refused (400) or naming nothing that exists (404)."""
    return HttpResponse(str(message), status=status, content_type="text/plain; charset=utf-8")
