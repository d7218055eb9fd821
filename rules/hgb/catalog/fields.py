"""Field checks: what each kind of entry in the data files may hold, and how each field is read."""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable
from typing import Any

from rules.hgb.catalog.schema import (
    ARC_NAMES,
    BOX_KINDS,
    EDITIONS,
    MOVEMENT_MODES,
    RANGE_BANDS,
    SPEEDS,
)

# --- Field checks ---------------------------------------------------------------------------------


class BadField(Exception):
    """A field failed its check: ``problem`` is a sentence fragment, ``path`` where it is."""

    def __init__(self, problem: str, path: tuple[str | int, ...] = ()) -> None:
        super().__init__(problem)
        self.problem = problem
        self.path = path


Check = Callable[[Any], Any]
Fields = dict[str, tuple[Check, bool]]

IDENT = re.compile(r"^[A-Za-z0-9_]+$")


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise BadField(f"must be a non-empty string; got {value!r}")
    return value.strip()


def _note(value: Any) -> str:
    if not isinstance(value, str):
        raise BadField(f"must be a string; got {value!r}")
    return value.strip()


def _ident(value: Any) -> str:
    if not isinstance(value, str) or not IDENT.match(value):
        raise BadField(f"must be an id of letters, digits and underscores; got {value!r}")
    return value


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise BadField(f"must be true or false; got {value!r}")
    return value


def _whole(minimum: int | None = None) -> Check:
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise BadField(f"must be a whole number; got {value!r}")
        if minimum is not None and value < minimum:
            raise BadField(f"must be a whole number of {minimum} or more; got {value}")
        return value

    return check


def _one_of(allowed: Iterable[str]) -> Check:
    allowed = tuple(allowed)

    def check(value: Any) -> str:
        if not isinstance(value, str) or value not in allowed:
            raise BadField(f"must be one of {', '.join(allowed)}; got {value!r}")
        return value

    return check


def _list(item: Check, *, non_empty: bool = False) -> Check:
    def check(value: Any) -> tuple[Any, ...]:
        if not isinstance(value, list):
            raise BadField(f"must be a list; got {value!r}")
        if non_empty and not value:
            raise BadField("must not be empty")
        out = []
        for index, element in enumerate(value, 1):
            try:
                out.append(item(element))
            except BadField as bad:
                raise BadField(bad.problem, (index, *bad.path)) from None
        return tuple(out)

    return check


def check_fields(value: Any, fields: Fields, *, require: bool) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise BadField(f"must be a table; got {value!r}")
    out = {}
    for key, element in value.items():
        if key not in fields:
            raise BadField(f"is not a known field (known: {', '.join(fields)})", (key,))
        check, _required = fields[key]
        try:
            out[key] = check(element)
        except BadField as bad:
            raise BadField(bad.problem, (key, *bad.path)) from None
    if require:
        for key, (_check, required) in fields.items():
            if required and key not in out:
                raise BadField("is missing", (key,))
    return out


def _table(fields: Fields, after: Callable[[dict[str, Any]], None] | None = None) -> Check:
    def check(value: Any) -> dict[str, Any]:
        out = check_fields(value, fields, require=True)
        if after:
            after(out)
        return out

    return check


_TEMPLATE_FIELDS = {"count", "max", "min", "squad", "group"}


def _template(value: Any) -> str:
    text = _text(value)
    try:
        names = {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    except ValueError as error:
        raise BadField(f"is not a valid sentence template ({error})") from None
    unknown = names - _TEMPLATE_FIELDS
    if unknown:
        raise BadField(
            f"uses unknown placeholders {sorted(unknown)}; "
            f"allowed: {', '.join(sorted(_TEMPLATE_FIELDS))}"
        )
    return text


def _limit_after(limit: dict[str, Any]) -> None:
    if not limit.get("options") and not limit.get("upgrades"):
        raise BadField("must name at least one option or upgrade", ("options",))
    if "min" not in limit and "max" not in limit:
        raise BadField("a limit needs a min or a max", ("max",))
    if "max" in limit and "too_many" not in limit:
        raise BadField("is missing (the sentence for a broken max)", ("too_many",))
    if "min" in limit and "too_few" not in limit:
        raise BadField("is missing (the sentence for a broken min)", ("too_few",))
    if "min" in limit and "max" in limit and limit["min"] > limit["max"]:
        raise BadField(f"min {limit['min']} is above max {limit['max']}", ("min",))


_SKILL_FIELDS: Fields = {
    "att": (_whole(0), False),
    "def": (_whole(0), False),
    "ew": (_whole(0), False),
    "ld": (_whole(0), False),
}
_MOUNT = _table(
    {
        "weapon": (_ident, True),
        "arc": (_one_of(ARC_NAMES), False),
        "reloads": (_flag, False),
        "limited_ammo": (_whole(1), False),
        "note": (_note, False),
    }
)
_MOVEMENT = _table(
    {
        "mode": (_one_of(MOVEMENT_MODES), True),
        "speed": (_one_of(SPEEDS), True),
        "mp": (_whole(0), False),
        "attack_modifier": (_whole(), False),
        "defense_modifier": (_whole(), False),
    }
)
_SLOT = _table(
    {
        "model": (_ident, True),
        "count": (_whole(1), True),
        **_SKILL_FIELDS,
        "leader": (_flag, False),
        "note": (_note, False),
    }
)
_LIMIT = _table(
    {
        "options": (_list(_ident), False),
        "upgrades": (_list(_ident), False),
        "min": (_whole(0), False),
        "max": (_whole(0), False),
        "too_many": (_template, False),
        "too_few": (_template, False),
    },
    _limit_after,
)
_CHOICE = _table({"option": (_ident, True), "model": (_ident, True), "nth": (_whole(1), False)})
_PRESET_GROUP = _table(
    {
        "squad": (_ident, True),
        "options": (_list(_CHOICE), False),
        "upgrades": (_list(_ident), False),
    }
)
_SKILLS = _table(_SKILL_FIELDS)
_RANGES = _table({band: (_whole(0), False) for band in RANGE_BANDS})

SCHEMAS: dict[str, Fields] = {
    "weapons": {
        "id": (_ident, True),
        "name": (_text, True),
        "aliases": (_list(_text), False),
        "parts": (_list(_text), False),
        "dm": (_whole(1), False),
        "accuracy": (_whole(), False),
        "ranges": (_RANGES, False),
        "rof": (_whole(0), False),
        "traits": (_list(_text), False),
        "notes": (_note, False),
    },
    "models": {
        "id": (_ident, True),
        "name": (_text, True),
        "faction": (_ident, False),
        "counts_as": (_ident, False),
        "loadout": (_list(_MOUNT), False),
        "loadout_complete": (_flag, False),
        "damage_track": (_list(_one_of(BOX_KINDS), non_empty=True), False),
        "armor": (_whole(0), False),
        "size": (_whole(0), False),
        "sensors": (_whole(), False),
        "tv": (_whole(0), False),
        "movement": (_list(_MOVEMENT), False),
        "perks": (_list(_ident), False),
        "notes": (_note, False),
    },
    "factions": {
        "id": (_ident, True),
        "name": (_text, True),
        "short": (_note, False),
        "order": (_whole(), False),
        "tv_limit": (_whole(1), False),
        "limits": (_list(_LIMIT), False),
        "perks": (_list(_ident), False),
        "notes": (_note, False),
    },
    "squads": {
        "id": (_ident, True),
        "name": (_text, True),
        "faction": (_ident, True),
        "tv": (_whole(0), True),
        "tv_note": (_note, False),
        "slots": (_list(_SLOT, non_empty=True), True),
        "options": (_list(_ident), False),
        "upgrades": (_list(_ident), False),
        "limits": (_list(_LIMIT), False),
        "defaults": (_list(_CHOICE), False),
        "default_upgrades": (_list(_ident), False),
        "edition": (_one_of(EDITIONS), False),
        "notes": (_note, False),
    },
    "options": {
        "id": (_ident, True),
        "label": (_text, True),
        "tv": (_whole(), True),
        "tv_printed": (_flag, False),
        "tv_note": (_note, False),
        "applies_to": (_list(_ident), False),
        "removes": (_list(_ident), False),
        "adds": (_list(_MOUNT), False),
        "sturdy_boxes": (_whole(0), False),
        "choice": (_ident, False),
        "notes": (_note, False),
    },
    "upgrades": {
        "id": (_ident, True),
        "label": (_text, True),
        "tv": (_whole(), True),
        "tv_printed": (_flag, False),
        "tv_note": (_note, False),
        "skills": (_SKILLS, False),
        "leader_skills": (_SKILLS, False),
        "leader_model": (_ident, False),
        "notes": (_note, False),
    },
    "presets": {
        "id": (_ident, True),
        "name": (_text, True),
        "faction": (_ident, True),
        "tv": (_whole(0), True),
        "groups": (_list(_PRESET_GROUP, non_empty=True), True),
        "edition": (_one_of(EDITIONS), False),
        "default": (_flag, False),
        "notes": (_note, False),
    },
}
RULES_SCHEMA: Fields = {
    "max_group_size": (_whole(1), True),
    "default_tv_limit": (_whole(1), True),
    "priority_level": (_whole(1), False),
    "damage_track": (_list(_one_of(BOX_KINDS), non_empty=True), True),
    "default_skills": (_SKILLS, True),
}
SINGULAR = {
    "weapons": "weapon",
    "models": "model",
    "factions": "faction",
    "squads": "squad",
    "options": "option",
    "upgrades": "upgrade",
    "presets": "preset",
}


def describe_path(path: tuple[str | int, ...]) -> str:
    """A field path for a sentence: "'slots', item 2, 'count'"."""
    parts = []
    for step in path:
        parts.append(f"item {step}" if isinstance(step, int) else f"'{step}'")
    return ", ".join(parts)
