"""House rule, not official: the translated edition's designation roll (its form and its view)."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field

from django import forms
from django.http import QueryDict
from django.urls import reverse

from matches.hgb.attack.fields import (
    COVERS,
    AttackForm,
    Spec,
    number_field,
    radio_field,
    signed,
)
from matches.hgb.attack.odds import (
    chance_view,
    modifier_views,
)
from matches.hgb.attack.page import (
    field_view,
    unit_options,
)
from matches.hgb.attack.reading import (
    RollEntry,
    parse_roll,
    prefill,
    typed_values,
)
from matches.hgb.attack.who import (
    ROLL_HELP,
    first_unit,
    text_of,
)
from rules.errors import RulesError
from rules.hgb.attack import (
    DESIGNATION_HOUSE_RULE,
    Cover,
    ew_skill,
    house_rule_designation_odds,
    house_rule_designation_questions,
    resolve_house_rule_designation,
    total,
)
from rules.hgb.match import (
    MatchState,
    Unit,
    designation_problems,
    figures_of,
    unit_label,
)

# --- House rule, not official: the translated edition's designation roll -----------------------


@dataclass
class DesignationReading:
    """The spotter, the model it tries to designate, the Sensors rating, cover and the roll."""

    spotter: Unit | None
    target: Unit | None
    specs: list[Spec]
    form: AttackForm
    problems: list[str]
    sensors: int | None = None
    cover: Cover | None = None
    roll: RollEntry | None = None
    typed: dict = field(default_factory=dict)
    remembered_fields: frozenset[str] = frozenset()
    on_screen: frozenset[str] = frozenset()


def read_designation(
    data: Mapping[str, object],
    *,
    state: MatchState,
    seat: str,
    remembered: Mapping[str, Mapping[str, Mapping[str, int]]] | None = None,
) -> DesignationReading:
    """Read the designation form; ``state`` holds each model's figures as the match recorded
    them (``matches.hgb.attack.figures.match_state``)."""
    playing = [unit for unit in state.units if not unit.is_out]
    by_id = {unit.id: unit for unit in playing}
    spotter = by_id.get(text_of(data, "spotter")) or first_unit(playing, lambda u: u.side == seat)
    spotter = spotter or playing[0]
    enemies = [unit for unit in playing if unit.side != spotter.side]
    target = by_id.get(text_of(data, "target"))
    if target is None or target.side == spotter.side:
        target = first_unit(enemies, lambda u: not u.fo_mark) or (enemies[0] if enemies else None)
    specs = []
    given = figures_of(spotter).sensors
    if given is None:
        specs.append(
            Spec(
                "sensors",
                f"Sensors rating of {unit_label(state, spotter)}",
                "number",
                "figures",
                number_field(-9, 20),
                ("models", spotter.model, "sensors"),
            )
        )
    specs.append(
        Spec(
            "cover",
            "Target's cover, seen from the spotter",
            "radio",
            "figures",
            radio_field(COVERS),
            choices=COVERS,
        )
    )
    specs.append(
        Spec(
            "roll",
            f"EW roll of {unit_label(state, spotter)}",
            "roll",
            "rolls",
            forms.CharField(required=False, max_length=40),
            note=ROLL_HELP,
        )
    )
    bound, prefilled = prefill(data, specs, remembered or {})
    form = AttackForm(bound, specs=specs)
    form.is_valid()
    problems = []
    if target is None:
        problems.append("There is no enemy model in play to designate.")
    for name, errors in form.errors.items():
        label = next(s.label for s in specs if s.name == name)
        problems += [f"{label}: {error}" for error in errors]
    reading = DesignationReading(
        spotter, target, specs, form, problems, remembered_fields=prefilled
    )
    if form.errors:
        return reading
    values = form.cleaned_data
    reading.sensors = given if given is not None else values.get("sensors")
    reading.cover = Cover(values["cover"]) if values.get("cover") else None
    try:
        reading.roll = parse_roll(values.get("roll") or "")
    except ValueError as error:
        problems.append(f"EW roll of {unit_label(state, spotter)}: {error}")
    reading.typed = typed_values(specs, values)
    return reading


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
    asked = house_rule_designation_questions(
        sensors=reading.sensors, cover=reading.cover, spotter=spotter.name
    )
    view["questions"] = [{"text": item.question, "field": item.field} for item in asked]
    view["problems"] += designation_problems(target)
    if view["questions"]:
        return view
    ew = ew_skill(spotter.skills.ew)
    odds = house_rule_designation_odds(
        ew=ew, sensors=reading.sensors, cover=reading.cover, state=spotter.state
    )
    view["odds"] = {
        "spotter": spotter.name,
        "target": target.name,
        "dice": odds.dice,
        "mods": modifier_views(odds.modifiers),
        "total": signed(total(odds.modifiers)),
        "threshold": odds.threshold,
        "success": chance_view("Designates the target", odds.success_chance, "designate"),
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
            "spotters": unit_options(state, playing, {reading.spotter.id}),
            "targets": unit_options(
                state, [u for u in playing if u.side != reading.spotter.side], {reading.target.id}
            ),
            "fields": [field_view(reading, spec) for spec in reading.specs],
        }
    return context
