"""The events of a mecha attack phase and the rules they follow.

``step(state, event)`` applies one event and says what it did (``rules.eventlog.Step``);
illegal input raises RulesError with a sentence (the refusal goes in the log), a tap made on an
out-of-date screen raises ``Stale``. The turn sequence is not in the text: the players end each
turn; per turn each unit's Action Counters, declared weapons, moves and attacks are kept, and
the text's once-a-turn limits checked (``rules.mecha.attacks``). Damage is a count the players
keep: the text gives no damage track.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.checks import is_whole
from rules.errors import RulesError
from rules.eventlog import Event, EventError, Stale, Step, parse_event
from rules.mecha import attacks as at
from rules.mecha.state import HANDS_NEEDED, SIDES, MechaState, Unit

MAX_DAMAGE = 999
MAX_COUNTERS = 99
MAX_NOTE = 300
DECLARABLE = (*HANDS_NEEDED,)
TURN_FIELDS = ("spent", "held", "declared", "moved", "charged", "rams", "used", "no_move")

EVENT_FIELDS: dict[str, dict[str, Any]] = {
    "set_counters": {"unit": str, "counters": int},
    "declare": {"unit": str, "weapons": list, "one_handed": list},
    "move": {"unit": str, "charge": bool, "ac": int},
    "attack": {
        "unit": str,
        "weapon": str,
        "attack": str,
        "target": str,
        "front_arc": bool,
        "base_contact": bool,
        "attacker_high": bool,
        "target_high": bool,
        "modifier": int,
    },
    "link_attack": {"unit": str, "set": str, "weapons": list, "target": str, "modifier": int},
    "damage": {"hits": dict, "note": str},
    "end_turn": {"turn": int},
    "end_match": {"winner": str, "note": str},
    "undo": {"target": int},
}
OPTIONAL_FIELDS: dict[str, Any] = {
    "one_handed": [],
    "charge": False,
    "ac": 0,
    "weapon": "",
    "front_arc": False,
    "base_contact": False,
    "attacker_high": False,
    "target_high": False,
    "modifier": 0,
    "note": "",
}


def make_event(kind: str, **data: Any) -> Event:
    """An event checked as ``read_event`` checks it: ``make_event("move", unit="a-1")``."""
    return parse_event({"kind": kind, **data}, EVENT_FIELDS, OPTIONAL_FIELDS)


def read_event(data: object) -> Event:
    """An event from plain data; anything malformed raises EventError with a sentence."""
    return parse_event(data, EVENT_FIELDS, OPTIONAL_FIELDS)


def with_unit(state: MechaState, unit: Unit) -> MechaState:
    return replace(state, units=tuple(unit if u.id == unit.id else u for u in state.units))


def _check_number(value: int, what: str, low: int, high: int) -> int:
    if not low <= value <= high:
        raise RulesError(f"{what} must be from {low} to {high}; got {value}.")
    return value


def _note(value: str) -> str:
    return " ".join(value.split())[:MAX_NOTE]


def set_counters(state: MechaState, event: Event) -> Step:
    unit = state.unit(event["unit"])
    counters = _check_number(event["counters"], "Action Counters", 0, MAX_COUNTERS)
    new = replace(unit, counters=counters)
    return Step(
        with_unit(state, new),
        f"{state.label(unit)} has {counters} Action Counters a turn (entered by the players).",
        writes=frozenset({f"{unit.id}:counters"}),
    )


def _ids(value: list[object], what: str) -> tuple[str, ...]:
    if not all(isinstance(item, str) for item in value) or len(set(value)) != len(value):
        raise EventError(f"{what} is a list of different weapon ids.")
    return tuple(str(item) for item in value)


def declare(state: MechaState, event: Event) -> Step:
    """Declare the hand-held weapons a unit uses: free as the unit's first change of the turn
    (the First Move Phase), 1 Action Counter after that."""
    unit = state.unit(event["unit"])
    held = _ids(event["weapons"], "The held weapons")
    one_handed = _ids(event["one_handed"], "The one-handed weapons")
    weapons = [unit.weapon(w) for w in held]
    if not set(one_handed) <= set(held):
        raise EventError("A weapon held in one hand must be among the held weapons.")
    warnings = []
    hands = 0
    for weapon in weapons:
        if weapon.fix not in DECLARABLE:
            raise RulesError(
                f"{weapon.name} is not hand held: only hand-held weapons are declared."
            )
        needed = 1 if weapon.id in one_handed else HANDS_NEEDED[weapon.fix]
        if weapon.fix == "1_2_handed" and weapon.id not in one_handed:
            needed = 2
        if weapon.id in one_handed and weapon.fix in ("2_handed", "1_2_handed", "stand"):
            warnings.append(
                f"{weapon.name} held in one hand: a penalty to the attack values, its size not in "
                f"the rules text (enter the modifier with each attack)."
            )
        hands += needed
    if weapons and not (unit.kind in ("infantry", "scaru", "mobile_suit") or unit.has_arms):
        raise RulesError(
            f"{unit.name} has no arms: only SRACUs and Infantry, and other units with arms, have "
            f"hand-held weapons."
        )
    fixed = sum(1 for w in unit.weapons if w.fix == "fixed_handed")
    if hands > unit.hands - fixed:
        taken = f" ({fixed} taken by Fixed Handed weapons)" if fixed else ""
        raise RulesError(f"{unit.name} has {unit.hands} hands{taken}; these weapons need {hands}.")
    if sum(1 for w in weapons if w.fix == "1_2_handed") > 1:
        raise RulesError("A unit cannot use two 1/2 Handed weapons at the same time.")
    free = not unit.declared and unit.spent == 0 and not unit.used
    cost = 0 if free else 1
    new, over = at.spend(replace(unit, held=held, declared=True), cost, ())
    names = ", ".join(w.name for w in weapons) or "no hand-held weapons"
    how = "free (First Move Phase)" if free else "1 AC"
    return Step(
        with_unit(state, new),
        f"{state.label(unit)} holds {names}: {how}, {at.counters_words(new)}.",
        tuple(warnings + over),
        writes=frozenset({f"{unit.id}:held", f"{unit.id}:spent"}),
        reads=frozenset({"match:turn"}),
    )


def move(state: MechaState, event: Event) -> Step:
    unit = state.unit(event["unit"])
    cost = _check_number(event["ac"], "A move's Action Counters", 0, MAX_COUNTERS)
    if unit.no_move:
        raise RulesError(f"{unit.name} used {unit.no_move} this turn: no move actions after it.")
    new, over = at.spend(
        replace(unit, moved=True, charged=unit.charged or event["charge"]), cost, ()
    )
    what = "Charge Move" if event["charge"] else "move"
    return Step(
        with_unit(state, new),
        f"{state.label(unit)} makes a {what} ({cost} AC entered, {at.counters_words(new)}).",
        tuple(over),
        writes=frozenset({f"{unit.id}:moved", f"{unit.id}:spent"}),
        reads=frozenset({"match:turn", f"{unit.id}:used"}),
    )


def attack(state: MechaState, event: Event) -> Step:
    unit = state.unit(event["unit"])
    target = state.unit(event["target"])
    at.check_attack_target(state, unit, target)
    kind = event["attack"]
    if kind not in at.ATTACKS:
        raise EventError(f"An attack is range, melee or ram; got {kind!r}.")
    modifier = _check_number(event["modifier"], "A modifier", -at.MAX_MODIFIER, at.MAX_MODIFIER)
    weapon = unit.weapon(event["weapon"]) if event["weapon"] else None
    if kind == "ram":
        at.check_ram(unit, event["front_arc"])
    at.check_high_sky(weapon, event["attacker_high"], event["target_high"])
    shot = at.shot(
        unit, weapon, kind, modifier=modifier, base_contact=event["base_contact"], turn=state.turn
    )
    new, over = at.spend(unit, at.ATTACK_COST, (weapon,) if weapon else ())
    if kind == "ram":
        new = replace(new, rams=new.rams + 1)
    with_what = weapon.name if weapon else ("Strength" if kind == "ram" else "unarmed")
    return Step(
        with_unit(state, new),
        f"{state.label(unit)} {at.ATTACKS[kind]} on {state.label(target)} with {with_what}: "
        f"{shot.value}; 1 AC, {at.counters_words(new)}.",
        shot.warnings + tuple(over),
        writes=frozenset({f"{unit.id}:spent", f"{unit.id}:used"}),
        reads=frozenset({"match:turn", f"{unit.id}:moved", f"{unit.id}:held"}),
    )


def link_attack(state: MechaState, event: Event) -> Step:
    """A Link set fires as one action costing 2, every weapon at the same target (the players
    name the weapons that can fire and are in range); each rolls separately."""
    unit = state.unit(event["unit"])
    target = state.unit(event["target"])
    at.check_attack_target(state, unit, target)
    modifier = _check_number(event["modifier"], "A modifier", -at.MAX_MODIFIER, at.MAX_MODIFIER)
    weapons = [unit.weapon(w) for w in _ids(event["weapons"], "The linked weapons")]
    if not weapons:
        raise RulesError("Name the weapons of the link that can fire and are in range.")
    for weapon in weapons:
        if weapon.link_kind != "linked" or weapon.link_set != event["set"]:
            raise RulesError(f"{weapon.name} is not in the Link set {event['set']!r}.")
    values: list[str] = []
    warnings: list[str] = []
    for weapon in weapons:
        shot = at.shot(
            unit, weapon, "range", modifier=modifier, base_contact=False, turn=state.turn
        )
        values.append(f"{weapon.name}: {shot.value}")
        warnings += shot.warnings
    new, over = at.spend(unit, at.LINK_COST, tuple(weapons))
    return Step(
        with_unit(state, new),
        f"{state.label(unit)} fires the Link set {event['set']} at {state.label(target)} "
        f"({'; '.join(values)}); roll each weapon separately; 2 AC for the set, "
        f"{at.counters_words(new)}.",
        tuple(warnings + over),
        writes=frozenset({f"{unit.id}:spent", f"{unit.id}:used"}),
        reads=frozenset({"match:turn", f"{unit.id}:moved", f"{unit.id}:held"}),
    )


def damage(state: MechaState, event: Event) -> Step:
    """Rolled or entered damage, on one or more units at once (a ram's target and rammer)."""
    hits = event["hits"]
    if not hits:
        raise EventError("A damage event names at least one unit.")
    words, writes = [], set()
    for unit_id, amount in hits.items():
        unit = state.unit(unit_id)
        if not is_whole(amount):
            raise EventError(f"Damage is a whole number; got {amount!r}.")
        _check_number(amount, "Damage", 0, MAX_DAMAGE)
        new = replace(unit, damage=unit.damage + amount)
        state = with_unit(state, new)
        words.append(f"{state.label(unit)} takes {amount} (damage taken {new.damage})")
        writes.add(f"{unit.id}:damage")
    note = _note(event["note"])
    return Step(
        state,
        "; ".join(words) + (f" ({note})" if note else "") + ".",
        writes=frozenset(writes),
    )


def end_turn(state: MechaState, event: Event) -> Step:
    if event["turn"] != state.turn:
        raise Stale(f"Turn {event['turn']} was already ended{{by}}", "match:turn")
    units = tuple(
        replace(
            unit, spent=0, declared=False, moved=False, charged=False, rams=0, used=(), no_move=""
        )
        for unit in state.units
    )
    writes = {"match:turn"} | {f"{u.id}:{name}" for u in state.units for name in TURN_FIELDS}
    return Step(
        replace(state, units=units, turn=state.turn + 1),
        f"Turn {state.turn} ends; turn {state.turn + 1} begins (hand-held weapons carry over).",
        writes=frozenset(writes),
    )


def end_match(state: MechaState, event: Event) -> Step:
    winner = event["winner"]
    if winner not in (*SIDES, "draw", ""):
        raise EventError(f"A winner is a, b, draw or nobody; got {winner!r}.")
    note = _note(event["note"])
    who = {"a": state.labels[0], "b": state.labels[1], "draw": "a draw", "": "no result"}[winner]
    return Step(
        replace(state, ended=True, result=winner, note=note),
        f"The match ends: {who}." + (f" {note}" if note else ""),
        writes=frozenset({"match:ended"}),
    )


def step(state: MechaState, event: Event, seq: int | None = None) -> Step:
    """Apply one event (not an undo: see ``rules.mecha.log``) and say what it did."""
    if not isinstance(event, Event):
        raise EventError(f"Not an event: {event!r}.")
    handler = _HANDLERS.get(event.kind)
    if handler is None:
        raise EventError(f"Unknown event kind {event.kind!r}.")
    if state.ended:
        if event.kind == "end_match":
            raise Stale("The match was already ended{by}", "match:ended")
        raise Stale(
            "The match was ended{by}: undo its end in the log to change anything", "match:ended"
        )
    return handler(state, event)


_HANDLERS = {
    "set_counters": set_counters,
    "declare": declare,
    "move": move,
    "attack": attack,
    "link_attack": link_attack,
    "damage": damage,
    "end_turn": end_turn,
    "end_match": end_match,
}
