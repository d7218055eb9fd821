"""Reading a file someone hands Blitz (a roster export, a datacard pack, a host data file): one
checked reader for every importer and every game.

A parser's own errors are not the only way a file fails: 1 KB of ``[`` nests deeper than Python
recurses (``RecursionError`` in ``json`` and ``tomllib``), an integer of more than 4,300 digits
raises ``ValueError``, ``NaN`` and ``1e999`` read as floats no database stores, and a 40-digit
integer overflows every integer column. :func:`read_json` and :func:`read_toml` turn each of these
into a :class:`FileError` whose sentence starts with the file's name, and refuse a file over
``max_bytes`` before reading it. What they return holds only dicts, lists, strings, bools,
finite floats and integers of at most :data:`MAX_DIGITS` digits, nested at most ``max_depth``
deep, so the importer checks the document's meaning, never its shape.
"""

from __future__ import annotations

import json
import math
import tomllib
from typing import Any

from rules.errors import RulesError

MAX_BYTES = 256 * 1024
MAX_DEPTH = 32  # a roster or a pack is 6 deep; nothing Blitz writes comes near
MAX_DIGITS = 15  # every figure, count and id Blitz reads fits (2**53 has 16 digits)


class FileError(RulesError):
    """A file that cannot be read; ``str(error)`` names the file and says why."""


def read_text(name: str, raw: bytes | str, *, max_bytes: int = MAX_BYTES) -> str:
    """The file's text: refused over ``max_bytes`` or when it is not UTF-8 (a byte order mark,
    which Windows editors write, is dropped)."""
    size = len(raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw)
    if size > max_bytes:
        raise FileError(f"{name}: the file is larger than {max_bytes // 1024} KB.")
    if isinstance(raw, str):
        return raw.removeprefix("\ufeff")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise FileError(f"{name}: not UTF-8 text.") from None


def _refuse_constant(word: str) -> float:
    raise ValueError(f"{word} is not a number")


def read_json(
    name: str, raw: bytes | str, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH
) -> Any:
    """A JSON document, checked (see the module's text); FileError with a sentence if not."""
    text = read_text(name, raw, max_bytes=max_bytes)
    try:
        document = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise FileError(f"{name}: not valid JSON ({error.msg} at line {error.lineno}).") from None
    except RecursionError:
        raise FileError(_too_deep(name, max_depth)) from None
    except ValueError:  # an integer of more than 4,300 digits, NaN, Infinity
        raise FileError(_too_long(name)) from None
    _check(name, document, max_depth)
    return document


def read_toml(
    name: str, raw: bytes | str, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH
) -> dict[str, Any]:
    """A TOML document, checked (see the module's text); FileError with a sentence if not."""
    text = read_text(name, raw, max_bytes=max_bytes)
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise FileError(f"{name}: not valid TOML: {error}.") from None
    except RecursionError:
        raise FileError(_too_deep(name, max_depth)) from None
    except ValueError:  # an integer of more than 4,300 digits
        raise FileError(_too_long(name)) from None
    _check(name, document, max_depth)
    return document


def _too_deep(name: str, max_depth: int) -> str:
    return f"{name}: the file is nested too deep (at most {max_depth} levels)."


def _too_long(name: str) -> str:
    return f"{name}: the file holds a number too long to read (at most {MAX_DIGITS} digits)."


def _check(name: str, document: Any, max_depth: int) -> None:
    """Every value of ``document`` nested at most ``max_depth`` deep, every number storable;
    walked without recursion, so no document can exhaust the stack here."""
    stack: list[tuple[Any, int]] = [(document, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth > max_depth:
                raise FileError(_too_deep(name, max_depth))
            items = value.values() if isinstance(value, dict) else value
            stack.extend((item, depth + 1) for item in items)
        elif isinstance(value, bool):
            continue
        elif isinstance(value, int) and abs(value) >= 10**MAX_DIGITS:
            raise FileError(_too_long(name))
        elif isinstance(value, float) and not math.isfinite(value):
            raise FileError(f"{name}: the file holds a number too large to read.")
