"""Reading the attack helper's inputs: who attacks whom with what, the figures, and the rolls.

Nothing here works out a rule. It turns what the form sends into ``rules.Attacker`` and
``rules.Target`` values (and an indirect attack's range band and cover), with the figures the
data gives marked "from the datacard" and those typed in marked "typed in". Malformed input is a
form error or a sentence in ``problems``, never an exception.

The form's fields depend on who attacks whom: a figure the data gives is not asked for; one it
does not give is a field, prefilled with what was typed in earlier in the match.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from django import forms
from django.core import signing

from blitz_site.text import StorableTextMixin
from matches.attack_data import (
    WeaponInfo,
    datacard_model,
    datacard_move,
    hand_grenade,
    move_figure,
    move_words,
    other_weapon_key,
)
from rules.attack import HAND_GRENADES, Attacker, Cover, EcmContest, GrenadeRange, RangeBand, Target
from rules.catalog import Catalog
from rules.errors import RulesError
from rules.match import MatchState, Unit, unit_label

KINDS = {
    "direct": "Direct fire",
    "indirect": "Indirect fire",
    "grenade": "Hand grenade",
}
OTHER = "other"
MAX_ALSO = 11  # Spray Fire or an Area Effect: the main target and up to 11 more models
DEFAULT_SKILL = 2  # "Unless otherwise stated ... Attack and Defense are Level 2
DEFAULT_EW = 1  # ... and Electronic Warfare is Level 1"
ROLLED_SALT = "blitz.attack.rolled"
ROLL_WORDS = re.compile(r"[\s,;+/]+")
# ASCII digits only: "²".isdigit() is True but int() refuses it, and int("٣") is 3.
DIGITS = re.compile(r"[0-9]{1,2}")
ROLL_HELP = "Enter the result, such as 5, or each die, such as 5 3 (a Fumble is 0)."


_name = unit_label


# --- Who attacks whom with what -------------------------------------------------------------------


@dataclass
class Who:
    """The attacker, its weapon, the kind of attack and the models it is aimed at."""

    attacker: Unit
    weapons: tuple[WeaponInfo, ...]
    weapon: WeaponInfo | None  # None: another weapon, typed in
    weapon_value: str
    kind: str
    target: Unit
    also: tuple[Unit, ...]
    problems: list[str] = field(default_factory=list)
    labels: Mapping[str, str] = field(default_factory=dict)
    """Every model's label ("Hunter 1 (North CG2)"), by id: same-named models told apart."""
    catalog_of: Callable[[Unit], Catalog] | None = None
    """The game data each model's side started with (completed by its datacard pack)."""

    def card(self, unit: Unit) -> Catalog | None:
        return self.catalog_of(unit) if self.catalog_of else None

    @property
    def targets(self) -> tuple[Unit, ...]:
        return (self.target, *self.also)

    def label(self, unit: Unit) -> str:
        return self.labels.get(unit.id, unit.name)

    @property
    def indirect(self) -> bool:
        return self.kind != "direct"


def _first(units, test) -> Unit | None:
    return next((unit for unit in units if test(unit)), None)


def read_who(
    data: Mapping[str, object],
    state: MatchState,
    seat: str,
    weapons_of: Callable[[str], tuple[WeaponInfo, ...]],
    catalog_of: Callable[[Unit], Catalog] | None = None,
) -> Who:
    """Who attacks whom: what the form says, or sensible first choices, with a sentence for
    each choice that could not be taken."""
    problems = []
    playing = [unit for unit in state.units if not unit.is_out]
    by_id = {unit.id: unit for unit in playing}
    asked = _text(data, "attacker")
    attacker = by_id.get(asked)
    if asked and attacker is None:
        problems.append("That attacker is not a model in play in this match: choose another.")
    if attacker is None:
        attacker = _first(playing, lambda u: u.side == seat) or playing[0]
    kind = _text(data, "kind")
    if kind not in KINDS:
        kind = "direct"
    card = catalog_of(attacker) if catalog_of else None
    weapons = weapons_for_kind(weapons_of(attacker.id), kind, card)
    weapon_value = _text(data, "weapon") or "0"
    if weapon_value == OTHER or not weapons:
        weapon, weapon_value = None, OTHER
    elif DIGITS.fullmatch(weapon_value) and int(weapon_value) < len(weapons):
        weapon = weapons[int(weapon_value)]
    else:
        weapon, weapon_value = weapons[0], "0"
    enemies = [unit for unit in playing if unit.side != attacker.side]
    target = by_id.get(_text(data, "target"))
    if target is attacker:
        problems.append("A model can't attack itself: choose another target.")
        target = None
    if target is None:
        marked = kind == "indirect"
        target = (
            _first(enemies, lambda u: u.fo_mark or not marked)
            or _first(enemies, lambda u: True)
            or _first(playing, lambda u: u is not attacker)
            or attacker
        )
    also = []
    for uid in _list(data, "also"):
        unit = by_id.get(uid)
        if unit is not None and unit is not target and unit not in also:
            also.append(unit)
    if len(also) > MAX_ALSO:
        problems.append(
            f"At most {MAX_ALSO} more models can be in the area: the rest are left out."
        )
        also = also[:MAX_ALSO]
    if kind == "indirect":
        if not target.fo_mark:
            problems.append(
                f"{_name(state, target)} is not marked by a Forward Observer: mark it on the board "
                "(FO mark) first, or choose direct fire."
            )
        elif target.side == attacker.side:
            problems.append("A Forward Observer marks an enemy model: choose an enemy target.")
    labels = {unit.id: unit_label(state, unit) for unit in playing}
    return Who(
        attacker,
        weapons,
        weapon,
        weapon_value,
        kind,
        target,
        tuple(also),
        problems,
        labels,
        catalog_of,
    )


def weapons_for_kind(
    carried: tuple[WeaponInfo, ...], kind: str, catalog: Catalog | None = None
) -> tuple[WeaponInfo, ...]:
    """The weapons the helper offers for the kind of attack: a hand grenade attack throws a
    grenade ("Hand Grenades use the IF rules, but do not require a spotter"), never the gun.

    A model the data gives grenades throws those; one it gives none (the texts name Hand
    Grenades only for Peace River's Warriors) is offered a Hand Grenade, whose figures the helper
    asks for. Direct and indirect fire use the other weapons."""
    grenades = tuple(w for w in carried if w.code in HAND_GRENADES)
    if kind == "grenade":
        return grenades or (hand_grenade(catalog),)
    return tuple(w for w in carried if w.code not in HAND_GRENADES)


def _text(data: Mapping[str, object], name: str) -> str:
    value = data.get(name)
    return value.strip()[:80] if isinstance(value, str) else ""


def _list(data, name: str) -> list[str]:
    values = data.getlist(name) if hasattr(data, "getlist") else data.get(name) or []
    if isinstance(values, str):
        values = [values]
    return [value for value in values[: MAX_ALSO * 3] if isinstance(value, str)]


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


def _number(low: int, high: int) -> forms.IntegerField:
    return forms.IntegerField(
        required=False,
        min_value=low,
        max_value=high,
        error_messages={"invalid": "Enter a whole number, such as -1, 0 or 2."},
    )


def _radio(choices) -> forms.ChoiceField:
    return forms.ChoiceField(required=False, choices=[("", "—"), *choices])


def _signed(value: int) -> str:
    return f"{value:+d}".replace("-", "\u2212")


BANDS = tuple((band.value, f"{band.label} {_signed(band.modifier)}") for band in RangeBand)
COVERS = tuple(
    (cover.value, f"{cover.label.split()[0]} {_signed(cover.modifier)}") for cover in Cover
)
GRENADE_RANGES = tuple((r.value, f"{r.label} {_signed(r.modifier)}") for r in GrenadeRange)


def weapon_name(who: Who, data: Mapping[str, object]) -> str:
    if who.weapon is not None:
        return who.weapon.name
    return _text(data, "wname")[:40] or "Other weapon"


def weapon_key(who: Who, data: Mapping[str, object]) -> str:
    return who.weapon.key if who.weapon is not None else other_weapon_key(weapon_name(who, data))


def specs_for(who: Who, state: MatchState, data: Mapping[str, object]) -> list[Spec]:
    """Every input this attack needs, in the order the helper shows them."""
    a = who.attacker
    wname = weapon_name(who, data)
    wkey = weapon_key(who, data)
    weapon = who.weapon or WeaponInfo(OTHER, wname)
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
    if datacard_move(a, "att", who.card(a)) is None:
        specs.append(
            Spec(
                "amove",
                f"Attacker's movement modifier: {who.label(a)}, {move_words(a)}",
                "number",
                "attacker",
                _number(-9, 9),
                ("models", a.model, move_figure(a, "att")),
            )
        )
    if weapon.accuracy is None:
        specs.append(
            Spec(
                "acc",
                f"{wname} Accuracy",
                "number",
                "attacker",
                _number(-9, 9),
                ("weapons", wkey, "accuracy"),
            )
        )
    if weapon.dm is None:
        specs.append(
            Spec(
                "dm",
                f"{wname} Damage Multiplier (DM)",
                "number",
                "attacker",
                _number(1, 99),
                ("weapons", wkey, "dm"),
            )
        )
    if who.kind != "grenade":
        if weapon.rof is None:
            specs.append(
                Spec(
                    "rof",
                    f"{wname} Rate of Fire (RoF) rating",
                    "number",
                    "attacker",
                    _number(0, 20),
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
                _number(0, 20),
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
                _number(0, 20),
                note="+1 DM each",
                extra=True,
            )
        )
    specs.append(
        Spec(
            "ae",
            f"{wname} Area Effect (AE) radius in inches",
            "number",
            "attacker",
            _number(0, 20),
            ("weapons", wkey, "ae"),
            note="0 or empty if it has none.",
            extra=True,
        )
    )
    if who.kind == "grenade" and datacard_model(a, "size", who.card(a)) is None:
        specs.append(
            Spec(
                "size",
                f"Size of {who.label(a)}",
                "number",
                "attacker",
                _number(1, 20),
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
            Spec("band", "Range band to the target", "radio", "shot", _radio(BANDS), choices=BANDS)
        )
        specs.append(
            Spec(
                "cover",
                "Target's cover, seen from the Forward Observer",
                "radio",
                "shot",
                _radio(COVERS),
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
                _radio(GRENADE_RANGES),
                choices=GRENADE_RANGES,
            )
        )
        specs.append(
            Spec(
                "cover",
                "Target's cover, seen from the thrower",
                "radio",
                "shot",
                _radio(COVERS),
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
        specs += _target_specs(who, unit, "Target" if index == 0 else "Defender")
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
                _number(1, 6),
            )
        )
    rolls = [spec for spec in specs if spec.section == "rolls"] + rolls
    order = {"att": 0, "dir": 2}
    rolls.sort(key=lambda spec: order.get(spec.name, 1))
    return [spec for spec in specs if spec.section != "rolls"] + rolls


def _target_specs(who: Who, unit: Unit, role: str) -> list[Spec]:
    uid = unit.id
    label = who.label(unit)
    specs = []
    if not who.indirect:
        specs.append(Spec(f"band.{uid}", "Range band", "radio", uid, _radio(BANDS), choices=BANDS))
        specs.append(
            Spec(
                f"cover.{uid}",
                "Cover, seen from the attacker",
                "radio",
                uid,
                _radio(COVERS),
                choices=COVERS,
            )
        )
    if datacard_move(unit, "def", who.card(unit)) is None:
        specs.append(
            Spec(
                f"dmove.{uid}",
                f"{role}'s movement modifier: {label}, {move_words(unit)}",
                "number",
                uid,
                _number(-9, 9),
                ("models", unit.model, move_figure(unit, "def")),
            )
        )
    if unit.armor is None:
        specs.append(
            Spec(
                f"armor.{uid}",
                f"Armor of {label}",
                "number",
                uid,
                _number(1, 99),
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
            _number(0, 30),
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


# --- Reading it all -------------------------------------------------------------------------------


RollEntry = int | tuple[int, ...]


def parse_roll(text: str) -> RollEntry | None:
    """ "5" is a result, "5 3" (or "5,3") the dice, "1" or "0" a Fumble; empty is not rolled
    yet. Raises ValueError."""
    words = [word for word in ROLL_WORDS.split(text.strip()) if word]
    if not words:
        return None
    if len(words) > 10 or not all(DIGITS.fullmatch(word) for word in words):
        raise ValueError(ROLL_HELP)
    numbers = tuple(int(word) for word in words)
    if len(numbers) > 1:
        return numbers
    # A result of 1 can't happen: a highest die of 1 means every die shows 1, a Fumble (0).
    return 0 if numbers[0] == 1 else numbers[0]


@dataclass
class AttackReading:
    """Everything the helper read from the form, ready for ``rules``."""

    who: Who
    specs: list[Spec]
    form: AttackForm
    problems: list[str]
    attacker: Attacker | None = None
    targets: tuple[Target, ...] = ()
    band: RangeBand | GrenadeRange | None = None
    cover: Cover | None = None
    attack_roll: RollEntry | None = None
    defense_rolls: dict[str, RollEntry | None] = field(default_factory=dict)
    direction: int | None = None
    under: frozenset[str] = frozenset()
    typed: dict = field(default_factory=dict)
    on_screen: frozenset[str] = frozenset()
    autopilot: bool = False
    reaction: bool = False
    remembered_fields: frozenset[str] = frozenset()

    @property
    def valid(self) -> bool:
        return not self.problems and self.attacker is not None


def read_attack(
    data: Mapping[str, object],
    *,
    state: MatchState,
    seat: str,
    weapons_of: Callable[[str], tuple[WeaponInfo, ...]],
    remembered: Mapping[str, Mapping[str, Mapping[str, int]]] | None = None,
    match_id: int = 0,
    catalog_of: Callable[[Unit], Catalog] | None = None,
) -> AttackReading:
    """Read the helper's form. ``remembered`` (typed in earlier) prefills figures the form
    did not send; without it, a figure the form did not send is simply missing."""
    who = read_who(data, state, seat, weapons_of, catalog_of)
    data = _figures_for(who, data)
    specs = specs_for(who, state, data)
    bound, prefilled = _prefill(data, specs, remembered or {})
    form = AttackForm(bound, specs=specs)
    form.is_valid()
    problems = list(who.problems)
    for name, errors in form.errors.items():
        spec = next((s for s in specs if s.name == name), None)
        label = spec.label if spec else name
        problems += [f"{label}: {error}" for error in errors]
    reading = AttackReading(who, specs, form, problems, remembered_fields=prefilled)
    if form.errors:
        return reading
    values = form.cleaned_data
    try:
        reading.attacker = _attacker(who, values)
        reading.targets = tuple(_target(who, unit, values) for unit in who.targets)
    except RulesError as error:
        problems.append(str(error))
        return reading
    if who.kind == "indirect":
        reading.band = RangeBand(values["band"]) if values["band"] else None
    elif who.kind == "grenade":
        reading.band = GrenadeRange(values["grange"]) if values["grange"] else None
    if who.indirect:
        reading.cover = Cover(values["cover"]) if values["cover"] else None
        reading.direction = values.get("dir")
        reading.under = frozenset(u.id for u in who.targets if values.get(f"under.{u.id}"))
    reading.autopilot = bool(values.get("aauto"))
    reading.reaction = bool(values.get("reaction"))
    _read_rolls(reading, values, data, match_id)
    reading.typed = _typed(specs, values)
    return reading


ATTACKER_FIGURES = ("amove", "size")
WEAPON_FIGURES = ("acc", "dm", "rof", "ae")


def figures_owner(who: Who, data: Mapping[str, object]) -> str:
    """Whose figures the form's attacker and weapon fields hold: "a-1-3 LAC" (the form sends it
    back as ``for``)."""
    return f"{who.attacker.id} {weapon_key(who, data)}"


def _figures_for(who: Who, data: Mapping[str, object]) -> Mapping[str, object]:
    """The form's data without the attacker's or the weapon's figures when they were typed for
    another model or weapon (the form keeps its fields when the choice changes): a Hunter's LAC
    Accuracy is not a Hand Grenade's, nor its movement modifier a Grizzly's."""
    sent = _text(data, "for")
    if not sent or " " not in sent:
        return data
    attacker, weapon = sent.split(" ", 1)
    drop = set()
    if attacker != who.attacker.id:
        drop.update(ATTACKER_FIGURES)
    if weapon != weapon_key(who, data):
        drop.update(WEAPON_FIGURES)
    if not drop:
        return data
    if hasattr(data, "copy") and hasattr(data, "setlist"):
        kept = data.copy()
        for name in drop:
            kept.pop(name, None)
        return kept
    return {k: v for k, v in data.items() if k not in drop}


def _prefill(data, specs: list[Spec], remembered) -> tuple[dict, frozenset[str]]:
    """The form's data, with remembered figures for the figure fields it did not send."""
    bound = {}
    for spec in specs:
        if spec.name in data:
            bound[spec.name] = data.get(spec.name)
    prefilled = set()
    for spec in specs:
        if spec.remember is None:
            continue
        scope, key, figure = spec.remember
        value = (remembered.get(scope) or {}).get(key, {}).get(figure)
        if not isinstance(value, int) or isinstance(value, bool):
            continue
        if spec.name not in data:
            bound[spec.name] = str(value)
            prefilled.add(spec.name)
        elif str(data.get(spec.name)).strip() == str(value):
            prefilled.add(spec.name)  # sent back as it was remembered: still the match's figure
    return bound, frozenset(prefilled)


def _typed(specs: list[Spec], values: dict) -> dict:
    typed: dict[str, dict[str, dict[str, int]]] = {}
    for spec in specs:
        if spec.remember is None or values.get(spec.name) is None:
            continue
        scope, key, figure = spec.remember
        typed.setdefault(scope, {}).setdefault(key, {})[figure] = values[spec.name]
    return typed


def _skill(value: int | None) -> int:
    return DEFAULT_SKILL if value is None else value


def _attacker(who: Who, values: dict) -> Attacker:
    unit = who.attacker
    weapon = who.weapon
    attacker = Attacker(
        attack_dice=_skill(unit.skills.att),
        state=unit.state,
        movement_modifier=datacard_move(unit, "att", who.card(unit)),
        accuracy=weapon.accuracy if weapon else None,
        damage_multiplier=weapon.dm if weapon else None,
        rof=weapon.rof if weapon else None,
        spray=values.get("spray") or 0,
        concentrated=values.get("conc") or 0,
        name=who.label(unit),
        weapon=weapon.name if weapon else (values.get("wname") or "Other weapon"),
    )
    typed = {
        figure: values.get(name)
        for name, figure in (
            ("amove", "movement_modifier"),
            ("acc", "accuracy"),
            ("dm", "damage_multiplier"),
            ("rof", "rof"),
            ("ae", "area_effect"),
        )
        if values.get(name) is not None
    }
    return attacker.answered(**typed) if typed else attacker


def _target(who: Who, unit: Unit, values: dict) -> Target:
    uid = unit.id
    band = values.get(f"band.{uid}")
    cover = values.get(f"cover.{uid}")
    target = Target(
        defense_dice=_skill(unit.skills.defense),
        state=unit.state,
        movement_modifier=datacard_move(unit, "def", who.card(unit)),
        armor=unit.armor,
        range_band=RangeBand(band) if band else None,
        cover=Cover(cover) if cover else None,
        rear_arc=bool(values.get(f"rear.{uid}")),
        weak_facing=bool(values.get(f"weak.{uid}")),
        reinforced_arc=values.get(f"reinf.{uid}") or 0,
        autopilot=bool(values.get(f"auto.{uid}")),
        boxes_left=unit.track.boxes_left,
        name=who.label(unit),
    )
    typed = {
        figure: values.get(name)
        for name, figure in ((f"dmove.{uid}", "movement_modifier"), (f"armor.{uid}", "armor"))
        if values.get(name) is not None
    }
    return target.answered(**typed) if typed else target


def _read_rolls(reading: AttackReading, values: dict, data, match_id: int) -> None:
    fields = ["att", *(f"def.{unit.id}" for unit in reading.who.targets)]
    parsed: dict[str, RollEntry | None] = {}
    for name in fields:
        try:
            parsed[name] = parse_roll(values.get(name) or "")
        except ValueError as error:
            spec = next(s for s in reading.specs if s.name == name)
            reading.problems.append(f"{spec.label}: {error}")
            parsed[name] = None
    reading.attack_roll = parsed["att"]
    reading.defense_rolls = {unit.id: parsed[f"def.{unit.id}"] for unit in reading.who.targets}
    token = data.get("rolled")
    rolled = rolled_dice(token[:2000] if isinstance(token, str) else "", match_id)
    reading.on_screen = frozenset(
        name
        for name, dice in rolled.items()
        if name in parsed and parsed[name] in (tuple(dice), dice[0] if len(dice) == 1 else None)
    )


# --- Dice rolled on screen ------------------------------------------------------------------------


def sign_rolled(dice: Mapping[str, tuple[int, ...]], match_id: int) -> str:
    """A token that says these dice were rolled on screen by the server, for this match."""
    return signing.dumps(
        {"m": match_id, "r": {k: list(v) for k, v in dice.items()}}, salt=ROLLED_SALT
    )


def rolled_dice(token: str, match_id: int) -> dict[str, list[int]]:
    """The dice a token says were rolled on screen ({} for a missing or forged token)."""
    if not token:
        return {}
    try:
        data = signing.loads(token, salt=ROLLED_SALT)
    except signing.BadSignature:
        return {}
    if (
        not isinstance(data, dict)
        or data.get("m") != match_id
        or not isinstance(data.get("r"), dict)
    ):
        return {}
    return {k: v for k, v in data["r"].items() if isinstance(v, list)}


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
                _number(-9, 20) if figure == "comm" else _number(0, 20),
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
    target = by_id.get(_text(data, "target"))
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
    observer = by_id.get(_text(data, "observer"))
    if observer is None or observer.side == target.side:
        observer = enemies[0] if enemies else target
    blocker = by_id.get(_text(data, "blocker"))
    if blocker is None or blocker.side != target.side:
        blocker = _first(friends, lambda u: u.kept_action) or target
    specs = _ecm_specs(state, observer, blocker)
    bound, prefilled = _prefill(data, specs, remembered or {})
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
            observer_ew=_ew(observer),
            blocker_ew=_ew(blocker),
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
    reading.typed = _typed(specs, values)
    return reading


def _ew(unit: Unit) -> int:
    return DEFAULT_EW if unit.skills.ew is None else unit.skills.ew


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
    catalog_of: Callable[[Unit], Catalog] | None = None,
) -> DesignationReading:
    playing = [unit for unit in state.units if not unit.is_out]
    by_id = {unit.id: unit for unit in playing}
    spotter = by_id.get(_text(data, "spotter")) or _first(playing, lambda u: u.side == seat)
    spotter = spotter or playing[0]
    enemies = [unit for unit in playing if unit.side != spotter.side]
    target = by_id.get(_text(data, "target"))
    if target is None or target.side == spotter.side:
        target = _first(enemies, lambda u: not u.fo_mark) or (enemies[0] if enemies else None)
    specs = []
    card = catalog_of(spotter) if catalog_of else None
    if datacard_model(spotter, "sensors", card) is None:
        specs.append(
            Spec(
                "sensors",
                f"Sensors rating of {unit_label(state, spotter)}",
                "number",
                "figures",
                _number(-9, 20),
                ("models", spotter.model, "sensors"),
            )
        )
    specs.append(
        Spec(
            "cover",
            "Target's cover, seen from the spotter",
            "radio",
            "figures",
            _radio(COVERS),
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
    bound, prefilled = _prefill(data, specs, remembered or {})
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
    given = datacard_model(spotter, "sensors", card)
    reading.sensors = given if given is not None else values.get("sensors")
    reading.cover = Cover(values["cover"]) if values.get("cover") else None
    try:
        reading.roll = parse_roll(values.get("roll") or "")
    except ValueError as error:
        problems.append(f"EW roll of {unit_label(state, spotter)}: {error}")
    reading.typed = _typed(specs, values)
    return reading


def ew_dice(unit: Unit) -> int:
    return _ew(unit)
