"""The fields an attack needs: one ``Spec`` per figure, the form that reads them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django import forms

from blitz_site.text import StorableTextMixin
from matches.hgb.attack.figures import (
    move_figure,
    move_words,
    other_weapon_key,
)
from matches.hgb.attack.who import (
    ROLL_HELP,
    Who,
    text_of,
)
from rules.hgb.attack import Cover, GrenadeRange, RangeBand, signed
from rules.hgb.match import MatchState, Unit, figures_to_type

# --- The fields the attack needs ------------------------------------------------------------------


@dataclass(frozen=True)
class Spec:
    """One input of the helper: its field, where it shows, and what it is remembered as.

    ``widget``: "number", "text", "roll", "check" or "radio". ``section``: "attacker", "shot",
    a model id, or "rolls". ``remember``: ("models" or "weapons", key, figure) for a datacard
    figure typed in, which the match remembers.
    """

    name: str
    label: str
    widget: str
    section: str
    field: forms.Field
    remember: tuple[str, str, str] | None = None
    note: str = ""
    choices: tuple[tuple[str, str], ...] = ()
    extra: bool = False  # shown folded: Rate of Fire, Area Effect, facing and perks


def number_field(low: int, high: int) -> forms.IntegerField:
    return forms.IntegerField(
        required=False,
        min_value=low,
        max_value=high,
        error_messages={"invalid": "Enter a whole number, such as -1, 0 or 2."},
    )


def radio_field(choices) -> forms.ChoiceField:
    return forms.ChoiceField(required=False, choices=[("", "—"), *choices])


BANDS = tuple((band.value, f"{band.label} {signed(band.modifier)}") for band in RangeBand)
COVERS = tuple(
    (cover.value, f"{cover.label.split()[0]} {signed(cover.modifier)}") for cover in Cover
)
GRENADE_RANGES = tuple((r.value, f"{r.label} {signed(r.modifier)}") for r in GrenadeRange)


def weapon_name(who: Who, data: Mapping[str, object]) -> str:
    if who.weapon is not None:
        return who.weapon.name
    return text_of(data, "wname")[:40] or "Other weapon"


def weapon_key(who: Who, data: Mapping[str, object]) -> str:
    return who.weapon.code if who.weapon is not None else other_weapon_key(weapon_name(who, data))


# One row per input, in the order the helper shows them. ``when`` says which attacks ask it
# ("" every attack); ``need``: asked only if the match's data does not give that figure
# (``rules.hgb.match.figures_to_type``). Labels are filled from ``words``: the weapon, the model,
# its movement, and (for a target) its role.


@dataclass(frozen=True)
class Row:
    name: str
    label: str
    widget: str
    section: str  # "attacker", "shot", "target" (one per target) or "rolls"
    when: str = ""
    need: str = ""
    bounds: tuple[int, int] = (0, 20)  # a "number" input's lowest and highest value
    remember: tuple[str, str] | None = None  # ("weapons" or "models", figure)
    note: str = ""
    choices: tuple[tuple[str, str], ...] = ()
    extra: bool = False


ATTACKER_ROWS = (
    Row("wname", "Weapon name", "text", "attacker", when="other weapon"),
    Row(
        "amove",
        "Attacker's movement modifier: {model}, {moves}",
        "number",
        "attacker",
        need="movement_modifier",
        bounds=(-9, 9),
        remember=("models", "move att"),
    ),
    Row(
        "acc",
        "{weapon} Accuracy",
        "number",
        "attacker",
        need="accuracy",
        bounds=(-9, 9),
        remember=("weapons", "accuracy"),
    ),
    Row(
        "dm",
        "{weapon} Damage Multiplier (DM)",
        "number",
        "attacker",
        need="damage_multiplier",
        bounds=(1, 99),
        remember=("weapons", "dm"),
    ),
    Row(
        "rof",
        "{weapon} Rate of Fire (RoF) rating",
        "number",
        "attacker",
        when="fired",
        need="rof",
        remember=("weapons", "rof"),
        note="0 if it has none; needed only to use RoF points.",
        extra=True,
    ),
    Row(
        "spray",
        "RoF points on Spray Fire",
        "number",
        "attacker",
        when="fired",
        note="+1 inch of area each",
        extra=True,
    ),
    Row(
        "conc",
        "RoF points on Concentrated Fire",
        "number",
        "attacker",
        when="fired",
        note="+1 DM each",
        extra=True,
    ),
    Row(
        "ae",
        "{weapon} Area Effect (AE) radius in inches",
        "number",
        "attacker",
        need="area_effect",
        remember=("weapons", "ae"),
        note="0 or empty if it has none.",
        extra=True,
    ),
    Row(
        "size",
        "Size of {model}",
        "number",
        "attacker",
        need="size",
        bounds=(1, 20),
        remember=("models", "size"),
    ),
    Row("aauto", "Autopilot of {model} is on this round", "check", "attacker", extra=True),
    Row("band", "Range band to the target", "radio", "shot", when="indirect", choices=BANDS),
    Row(
        "cover",
        "Target's cover, seen from the Forward Observer",
        "radio",
        "shot",
        when="indirect",
        choices=COVERS,
    ),
    Row("grange", "Grenade range", "radio", "shot", when="grenade", choices=GRENADE_RANGES),
    Row(
        "cover",
        "Target's cover, seen from the thrower",
        "radio",
        "shot",
        when="grenade",
        choices=COVERS,
    ),
    Row(
        "reaction",
        "Reaction Fire: spend the kept action on a model that is moving now",
        "check",
        "attacker",
        when="kept action",
    ),
    Row("att", "Attack roll of {model}", "roll", "rolls", note=ROLL_HELP),
)
TARGET_ROWS = (
    Row("band", "Range band", "radio", "target", when="direct", choices=BANDS),
    Row("cover", "Cover, seen from the attacker", "radio", "target", when="direct", choices=COVERS),
    Row(
        "dmove",
        "{role}'s movement modifier: {model}, {moves}",
        "number",
        "target",
        need="movement_modifier",
        bounds=(-9, 9),
        remember=("models", "move def"),
    ),
    Row(
        "armor",
        "Armor of {model}",
        "number",
        "target",
        need="armor",
        bounds=(1, 99),
        remember=("models", "armor"),
    ),
    Row("rear", "Attacked from its rear arc (-1 to its defense)", "check", "target", extra=True),
    Row("weak", "Attacked on its Weak Facing (+2 MoS)", "check", "target", extra=True),
    Row("auto", "Its Autopilot is on (1 die for defense)", "check", "target", extra=True),
    Row(
        "reinf",
        "Reinforced Arc: Armor added in that arc",
        "number",
        "target",
        bounds=(0, 30),
        note="0 or empty if the attack does not come from a reinforced arc.",
        extra=True,
    ),
    Row(
        "under",
        "Under the landing point",
        "check",
        "target",
        when="indirect or grenade",
        note="Asked only if the attack scatters.",
    ),
    Row("def", "Defense roll of {model}", "roll", "rolls", note=ROLL_HELP),
)
SCATTER_ROW = Row(
    "dir", "Scatter direction die (only if it scatters)", "number", "rolls", bounds=(1, 6)
)


def asked(row: Row, who: Who, needs: frozenset[str]) -> bool:
    """Whether this attack asks the row's input."""
    kinds = {
        "": True,
        "other weapon": who.weapon is None,
        "fired": who.kind != "grenade",
        "direct": not who.indirect,
        "indirect": who.kind == "indirect",
        "grenade": who.kind == "grenade",
        "indirect or grenade": who.indirect,
        "kept action": who.attacker.kept_action,
    }
    return kinds[row.when] and (not row.need or row.need in needs)


def field_for(row: Row) -> forms.Field:
    if row.widget == "number":
        return number_field(*row.bounds)
    if row.widget == "radio":
        return radio_field(row.choices)
    if row.widget == "check":
        return forms.BooleanField(required=False)
    return forms.CharField(required=False, max_length=40)


def spec_of(
    row: Row, unit: Unit, words: Mapping[str, str], wkey: str, target: bool = False
) -> Spec:
    """The row's input for ``unit``: the attacker, or a target (its id ends the name)."""
    section = unit.id if target and row.section != "rolls" else row.section
    remember = None
    if row.remember is not None:
        kind, figure = row.remember
        if figure.startswith("move "):
            figure = move_figure(unit, figure.removeprefix("move "))
        remember = (kind, wkey if kind == "weapons" else unit.model, figure)
    return Spec(
        f"{row.name}.{unit.id}" if target else row.name,
        row.label.format(**words),
        row.widget,
        section,
        field_for(row),
        remember,
        row.note,
        row.choices,
        row.extra,
    )


def specs_for(who: Who, state: MatchState, data: Mapping[str, object]) -> list[Spec]:
    """Every input this attack needs, in the order the helper shows them: the attacker's and the
    shot's (``ATTACKER_ROWS``), each target's (``TARGET_ROWS``), then the rolls: the attack
    roll, each target's defense roll and the scatter die."""
    a = who.attacker
    to_type = figures_to_type(who.kind, a, who.weapon, who.targets)
    wname, wkey = weapon_name(who, data), weapon_key(who, data)
    words = {"weapon": wname, "model": who.label(a), "moves": move_words(a)}
    specs = [
        spec_of(row, a, words, wkey) for row in ATTACKER_ROWS if asked(row, who, to_type.attacker)
    ]
    for index, unit in enumerate(who.targets):
        role = "Target" if index == 0 else "Defender"
        told = {"weapon": wname, "model": who.label(unit), "moves": move_words(unit), "role": role}
        specs += [
            spec_of(row, unit, told, wkey, target=True)
            for row in TARGET_ROWS
            if asked(row, who, to_type.targets[index])
        ]
    if who.indirect:
        specs.append(spec_of(SCATTER_ROW, a, words, wkey))
    # The inputs first, then the rolls (the attack roll, the defense rolls, the scatter die).
    return sorted(specs, key=lambda spec: spec.section == "rolls")


class AttackForm(StorableTextMixin, forms.Form):
    """The helper's inputs for one attack (fields made from ``Spec``s)."""

    def __init__(self, data, *, specs: list[Spec]) -> None:
        super().__init__(data)
        for spec in specs:
            self.fields[spec.name] = spec.field
