"""What the mecha rules text gives, only mentions and does not give, and how Blitz reads it: the
page "What these rules give", in Blitz's own words (docs/mecha-readings.md says more)."""

from __future__ import annotations

from typing import NamedTuple


class Topic(NamedTuple):
    topic: str
    gives: str
    mentions: str
    missing: str


NONE = "—"

TOPICS = [
    Topic(
        "Attacks",
        "Range, Melee and Ram: what each needs, which attack value, ram damage and push",
        NONE,
        NONE,
    ),
    Topic(
        "Hit roll",
        NONE,
        "“the rules for making attacks” (they never come)",
        "any hit roll or hit chance",
    ),
    Topic(
        "Damage",
        "the dice of each weapon; unarmed and ram damage",
        "Armour",
        "hit points, a damage track, what Armour does",
    ),
    Topic(
        "Unit figures",
        "two hands for Mobile Suits and Infantry",
        "Range Attack, Melee Attack, Strength, Armour, Size Class",
        "any unit profile; Action Counters per unit",
    ),
    Topic(
        "Weapons",
        "their stats, eight Types, seven ways to carry (Fix), two ways to combine (Link)",
        "a “Special Ability” chapter",
        "any weapon profile",
    ),
    Topic(
        "Skills, abilities",
        NONE,
        "“Weapons Specialist”, “Heavy Fire”, “Stable Platform”",
        "their rules",
    ),
    Topic(
        "Penalties",
        "Heavy Range after moving: −4 Range Attack",
        "“a heavy penalty”, “a penalty” (one-handed use)",
        "their size",
    ),
    Topic(
        "Turn",
        "First Move Phase declarations; once-a-turn limits",
        "the Charge Move action, move actions",
        "the turn sequence",
    ),
    Topic(
        "Levels",
        "line of sight by Size Class and level",
        "the “High Sky level”, elevated terrain",
        "other levels, heights",
    ),
    Topic("Costs", NONE, "“there for cost reasons”", "any cost or points"),
    Topic("Unit kinds", NONE, "Infantry, SRACU/SCARU, Mobile Suit", "what they are"),
]

READINGS = [
    (
        "Ram: the rammer's own damage",
        "The sentence can be read two ways, and the text does not decide: half the damage dealt "
        "(rounded down) plus the target's Armour, or half of the damage and the Armour together; "
        "and either for every ram, or only for a ram with a Rammers or Long Melee weapon. The "
        "players pick per match; Blitz shows both.",
    ),
    (
        "Ram: what it needs",
        "A Charge Move this turn, the target in the Front arc, one ram a turn. Damage to the "
        "target: Strength × D6, or the Rammers or Long Melee weapon's damage. Push: the attacker's "
        "Strength minus the target's Size Class, at least 0 (inches, inferred).",
    ),
    (
        "Hands",
        "Mobile Suits and Infantry have two hands unless the card says otherwise; other units' "
        "hands are typed in. Hand-held weapons (1 Handed, 2 Handed, 1/2 Handed) need a SRACU, "
        "Infantry or a unit with arms. A 2 Handed or 1/2 Handed weapon used in one hand has a "
        "penalty the text does not give. Two 1/2 Handed weapons are never used at once.",
    ),
    (
        "Range 0 and Melee",
        "A Melee weapon has Range 0; a weapon with Range 0 cannot make range based attacks.",
    ),
    (
        "X Arc",
        "The text says eight locations but names seven (“Rear” twice); Blitz adds “Rear Right” and "
        "marks it inferred.",
    ),
    ("SRACU and SCARU", "Each name appears once; Blitz reads them as one kind of unit."),
    (
        "Combined weapons",
        "An Attached set is a Weapon Main and a Weapon Add-On, only one of them used a turn. A "
        "Link set is two or more weapons firing together as one action costing 2.",
    ),
    (
        "Heavy Range and Artillery",
        "Once a turn; no move after; −4 Range Attack after moving unless Heavy Fire or Stable "
        "Platform, which “changes this” (how is not given: the players enter it). Artillery gets "
        "no Heavy Fire benefit.",
    ),
]
