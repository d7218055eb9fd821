"""Applying one event (``step``): damage, speed, mode, Used and kept actions, Limited Ammo shots
and forward observation here; rounds in ``rounds``, attacks and ECM in ``combat``.

Rules, from the English quickstart (hgb-quickstart-en.txt) unless said otherwise:

- "When a model has completed its activation, it is 'Used' and cannot move again until the next
  round." A model that holds its action ("or holding their Action") is Used with a kept action;
  "Gears may not attack once they are Used, with the exception of Reaction Fire", which spends
  the kept action. Starting the next group's activation ends the last one: its models are Used.
- Movement: "Vehicles may change their speed and their movement mode one per turn before moving.
  Speed may only be changed by one level up or down". "Per turn" is read as once per round (the
  translated text: "once per round before it begins to move and act"). A Used model has moved:
  it cannot change speed or mode. Models start a match at Combat Speed in Walker mode: the texts
  give no starting speed, and from Combat Speed every speed is one step away in round 1.
- "Moving at Top Speed requires the model to use an action": a model at Top Speed cannot keep
  an action or attack ("A Gear that spent its only action to move at Top Speed may also not
  attack").
- Damage: Heavy and Critical "cannot travel at Top Speed"; damage past Critical destroys the model
  (it stays on the table), an Overkill removes it. Penalties (-1, -2 "to all rolls") modify roll
  results, not the number of dice.
- Forward observation marks an enemy model "for the remainder of the round (or until the target
  moves)": the mark is cleared at the end of the round, or by hand.
"""

from __future__ import annotations

from dataclasses import replace

from rules.errors import RulesError
from rules.eventlog import EventError, Stale, UnknownId
from rules.hgb.match.combat import ATTACK_HANDLERS, NUMBERED_ATTACK_HANDLERS
from rules.hgb.match.events import Event, Handler, NumberedHandler, Step
from rules.hgb.match.rounds import ROUND_HANDLERS
from rules.hgb.match.state import (
    MatchState,
    Mode,
    Phase,
    Speed,
    Unit,
    unit_label,
    with_unit,
)
from rules.hgb.match.units import (
    acting_warnings,
    action_number,
    in_play,
    state_words,
    top_speed_warning,
    unit_step,
)

_SPEED_WORDS = {
    Speed.STATIONARY: "Stationary",
    Speed.COMBAT: "Combat Speed",
    Speed.TOP: "Top Speed",
}


def _stale_box(state: MatchState, unit: Unit, box: int, mark: bool) -> None:
    """Refuse a tap on box ``box`` that the screen showed out of date (see ``Stale``)."""
    who, marked = unit_label(state, unit), unit.track.marked
    if not 1 <= box <= len(unit.track.boxes) + 1:
        raise EventError(f"{who} has boxes 1 to {len(unit.track.boxes) + 1}; got box {box}.")
    if unit.track.overkilled:
        raise Stale(
            f"{who} was overkilled{{by}}: it takes no further part", f"{unit.id}:overkilled"
        )
    part = f"{unit.id}:damage"
    if mark and box <= marked:
        raise Stale(f"Box {box} of {who} was already crossed off{{by}}", part)
    if mark and box > marked + 1:
        raise Stale(
            f"Box {box - 1} of {who} was cleared{{by}}, so box {box} is not the next one", part
        )
    if not mark and box > marked:
        raise Stale(f"Box {box} of {who} was already cleared{{by}}", part)
    if not mark and box < marked:
        raise Stale(f"Box {marked} of {who} was crossed off{{by}}: clear it before box {box}", part)


def _mark_box(state: MatchState, event: Event) -> Step:
    unit = state.unit(event["unit"])
    if event["box"]:
        _stale_box(state, unit, event["box"], mark=True)
    in_play(state, unit)
    after = replace(unit, track=unit.track.mark(1))
    if after.track.destroyed:
        words = "damage past its Critical box: Destroyed (it stays on the table as rough terrain)"
    else:
        words = f"box {after.track.marked} crossed off: {state_words(after)}"
    return unit_step(
        state,
        unit,
        after,
        f"{unit_label(state, unit)}: {words}.",
        ["damage"],
        top_speed_warning(state, after),
    )


def _clear_box(state: MatchState, event: Event) -> Step:
    unit = state.unit(event["unit"])
    if event["box"]:
        _stale_box(state, unit, event["box"], mark=False)
    if unit.track.overkilled:
        raise RulesError(f"{unit_label(state, unit)} was overkilled: clear the Overkill first.")
    if unit.track.marked == 0:
        raise RulesError(f"{unit_label(state, unit)} has no damage box crossed off.")
    after = replace(unit, track=unit.track.unmark(1))
    return unit_step(
        state,
        unit,
        after,
        f"{unit_label(state, unit)}: box {unit.track.marked} cleared, now {state_words(after)}.",
        ["damage"],
    )


def _already_out(state: MatchState, unit: Unit) -> None:
    """Overkilled or Destroyed already: the screen that offered the button was out of date."""
    who = unit_label(state, unit)
    if unit.track.overkilled:
        raise Stale(f"{who} was already overkilled{{by}}", f"{unit.id}:overkilled")
    if unit.track.destroyed:
        raise Stale(f"{who} was already destroyed{{by}}", f"{unit.id}:damage")


def _destroy(state: MatchState, event: Event) -> Step:
    unit = state.unit(event["unit"])
    _already_out(state, unit)
    after = replace(unit, track=unit.track.destroy())
    return unit_step(
        state,
        unit,
        after,
        f"{unit_label(state, unit)}: Destroyed (it stays on the table as rough terrain).",
        ["damage"],
    )


def _overkill(state: MatchState, event: Event) -> Step:
    unit = state.unit(event["unit"])
    if unit.track.overkilled:
        _already_out(state, unit)
    in_play(state, unit)
    after = replace(unit, track=unit.track.overkill())
    return unit_step(
        state,
        unit,
        after,
        f"{unit_label(state, unit)}: Overkilled (removed from the table).",
        ["damage"],
    )


def _clear_overkill(state: MatchState, event: Event) -> Step:
    unit = state.unit(event["unit"])
    if not unit.track.overkilled:
        raise Stale(
            f"{unit_label(state, unit)} is not overkilled: the Overkill was cleared{{by}}",
            f"{unit.id}:overkilled",
        )
    after = replace(unit, track=unit.track.undo_overkill())
    return unit_step(
        state,
        unit,
        after,
        f"{unit_label(state, unit)}: Overkill cleared, now {state_words(after)}.",
        ["damage"],
        top_speed_warning(state, after),
    )


def _can_move(state: MatchState, unit: Unit, what: str) -> None:
    in_play(state, unit)
    if unit.used:
        raise RulesError(
            f"{unit_label(state, unit)} is Used: it can't change {what} until the next round."
        )


def _set_speed(state: MatchState, event: Event) -> Step:
    unit = state.unit(event["unit"])
    try:
        speed = Speed(event["speed"])
    except ValueError:
        raise EventError(f"A speed is stationary, combat or top; got {event['speed']!r}.") from None
    who = unit_label(state, unit)
    if speed is unit.speed:
        raise Stale(f"{who} was already set to {_SPEED_WORDS[speed]}{{by}}", f"{unit.id}:speed")
    _can_move(state, unit, "speed")
    if abs(speed.level - unit.speed.level) > 1:
        raise RulesError(
            f"Speed changes one level at a time: {who} is at {_SPEED_WORDS[unit.speed]}, so it "
            f"must spend a round at Combat Speed before {_SPEED_WORDS[speed]}."
        )
    if unit.speed_round == state.round:
        raise RulesError(f"{who} already changed speed this round: once per round.")
    if speed is Speed.TOP and not unit.track.top_speed_allowed:
        raise RulesError(
            f"{who} is at {unit.state.value.capitalize()} damage: it can't travel at Top Speed."
        )
    warnings = []
    if speed is Speed.TOP:
        warnings.append(
            f"Top Speed costs {who}'s action: it can't attack or keep an action this round."
        )
    after = replace(unit, speed=speed, speed_round=state.round)
    return unit_step(
        state,
        unit,
        after,
        f"{who}: {_SPEED_WORDS[unit.speed]} \u2192 {_SPEED_WORDS[speed]}.",
        ["speed"],
        warnings,
        reads=[f"{unit.id}:used", "round"],
    )


def _set_mode(state: MatchState, event: Event) -> Step:
    unit = state.unit(event["unit"])
    try:
        mode = Mode(event["mode"])
    except ValueError:
        raise EventError(f"A mode is walker or ground; got {event['mode']!r}.") from None
    who = unit_label(state, unit)
    if mode is unit.mode:
        raise Stale(f"{who} was already set to {mode.label} mode{{by}}", f"{unit.id}:mode")
    _can_move(state, unit, "mode")
    if unit.mode_round == state.round:
        raise RulesError(f"{who} already changed movement mode this round: once per round.")
    after = replace(unit, mode=mode, mode_round=state.round)
    return unit_step(
        state,
        unit,
        after,
        f"{who}: {unit.mode.label} \u2192 {mode.label} mode.",
        ["mode"],
        reads=[f"{unit.id}:used", "round"],
    )


def _set_used(state: MatchState, event: Event) -> Step:
    unit = state.unit(event["unit"])
    who = unit_label(state, unit)
    if event["used"]:
        if unit.used:
            raise Stale(f"{who} was already marked Used{{by}}", f"{unit.id}:used")
        in_play(state, unit)
        after = replace(unit, used=True)
        return unit_step(state, unit, after, f"{who}: Used.", ["used"])
    if not unit.used:
        raise Stale(f"{who} is not Used: that was cleared{{by}}", f"{unit.id}:used")
    after = replace(unit, used=False, kept_action=False)
    writes = ["used", "kept"] if unit.kept_action else ["used"]
    return unit_step(state, unit, after, f"{who}: no longer Used.", writes)


def _keep_action(state: MatchState, event: Event) -> Step:
    unit = state.unit(event["unit"])
    who = unit_label(state, unit)
    if event["kept"]:
        if unit.kept_action:
            raise Stale(f"{who} was already set to keep its action{{by}}", f"{unit.id}:kept")
        in_play(state, unit)
        if unit.speed is Speed.TOP:
            raise RulesError(
                f"{who} is at Top Speed: it spends its action moving, so it has none to keep."
            )
        warnings = [
            f"{who} already spent its action this round ({words}): it has no action left to keep."
            for _, words in unit.actions[:1]
        ]
        after = replace(unit, kept_action=True, used=True)
        return unit_step(
            state,
            unit,
            after,
            f"{who}: ends its activation keeping its action (Used).",
            ["kept", "used"],
            warnings,
            reads=[f"{unit.id}:speed", f"{unit.id}:acted"],
        )
    if not unit.kept_action:
        raise Stale(f"{who} has no kept action to spend: it was spent{{by}}", f"{unit.id}:kept")
    after = replace(unit, kept_action=False)
    return unit_step(state, unit, after, f"{who}: spends its kept action.", ["kept"])


def _fire(state: MatchState, event: Event) -> Step:
    unit = state.unit(event["unit"])
    who = unit_label(state, unit)
    index = event["weapon"]
    if not 0 <= index < len(unit.ammo):
        raise UnknownId(f"{who} has no Limited Ammo weapon number {index + 1}.")
    counter = unit.ammo[index]
    in_play(state, unit)
    if counter.left <= 0:
        raise RulesError(
            f"{who}'s {counter.weapon} is out of ammo (Limited Ammo {counter.capacity})."
        )
    writes = [f"ammo{index}"]
    warnings = []
    kept = unit.kept_action
    if unit.used:
        if not unit.kept_action:
            raise RulesError(
                f"{who} is Used and has no kept action: it can't attack until the next round."
            )
        kept = False
        writes.append("kept")
        warnings.append(f"{who} spent its kept action on this shot.")
    elif unit.speed is Speed.TOP:
        raise RulesError(f"{who} spent its action moving at Top Speed: it can't attack this round.")
    ammo = list(unit.ammo)
    ammo[index] = replace(counter, fired=counter.fired + 1)
    after = replace(unit, ammo=tuple(ammo), kept_action=kept)
    left = ammo[index].left
    return unit_step(
        state,
        unit,
        after,
        f"{who}: fired its {counter.weapon} ({left} of {counter.capacity} left).",
        writes,
        warnings,
        reads=[f"{unit.id}:used", f"{unit.id}:speed"],
    )


def _fo_mark(state: MatchState, event: Event, seq: int | None = None) -> Step:
    unit = state.unit(event["unit"])
    who = unit_label(state, unit)
    if event["marked"]:
        if unit.fo_mark:
            raise Stale(f"{who} was already marked by a forward observer{{by}}", f"{unit.id}:fo")
        in_play(state, unit)
        after = replace(unit, fo_mark=True)
        if event["observer"]:
            return _observation(state, unit, after, state.unit(event["observer"]), seq)
        summary = f"{who}: marked by a forward observer until the end of the round."
    else:
        if not unit.fo_mark:
            raise Stale(f"{who}'s forward observer mark was already cleared{{by}}", f"{unit.id}:fo")
        after = replace(unit, fo_mark=False)
        summary = f"{who}: forward observer mark cleared."
    return unit_step(state, unit, after, summary, ["fo"])


def _observation(
    state: MatchState, unit: Unit, after: Unit, observer: Unit, seq: int | None
) -> Step:
    """A forward observation by a named observer: "a friendly Model must spend an action on
    forward observation to mark a specific enemy Model". The observer spends its kept action if it
    is Used and kept one; otherwise the observation is its action this round. Warned, never
    refused: an observer with no action left, at Top Speed, or acting out of turn."""
    who, observer_who = unit_label(state, unit), unit_label(state, observer)
    in_play(state, observer)
    if observer.side == unit.side:
        raise RulesError(
            f"A forward observer marks an enemy model: {observer_who} and {who} are on the "
            "same side."
        )
    warnings = acting_warnings(state, observer, "marked a target for indirect fire")
    warnings += [
        f"{observer_who} already spent its action this round ({words}): a forward observation "
        "spends an action, and it has none left."
        for _, words in observer.actions[:1]
    ]
    spent = replace(
        observer,
        actions=observer.actions + (("fo", f"{action_number(seq)}forward observation of {who}"),),
    )
    writes = {f"{unit.id}:fo", f"{observer.id}:acted"}
    how = "its action"
    if observer.used and observer.kept_action:
        spent = replace(spent, kept_action=False)
        writes.add(f"{observer.id}:kept")
        how = "its kept action"
    elif observer.used:
        warnings.append(
            f"{observer_who} is Used and has no kept action: a forward observation spends an "
            "action, and it has none left."
        )
    elif observer.speed is Speed.TOP:
        warnings.append(
            f"{observer_who} spent its action moving at Top Speed: a forward observation spends "
            "an action, and it has none left."
        )
    new = with_unit(with_unit(state, after), spent)
    reads = writes | {
        f"{observer.id}:used",
        f"{observer.id}:speed",
        f"{observer.id}:damage",
        "phase",
    }
    return Step(
        new,
        f"{who}: marked by {observer_who} for indirect fire until the end of the round "
        f"(the observation spends {how}).",
        tuple(warnings),
        writes=frozenset(writes),
        reads=frozenset(reads),
    )


_HANDLERS: dict[str, Handler] = {
    "mark_box": _mark_box,
    "clear_box": _clear_box,
    "destroy": _destroy,
    "overkill": _overkill,
    "clear_overkill": _clear_overkill,
    "set_speed": _set_speed,
    "set_mode": _set_mode,
    "set_used": _set_used,
    "keep_action": _keep_action,
    "fire": _fire,
    "fo_mark": _fo_mark,
    **ROUND_HANDLERS,
    **ATTACK_HANDLERS,
}
# Handlers told the event's number in the log (see ``step``).
_NUMBERED: dict[str, NumberedHandler] = {**NUMBERED_ATTACK_HANDLERS, "fo_mark": _fo_mark}


def apply_event(state: MatchState, event: Event) -> MatchState:
    """The state after ``event``; an illegal event raises RulesError (see ``step``)."""
    return step(state, event).state


def step(state: MatchState, event: Event, seq: int | None = None) -> Step:
    """Apply one event (not an undo: see ``plan_undo``) and say what it did.

    ``seq`` is the number the event has (or will have) in the log: an attack or a forward
    observation records it in the model's ``actions``, so a second one this round can name the
    first. Replaying gives each event its number; the app passes the number it stores."""
    if not isinstance(event, Event):
        raise EventError(f"Not an event: {event!r}.")
    if event.kind == "undo":
        raise EventError("An undo is applied to the whole log: use plan_undo.")
    handler = _HANDLERS.get(event.kind)
    if handler is None:
        raise EventError(f"Unknown event kind {event.kind!r}.")
    if state.phase is Phase.ENDED:
        if event.kind == "end_match":
            raise Stale("The match was already ended{by}", "match:phase")
        raise Stale(
            "The match was ended{by}: undo 'End match' in the log to change anything",
            "match:phase",
        )
    if event.kind in _NUMBERED:
        return _NUMBERED[event.kind](state, event, seq)
    return handler(state, event)
