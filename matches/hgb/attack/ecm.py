"""ECM against a Forward Observer: its form, and its view of the contest."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field

from django import forms
from django.http import QueryDict
from django.urls import reverse

from matches.hgb.attack.fields import (
    AttackForm,
    Spec,
    number_field,
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
    EcmContest,
    ecm_odds,
    ew_skill,
    resolve_ecm,
    total,
)
from rules.hgb.match import (
    MAX_ATTACK_NOTE,
    Event,
    MatchState,
    Unit,
    ecm_problems,
    ecm_warnings,
    make_event,
    observer_of,
    unit_label,
)

# --- ECM against a Forward Observer ---------------------------------------------------------------


@dataclass
class EcmReading:
    """The ECM contest the form describes: the marked model, its observer, the blocking model."""

    target: Unit | None
    observer: Unit | None
    blocker: Unit | None
    specs: list[Spec]
    form: AttackForm
    problems: list[str]
    marked: tuple[Unit, ...] = ()
    contest: EcmContest | None = None
    observer_roll: RollEntry | None = None
    blocker_roll: RollEntry | None = None
    typed: dict = field(default_factory=dict)
    remembered_fields: frozenset[str] = frozenset()
    on_screen: frozenset[str] = frozenset()


def _ecm_specs(state: MatchState, observer: Unit, blocker: Unit) -> list[Spec]:
    specs = []
    observer_label, blocker_label = unit_label(state, observer), unit_label(state, blocker)
    for name, unit, figure, label in (
        ("ocomm", observer, "comm", f"Observer's Comm rating: {observer_label}"),
        ("bcomm", blocker, "comm", f"Blocker's Comm rating: {blocker_label}"),
        ("ecm", blocker, "ecm", f"Blocker's ECM rating: {blocker_label}"),
    ):
        specs.append(
            Spec(
                name,
                label,
                "number",
                "figures",
                number_field(-9, 20) if figure == "comm" else number_field(0, 20),
                ("models", unit.model, figure),
            )
        )
    for name, label in (
        ("oroll", f"Observer's EW roll: {observer_label}"),
        ("broll", f"Blocker's EW roll: {blocker_label}"),
    ):
        specs.append(
            Spec(
                name,
                label,
                "roll",
                "rolls",
                forms.CharField(required=False, max_length=40),
                note=ROLL_HELP,
            )
        )
    return specs


def read_ecm(
    data: Mapping[str, object],
    *,
    state: MatchState,
    remembered: Mapping[str, Mapping[str, Mapping[str, int]]] | None = None,
) -> EcmReading:
    """Read the ECM form: who is marked, who observed it, who blocks, the ratings and rolls."""
    playing = [unit for unit in state.units if not unit.is_out]
    by_id = {unit.id: unit for unit in playing}
    marked = tuple(unit for unit in playing if unit.fo_mark)
    problems = []
    target = by_id.get(text_of(data, "target"))
    if target is None or not target.fo_mark:
        target = marked[0] if marked else None
    if target is None:
        problems.append(
            "No model is marked by a Forward Observer: mark it on the board (FO mark) first, "
            "then block the observation here."
        )
        return EcmReading(None, None, None, [], AttackForm({}, specs=[]), problems)
    enemies = [unit for unit in playing if unit.side != target.side]
    friends = [unit for unit in playing if unit.side == target.side]
    observer = by_id.get(text_of(data, "observer"))
    if observer is None or observer.side == target.side:
        observer = observer_of(state, target) or (enemies[0] if enemies else target)
    blocker = by_id.get(text_of(data, "blocker"))
    if blocker is None or blocker.side != target.side:
        blocker = first_unit(friends, lambda u: u.kept_action) or target
    specs = _ecm_specs(state, observer, blocker)
    bound, prefilled = prefill(data, specs, remembered or {})
    form = AttackForm(bound, specs=specs)
    form.is_valid()
    for name, errors in form.errors.items():
        label = next(s.label for s in specs if s.name == name)
        problems += [f"{label}: {error}" for error in errors]
    reading = EcmReading(
        target, observer, blocker, specs, form, problems, marked, remembered_fields=prefilled
    )
    if form.errors:
        return reading
    values = form.cleaned_data
    try:
        reading.contest = EcmContest(
            observer_ew=ew_skill(observer.skills.ew),
            blocker_ew=ew_skill(blocker.skills.ew),
            observer_comm=values.get("ocomm"),
            blocker_comm=values.get("bcomm"),
            ecm_rating=values.get("ecm"),
            observer_state=observer.state,
            blocker_state=blocker.state,
            observer_name=unit_label(state, observer),
            blocker_name=unit_label(state, blocker),
        )
        reading.observer_roll = parse_roll(values.get("oroll") or "")
        reading.blocker_roll = parse_roll(values.get("broll") or "")
    except (RulesError, ValueError) as error:
        problems.append(str(error))
    reading.typed = typed_values(specs, values)
    return reading


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
        view["problems"] += ecm_problems(state, blocker)
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
        "observer_mods": modifier_views(chances.observer_modifiers),
        "blocker_mods": modifier_views(chances.blocker_modifiers),
        "observer_total": signed(total(chances.observer_modifiers)),
        "blocker_total": signed(total(chances.blocker_modifiers)),
        "block": chance_view("ECM blocks the observation", chances.block_chance, "block"),
        "goes_ahead": chance_view(
            "The observation goes ahead", chances.observation_chance, "ahead"
        ),
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
        # "Any Actions used will still be spent": the observer's action is recorded too.
        observer=reading.observer.id
        if reading.observer is not None and reading.observer.side != reading.target.side
        else "",
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
            "targets": unit_options(state, reading.marked, {target.id}),
            "observers": unit_options(
                state, [u for u in playing if u.side != target.side], {reading.observer.id}
            ),
            "blockers": unit_options(
                state, [u for u in playing if u.side == target.side], {reading.blocker.id}
            ),
            "fields": [field_view(reading, spec) for spec in reading.specs],
            "key": secrets.token_hex(16),
            "round": state.round,
        }
    elif data is not None:
        context["round"] = state.round
    return context
