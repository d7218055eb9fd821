"""Reading an attack from the form: every figure, typed or from the datacard, and the rolls."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.core import signing

from matches.hgb.attack.fields import (
    AttackForm,
    Spec,
    specs_for,
    weapon_key,
)
from matches.hgb.attack.who import (
    DIGITS,
    ROLL_HELP,
    ROLL_WORDS,
    ROLLED_SALT,
    Who,
    read_who,
    text_of,
)
from matches.hgb.board import armor_mark, pack_given
from rules.errors import RulesError
from rules.hgb.attack import Attacker, Cover, GrenadeRange, RangeBand, Target, attack_skill
from rules.hgb.match import MatchState, MatchWeapon, Unit, movement_modifier

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
    remembered: Mapping[str, Mapping[str, Mapping[str, int]]] | None = None,
    match_id: int = 0,
    marks: Mapping[str, str] | None = None,
) -> AttackReading:
    """Read the helper's form. ``state`` holds each model's weapons and figures as the match
    recorded them (``matches.hgb.attack.figures.match_state``). ``remembered`` (typed in earlier)
    prefills figures the form did not send; without it, a figure the form did not send is
    simply missing. ``marks``: each side's datacard pack mark ("entered by jan",
    ``matches.hgb.board.pack_marks``), said beside a figure its pack gave."""
    who = read_who(data, state, seat)
    data = _figures_for(who, data)
    specs = specs_for(who, state, data)
    bound, prefilled = prefill(data, specs, remembered or {})
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
        reading.attacker = _attacker(who, values, marks or {})
        reading.targets = tuple(_target(who, unit, values, marks or {}) for unit in who.targets)
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
    reading.typed = typed_values(specs, values)
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
    sent = text_of(data, "for")
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


def prefill(data, specs: list[Spec], remembered) -> tuple[dict, frozenset[str]]:
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


def typed_values(specs: list[Spec], values: dict) -> dict:
    typed: dict[str, dict[str, dict[str, int]]] = {}
    for spec in specs:
        if spec.remember is None or values.get(spec.name) is None:
            continue
        scope, key, figure = spec.remember
        typed.setdefault(scope, {}).setdefault(key, {})[figure] = values[spec.name]
    return typed


WEAPON_ORIGINS = {"dm": "damage_multiplier", "accuracy": "accuracy", "rof": "rof"}


def _given_by(unit: Unit, weapon: MatchWeapon | None, marks: Mapping[str, str]) -> tuple:
    """The figures of the unit (its Armor) and its weapon that its side's datacard pack gave,
    each with the pack's mark ("entered by jan"), as the board marks them."""
    mark = marks.get(unit.side, "")
    if not mark:
        return ()
    given = []
    if armor_mark(unit, marks):
        given.append(("armor", mark))
    if weapon is not None:
        packed = pack_given(weapon)
        given += [(name, mark) for key, name in WEAPON_ORIGINS.items() if key in packed]
    return tuple(given)


def _attacker(who: Who, values: dict, marks: Mapping[str, str]) -> Attacker:
    unit = who.attacker
    weapon = who.weapon
    attacker = Attacker(
        attack_dice=attack_skill(unit.skills.att),
        state=unit.state,
        movement_modifier=movement_modifier(unit, "attack"),
        accuracy=weapon.accuracy if weapon else None,
        damage_multiplier=weapon.dm if weapon else None,
        rof=weapon.rof if weapon else None,
        spray=values.get("spray") or 0,
        concentrated=values.get("conc") or 0,
        name=who.label(unit),
        weapon=weapon.name if weapon else (values.get("wname") or "Other weapon"),
        given_by=tuple(g for g in _given_by(unit, weapon, marks) if g[0] != "armor"),
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


def _target(who: Who, unit: Unit, values: dict, marks: Mapping[str, str]) -> Target:
    uid = unit.id
    band = values.get(f"band.{uid}")
    cover = values.get(f"cover.{uid}")
    target = Target(
        defense_dice=attack_skill(unit.skills.defense),
        state=unit.state,
        movement_modifier=movement_modifier(unit, "defense"),
        armor=unit.armor,
        range_band=RangeBand(band) if band else None,
        cover=Cover(cover) if cover else None,
        rear_arc=bool(values.get(f"rear.{uid}")),
        weak_facing=bool(values.get(f"weak.{uid}")),
        reinforced_arc=values.get(f"reinf.{uid}") or 0,
        autopilot=bool(values.get(f"auto.{uid}")),
        boxes_left=unit.track.boxes_left,
        name=who.label(unit),
        given_by=_given_by(unit, None, marks),
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
