"""Reading what the Kill Team board's buttons send: "wound a-1 8" (one wound off an operative
the player saw with 8 left), "activate a-1 engage", "roll a 5", "ploy a strategic Seek and
Destroy", "cp b +1 mission objective", "undo last", ...

A button with a typed field beside it (a ploy's name, a CP change's reason) has the field's text
after its op (static/js/match.js puts it there); a form sent without JavaScript carries the field
itself, ``ploy-<side>`` or ``cp-reason-<side>``, read when the op has no text of its own."""

from __future__ import annotations

import secrets
from collections.abc import Mapping

from blitz_site import inputs
from matches.taps import Request, parse_undo
from rules import killteam as kt
from rules.eventlog import Event, EventError

MAX_WORDS = 24
CP_REASON = "corrected on the board"
"""The reason logged for a CP correction given none."""


def _number(word: str, what: str) -> int:
    return inputs.whole_number(word, what)


def _name(words: tuple[str, ...] | list[str], what: str) -> str:
    """Free text at the end of a tap (a ploy, a weapon), bounded and checked as a name is."""
    return inputs.text(" ".join(words), what)


def _event(kind: str, **data) -> Event:
    return kt.read_event({"kind": kind, **data})


def _roll(side: str, die: str) -> Event:
    if die == "screen":
        return _event("initiative_roll", side=side, die=secrets.randbelow(6) + 1, on_screen=True)
    return _event("initiative_roll", side=side, die=_number(die, "A die"))


def _ap(operative: str, action: str, ap: str, *weapon: str) -> Event:
    return _event(
        "action",
        operative=operative,
        action=action,
        ap=_number(ap, "AP"),
        weapon=_name(weapon, "A weapon's name"),
    )


def _dice(words: list[str]) -> dict[str, int]:
    """ "b-2:3" words: the die rolled for each operative."""
    dice = {}
    for word in words:
        operative, colon, die = word.partition(":")
        if not colon:
            raise EventError(
                f"A die is written operative:die, like b-2:3; got {inputs.shown(word)}."
            )
        dice[operative] = _number(die, "A die")
    return dice


# op word -> (number of words after it, or None for "at least one", builder)
OPS = {
    "roll": (2, _roll),
    "initiative": (2, lambda side, decider: _event("give_initiative", side=side, decider=decider)),
    "pass": (1, lambda side: _event("pass_strategy", side=side)),
    "wound": (
        2,
        lambda op, seen: _event("wound", operative=op, current=_number(seen, "Wounds seen")),
    ),
    "heal": (
        2,
        lambda op, seen: _event("heal", operative=op, current=_number(seen, "Wounds seen")),
    ),
    "stun": (1, lambda op: _event("stun", operative=op)),
    "activate": (2, lambda op, order: _event("activate", operative=op, order=order)),
    "order": (2, lambda op, order: _event("set_order", operative=op, order=order)),
    "end-activation": (1, lambda op: _event("end_activation", operative=op)),
    "end-battle": (1, lambda winner: _event("end_match", winner=winner)),
    "end-tp": (
        1,
        lambda tp: _event("end_turning_point", turning_point=_number(tp, "A turning point")),
    ),
}


def _typed(fields: Mapping[str, str], name: str, what: str) -> list[str]:
    return inputs.text(fields.get(name, ""), what).split()


def parse_op(op: object, fields: Mapping[str, str] | None = None) -> Request:
    """A button's op as an event, or an undo/redo; malformed raises EventError (a 400).
    ``fields``: the rest of the form, for a typed ploy name or CP reason sent without JS."""
    fields = fields or {}
    if not isinstance(op, str) or not op.strip():
        raise EventError("Say what to change: the request has no op.")
    word, *args = inputs.words(op, "A change")
    if len(args) > MAX_WORDS:
        raise EventError(f"Too many words in {inputs.shown(op)}.")
    if word in OPS:
        count, build = OPS[word]
        if len(args) != count:
            raise EventError(f"'{word}' takes {count} word(s); got {inputs.shown(op)}.")
        return build(*args)
    if word == "act" and len(args) >= 3:  # "act a-1 shoot 1 [weapon name]"
        return _ap(*args)
    if word == "ploy" and len(args) >= 2:  # "ploy a firefight Command Re-roll"
        side, kind, *name = args
        name = name or _typed(fields, f"ploy-{side}", "A ploy's name")
        if not name:
            raise EventError("Type the ploy's name first.")
        return _event("use_ploy", side=side, ploy_kind=kind, ploy=_name(name, "A ploy's name"))
    if word == "cp" and len(args) >= 2 and args[1] in ("+1", "-1"):  # "cp a +1 [reason]"
        side, amount, *reason = args
        reason = reason or _typed(fields, f"cp-reason-{side}", "A reason")
        text = _name(reason, "A reason") or CP_REASON
        return _event("adjust_cp", side=side, amount=int(amount), reason=text)
    if word == "kit" and len(args) >= 2:  # "kit a mines b-2:3", "kit a stun_grenade b-1:4"
        side, item, *rolled = args
        return _event("use_kit", side=side, item=item, dice=_dice(rolled))
    if (undo := parse_undo(word, args)) is not None:
        return undo
    raise EventError(f"Unknown change {inputs.shown(op)}.")
