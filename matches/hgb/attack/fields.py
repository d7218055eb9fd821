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


def specs_for(who: Who, state: MatchState, data: Mapping[str, object]) -> list[Spec]:
    """Every input this attack needs, in the order the helper shows them: a field for each
    figure the match's data does not give (``rules.hgb.match.figures_to_type``), the choices and
    the rolls."""
    a = who.attacker
    wname = weapon_name(who, data)
    wkey = weapon_key(who, data)
    to_type = figures_to_type(who.kind, a, who.weapon, who.targets)
    needs = to_type.attacker
    specs = []
    if who.weapon is None:
        specs.append(
            Spec(
                "wname",
                "Weapon name",
                "text",
                "attacker",
                forms.CharField(required=False, max_length=40),
            )
        )
    if "movement_modifier" in needs:
        specs.append(
            Spec(
                "amove",
                f"Attacker's movement modifier: {who.label(a)}, {move_words(a)}",
                "number",
                "attacker",
                number_field(-9, 9),
                ("models", a.model, move_figure(a, "att")),
            )
        )
    if "accuracy" in needs:
        specs.append(
            Spec(
                "acc",
                f"{wname} Accuracy",
                "number",
                "attacker",
                number_field(-9, 9),
                ("weapons", wkey, "accuracy"),
            )
        )
    if "damage_multiplier" in needs:
        specs.append(
            Spec(
                "dm",
                f"{wname} Damage Multiplier (DM)",
                "number",
                "attacker",
                number_field(1, 99),
                ("weapons", wkey, "dm"),
            )
        )
    if who.kind != "grenade":
        if "rof" in needs:
            specs.append(
                Spec(
                    "rof",
                    f"{wname} Rate of Fire (RoF) rating",
                    "number",
                    "attacker",
                    number_field(0, 20),
                    ("weapons", wkey, "rof"),
                    note="0 if it has none; needed only to use RoF points.",
                    extra=True,
                )
            )
        specs.append(
            Spec(
                "spray",
                "RoF points on Spray Fire",
                "number",
                "attacker",
                number_field(0, 20),
                note="+1 inch of area each",
                extra=True,
            )
        )
        specs.append(
            Spec(
                "conc",
                "RoF points on Concentrated Fire",
                "number",
                "attacker",
                number_field(0, 20),
                note="+1 DM each",
                extra=True,
            )
        )
    if "area_effect" in needs:
        specs.append(
            Spec(
                "ae",
                f"{wname} Area Effect (AE) radius in inches",
                "number",
                "attacker",
                number_field(0, 20),
                ("weapons", wkey, "ae"),
                note="0 or empty if it has none.",
                extra=True,
            )
        )
    if "size" in needs:
        specs.append(
            Spec(
                "size",
                f"Size of {who.label(a)}",
                "number",
                "attacker",
                number_field(1, 20),
                ("models", a.model, "size"),
            )
        )
    specs.append(
        Spec(
            "aauto",
            f"Autopilot of {who.label(a)} is on this round",
            "check",
            "attacker",
            forms.BooleanField(required=False),
            extra=True,
        )
    )
    if who.kind == "indirect":
        specs.append(
            Spec(
                "band",
                "Range band to the target",
                "radio",
                "shot",
                radio_field(BANDS),
                choices=BANDS,
            )
        )
        specs.append(
            Spec(
                "cover",
                "Target's cover, seen from the Forward Observer",
                "radio",
                "shot",
                radio_field(COVERS),
                choices=COVERS,
            )
        )
    elif who.kind == "grenade":
        specs.append(
            Spec(
                "grange",
                "Grenade range",
                "radio",
                "shot",
                radio_field(GRENADE_RANGES),
                choices=GRENADE_RANGES,
            )
        )
        specs.append(
            Spec(
                "cover",
                "Target's cover, seen from the thrower",
                "radio",
                "shot",
                radio_field(COVERS),
                choices=COVERS,
            )
        )
    if a.kept_action:
        specs.append(
            Spec(
                "reaction",
                "Reaction Fire: spend the kept action on a model that is moving now",
                "check",
                "attacker",
                forms.BooleanField(required=False),
            )
        )
    for index, unit in enumerate(who.targets):
        role = "Target" if index == 0 else "Defender"
        specs += _target_specs(who, unit, role, to_type.targets[index])
    rolls = [spec for spec in specs if spec.section == "rolls"]
    specs = [spec for spec in specs if spec.section != "rolls"]
    specs.append(
        Spec(
            "att",
            f"Attack roll of {who.label(a)}",
            "roll",
            "rolls",
            forms.CharField(required=False, max_length=40),
            note=ROLL_HELP,
        )
    )
    if who.indirect:
        specs.append(
            Spec(
                "dir",
                "Scatter direction die (only if it scatters)",
                "number",
                "rolls",
                number_field(1, 6),
            )
        )
    rolls = [spec for spec in specs if spec.section == "rolls"] + rolls
    order = {"att": 0, "dir": 2}
    rolls.sort(key=lambda spec: order.get(spec.name, 1))
    return [spec for spec in specs if spec.section != "rolls"] + rolls


def _target_specs(who: Who, unit: Unit, role: str, needs: frozenset[str]) -> list[Spec]:
    uid = unit.id
    label = who.label(unit)
    specs = []
    if not who.indirect:
        specs.append(
            Spec(f"band.{uid}", "Range band", "radio", uid, radio_field(BANDS), choices=BANDS)
        )
        specs.append(
            Spec(
                f"cover.{uid}",
                "Cover, seen from the attacker",
                "radio",
                uid,
                radio_field(COVERS),
                choices=COVERS,
            )
        )
    if "movement_modifier" in needs:
        specs.append(
            Spec(
                f"dmove.{uid}",
                f"{role}'s movement modifier: {label}, {move_words(unit)}",
                "number",
                uid,
                number_field(-9, 9),
                ("models", unit.model, move_figure(unit, "def")),
            )
        )
    if "armor" in needs:
        specs.append(
            Spec(
                f"armor.{uid}",
                f"Armor of {label}",
                "number",
                uid,
                number_field(1, 99),
                ("models", unit.model, "armor"),
            )
        )
    specs += [
        Spec(
            f"rear.{uid}",
            "Attacked from its rear arc (-1 to its defense)",
            "check",
            uid,
            forms.BooleanField(required=False),
            extra=True,
        ),
        Spec(
            f"weak.{uid}",
            "Attacked on its Weak Facing (+2 MoS)",
            "check",
            uid,
            forms.BooleanField(required=False),
            extra=True,
        ),
        Spec(
            f"auto.{uid}",
            "Its Autopilot is on (1 die for defense)",
            "check",
            uid,
            forms.BooleanField(required=False),
            extra=True,
        ),
        Spec(
            f"reinf.{uid}",
            "Reinforced Arc: Armor added in that arc",
            "number",
            uid,
            number_field(0, 30),
            note="0 or empty if the attack does not come from a reinforced arc.",
            extra=True,
        ),
    ]
    if who.indirect:
        specs.append(
            Spec(
                f"under.{uid}",
                "Under the landing point",
                "check",
                uid,
                forms.BooleanField(required=False),
                note="Asked only if the attack scatters.",
            )
        )
    specs.append(
        Spec(
            f"def.{uid}",
            f"Defense roll of {label}",
            "roll",
            "rolls",
            forms.CharField(required=False, max_length=40),
            note=ROLL_HELP,
        )
    )
    return specs


class AttackForm(StorableTextMixin, forms.Form):
    """The helper's inputs for one attack (fields made from ``Spec``s)."""

    def __init__(self, data, *, specs: list[Spec]) -> None:
        super().__init__(data)
        for spec in specs:
            self.fields[spec.name] = spec.field
