"""Kill Team operative profiles and teams as players type them in, checked.

The core rules text gives no operative datacards (docs/killteam-readings.md, 'What the text gives'):
every APL, Move, Save, Wounds and weapon figure is typed in by a player. This module checks what
they type against what the text does say, and against bounds on typing that are never game figures:

- Hit, Save and Lethal's x are "x+" results of a D6 from 2+ to 6+: the text makes a 1 always
  fail and a 6 always succeed, so no other value means anything.
- Every other bound (APL 1 to 9, Move up to 30", Wounds up to 99, at most 8 weapons, ...) only
  keeps typos and hostile input out; the text gives none of these numbers.
- The 22 weapon rules are data (``weapon_rules.toml``): a profile prints them as strings
  ("Lethal 5+", "Piercing 1", 'Blast 2"'), read by ``parse_weapon_rule``.

A team is a list of operatives, each with a copy of the profile it was built from, plus the
explosive grenades the team picks (docs/killteam-readings.md, 'Grenades': two, 2 frag, 2 krak or one
of each; the text makes the equipment itself optional, so none is a choice too). The text gives no
points and no selection rules: nothing else about a team is checked. Illegal input raises
``ProfileError``, one ``Problem`` per mistake, each a sentence naming the field.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any

from rules.errors import RulesError

WEAPON_RULE_ENTRIES = 22  # the text's list of weapon rules; two are printed in two forms
MAX_NAME = 60
MAX_WEAPONS = 8
MAX_WEAPON_RULES = 12

RANGED, MELEE = "ranged", "melee"
WEAPON_KINDS = {RANGED: "ranged", MELEE: "melee"}

FigureSpec = tuple[str, int, int, str]

# (label, low, high, how a value is printed) of each profile figure. Bounds on typing only,
# except Save and Hit (see the module docstring).
PROFILE_FIGURES: dict[str, FigureSpec] = {
    "apl": ("APL", 1, 9, "{}"),
    "move": ("Move", 1, 30, '{}"'),
    "save": ("Save", 2, 6, "{}+"),
    "wounds": ("Wounds", 1, 99, "{}"),
}
WEAPON_FIGURES: dict[str, FigureSpec] = {
    "attacks": ("Attacks", 1, 20, "{}"),
    "hit": ("Hit", 2, 6, "{}+"),
    "normal_damage": ("Normal damage", 0, 99, "{}"),
    "critical_damage": ("Critical damage", 0, 99, "{}"),
}
# A weapon rule's x: (low, high, printed form).
PARAMETERS = {
    "": (0, 0, "{}"),
    "number": (1, 20, "{name} {x}"),
    "dice": (2, 6, "{name} {x}+"),
    "inches": (1, 99, '{name} {x}"'),
}
DICE_WHY = "a 1 always fails and a 6 always succeeds"


@dataclass(frozen=True)
class Problem:
    """One mistake in what was typed: ``field`` names where ("apl", "weapons.0.hit")."""

    field: str
    message: str


class ProfileError(RulesError):
    """A profile, weapon rule, grenade choice or team that cannot be kept; one problem each."""

    def __init__(self, problems: list[Problem] | tuple[Problem, ...]) -> None:
        self.problems = tuple(problems)
        super().__init__(" ".join(problem.message for problem in self.problems))


# --- Weapon rules ---------------------------------------------------------------------------


@dataclass(frozen=True)
class WeaponRuleKind:
    """One weapon rule (or one form of it, such as Piercing Crits) as the data lists it."""

    key: str
    number: int  # its place in the text's list, 1 to 22
    english: str  # the app's label (inferred: docs/killteam-readings.md, 'Weapon rule names')
    german: str  # as the text prints it; "" where its heading is stripped
    german_in: str  # "heading", "another rule", "grenades" or ""
    parameter: str  # "", "number", "dice" or "inches"
    summary: str
    example_x: int | None = None  # the x of the text's own example, where it gives one

    @property
    def takes_x(self) -> bool:
        return bool(self.parameter)

    @property
    def low(self) -> int:
        return PARAMETERS[self.parameter][0]

    @property
    def high(self) -> int:
        return PARAMETERS[self.parameter][1]

    def text(self, x: int | str | None = None) -> str:
        """The rule as a profile prints it: "Lethal 5+", "Piercing 1", 'Blast 2"', "Brutal"."""
        if not self.takes_x:
            return self.english
        return PARAMETERS[self.parameter][2].format(name=self.english, x=x)

    @property
    def label(self) -> str:
        """The rule with its x unfilled: "Lethal x+", "Range x"", "Saturate"."""
        return self.text("x") if self.takes_x else self.english

    @property
    def example(self) -> str:
        """The rule as the text's example prints it ("Lethal 5+"), else with the lowest x."""
        return self.text(self.example_x if self.example_x is not None else self.low)


def _data() -> bytes:
    return resources.files("rules.killteam").joinpath("weapon_rules.toml").read_bytes()


@cache
def data_fingerprint() -> str:
    """Which weapon-rule data a team was checked with ("killteam-" and 12 hex digits)."""
    return "killteam-" + hashlib.sha256(_data()).hexdigest()[:12]


@cache
def weapon_rules() -> tuple[WeaponRuleKind, ...]:
    """Every weapon rule and form, in the text's order (24 forms of the 22 rules)."""
    raw = _data()
    kinds = []
    for entry in tomllib.loads(raw.decode("utf-8"))["rules"]:
        for form in (entry, *entry.get("forms", ())):
            kinds.append(
                WeaponRuleKind(
                    key=form["key"],
                    number=entry["number"],
                    english=form["english"],
                    german=form["german"],
                    german_in=form["german_in"],
                    parameter=form["parameter"],
                    summary=form["summary"],
                    example_x=form.get("example"),
                )
            )
    return tuple(kinds)


@cache
def _rules_by_name() -> dict[str, WeaponRuleKind]:
    names = {}
    for kind in weapon_rules():
        names[kind.english.casefold()] = kind
        if kind.german:
            names[kind.german.casefold()] = kind
    return names


def weapon_rule_kind(key: str) -> WeaponRuleKind:
    """The weapon rule with this key ("lethal"); RulesError when there is none."""
    for kind in weapon_rules():
        if kind.key == key:
            return kind
    raise RulesError(f"There is no weapon rule “{key}” in the core rules.")


@dataclass(frozen=True)
class WeaponRule:
    """A weapon rule on a profile, with its x where it takes one, and the bracket two rules
    may carry as cards print them (docs/killteam-readings.md, 'Bracketed rule forms'):
    ``area``, Devastating's distance ('Devastating 1 (1")'), and ``only``, the one move
    action Heavy allows ("Heavy (Dash only)", the key of ``rules.killteam.actions``)."""

    kind: WeaponRuleKind
    x: int | None = None
    area: int | None = None
    only: str = ""

    @property
    def key(self) -> str:
        return self.kind.key

    @property
    def text(self) -> str:
        printed = self.kind.text(self.x)
        if self.area is not None:
            return f'{printed} ({self.area}")'
        if self.only:
            return f"{printed} ({MOVE_ACTIONS[self.only][0]} only)"
        return printed


MOVE_ACTIONS = {
    "reposition": ("Reposition", "Positionswechsel"),
    "dash": ("Dash", "Sprinten"),
    "fall_back": ("Fall Back", "Zurückziehen"),
    "charge": ("Charge", "Angreifen"),
}
"""The move actions Heavy's bracket may name, by key (as ``rules.killteam.actions``): the
app's label and the text's German."""

_BRACKET = re.compile(r"(?P<rule>.*?)\s*\((?P<inside>[^()]*)\)")
_AREA = re.compile(r"(?P<x>[0-9]{1,4})\s*(?:\"|”|''|in\.?|inch|inches|zoll)?", re.IGNORECASE)
_ONLY = re.compile(r"(?:(?P<name>[^()]+?)\s+only|only\s+(?P<after>[^()]+)|nur\s+(?P<nur>[^()]+))")


def _bracket(kind: WeaponRuleKind, inside: str) -> dict[str, Any]:
    """What a bracket after ``kind`` says, checked (RulesError with a sentence)."""
    if kind.key == "devastating":
        area = _AREA.fullmatch(inside.strip())
        if area is None:
            raise RulesError(
                f'The bracket after Devastating is a distance, like “Devastating 1 (1")”; '
                f"got “({inside})”."
            )
        low, high, _ = PARAMETERS["inches"]
        if not low <= int(area["x"]) <= high:
            raise RulesError(
                f'The distance in Devastating’s bracket must be from {low}" to {high}"; '
                f'got {area["x"]}".'
            )
        return {"area": int(area["x"])}
    if kind.key == "heavy":
        only = _ONLY.fullmatch(" ".join(inside.split()))
        name = (only["name"] or only["after"] or only["nur"]).casefold() if only else ""
        for key, names in MOVE_ACTIONS.items():
            if name in (n.casefold() for n in names):
                return {"only": key}
        moves = ", ".join(english for english, _ in MOVE_ACTIONS.values())
        raise RulesError(
            f"The bracket after Heavy names the one move action it allows, like “Heavy (Dash "
            f"only)” ({moves}); got “({inside})”."
        )
    raise RulesError(
        f'Only Devastating and Heavy take a bracket, like “Devastating 1 (1")” or “Heavy (Dash '
        f"only)”; {kind.english} does not."
    )


# "Lethal 5+", "Piercing Crits 1", 'Blast 2"', "Range 6 inches", "Tödlich 5+", "Saturate".
_RULE_TEXT = re.compile(
    r"(?P<name>[^0-9+\"”]+?)"
    r"(?:\s*(?P<x>[0-9]{1,4})\s*(?P<unit>\+|\"|”|''|in\.?|inch|inches|zoll)?)?",
    re.IGNORECASE,
)


def parse_weapon_rule(text: str) -> WeaponRule:
    """A weapon rule as a profile prints it; RulesError with a sentence when it is not one of
    the 22 (in English or the text's German) or its x is missing, extra or out of bounds.
    Devastating and Heavy may carry a bracket as cards print it: 'Devastating 1 (1")',
    "Heavy (Dash only)" (or the text's German, "Schwer (nur Sprinten)")."""
    clean = " ".join(str(text).split()) if isinstance(text, str) else ""
    bracket = _BRACKET.fullmatch(clean)
    rule = _plain_rule(bracket["rule"] if bracket else clean)
    if bracket is None:
        return rule
    return replace(rule, **_bracket(rule.kind, bracket["inside"]))


def _plain_rule(clean: str) -> WeaponRule:
    match = _RULE_TEXT.fullmatch(clean)
    kind = _rules_by_name().get(match["name"].strip().casefold()) if match else None
    if match is None or kind is None:
        raise RulesError(f"“{clean}” is not one of the core rules’ 22 weapon rules.")
    x, unit = match["x"], (match["unit"] or "").casefold()
    if not kind.takes_x:
        if x is not None:
            raise RulesError(f"{kind.english} takes no value: write just “{kind.english}”.")
        return WeaponRule(kind)
    if x is None:
        raise RulesError(f"{kind.english} needs its x, like “{kind.example}”.")
    value = int(x)
    if kind.parameter == "dice" and unit != "+":
        raise RulesError(f"{kind.english} takes a dice result such as “{kind.example}”.")
    if kind.parameter == "number" and unit:
        raise RulesError(f"{kind.english} takes a plain number, like “{kind.example}”.")
    if kind.parameter == "inches" and unit == "+":
        raise RulesError(f"{kind.english} takes a distance in inches, like “{kind.example}”.")
    return weapon_rule(kind, value)


def weapon_rule(kind: WeaponRuleKind, x: int | None = None) -> WeaponRule:
    """The rule ``kind`` with ``x``, checked (RulesError with a sentence)."""
    if not kind.takes_x:
        if x is not None:
            raise RulesError(f"{kind.english} takes no value: write just “{kind.english}”.")
        return WeaponRule(kind)
    if isinstance(x, bool) or not isinstance(x, int):
        raise RulesError(f"{kind.english} needs its x, like “{kind.example}”.")
    if not kind.low <= x <= kind.high:
        why = f" ({DICE_WHY})" if kind.parameter == "dice" else ""
        raise RulesError(
            f"The x of {kind.label} must be from {kind.text(kind.low)} to "
            f"{kind.text(kind.high)}{why}; got {kind.text(x)}."
        )
    return WeaponRule(kind, x)


# --- Profiles -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Weapon:
    name: str
    kind: str  # RANGED or MELEE
    attacks: int
    hit: int
    normal_damage: int
    critical_damage: int
    rules: tuple[WeaponRule, ...] = ()

    @property
    def rule_texts(self) -> tuple[str, ...]:
        return tuple(rule.text for rule in self.rules)


@dataclass(frozen=True)
class OperativeProfile:
    """An operative's datacard as a player typed it in."""

    name: str
    apl: int
    move: int  # inches
    save: int  # the x of "x+"
    wounds: int
    weapons: tuple[Weapon, ...] = ()


def _text(data: Mapping[str, Any], key: str, what: str, field: str, problems: list[Problem]) -> str:
    value = data.get(key)
    text = " ".join(value.split()) if isinstance(value, str) else ""
    if not text:
        problems.append(Problem(field, f"Give {what} a name."))
    elif len(text) > MAX_NAME:
        problems.append(Problem(field, f"The name of {what} can be at most {MAX_NAME} characters."))
    return text


def _figure(
    data: Mapping[str, Any],
    key: str,
    spec: FigureSpec,
    field: str,
    problems: list[Problem],
    prefix: str = "",
) -> int:
    label, low, high, printed = spec
    value = data.get(key)
    bounds = f"from {printed.format(low)} to {printed.format(high)}"
    why = f" ({DICE_WHY})" if printed.endswith("+") else ""
    if value is None or value == "":
        problems.append(Problem(field, f"{prefix}{label} is missing: type it from the datacard."))
    elif isinstance(value, bool) or not isinstance(value, int):
        problems.append(Problem(field, f"{prefix}{label} must be a whole number {bounds}."))
    elif not low <= value <= high:
        problems.append(
            Problem(field, f"{prefix}{label} must be {bounds}{why}; got {printed.format(value)}.")
        )
    else:
        return value
    return 0


def _weapon(data: Any, index: int, problems: list[Problem]) -> Weapon:
    field = f"weapons.{index}"
    if not isinstance(data, Mapping):
        problems.append(Problem(field, f"Weapon {index + 1} is not a weapon profile."))
        return Weapon("", RANGED, 0, 0, 0, 0)
    name = _text(data, "name", f"weapon {index + 1}", f"{field}.name", problems)
    prefix = f"{name or f'Weapon {index + 1}'}: "
    kind = data.get("kind")
    if kind not in WEAPON_KINDS:
        problems.append(Problem(f"{field}.kind", f"{prefix}say whether it is ranged or melee."))
    figures = {
        key: _figure(data, key, spec, f"{field}.{key}", problems, prefix)
        for key, spec in WEAPON_FIGURES.items()
    }
    rules = _weapon_rules(data.get("rules", ()), f"{field}.rules", prefix, problems)
    return Weapon(name, kind if kind in WEAPON_KINDS else RANGED, rules=rules, **figures)


def _weapon_rules(
    texts: Any, field: str, prefix: str, problems: list[Problem]
) -> tuple[WeaponRule, ...]:
    if isinstance(texts, str) or not isinstance(texts, list | tuple):
        problems.append(Problem(field, f"{prefix}the weapon rules must be a list."))
        return ()
    if len(texts) > MAX_WEAPON_RULES:
        problems.append(Problem(field, f"{prefix}at most {MAX_WEAPON_RULES} weapon rules."))
        return ()
    rules: list[WeaponRule] = []
    for text in texts:
        try:
            rule = parse_weapon_rule(text)
        except RulesError as error:
            problems.append(Problem(field, f"{prefix}{error}"))
            continue
        if any(other.key == rule.key for other in rules):
            problems.append(Problem(field, f"{prefix}{rule.kind.english} is listed twice."))
            continue
        rules.append(rule)
    return tuple(rules)


def read_profile(data: Any) -> OperativeProfile:
    """A profile from its stored (or typed, or imported) form, checked whole: ProfileError
    lists every problem, each naming its field."""
    if not isinstance(data, Mapping):
        raise ProfileError([Problem("", "This is not an operative profile.")])
    problems: list[Problem] = []
    name = _text(data, "name", "the profile", "name", problems)
    figures = {
        key: _figure(data, key, spec, key, problems) for key, spec in PROFILE_FIGURES.items()
    }
    raw_weapons = data.get("weapons", ())
    weapons: tuple[Weapon, ...] = ()
    if isinstance(raw_weapons, str) or not isinstance(raw_weapons, list | tuple):
        problems.append(Problem("weapons", "The weapons must be a list."))
    elif len(raw_weapons) > MAX_WEAPONS:
        problems.append(Problem("weapons", f"A profile holds at most {MAX_WEAPONS} weapons."))
    else:
        weapons = tuple(_weapon(w, i, problems) for i, w in enumerate(raw_weapons))
    if problems:
        raise ProfileError(problems)
    return OperativeProfile(name=name, weapons=weapons, **figures)


def weapon_to_dict(weapon: Weapon) -> dict[str, Any]:
    return {
        "name": weapon.name,
        "kind": weapon.kind,
        "attacks": weapon.attacks,
        "hit": weapon.hit,
        "normal_damage": weapon.normal_damage,
        "critical_damage": weapon.critical_damage,
        "rules": list(weapon.rule_texts),
    }


def profile_to_dict(profile: OperativeProfile) -> dict[str, Any]:
    """The stored form ``read_profile`` reads back (rules as printed: "Lethal 5+")."""
    return {
        "name": profile.name,
        "apl": profile.apl,
        "move": profile.move,
        "save": profile.save,
        "wounds": profile.wounds,
        "weapons": [weapon_to_dict(weapon) for weapon in profile.weapons],
    }


__all__ = [
    "MAX_WEAPONS",
    "MAX_WEAPON_RULES",
    "MELEE",
    "MOVE_ACTIONS",
    "RANGED",
    "WEAPON_RULE_ENTRIES",
    "OperativeProfile",
    "Problem",
    "ProfileError",
    "Weapon",
    "WeaponRule",
    "WeaponRuleKind",
    "data_fingerprint",
    "parse_weapon_rule",
    "profile_to_dict",
    "read_profile",
    "weapon_rule",
    "weapon_rule_kind",
    "weapon_rules",
]
