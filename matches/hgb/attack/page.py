"""The attack helper page: the event that applies an attack, dice rolled on screen, and the
template's context.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.http import QueryDict
from django.urls import reverse

from matches.hgb.attack.fields import (
    Spec,
)
from matches.hgb.attack.figures import (
    pack_figure,
)
from matches.hgb.attack.odds import (
    DICE_RNG,
    OUTCOME_WORDS,
    attack_facts,
    odds_view,
    shot_counter,
)
from matches.hgb.attack.reading import (
    AttackReading,
    figures_owner,
    rolled_dice,
    sign_rolled,
)
from matches.hgb.attack.who import (
    KINDS,
)
from rules.hgb.attack import attack_skill
from rules.hgb.damage import AttackOutcome
from rules.hgb.match import (
    MAX_ATTACK_NOTE,
    Event,
    MatchState,
    Unit,
    attack_targets,
    attackers,
    make_event,
    unit_label,
)

if TYPE_CHECKING:
    from matches.hgb.attack.designation import DesignationReading
    from matches.hgb.attack.ecm import EcmReading


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
    counter = shot_counter(reading)
    facts = attack_facts(reading)
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
        plain["dir"] = str(DICE_RNG.randint(1, 6))
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
    return tuple(DICE_RNG.randint(1, 6) for _ in range(count))


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


def unit_options(state: MatchState, units, chosen) -> list[dict]:
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
    # Only the models that can attack now, and the attacker's enemies in play (the chosen ones
    # stay listed, so a choice the rules refuse shows with its reason).
    able = {u.id for u in attackers(state)}
    can_act = [u for u in playing if u.id in able or u.id == who.attacker.id]
    enemies = [u for u in attack_targets(state, who.attacker) if u.id != who.attacker.id]
    if who.target not in enemies and who.target.id != who.attacker.id:
        enemies.insert(0, who.target)
    weapons = [
        {"value": str(i), "label": w.name + (f" ({w.code})" if w.code != w.name else "")}
        for i, w in enumerate(who.weapons)
    ] + [{"value": "other", "label": "Another weapon (type in its figures)"}]
    for option in weapons:
        option["selected"] = option["value"] == who.weapon_value
    return {
        "attackers": _by_side(unit_options(state, can_act, {who.attacker.id})),
        "weapons": weapons,
        "kinds": [{"value": k, "label": v, "selected": k == who.kind} for k, v in KINDS.items()],
        "targets": _by_side(unit_options(state, enemies, {who.target.id})),
        "also": _by_side(
            unit_options(
                state, [u for u in playing if u.id != who.target.id], {u.id for u in who.also}
            )
        ),
        "kind": who.kind,
        "has_also": bool(who.also),
    }


def field_view(reading: AttackReading | EcmReading | DesignationReading, spec: Spec) -> dict:
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
                "detail": _detail(state, unit, f"Defense {attack_skill(unit.skills.defense)}"),
                "fields": grouped.get(unit.id, []),
            }
        )
    sections.append(
        {
            "key": "attacker",
            "title": f"{who.label(a)} and its {weapon}" if weapon else who.label(a),
            "detail": _detail(state, a, f"Attack {attack_skill(a.skills.att)}"),
            "fields": grouped.get("attacker", []),
        }
    )
    sections.append(
        {"key": "rolls", "title": "The rolls", "detail": "", "fields": grouped.get("rolls", [])}
    )
    for section in sections:
        views = [field_view(reading, spec) for spec in section["fields"]]
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
    shown = computed if computed is not None else odds_view(reading, state)
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
            # Opened in the board's panel: no URL pushed into the board's history.
            "panel": data.get("panel") == "1",
        }
    return context
