"""A weapon's rules as the dice read them: which of the 22 change the odds, and how.

Every weapon rule is parsed (``profile.parse_weapon_rule``: an unknown or malformed one raises
RulesError with a sentence) and falls in one of four groups, each said in words beside the odds:

- ``ODDS``: changes which attack dice succeed, how they are blocked or what they deal; the
  odds model it under the policies of docs/killteam-readings.md (re-rolls of failed dice only,
  'Re-rolls'; "Attacker's helpful choices").
- ``FIGHT``: matters only when fighting (Shock); the fight odds model it.
- ``BOARD``: happens after the dice or over the battle (Hot, Limited, Stun, Silent); the board
  tracks it, and Hot has its own distribution (``hot_damage_distribution``).
- ``TABLE``: judged at the table and asked, never guessed ('Judged at the table'): who is a
  valid target, who else a Blast or Torrent hits (each target its own Shoot sequence:
  'Blast and Torrent'), range, moving with a Heavy weapon.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rules.errors import RulesError
from rules.killteam.data import core_numbers
from rules.killteam.profile import (
    MELEE,
    RANGED,
    Weapon,
    WeaponRule,
    parse_weapon_rule,
    weapon_rules,
)
from rules.killteam.wounds import injured_hit

ODDS, FIGHT, BOARD, TABLE = "odds", "fight", "board", "table"

HANDLING: dict[str, tuple[str, str]] = {
    "accurate": (ODDS, "the odds keep x dice as normal successes unrolled and roll the rest"),
    "balanced": (ODDS, "the odds re-roll one failed attack die"),
    "blast": (TABLE, "each other target is its own Shoot sequence; the table says who"),
    "brutal": (ODDS, "the opponent blocks with critical successes only"),
    "ceaseless": (ODDS, "the odds re-roll the failed dice of the failed result most dice show"),
    "devastating": (ODDS, "each kept critical deals x at once and still counts when blocking"),
    "heavy": (TABLE, "whether the operative moved is the table's; the board warns"),
    "hot": (BOARD, "after the attack the user rolls a D6 for damage to itself"),
    "lethal": (ODDS, "successes of x+ are critical"),
    "limited": (BOARD, "the board counts its uses"),
    "piercing": (ODDS, "the defender rolls x fewer defence dice"),
    "piercing_crits": (ODDS, "with a critical kept, the defender rolls x fewer defence dice"),
    "punishing": (ODDS, "with a critical kept, one failed die counts as a normal success"),
    "range": (TABLE, "who is in range is the table's"),
    "relentless": (ODDS, "the odds re-roll every failed attack die"),
    "rending": (ODDS, "with a critical kept, one normal success becomes critical"),
    "saturate": (ODDS, "no cover save"),
    "seek": (TABLE, "which targets may be chosen is the table's; their cover save stays"),
    "seek_light": (TABLE, "which targets may be chosen is the table's; their cover save stays"),
    "severe": (ODDS, "with no critical kept, one normal success becomes critical"),
    "shock": (FIGHT, "in a fight, the first critical strike also discards an enemy success"),
    "silent": (BOARD, "may Shoot on a Conceal order; the board does not warn"),
    "stun": (BOARD, "with a critical kept, the target's APL is 1 lower; the board records it"),
    "torrent": (TABLE, "each other target is its own Shoot sequence; the table says who"),
}


def handling(key: str) -> tuple[str, str]:
    """(group, sentence) for the weapon rule ``key``: how Blitz treats it."""
    return HANDLING[key]


@dataclass(frozen=True)
class AttackRules:
    """The weapon rules of one weapon, read for the dice. ``rules`` keeps every rule parsed."""

    rules: tuple[WeaponRule, ...] = ()
    accurate: int = 0
    balanced: bool = False
    brutal: bool = False
    ceaseless: bool = False
    devastating: int = 0
    lethal: int | None = None
    piercing: int = 0
    piercing_crits: int = 0
    punishing: bool = False
    relentless: bool = False
    rending: bool = False
    saturate: bool = False
    severe: bool = False
    shock: bool = False
    stun: bool = False
    hot: bool = False
    silent: bool = False
    heavy: bool = False
    limited: int | None = None
    keys: frozenset[str] = field(default=frozenset())

    def has(self, key: str) -> bool:
        return key in self.keys

    def sentences(self, *groups: str) -> tuple[str, ...]:
        """ "Lethal 5+: successes of 5+ are critical" (the rule's x filled in), for the rules in
        ``groups`` (all if none)."""
        return tuple(
            f"{rule.text}: {_with_x(HANDLING[rule.key][1], rule.x)}"
            for rule in self.rules
            if not groups or HANDLING[rule.key][0] in groups
        )

    def readings(self) -> tuple[str, ...]:
        """Where the text is silent about two of these rules together, Blitz's choice in words
        (docs/killteam-readings.md, 'Piercing and Piercing Crits', 'Balanced and Command
        Re-roll')."""
        lines = []
        if self.piercing and self.piercing_crits:
            lines.append(
                f"Piercing {self.piercing} and Piercing Crits {self.piercing_crits} on one weapon: "
                f"with a critical kept the defender rolls {self.piercing + self.piercing_crits} "
                "fewer (the text does not say; Blitz adds them)"
            )
        if self.balanced:
            lines.append(
                "Balanced with the Command Re-roll ploy: the ploy may re-roll the die Balanced "
                "re-rolled (the text does not forbid it)"
            )
        return tuple(lines)


def _with_x(sentence: str, x: int | None) -> str:
    """A rule's summary with its x filled in ("rolls x fewer" -> "rolls 1 fewer")."""
    return sentence if x is None else re.sub(r"\bx\b", str(x), sentence)


_NUMBERS = {"accurate", "devastating", "piercing", "piercing_crits", "limited"}
_FLAGS = {
    "balanced",
    "brutal",
    "ceaseless",
    "punishing",
    "relentless",
    "rending",
    "saturate",
    "severe",
    "shock",
    "stun",
    "hot",
    "silent",
    "heavy",
}


def read_weapon_rules(rules: Iterable[str | WeaponRule] = ()) -> AttackRules:
    """The rules as printed on a profile ("Lethal 5+", "Piercing 1", "Saturate"), read for the
    dice; an unknown, malformed or repeated rule raises RulesError with a sentence."""
    if isinstance(rules, str | bytes):
        raise RulesError(
            f"Weapon rules are a list such as ['Lethal 5+', 'Saturate']; got {rules!r}."
        )
    try:
        items = list(rules)
    except TypeError:
        raise RulesError(
            f"Weapon rules are a list such as ['Lethal 5+', 'Saturate']; got {rules!r}."
        ) from None
    parsed: list[WeaponRule] = []
    for item in items:
        rule = item if isinstance(item, WeaponRule) else parse_weapon_rule(item)
        if any(other.key == rule.key for other in parsed):
            raise RulesError(f"{rule.kind.english} is listed twice on one weapon.")
        parsed.append(rule)
    values: dict[str, Any] = {}
    for rule in parsed:
        if rule.key in _NUMBERS:
            values[rule.key] = rule.x
        elif rule.key in _FLAGS:
            values[rule.key] = True
        elif rule.key == "lethal":
            values["lethal"] = rule.x
    return AttackRules(rules=tuple(parsed), keys=frozenset(r.key for r in parsed), **values)


def weapon_from_dict(data: Mapping[str, Any]) -> Weapon:
    """A weapon from its stored form (``profile.weapon_to_dict``: rules as printed); a rule
    that is not one raises RulesError."""
    kind = data["kind"]
    if kind not in (RANGED, MELEE):
        raise RulesError(f"A weapon is ranged or melee; got {kind!r}.")
    return Weapon(
        name=data["name"],
        kind=kind,
        attacks=data["attacks"],
        hit=data["hit"],
        normal_damage=data["normal_damage"],
        critical_damage=data["critical_damage"],
        rules=tuple(parse_weapon_rule(text) for text in data["rules"]),
    )


def modelled_rules() -> dict[str, tuple[str, ...]]:
    """The weapon rules by how Blitz treats them: {"odds": ("accurate", ...), ...}."""
    groups: dict[str, list[str]] = {ODDS: [], FIGHT: [], BOARD: [], TABLE: []}
    for kind in weapon_rules():
        groups[HANDLING[kind.key][0]].append(kind.key)
    return {group: tuple(keys) for group, keys in groups.items()}


@dataclass(frozen=True)
class DieFaces:
    """How one attack die of a weapon reads: the faces that fail, are normal, are critical.

    A 1 always fails and a 6 is always a critical success; a face from the Hit up succeeds, and
    with Lethal x+ a success of x or more is critical."""

    hit: int
    critical_from: int

    @property
    def fail(self) -> int:
        return min(self.hit, 6) - 1

    @property
    def critical(self) -> int:
        return 7 - self.critical_from

    @property
    def normal(self) -> int:
        return 6 - self.fail - self.critical

    def read(self, face: int) -> str:
        if face == 6:
            return "critical"
        if face < self.hit:
            return "fail"
        return "critical" if face >= self.critical_from else "normal"


def attack_faces(hit: int, rules: AttackRules, injured: bool = False) -> DieFaces:
    """The faces of an attack die: ``hit`` is the "x+" of the profile, worsened by one when the
    attacker is injured (a 6+ then succeeds on a 6 only)."""
    effective = injured_hit(hit) if injured else hit
    critical_from = max(effective, rules.lethal or 6)
    return DieFaces(hit=effective, critical_from=min(critical_from, 6))


def defence_faces(save: int) -> DieFaces:
    """The faces of a defence die against a Save of ``save`` (the "x+")."""
    return DieFaces(hit=save, critical_from=6)


def hot_damage(hit: int, die: int, injured: bool = False) -> int:
    """Damage a Hot weapon's user takes from the D6 rolled after using it: twice the roll when
    it is below the weapon's Hit (an injured user's Hit is one worse: docs/killteam-readings.md,
    'Hot'), else none. Once per action, however many targets (Blast, Torrent)."""
    if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
        raise RulesError(f"The Hot roll is a D6: 1 to 6; got {die!r}.")
    effective = injured_hit(hit) if injured else hit
    return core_numbers().hot_damage_per_pip * die if die < effective else 0


def hot_damage_distribution(hit: int, injured: bool = False) -> dict[int, Fraction]:
    """Damage a Hot weapon's user takes after using it (``hot_damage`` of each face of the D6).
    Exact chances, 0 first."""
    chances: dict[int, Fraction] = {}
    for face in range(1, 7):
        damage = hot_damage(hit, face, injured)
        chances[damage] = chances.get(damage, Fraction(0)) + Fraction(1, 6)
    return dict(sorted(chances.items()))
