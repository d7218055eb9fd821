"""Attacks and ECM: the events the attack helper records, and what is worth warning about them.

One ``attack`` event records a whole resolved attack: who fired, what it did to each model
that defended (one or several: Spray Fire, an Area Effect, the models under an indirect
attack's landing point), a Limited Ammo shot if the weapon has one, and the helper's sentence
of how it was resolved. The numbers (modifiers, margin, damage) are worked out by
``rules.hgb.attack`` and ``rules.indirect`` before the event is made; the event only applies each
outcome to the damage track, so undo takes the whole attack back at once. ``figures`` keeps the
datacard figures the players typed in for it (``{"models": {"jager": {"armor": 14}},
"weapons": {"LAC": {"accuracy": 0}}}``): the log is where the match remembers them.

Readings: a Used model attacks only with a kept action (Reaction Fire), which the attack
spends, as the board's "fire" does; a model at Top Speed has spent its action moving. A model
that blocks a Forward Observation with ECM does so during the enemy's activation, so it too
spends a kept action.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from rules.errors import RulesError
from rules.eventlog import EventError, UnknownId
from rules.hgb.attack import RangeBand, attacks_this_round, rate_of_fire_warnings
from rules.hgb.catalog import default_catalog
from rules.hgb.damage import AttackOutcome
from rules.hgb.match.events import Event, Handler, NumberedHandler, Step
from rules.hgb.match.state import (
    MatchState,
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
)

MAX_ATTACK_TARGETS = 24
MAX_ATTACK_NOTE = 2000
_OUTCOMES = {outcome.value: outcome for outcome in AttackOutcome}


def _attack_note(value: str) -> str:
    note = " ".join(value.split())
    if len(note) > MAX_ATTACK_NOTE:
        raise EventError(f"An attack's note can be at most {MAX_ATTACK_NOTE} characters.")
    return note


MAX_FIGURES = 64
FIGURE_RANGE = range(-99, 1000)


def _attack_figures(value: Mapping[str, object]) -> None:
    """Typed-in figures: {"models" or "weapons": {id: {figure: whole number}}}, kept as given."""
    problem = EventError(
        "An attack's figures are {'models' or 'weapons': {id: {figure: whole number}}}."
    )
    if set(value) - {"models", "weapons"}:
        raise problem
    count = 0
    for entries in value.values():
        if not isinstance(entries, dict):
            raise problem
        for key, figures in entries.items():
            if not isinstance(key, str) or not isinstance(figures, dict):
                raise problem
            for name, number in figures.items():
                count += 1
                if (
                    not isinstance(name, str)
                    or isinstance(number, bool)
                    or not isinstance(number, int)
                    or number not in FIGURE_RANGE
                    or count > MAX_FIGURES
                ):
                    raise problem


def _attack_targets(value: Sequence[object]) -> list[tuple[str, AttackOutcome]]:
    if len(value) > MAX_ATTACK_TARGETS:
        raise EventError(f"An attack names at most {MAX_ATTACK_TARGETS} models.")
    targets: list[tuple[str, AttackOutcome]] = []
    for item in value:
        if (
            not isinstance(item, list)
            or len(item) != 2
            or not all(isinstance(part, str) for part in item)
        ):
            raise EventError(
                "Each model an attack names is [model, outcome], such as ['b-1-2', 'one_box']; "
                f"got {item!r}."
            )
        uid, word = item
        if word not in _OUTCOMES:
            raise EventError(f"An attack's outcome is one of {', '.join(_OUTCOMES)}; got {word!r}.")
        if any(uid == seen for seen, _ in targets):
            raise EventError(f"An attack names the model {uid} twice.")
        targets.append((uid, _OUTCOMES[word]))
    return targets


def _damage_words(unit: Unit, outcome: AttackOutcome) -> str:
    if outcome is AttackOutcome.MISS:
        return "missed"
    if outcome is AttackOutcome.NO_EFFECT:
        return "hit, no effect"
    if outcome is AttackOutcome.OVERKILL:
        return "Overkilled (removed from the table)"
    if unit.track.destroyed:
        return "damage past its Critical box: Destroyed (it stays on the table as rough terrain)"
    boxes = "1 box" if outcome.boxes == 1 else f"{outcome.boxes} boxes"
    return f"{boxes} crossed off: {state_words(unit)}"


def _spend_to_attack(state: MatchState, unit: Unit, who: str) -> tuple[Unit, list[str], str]:
    """The attacker after paying for its attack: a Used model spends its kept action."""
    if unit.used:
        if not unit.kept_action:
            raise RulesError(
                f"{who} is Used and has no kept action: it can't attack until the next round "
                "(Reaction Fire needs a kept action)."
            )
        return (
            replace(unit, kept_action=False),
            ["kept"],
            " (Reaction Fire: its kept action is spent)",
        )
    if unit.speed is Speed.TOP:
        raise RulesError(f"{who} spent its action moving at Top Speed: it can't attack this round.")
    return unit, [], ""


def _attack_bands(value: Mapping[str, object]) -> dict[str, RangeBand]:
    """The range band of each model attacked ({"b-1-2": "long"}), as the helper read it."""
    bands = {}
    if len(value) > MAX_ATTACK_TARGETS:
        raise EventError(f"An attack names at most {MAX_ATTACK_TARGETS} models.")
    for uid, band in value.items():
        try:
            bands[uid] = RangeBand(band)
        except ValueError:
            raise EventError(
                "An attack's range bands are {model: point_blank, short, medium, long or "
                f"extreme}}; got {band!r}."
            ) from None
    return bands


def attack_warnings(
    state: MatchState,
    attacker: Unit,
    *,
    targets: Sequence[Unit] = (),
    reaction: bool = False,
    autopilot: bool = False,
    rof: int = 0,
    bands: Mapping[str, RangeBand | None] | None = None,
) -> list[str]:
    """What is worth saying about an attack: it is applied all the same (warned, never refused).

    - "Each Gear can attack once per round" (twice with its Autopilot on), and an action spent
      on something else (a forward observation) leaves none to attack with;
    - no model acts before initiative is rolled, and outside its combat group's activation a model
      acts only with a kept action;
    - a kept action is spent "to respond to any currently Moving Model" (Reaction Fire): an
      attack spending it otherwise, or Reaction Fire against a model that is not moving now;
    - "RoF may only be used on attacks against targets in the weapon's long range band or
      closer", for every model attacked (``rules.hgb.attack.rate_of_fire_warnings``).
    """
    who = unit_label(state, attacker)
    warnings = acting_warnings(state, attacker, "attacked")
    attacks = [words for kind, words in attacker.actions if kind == "attack"]
    others = [words for kind, words in attacker.actions if kind != "attack"]
    allowed = attacks_this_round(autopilot)
    if others:
        warnings.append(
            f"{who} already spent its action this round ({others[0]}): it has no action left "
            "to attack with."
        )
    elif len(attacks) >= allowed > 1:
        warnings.append(
            f"{who} already made its {allowed} attacks this round with its Autopilot on "
            f"({'; '.join(attacks)})."
        )
    elif len(attacks) >= allowed:
        warnings.append(
            f"{who} already attacked this round ({attacks[0]}): each Gear can attack once per "
            "round."
        )
    spends_kept = attacker.used and attacker.kept_action
    if spends_kept and not reaction:
        warnings.append(
            f"{who} spends its kept action on an attack that is not Reaction Fire: a kept action "
            "is spent to respond to a model that is moving now."
        )
    elif reaction and not attacker.kept_action:
        warnings.append(
            f"{who} has no kept action: Reaction Fire spends a kept action, so this is not "
            "Reaction Fire."
        )
    elif reaction and targets:
        target = targets[0]
        if target.group_id != state.active_group or target.used:
            warnings.append(
                "Reaction Fire responds to a model that is moving now: "
                f"{unit_label(state, target)} is not moving (its combat group is not activating, "
                "or it is Used)."
            )
    names = {unit.id: unit_label(state, unit) for unit in targets}
    warnings += rate_of_fire_warnings(
        rof, [(names.get(uid, uid), band) for uid, band in (bands or {}).items()]
    )
    return warnings


def _attack_words(state: MatchState, weapon: str, targets: Sequence[Unit], seq: int | None) -> str:
    """An attack in the model's ``actions``: "#12: its LAC at Jaguar (South CG1)"."""
    words = f"its {weapon}" if weapon else "an attack"
    if targets:
        words += f" at {unit_label(state, targets[0])}"
        if len(targets) > 1:
            words += f" and {len(targets) - 1} more"
    return action_number(seq) + words


def _attack(state: MatchState, event: Event, seq: int | None = None) -> Step:
    attacker = state.unit(event["attacker"])
    who = unit_label(state, attacker)
    targets = _attack_targets(event["targets"])
    note = _attack_note(event["note"])
    _attack_figures(event["figures"])
    bands = _attack_bands(event["bands"])
    weapon = " ".join(event["weapon"].split())[:60]
    rof = event["rof"]
    if not 0 <= rof <= 99:
        raise EventError(f"An attack's RoF points are a whole number from 0 to 99; got {rof}.")
    in_play(state, attacker)
    aimed = [state.unit(uid) for uid, _ in targets]
    warnings: list[str] = attack_warnings(
        state,
        attacker,
        targets=aimed,
        reaction=event["reaction"],
        autopilot=event["autopilot"],
        rof=rof,
        bands={uid: band for uid, band in bands.items()},
    )
    after, written, how = _spend_to_attack(state, attacker, who)
    words = _attack_words(state, weapon, aimed, seq)
    after = replace(after, actions=after.actions + (("attack", words),))
    written.append("acted")
    index = event["ammo"]
    if index != -1:
        if not 0 <= index < len(attacker.ammo):
            raise UnknownId(f"{who} has no Limited Ammo weapon number {index + 1}.")
        counter = attacker.ammo[index]
        if counter.left <= 0:
            raise RulesError(
                f"{who}'s {counter.weapon} is out of ammo (Limited Ammo {counter.capacity})."
            )
        ammo = list(after.ammo)
        ammo[index] = replace(counter, fired=counter.fired + 1)
        after = replace(after, ammo=tuple(ammo))
        written.append(f"ammo{index}")
    writes = {f"{attacker.id}:{name}" for name in written}
    reads = {f"{attacker.id}:used", f"{attacker.id}:speed", f"{attacker.id}:damage", "phase"}
    new = with_unit(state, after)
    results = []
    for uid, outcome in targets:
        unit = new.unit(uid)
        in_play(new, unit)
        reads.add(f"{uid}:damage")
        if outcome.boxes != 0:
            unit = replace(unit, track=unit.track.apply(outcome))
            new = with_unit(new, unit)
            writes.add(f"{uid}:damage")
            warnings += top_speed_warning(new, unit)
        results.append(f"{unit_label(new, unit)}: {_damage_words(unit, outcome)}")
    summary = f"{who} attacked{how}."
    if note:
        summary += f" {note}"
    if results:
        summary += " " + "; ".join(results) + "."
    return Step(
        new, summary, tuple(warnings), writes=frozenset(writes), reads=frozenset(reads | writes)
    )


def _ecm(state: MatchState, event: Event, seq: int | None = None) -> Step:
    """ECM against a forward observation: "Any Actions used will still be spent". The blocker
    spends its kept action; both it and the named observer (``observer``, optional: events
    stored before it was named have none) have the contest among this round's actions."""
    blocker = state.unit(event["blocker"])
    target = state.unit(event["target"])
    who, marked = unit_label(state, blocker), unit_label(state, target)
    observer = state.unit(event["observer"]) if event["observer"] else None
    note = _attack_note(event["note"])
    _attack_figures(event["figures"])
    in_play(state, blocker)
    if blocker.side != target.side:
        raise RulesError(
            f"{who} can only block a Forward Observation of its own side's models; "
            f"{marked} is on the other side."
        )
    if not target.fo_mark:
        raise RulesError(
            f"{marked} has no forward observer mark: there is no observation to block."
        )
    if not blocker.kept_action:
        raise RulesError(
            f"{who} has no kept action: ECM is used during the enemy's activation, so it spends "
            "a kept action."
        )
    if observer is not None and observer.side == target.side:
        raise RulesError(
            f"The observer of {marked} is an enemy model; {unit_label(state, observer)} is on "
            "its side."
        )
    warnings = ecm_warnings(state, blocker)
    number = action_number(seq)
    spent = ("ecm", f"{number}ECM against the observation of {marked}")
    new = with_unit(state, replace(blocker, kept_action=False, actions=blocker.actions + (spent,)))
    writes = {f"{blocker.id}:kept", f"{blocker.id}:acted"}
    if observer is not None and not observed(observer, marked):
        # The observation spent the observer's action, blocked or not.
        watched = ("fo", f"{number}forward observation of {marked} (ECM contest)")
        new = with_unit(new, replace(observer, actions=observer.actions + (watched,)))
        writes.add(f"{observer.id}:acted")
    if event["blocked"]:
        new = with_unit(new, replace(new.unit(target.id), fo_mark=False))
        writes.add(f"{target.id}:fo")
        outcome = "The observation is blocked: the forward observer mark is cleared."
    else:
        outcome = "The observation goes ahead: the mark stays."
    summary = f"{who} spent its kept action on ECM against the observation of {marked}."
    if note:
        summary += f" {note}"
    summary += f" {outcome}"
    reads = writes | {f"{blocker.id}:used", f"{target.id}:fo", "phase"}
    return Step(new, summary, tuple(warnings), writes=frozenset(writes), reads=frozenset(reads))


def ecm_warnings(state: MatchState, blocker: Unit) -> list[str]:
    """ "A Model with the ECM Perk may attempt to block a Forward Observation": warned (never
    refused) when the game data gave the model no ECM perk, its own or its faction's, when the
    match started (a state stored before matches recorded perks: the game data now)."""
    if blocker.figures is not None:
        perks = frozenset(blocker.figures.perks)
    else:
        perks = default_catalog().perks_of(blocker.model)
    if "ecm" in perks:
        return []
    return [
        f"{unit_label(state, blocker)} has no ECM perk in the game data: only a model with the ECM "
        "Perk may block a Forward Observation."
    ]


def observed(observer: Unit, marked: str) -> bool:
    """Whether the observer's actions this round hold its observation of ``marked`` (a label)."""
    return any(
        kind == "fo" and words.endswith(f"observation of {marked}")
        for kind, words in observer.actions
    )


# Both are applied by ``step``; each is told its number in the log.
ATTACK_HANDLERS: dict[str, Handler] = {"attack": _attack, "ecm": _ecm}
# The handlers told the event's number in the log (see ``rules.hgb.match.play.step``).
NUMBERED_ATTACK_HANDLERS: dict[str, NumberedHandler] = {"attack": _attack, "ecm": _ecm}
