"""Reading what the WWII board's buttons send: "hit a-v1 0 damaged" (a hit on a vehicle seen
undamaged), "wound b-i2 wounded", "test b-i2 recovered", "end-turn 3", "undo last", ... The
helpers with several values (a gun against armour, a capture test, a fight) are forms
(``matches.ww2.helper``), not ops."""

from __future__ import annotations

from blitz_site import inputs
from matches.taps import Request, parse_undo
from rules.eventlog import Event, EventError
from rules.ww2.infantry import OUTCOMES
from rules.ww2.play import read_event
from rules.ww2.vehicles import HIT_RESULTS, WEAPONS

MAX_WORDS = 4


def _event(kind: str, **data) -> Event:
    return read_event({"kind": kind, **data})


def _number(word: str, what: str) -> int:
    return inputs.whole_number(word, what)


def _choice(word: str, options: tuple[str, ...], what: str) -> str:
    if word not in options:
        raise EventError(f"{what} is one of {', '.join(options)}; got {inputs.shown(word)}.")
    return word


# op word -> (number of words after it, builder)
OPS = {
    "end-turn": (1, lambda turn: _event("end_turn", turn=_number(turn, "A turn"))),
    "end-battle": (
        1,
        lambda winner: _event("end_match", winner=_choice(winner, ("a", "b", "draw"), "A winner")),
    ),
    "hit": (
        3,
        lambda v, seen, result: _event(
            "hit",
            vehicle=v,
            seen=_number(seen, "Damage seen"),
            result=_choice(result, HIT_RESULTS, "A hit's result"),
        ),
    ),
    "move": (1, lambda v: _event("move", vehicle=v)),
    "fire": (
        2,
        lambda v, weapon: _event("fire", vehicle=v, weapon=_choice(weapon, WEAPONS, "A weapon")),
    ),
    "unhitch": (1, lambda v: _event("unhitch", vehicle=v)),
    "trawl": (1, lambda v: _event("mine_trawl", vehicle=v)),
    "smoke": (
        2,
        lambda v, how: _event("smoke", vehicle=v, how=_choice(how, ("placed", "fired"), "Smoke")),
    ),
    "clear-smoke": (1, lambda v: _event("clear_smoke", vehicle=v)),
    "off": (1, lambda s: _event("dismount", soldier=s)),
    "wound": (
        2,
        lambda s, outcome: _event(
            "wound", soldier=s, outcome=_choice(outcome, tuple(OUTCOMES), "A wound")
        ),
    ),
    "test": (
        2,
        lambda s, result: _event(
            "wound_test", soldier=s, result=_choice(result, ("recovered", "wounded"), "A test")
        ),
    ),
    "attack": (1, lambda s: _event("attack", soldier=s)),
    "far": (
        2,
        lambda s, far: _event("mark_far", soldier=s, far=_choice(far, ("0", "1"), "Far") == "1"),
    ),
    "morale": (
        2,
        lambda s, result: _event(
            "morale", soldier=s, result=_choice(result, ("passed", "failed"), "A morale test")
        ),
    ),
}


def parse_op(op: object) -> Request:
    """A button's op as an event, or an undo/redo; malformed raises EventError (a 400)."""
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
    if (undo := parse_undo(word, args)) is not None:
        return undo
    raise EventError(f"Unknown change {inputs.shown(op)}.")
