"""What the attack helper shows: every modifier with its source, the exact odds, the resolved
attack, and the event that applies it. Every number comes from ``rules.attack`` and
``rules.indirect``; this module only calls them and turns their answers into plain dicts for the
template (like ``matches.board`` for the board)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from fractions import Fraction

from django.http import QueryDict
from django.urls import reverse

from matches.attack_data import datacard_model, pack_figure
from matches.attack_forms import (
    KINDS,
    AttackReading,
    DesignationReading,
    EcmReading,
    Spec,
    ew_dice,
    figures_owner,
    rolled_dice,
    sign_rolled,
)
from rules.attack import (
    DESIGNATION_HOUSE_RULE,
    AttackSummary,
    MissingInput,
    MissingInputs,
    Modifier,
    ResolvedAttack,
    attacks_this_round,
    blast_area,
    ecm_odds,
    grenade_reach,
    house_rule_designation_odds,
    indirect_summary,
    missing_inputs,
    multi_target_summary,
    resolve_ecm,
    resolve_house_rule_designation,
    resolve_indirect,
    resolve_indirect_defense,
    resolve_multi_target,
    total,
)
from rules.attack import attack_summary as direct_summary
from rules.damage import AttackOutcome
from rules.errors import RulesError
from rules.match import (
    MAX_ATTACK_NOTE,
    Event,
    MatchState,
    Unit,
    attack_warnings,
    ecm_warnings,
    make_event,
    unit_label,
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
_RNG = secrets.SystemRandom()


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


def _mods(modifiers: Sequence[Modifier]) -> list[dict]:
    return [{"value": m.signed.replace("-", "\u2212"), "source": m.source} for m in modifiers]


def _signed(value: int) -> str:
    return f"{value:+d}".replace("-", "\u2212")


def _chance(label: str, p: Fraction, key: str = "") -> dict:
    return {"label": label, "percent": percent(p), "exact": exact(p), "key": key}


def _target_view(summary: AttackSummary, unit: Unit) -> dict:
    odds = summary.odds
    return {
        "id": unit.id,
        "name": summary.target.name or unit.name,
        "dice": summary.defense_dice,
        "dice_source": summary.defense_dice_source,
        "mods": _mods(summary.defense_modifiers),
        "total": _signed(summary.defense_modifier),
        "attack_mods": _mods(summary.attack_modifiers),
        "attack_total": _signed(summary.attack_modifier),
        "mos": _mods(summary.mos_modifiers),
        "dm": _mods(summary.damage_multiplier_parts),
        "dm_total": summary.damage_multiplier,
        "armor": _mods(summary.armor_parts),
        "armor_total": summary.armor,
        "hit": _chance("Chance to hit", summary.hit_chance, "hit"),
        "outcomes": [
            _chance(outcome.label, odds[outcome], outcome.value) for outcome in SHOWN_OUTCOMES
        ],
        "miss": _chance("Miss", odds[AttackOutcome.MISS], "miss"),
        "expected": _boxes(summary.expected_boxes),
        "expected_exact": exact(summary.expected_boxes),
        "kill": _chance("Chance it is destroyed", summary.kill_chance, "kill"),
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


def odds(reading: AttackReading, state: MatchState) -> dict:
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
    if who.kind == "grenade" and who.weapon is not None and who.weapon.assumed:
        view["notes"].append(
            f"The quickstart names no Hand Grenades for {who.label(who.attacker)}: this is a "
            "Hand Grenade as its datacard may give it. Its DM, Accuracy and Area Effect are not "
            "in the texts: type them in from the card."
        )
    if reading.autopilot:
        a = who.attacker
        view["notes"].append(
            f"Autopilot on: {who.label(a)} may make {attacks_this_round(True)} attacks this round, "
            "and rolls 1 die for defense."
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
            "hits": [_chance(f"{k} hit", p) for k, p in sorted(multi.targets_hit.items())],
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
    questions = []
    if reading.band is None:
        questions.append(
            {
                "text": "Choose the grenade range: Short or Medium."
                if who.kind == "grenade"
                else "Choose the range band to the target: Point-Blank to Extreme.",
                "field": "grange" if who.kind == "grenade" else "band",
            }
        )
    if reading.cover is None:
        seen = "the thrower" if who.kind == "grenade" else "the Forward Observer"
        questions.append(
            {"text": f"Choose the target's cover, seen from {seen}.", "field": "cover"}
        )
    if who.kind == "grenade":
        size = _size(reading)
        if size is None:
            questions.append(
                {
                    "text": f"Enter the Size of {who.label(who.attacker)}: the data does not "
                    "give it.",
                    "field": "size",
                }
            )
        else:
            short, medium = grenade_reach(size)
            view["notes"].append(
                f"Size {size}: Short range is up to {short} inches (+0), Medium up to {medium} "
                "inches (\u22121)."
            )
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
        "mods": _mods(summary.modifiers),
        "total": _signed(summary.modifier),
        "threshold": summary.threshold,
    }
    view["indirect"] = {
        "strike": _chance("Strikes the target point", summary.strike_chance, "strike"),
        "lands": _chance("Lands on the target point", summary.lands_on_target_chance, "lands"),
        "scatter": [
            _chance(f"Scatters {mof} inch{'es' if mof != 1 else ''}", p)
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
            "hits": [_chance(f"{k} hit", p) for k, p in sorted(summary.targets_hit.items())],
            "expected": _boxes(summary.expected_boxes),
            "expected_exact": exact(summary.expected_boxes),
        }


def _size(reading: AttackReading) -> int | None:
    attacker = reading.who.attacker
    given = datacard_model(attacker, "size", reading.who.card(attacker))
    return given if given is not None else reading.form.cleaned_data.get("size")


def _warnings(reading: AttackReading, state: MatchState) -> list[str]:
    who = reading.who
    a = who.attacker
    name = who.label(a)
    warnings = []
    if a.used and a.kept_action:
        warnings.append(
            f"Reaction Fire: {name} kept its action, and applying this attack spends it. It "
            "fires after the moving model's next inch or action; a model may be acted against at "
            "most once per inch moved or per action."
        )
    elif a.used:
        warnings.append(
            f"{name} is Used and has no kept action: it can't attack until the next round."
        )
    elif a.speed.value == "top":
        warnings.append(f"{name} is at Top Speed: it spent its action moving and can't attack.")
    # What applying it will warn about (rules.match.attack_warnings), said before it is applied.
    warnings += attack_warnings(state, a, **_attack_facts(reading))
    counter = ammo_counter(reading)
    if counter is not None:
        left = a.ammo[counter].left
        weapon = a.ammo[counter].weapon
        warnings.append(
            f"{weapon} has Limited Ammo: {left} shot{'s' if left != 1 else ''} left; applying "
            "this attack spends one."
            if left
            else f"{weapon} is out of ammo."
        )
    return warnings


def _attack_facts(reading: AttackReading) -> dict:
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


def ammo_counter(reading: AttackReading) -> int | None:
    """The Limited Ammo counter the weapon fires from, if it has one."""
    weapon = reading.who.weapon
    if weapon is None or not weapon.limited_ammo:
        return None
    counters = reading.who.attacker.ammo
    for index, counter in enumerate(counters):
        if counter.weapon == weapon.code and counter.left:
            return index
    for index, counter in enumerate(counters):
        if counter.weapon == weapon.code:
            return index
    return None


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


# --- The event ------------------------------------------------------------------------------------


def _dice_words(reading: AttackReading, fields: Sequence[str]) -> str:
    on = [name for name in fields if name in reading.on_screen]
    if not on:
        return "Rolls entered by the players."
    if len(on) == len(fields):
        return "Dice rolled on screen."
    names = {"att": "attack"} | {f"def.{u.id}": reading.who.label(u) for u in reading.who.targets}
    return "Rolled on screen: " + ", ".join(names.get(name, name) for name in on) + "."


def attack_event(reading: AttackReading, resolution: dict) -> Event:
    """The ``attack`` event that applies a resolved attack, with its sentence for the log."""
    who = reading.who
    weapon = reading.attacker.weapon or "weapon"
    results = resolution["results"]
    kind = KINDS[who.kind].lower()
    if who.indirect:
        parts = [f"{weapon}, {kind}: {resolution.get('head', '')}"]
        parts += [f"{item['name']}: {item['text']}" for item in results]
    elif len(results) == 1:
        parts = [f"{weapon}, {kind} at {results[0]['name']}: {results[0]['text']}"]
    else:
        parts = [f"{weapon}, {kind} at {len(results)} models."]
        parts += [f"{item['name']}: {item['text']}" for item in results]
    fields = ["att", *(f"def.{item['id']}" for item in results)]
    parts.append(_dice_words(reading, fields))
    note = " ".join(parts)
    if len(note) > MAX_ATTACK_NOTE:
        note = note[: MAX_ATTACK_NOTE - 1] + "\u2026"
    counter = ammo_counter(reading)
    facts = _attack_facts(reading)
    return make_event(
        "attack",
        attacker=who.attacker.id,
        targets=[[item["id"], item["outcome"]] for item in results],
        ammo=-1 if counter is None else counter,
        note=note,
        figures=reading.typed,
        weapon=weapon,
        reaction=reading.reaction,
        autopilot=reading.autopilot,
        rof=facts["rof"],
        bands={uid: band.value for uid, band in facts["bands"].items()},
    )


def apply_label(resolution: dict) -> str:
    results = resolution["results"]
    hits = [r for r in results if r["outcome"] not in ("miss", "no_effect")]
    if not hits:
        return "Record it in the log"
    return "Apply: " + "; ".join(
        f"{r['name']} {OUTCOME_WORDS[AttackOutcome(r['outcome'])]}" for r in hits
    )


# --- Dice on screen -------------------------------------------------------------------------------


def roll_on_screen(reading: AttackReading, data: QueryDict, match_id: int) -> QueryDict:
    """The form's data with every empty roll rolled by the server, and the token that says so.

    The attack roll uses the attacker's Attack Skill, each defense roll the defender's dice; an
    indirect attack also gets its direction die (used only if it scatters).
    """
    plain = data.copy()
    rolled: dict[str, tuple[int, ...]] = {}
    if reading.attack_roll is None and reading.attacker is not None:
        rolled["att"] = _dice(reading.attacker.attack_dice)
    for target, unit in zip(reading.targets, reading.who.targets, strict=True):
        if reading.defense_rolls.get(unit.id) is None:
            rolled[f"def.{unit.id}"] = _dice(target.dice)
    if reading.who.indirect and reading.direction is None:
        plain["dir"] = str(_RNG.randint(1, 6))
    for name, dice in rolled.items():
        plain[name] = " ".join(str(d) for d in dice)
    previous = {name: tuple(d) for name, d in _kept_rolls(reading, data, match_id).items()}
    plain["rolled"] = sign_rolled(previous | rolled, match_id)
    return plain


def _kept_rolls(reading: AttackReading, data: QueryDict, match_id: int) -> dict:
    token = data.get("rolled")
    return {
        name: dice
        for name, dice in rolled_dice(token if isinstance(token, str) else "", match_id).items()
        if name in reading.on_screen
    }


def _dice(count: int) -> tuple[int, ...]:
    return tuple(_RNG.randint(1, 6) for _ in range(count))


def specs_by_section(specs: Sequence[Spec]) -> dict[str, list[Spec]]:
    sections: dict[str, list[Spec]] = {}
    for spec in specs:
        sections.setdefault(spec.section, []).append(spec)
    return sections


# --- The template's context -----------------------------------------------------------------------


def _unit_label(state: MatchState, unit: Unit) -> str:
    flags = []
    if unit.kept_action:
        flags.append("kept action")
    elif unit.used:
        flags.append("Used")
    if unit.fo_mark:
        flags.append("FO mark")
    if unit.state.penalty:
        flags.append(unit.state.value.capitalize())
    extra = f" · {', '.join(flags)}" if flags else ""
    return f"{unit_label(state, unit)}{extra}"


def _options(state: MatchState, units, chosen) -> list[dict]:
    return [
        {
            "value": unit.id,
            "label": _unit_label(state, unit),
            "selected": unit.id in chosen,
            "side": state.side(unit.side).label,
        }
        for unit in units
    ]


def _by_side(options: list[dict]) -> list[dict]:
    sides: list[dict] = []
    for option in options:
        if not sides or sides[-1]["label"] != option["side"]:
            sides.append({"label": option["side"], "options": []})
        sides[-1]["options"].append(option)
    return sides


def _who_view(reading: AttackReading, state: MatchState) -> dict:
    who = reading.who
    playing = [unit for unit in state.units if not unit.is_out]
    others = [unit for unit in playing if unit is not who.attacker]
    weapons = [
        {"value": str(i), "label": w.name + (f" ({w.code})" if w.code != w.name else "")}
        for i, w in enumerate(who.weapons)
    ] + [{"value": "other", "label": "Another weapon (type in its figures)"}]
    for option in weapons:
        option["selected"] = option["value"] == who.weapon_value
    return {
        "attackers": _by_side(_options(state, playing, {who.attacker.id})),
        "weapons": weapons,
        "kinds": [{"value": k, "label": v, "selected": k == who.kind} for k, v in KINDS.items()],
        "targets": _by_side(_options(state, others, {who.target.id})),
        "also": _by_side(
            _options(state, [u for u in playing if u is not who.target], {u.id for u in who.also})
        ),
        "kind": who.kind,
        "has_also": bool(who.also),
    }


def _field_view(reading: AttackReading | EcmReading | DesignationReading, spec: Spec) -> dict:
    bound = reading.form[spec.name]
    value = bound.value()
    view = {
        "spec": spec,
        "name": spec.name,
        "id": f"id_{spec.name}",
        "value": "" if value is None else value,
        "errors": list(bound.errors),
        "remembered": spec.name in reading.remembered_fields,
        "typed": spec.remember is not None,
        "saveable": pack_figure(spec.remember) is not None,
        "on_screen": spec.name in reading.on_screen,
    }
    if spec.widget == "check":
        view["checked"] = bool(bound.data) and bound.data not in ("", "0", "false", "off")
    if spec.widget == "radio":
        view["options"] = [
            {"value": v, "label": label, "checked": str(value) == v, "id": f"id_{spec.name}_{i}"}
            for i, (v, label) in enumerate(spec.choices)
        ]
    return view


def _sections(reading: AttackReading, state: MatchState) -> list[dict]:
    """The form's fieldsets: the shot, each target, the attacker and its weapon, the rolls.

    The targets come first: their range band and cover change at every shot, while the
    attacker's typed-in figures are entered once and remembered.
    """
    who = reading.who
    grouped = specs_by_section(reading.specs)
    a = who.attacker
    weapon = reading.attacker.weapon if reading.attacker else ""
    sections = []
    if grouped.get("shot"):
        sections.append(
            {"key": "shot", "title": "The shot", "detail": "", "fields": grouped["shot"]}
        )
    for index, unit in enumerate(who.targets):
        sections.append(
            {
                "key": unit.id,
                "title": ("Target: " if index == 0 else "Also in the area: ") + who.label(unit),
                "detail": _detail(state, unit, f"Defense {unit.skills.defense or 2}"),
                "fields": grouped.get(unit.id, []),
            }
        )
    sections.append(
        {
            "key": "attacker",
            "title": f"{who.label(a)} and its {weapon}" if weapon else who.label(a),
            "detail": _detail(state, a, f"Attack {a.skills.att or 2}"),
            "fields": grouped.get("attacker", []),
        }
    )
    sections.append(
        {"key": "rolls", "title": "The rolls", "detail": "", "fields": grouped.get("rolls", [])}
    )
    for section in sections:
        views = [_field_view(reading, spec) for spec in section["fields"]]
        section["fields"] = [v for v in views if not v["spec"].extra]
        section["extras"] = [v for v in views if v["spec"].extra]
        section["extras_open"] = any(_set(v) for v in section["extras"])
        section["extras_title"] = (
            "Rate of Fire, Area Effect, Autopilot"
            if section["key"] == "attacker"
            else "Rear arc, Weak Facing, Reinforced Arc, Autopilot"
        )
    return sections


def _set(field: dict) -> bool:
    """A folded field that holds something: its fold is shown open."""
    if field["errors"]:
        return True
    if field["spec"].widget == "check":
        return bool(field.get("checked"))
    return field["value"] not in ("", "0", None)


def _detail(state: MatchState, unit: Unit, skill: str) -> str:
    group = unit.id.split("-")[1]
    words = [f"{state.side(unit.side).label} CG{group}", skill, unit.state.value.capitalize()]
    if unit.state.penalty:
        words.append(f"{unit.state.penalty} to all rolls")
    words.append(
        f"{unit.mode.label}, {unit.speed.label} Speed".replace("Stationary Speed", "Stationary")
    )
    return " · ".join(words)


def helper_context(
    request,
    match,
    reading: AttackReading,
    *,
    data: QueryDict | None = None,
    computed: dict | None = None,
    dice: bool = False,
) -> dict:
    """The template's context: the odds always; the form too when ``data`` is given."""
    state = match.current_state()
    shown = computed if computed is not None else odds(reading, state)
    resolution = shown["resolution"]
    context = {
        "match": match,
        "odds": shown,
        "apply_label": apply_label(resolution) if resolution and resolution["ready"] else "",
        "helper_url": reverse("matches:attack-helper", args=[match.pk]),
        "apply_url": reverse("matches:attack-apply", args=[match.pk]),
        "board_url": reverse("matches:match-board", args=[match.pk]),
        "figure_url": reverse("matches:attack-figure", args=[match.pk]),
        "figure_form": "attack",
        "save_url": reverse("matches:attack-save-figure", args=[match.pk]),
    }
    if data is not None:
        token = data.get("rolled")
        context |= {
            "who": _who_view(reading, state),
            "sections": _sections(reading, state),
            "key": secrets.token_hex(16),
            "rolled": token if isinstance(token, str) else "",
            "figures_for": figures_owner(reading.who, data),
            "dice": dice,
            "dice_url": reverse("matches:attack-dice", args=[match.pk]),
            "hidden": [(k, v) for k in data for v in data.getlist(k) if k != "roll"],
            "round": state.round,
        }
    return context


# --- ECM against a Forward Observer ---------------------------------------------------------------


def ecm_view(reading: EcmReading, state: MatchState) -> dict:
    """The ECM contest's modifiers, exact odds and, once rolled, its result."""
    view: dict = {
        "problems": list(reading.problems),
        "warnings": [],
        "questions": [],
        "odds": None,
        "result": None,
    }
    contest = reading.contest
    if contest is None:
        return view
    blocker = reading.blocker
    if blocker is not None:
        view["warnings"] = ecm_warnings(state, blocker)
    if blocker is not None and not blocker.kept_action:
        view["problems"].append(
            f"{unit_label(state, blocker)} has no kept action: ECM is used during the enemy's "
            "activation, so only a model that kept its action can try it."
        )
    fields = {"observer_comm": "ocomm", "blocker_comm": "bcomm", "ecm_rating": "ecm"}
    missing = contest.missing_inputs()
    if missing:
        view["questions"] = [{"text": m.question, "field": fields[m.field]} for m in missing]
        return view
    chances = ecm_odds(contest)
    view["odds"] = {
        "observer": contest.observer,
        "blocker": contest.blocker,
        "observer_dice": chances.observer_dice,
        "blocker_dice": chances.blocker_dice,
        "observer_mods": _mods(chances.observer_modifiers),
        "blocker_mods": _mods(chances.blocker_modifiers),
        "observer_total": _signed(total(chances.observer_modifiers)),
        "blocker_total": _signed(total(chances.blocker_modifiers)),
        "block": _chance("ECM blocks the observation", chances.block_chance, "block"),
        "goes_ahead": _chance("The observation goes ahead", chances.observation_chance, "ahead"),
    }
    if reading.observer_roll is not None and reading.blocker_roll is not None:
        try:
            result = resolve_ecm(contest, reading.observer_roll, reading.blocker_roll)
        except RulesError as error:
            view["problems"].append(str(error))
        else:
            view["result"] = {
                "text": result.describe(),
                "blocked": result.blocked,
                "note": f"ECM roll {result.blocker_final} against the observer's "
                f"{result.observer_final}.",
            }
    return view


def ecm_event(reading: EcmReading, result: dict) -> Event:
    note = result["note"]
    return make_event(
        "ecm",
        blocker=reading.blocker.id,
        target=reading.target.id,
        blocked=result["blocked"],
        note=note[:MAX_ATTACK_NOTE],
        figures=reading.typed,
    )


def ecm_context(match, reading: EcmReading, *, data: QueryDict | None = None) -> dict:
    state = match.current_state()
    context = {
        "match": match,
        "ecm": ecm_view(reading, state),
        "ecm_url": reverse("matches:attack-ecm", args=[match.pk]),
        "apply_url": reverse("matches:attack-ecm-apply", args=[match.pk]),
        "board_url": reverse("matches:match-board", args=[match.pk]),
        "helper_url": reverse("matches:attack-helper", args=[match.pk]),
        "figure_url": reverse("matches:attack-figure", args=[match.pk]),
        "figure_form": "ecm",
    }
    if data is not None and reading.target is not None:
        playing = [u for u in state.units if not u.is_out]
        target = reading.target
        context |= {
            "targets": _options(state, reading.marked, {target.id}),
            "observers": _options(
                state, [u for u in playing if u.side != target.side], {reading.observer.id}
            ),
            "blockers": _options(
                state, [u for u in playing if u.side == target.side], {reading.blocker.id}
            ),
            "fields": [_field_view(reading, spec) for spec in reading.specs],
            "key": secrets.token_hex(16),
            "round": state.round,
        }
    elif data is not None:
        context["round"] = state.round
    return context


# --- House rule, not official: the translated edition's designation roll -----------------------


def designation_view(reading: DesignationReading) -> dict:
    """The house rule's modifiers, exact odds and, once rolled, its result."""
    view: dict = {
        "rule": DESIGNATION_HOUSE_RULE,
        "problems": list(reading.problems),
        "questions": [],
        "odds": None,
        "result": None,
    }
    spotter, target = reading.spotter, reading.target
    if view["problems"] or target is None:
        return view
    if reading.cover is None:
        view["questions"].append(
            {"text": "Choose the target's cover, seen from the spotter.", "field": "cover"}
        )
    if reading.sensors is None:
        view["questions"].append(
            {
                "text": f"Enter {spotter.name}'s Sensors rating: the data does not give it.",
                "field": "sensors",
            }
        )
    if target.fo_mark:
        view["problems"].append(f"{target.name} is already marked by a Forward Observer.")
    if view["questions"]:
        return view
    ew = ew_dice(spotter)
    odds = house_rule_designation_odds(
        ew=ew, sensors=reading.sensors, cover=reading.cover, state=spotter.state
    )
    view["odds"] = {
        "spotter": spotter.name,
        "target": target.name,
        "dice": odds.dice,
        "mods": _mods(odds.modifiers),
        "total": _signed(total(odds.modifiers)),
        "threshold": odds.threshold,
        "success": _chance("Designates the target", odds.success_chance, "designate"),
        "shooters": odds.shooters_allowed,
    }
    if reading.roll is not None:
        try:
            result = resolve_house_rule_designation(
                ew=ew,
                sensors=reading.sensors,
                cover=reading.cover,
                roll=reading.roll,
                state=spotter.state,
            )
        except RulesError as error:
            view["problems"].append(str(error))
        else:
            view["result"] = {
                "designated": result.designated,
                "text": (
                    f"{spotter.name} rolled {result.result}, {result.final} with its modifiers, "
                    f"against Threshold {odds.threshold}: "
                    + (
                        f"{target.name} is designated; up to {result.shooters_allowed} models "
                        "may fire indirectly at it."
                        if result.designated
                        else "the designation fails."
                    )
                ),
            }
    return view


def designation_context(
    match, reading: DesignationReading, data: QueryDict, *, full: bool = True
) -> dict:
    """The designation page's context; the odds carry their own POST form (the current values
    as hidden fields), since the inputs' form is a GET."""
    state = match.current_state()
    context = {
        "hidden": [(k, v) for k in data for v in data.getlist(k) if k != "key"],
        "key": secrets.token_hex(16),
        "match": match,
        "designation": designation_view(reading),
        "designation_url": reverse("matches:attack-designation", args=[match.pk]),
        "apply_url": reverse("matches:attack-designation-apply", args=[match.pk]),
        "board_url": reverse("matches:match-board", args=[match.pk]),
        "ecm_url": reverse("matches:attack-ecm", args=[match.pk]),
        "round": state.round,
        "figure_url": reverse("matches:attack-figure", args=[match.pk]),
        "figure_form": "designation",
    }
    if full and reading.target is not None:
        playing = [u for u in state.units if not u.is_out]
        context |= {
            "spotters": _options(state, playing, {reading.spotter.id}),
            "targets": _options(
                state, [u for u in playing if u.side != reading.spotter.side], {reading.target.id}
            ),
            "fields": [_field_view(reading, spec) for spec in reading.specs],
        }
    return context
