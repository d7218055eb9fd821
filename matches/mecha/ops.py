"""Reading what the mecha board's buttons and the attack page's forms send: "move a-1",
"charge a-1", "declare a-1" (the held weapons ticked beside it), "counters a-1", "damage a-1",
"attack" and "link" (the attack page's fields), "apply b-1 a-1" (a target's damage and a
rammer's own, in one event), "end-turn 2", "end-match a", "undo last", ...

A button with a typed field beside it sends the field in the same form (``fields``), read here
one checked way (``blitz_site.inputs``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Protocol

from blitz_site import inputs
from matches.taps import Request, parse_undo
from rules.eventlog import Event, EventError
from rules.mecha import play

MAX_WORDS = 4
SIGNED = re.compile(r"[-+−]?[0-9]{1,3}")
FIELD = {"move": "ac", "charge": "ac", "counters": "counters", "damage": "dmg"}
FLAGS = ("front_arc", "base_contact", "attacker_high", "target_high")


class Fields(Protocol):
    def get(self, key: str, default: Any = ..., /) -> Any: ...
    def getlist(self, key: str) -> list[Any]: ...


def _event(kind: str, **data: Any) -> Event:
    return play.read_event({"kind": kind, **data})


def _number(fields: Mapping[str, Any], name: str, what: str, default: int | None = None) -> int:
    value = fields.get(name, "")
    if value in ("", None) and default is not None:
        return default
    return inputs.whole_number(value, what)


def signed(value: object, what: str) -> int:
    """A modifier: a whole number with an optional sign ("-4", "+2", "0"); empty is 0."""
    if value in ("", None):
        return 0
    if isinstance(value, str) and SIGNED.fullmatch(value.strip()):
        return int(value.strip().replace("−", "-"))
    raise inputs.InputError(
        f"{what} must be a whole number like -4, 0 or +2; got {inputs.shown(value)}."
    )


def _ids(fields: Fields, name: str) -> list[str]:
    values = fields.getlist(name)
    return [inputs.text(value, "A weapon", max_length=40) for value in values]


def _attack(fields: Fields) -> Event:
    return _event(
        "attack",
        unit=inputs.text(fields.get("unit", ""), "A unit", max_length=40),
        weapon=inputs.text(fields.get("weapon", ""), "A weapon", max_length=40),
        attack=inputs.text(fields.get("attack", ""), "An attack", max_length=10),
        target=inputs.text(fields.get("target", ""), "A target", max_length=40),
        modifier=signed(fields.get("modifier"), "A modifier"),
        **{flag: fields.get(flag) == "on" for flag in FLAGS},
    )


def _link(fields: Fields) -> Event:
    return _event(
        "link_attack",
        unit=inputs.text(fields.get("unit", ""), "A unit", max_length=40),
        set=inputs.text(fields.get("link", ""), "A Link set", max_length=40),
        weapons=_ids(fields, "linked"),
        target=inputs.text(fields.get("target", ""), "A target", max_length=40),
        modifier=signed(fields.get("modifier"), "A modifier"),
    )


def _apply(fields: Fields, target: str, rammer: str = "") -> Event:
    hits = {target: _number(fields, "amount", "The damage dealt")}
    if rammer:
        if rammer == target:
            raise EventError("A rammer's own damage goes to the rammer, not the target.")
        own = _number(fields, "self_amount", "The rammer's own damage", 0)
        if own:
            hits[rammer] = own
    note = inputs.text(fields.get("note", ""), "A note", max_length=120)
    return _event("damage", hits=hits, note=note)


def parse_op(op: object, fields: Fields) -> Request:
    """A button's op as an event, or an undo/redo; malformed raises EventError (a 400)."""
    if not isinstance(op, str) or not op.strip():
        raise EventError("Say what to change: the request has no op.")
    word, *args = inputs.words(op, "A change")
    if len(args) > MAX_WORDS:
        raise EventError(f"Too many words in {inputs.shown(op)}.")
    if (undo := parse_undo(word, args)) is not None:
        return undo
    one = len(args) == 1
    if word in ("move", "charge", "counters", "damage") and len(args) == 2:
        # A typed number after the op (data-with): it wins over the form's field.
        fields = {f"{FIELD[word]}-{args[0]}": args[1]}
        args = args[:1]
        one = True
    if word in ("move", "charge") and one:
        cost = _number(fields, f"ac-{args[0]}", "A move's Action Counters", 0)
        return _event("move", unit=args[0], charge=word == "charge", ac=cost)
    if word == "declare" and one:
        return _event(
            "declare",
            unit=args[0],
            weapons=_ids(fields, f"held-{args[0]}"),
            one_handed=_ids(fields, f"one-{args[0]}"),
        )
    if word == "counters" and one:
        counters = _number(fields, f"counters-{args[0]}", "Action Counters")
        return _event("set_counters", unit=args[0], counters=counters)
    if word == "damage" and one:
        amount = _number(fields, f"dmg-{args[0]}", "The damage")
        return _event("damage", hits={args[0]: amount}, note="entered on the board")
    if word == "attack" and not args:
        return _attack(fields)
    if word == "link" and not args:
        return _link(fields)
    if word == "apply" and len(args) in (1, 2):
        return _apply(fields, *args)
    if word == "end-turn" and one:
        return _event("end_turn", turn=inputs.whole_number(args[0], "A turn"))
    if word == "end-match" and one:
        return _event("end_match", winner=args[0] if args[0] != "none" else "")
    raise EventError(f"Unknown change {inputs.shown(op)}.")
