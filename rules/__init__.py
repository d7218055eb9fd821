"""Heavy Gear Blitz! Locked & Loaded rules: pure Python, stdlib only."""

from rules.damage import (
    AttackOutcome,
    AttackResult,
    BoxKind,
    DamageState,
    DamageTrack,
    damage_outcome,
    margin_of_success,
    resolve_attack,
)
from rules.dice import Roll, apply_modifier, read_roll, roll, roll_distribution
from rules.errors import RulesError
from rules.odds import (
    attack_odds,
    expected_boxes,
    hit_chance,
    kill_chance,
    opposed_margin_distribution,
)

__all__ = [
    "AttackOutcome",
    "AttackResult",
    "BoxKind",
    "DamageState",
    "DamageTrack",
    "Roll",
    "RulesError",
    "apply_modifier",
    "attack_odds",
    "damage_outcome",
    "expected_boxes",
    "hit_chance",
    "kill_chance",
    "margin_of_success",
    "opposed_margin_distribution",
    "read_roll",
    "resolve_attack",
    "roll",
    "roll_distribution",
]
