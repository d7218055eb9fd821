"""Direct and indirect fire on the page: every modifier with its source, the exact odds,
the resolved attack. Every number comes from ``rules.hgb.attack``; this module turns its answers
into plain dicts for the template.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from fractions import Fraction

from matches.hgb.attack.reading import (
    AttackReading,
)
from matches.hgb.attack.who import (
    KINDS,
)
from rules.errors import RulesError
from rules.hgb.attack import (
    AttackSummary,
    MissingInput,
    MissingInputs,
    Modifier,
    ResolvedAttack,
    blast_area,
    grenade_reach_words,
    indirect_questions,
    indirect_summary,
    missing_inputs,
    multi_target_summary,
    resolve_indirect,
    resolve_indirect_defense,
    resolve_multi_target,
    signed,
)
from rules.hgb.attack import attack_summary as direct_summary
from rules.hgb.damage import AttackOutcome
from rules.hgb.match import (
    MatchState,
    Unit,
    ammo_counter,
    attack_notes,
    before_attack_warnings,
    figures_of,
)

SHOWN_OUTCOMES = (
    AttackOutcome.NO_EFFECT,
    AttackOutcome.ONE_BOX,
    AttackOutcome.TWO_BOXES,
    AttackOutcome.OVERKILL,
)
OUTCOME_WORDS = {
    AttackOutcome.MISS: "miss",
    AttackOutcome.NO_EFFECT: "no effect",
    AttackOutcome.ONE_BOX: "one box",
    AttackOutcome.TWO_BOXES: "two boxes",
    AttackOutcome.OVERKILL: "overkill",
}
DICE_RNG = secrets.SystemRandom()


def percent(p: Fraction) -> str:
    """A chance for reading at arm's length: "58.3%" (exactly "0%" and "100%")."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    value = float(p) * 100
    return f"{value:.1f}%" if value >= 0.1 else "<0.1%"


def exact(p: Fraction) -> str:
    """The exact chance as a fraction: "7/12"."""
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def _boxes(value: Fraction) -> str:
    return f"{float(value):.2f}"


def modifier_views(modifiers: Sequence[Modifier]) -> list[dict]:
    return [{"value": m.signed.replace("-", "\u2212"), "source": m.source} for m in modifiers]


def chance_view(label: str, p: Fraction, key: str = "") -> dict:
    return {"label": label, "percent": percent(p), "exact": exact(p), "key": key}


def _target_view(summary: AttackSummary, unit: Unit) -> dict:
    odds = summary.odds
    return {
        "id": unit.id,
        "name": summary.target.name or unit.name,
        "dice": summary.defense_dice,
        "dice_source": summary.defense_dice_source,
        "mods": modifier_views(summary.defense_modifiers),
        "total": signed(summary.defense_modifier),
        "attack_mods": modifier_views(summary.attack_modifiers),
        "attack_total": signed(summary.attack_modifier),
        "mos": modifier_views(summary.mos_modifiers),
        "dm": modifier_views(summary.damage_multiplier_parts),
        "dm_total": summary.damage_multiplier,
        "armor": modifier_views(summary.armor_parts),
        "armor_total": summary.armor,
        "hit": chance_view("Chance to hit", summary.hit_chance, "hit"),
        "outcomes": [
            chance_view(outcome.label, odds[outcome], outcome.value) for outcome in SHOWN_OUTCOMES
        ],
        "miss": chance_view("Miss", odds[AttackOutcome.MISS], "miss"),
        "expected": _boxes(summary.expected_boxes),
        "expected_exact": exact(summary.expected_boxes),
        "kill": chance_view("Chance it is destroyed", summary.kill_chance, "kill"),
    }


def _field_of(item: MissingInput, reading: AttackReading) -> str:
    """The form field that answers a missing figure."""
    names = {"movement_modifier": "amove", "accuracy": "acc", "damage_multiplier": "dm"}
    if item.target_index is None:
        return names.get(item.field, item.field)
    uid = reading.who.targets[item.target_index].id
    prefix = {"movement_modifier": "dmove", "range_band": "band", "cover": "cover"}
    return f"{prefix.get(item.field, item.field)}.{uid}"


def _questions(items: Sequence[MissingInput], reading: AttackReading) -> list[dict]:
    return [{"text": item.question, "field": _field_of(item, reading)} for item in items]


# --- The odds -------------------------------------------------------------------------------------


def odds_view(reading: AttackReading, state: MatchState) -> dict:
    """Everything the odds panel shows, recomputed from the form at every change."""
    who = reading.who
    view: dict = {
        "kind": who.kind,
        "kind_label": KINDS[who.kind],
        "problems": list(reading.problems),
        "warnings": _warnings(reading, state),
        "questions": [],
        "notes": [],
        "targets": [],
        "multi": None,
        "indirect": None,
        "resolution": None,
        "attack": None,
    }
    if not reading.valid:
        return view
    try:
        if who.indirect:
            _indirect_odds(reading, view)
        else:
            _direct_odds(reading, view)
    except MissingInputs as missing:
        view["questions"] = _questions(missing.missing, reading)
    except RulesError as error:
        view["problems"].append(str(error))
    attacker = reading.attacker
    if attacker is not None and attacker.area_effect and not attacker.spray:
        area = blast_area(area_effect=attacker.area_effect, indirect=who.indirect)
        view["notes"] += [area.who_defends, area.direction, area.shooter]
    view["notes"] += attack_notes(
        state, who.attacker, kind=who.kind, weapon=who.weapon, autopilot=reading.autopilot
    )
    if not view["questions"] and not view["problems"]:
        _resolve(reading, view)
    view["more_targets"] = max(len(view["targets"]) - 1, 0)  # beyond the first, for the bar
    return view


def _direct_odds(reading: AttackReading, view: dict) -> None:
    attacker, targets = reading.attacker, reading.targets
    missing = missing_inputs(attacker, *targets)
    if missing:
        view["questions"] = _questions(missing, reading)
        return
    if len(targets) == 1:
        summaries = (direct_summary(attacker, targets[0]),)
        view["notes"] += list(summaries[0].notes)
    else:
        multi = multi_target_summary(attacker, targets)
        summaries = multi.targets
        view["notes"] += list(multi.notes)
        view["multi"] = {
            "hits": [chance_view(f"{k} hit", p) for k, p in sorted(multi.targets_hit.items())],
            "expected": _boxes(multi.expected_boxes),
            "expected_exact": exact(multi.expected_boxes),
        }
    first = summaries[0]
    view["attack"] = {
        "name": attacker.name,
        "dice": first.attack_dice,
        "dice_source": first.attack_dice_source,
        "per_target": len(summaries) > 1,
    }
    view["targets"] = [
        _target_view(summary, unit)
        for summary, unit in zip(summaries, reading.who.targets, strict=True)
    ]


def _indirect_odds(reading: AttackReading, view: dict) -> None:
    who, attacker = reading.who, reading.attacker
    grenade = who.kind == "grenade"
    size = _size(reading) if grenade else None
    asked = indirect_questions(
        grenade=grenade,
        band=reading.band,
        cover=reading.cover,
        size=size,
        thrower=who.label(who.attacker),
    )
    fields = {"range_band": "grange" if grenade else "band", "cover": "cover", "size": "size"}
    questions = [{"text": item.question, "field": fields[item.field]} for item in asked]
    if size is not None:
        view["notes"].append(grenade_reach_words(size))
    try:
        missing = ()
        if reading.band is not None and reading.cover is not None:
            summary = indirect_summary(attacker, reading.band, reading.cover, reading.targets)
    except MissingInputs as error:
        missing = error.missing
    view["questions"] = questions + _questions(missing, reading)
    if view["questions"]:
        return
    view["notes"] += list(summary.notes)
    view["attack"] = {
        "name": attacker.name,
        "dice": summary.attack_dice,
        "dice_source": summary.attack_dice_source,
        "mods": modifier_views(summary.modifiers),
        "total": signed(summary.modifier),
        "threshold": summary.threshold,
    }
    view["indirect"] = {
        "strike": chance_view("Strikes the target point", summary.strike_chance, "strike"),
        "lands": chance_view("Lands on the target point", summary.lands_on_target_chance, "lands"),
        "scatter": [
            chance_view(f"Scatters {mof} inch{'es' if mof != 1 else ''}", p)
            for mof, p in summary.scatter_chances.items()
            if mof > 0
        ],
    }
    view["targets"] = [
        _target_view(target, unit)
        for target, unit in zip(summary.targets, who.targets, strict=True)
    ]
    if len(summary.targets) > 1:
        view["multi"] = {
            "hits": [chance_view(f"{k} hit", p) for k, p in sorted(summary.targets_hit.items())],
            "expected": _boxes(summary.expected_boxes),
            "expected_exact": exact(summary.expected_boxes),
        }


def _size(reading: AttackReading) -> int | None:
    given = figures_of(reading.who.attacker).size
    return given if given is not None else reading.form.cleaned_data.get("size")


def _warnings(reading: AttackReading, state: MatchState) -> list[str]:
    """What the players are told before the attack is applied (``rules.hgb.match``)."""
    return before_attack_warnings(
        state, reading.who.attacker, weapon=reading.who.weapon, **attack_facts(reading)
    )


def attack_facts(reading: AttackReading) -> dict:
    """What the ``attack`` event records of the shot, beyond its outcomes, for its warnings."""
    who = reading.who
    attacker = reading.attacker
    rof = attacker.rof_points if attacker is not None and not who.indirect else 0
    bands = {
        unit.id: target.range_band
        for unit, target in zip(who.targets, reading.targets, strict=False)
        if target.range_band is not None and not who.indirect
    }
    return {
        "targets": who.targets,
        "reaction": reading.reaction,
        "autopilot": reading.autopilot,
        "rof": rof,
        "bands": bands,
    }


def shot_counter(reading: AttackReading) -> int | None:
    """The Limited Ammo counter the shot spends, if its weapon has one (``rules.hgb.match``)."""
    return ammo_counter(reading.who.attacker, reading.who.weapon)


# --- Resolving the rolls --------------------------------------------------------------------------


def _resolve(reading: AttackReading, view: dict) -> None:
    if reading.attack_roll is None:
        return
    try:
        if reading.who.indirect:
            resolution = _resolve_indirect(reading)
        else:
            resolution = _resolve_direct(reading)
    except RulesError as error:
        view["problems"].append(str(error))
        return
    resolution["more"] = max(len(resolution["results"]) - 1, 0)  # beyond the first, for the bar
    view["resolution"] = resolution


def _results(
    resolved: Sequence[ResolvedAttack], units: Sequence[Unit], labels: Sequence[str]
) -> list[dict]:
    return [
        {
            "id": unit.id,
            "name": label,
            "text": item.describe(),
            "outcome": item.outcome.value,
            "label": item.outcome.label,
        }
        for item, unit, label in zip(resolved, units, labels, strict=True)
    ]


def _waiting(reading: AttackReading, units: Sequence[Unit]) -> list[str]:
    return [reading.who.label(unit) for unit in units if reading.defense_rolls.get(unit.id) is None]


def _resolve_direct(reading: AttackReading) -> dict:
    units = reading.who.targets
    waiting = _waiting(reading, units)
    if waiting:
        return {"waiting": waiting, "results": [], "ready": False}
    resolved = resolve_multi_target(
        reading.attacker,
        reading.targets,
        reading.attack_roll,
        [reading.defense_rolls[unit.id] for unit in units],
    )
    labels = [reading.who.label(unit) for unit in units]
    return {
        "waiting": [],
        "results": _results(resolved, units, labels),
        "ready": True,
        "head": "",
    }


def _resolve_indirect(reading: AttackReading) -> dict:
    landed = resolve_indirect(
        reading.attacker, reading.band, reading.cover, reading.attack_roll, reading.direction
    )
    units = reading.who.targets
    view = {"head": landed.describe(), "waiting": [], "results": [], "ready": False}
    view["scattered"] = not landed.lands_on_target_point
    if not landed.lands_on_target_point:
        if landed.scatter is None:
            view["ask_direction"] = True
            return view
        units = tuple(unit for unit in units if unit.id in reading.under)
        view["ask_under"] = True
    view["defenders"] = [reading.who.label(unit) for unit in units]
    view["waiting"] = _waiting(reading, units)
    if view["waiting"]:
        return view
    targets = tuple(
        t for t, u in zip(reading.targets, reading.who.targets, strict=True) if u in units
    )
    resolved = (
        resolve_indirect_defense(
            reading.attacker,
            targets,
            landed.attack_result,
            [reading.defense_rolls[unit.id] for unit in units],
        )
        if units
        else ()
    )
    view["results"] = _results(resolved, units, [reading.who.label(unit) for unit in units])
    view["ready"] = True
    view["landed"] = landed
    return view
