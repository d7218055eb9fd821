"""The attack helper's rules: every modifier with where it comes from, exact odds, resolution.

Direct fire (quickstart, "Actions and Attacking", "Attack Modifiers", "Cover", "Defense
Modifiers"), Rate of Fire (Spray and Concentrated Fire), Area Effect, and the perks Autopilot,
Reinforced Arc and Weak Facing. Indirect fire and hand grenades are in ``indirect``,
Forward Observation and ECM in ``observation``, Reaction Fire in ``reaction``, the optional
designation house rule in ``house_rule``.

An attack is described by two plain values: an ``Attacker`` (the shooting model and its weapon)
and a ``Target`` (the model attacked, with the range band, cover and facing the attack comes in
on). A figure the data does not give is ``None``: the functions never guess it, they raise
``MissingInputs`` naming each figure in a sentence the helper can ask. ``missing_inputs`` lists
them without raising. A figure the player typed in is recorded with ``answered`` so that the
modifier list can say "typed in" instead of "from the datacard".

The package, by reason to change: ``inputs`` (range bands, cover, modifiers, the attacker and the
target), ``questions`` (what must be asked), ``modifiers`` (every modifier, Rate of Fire, blast
areas), ``tables`` (the exact counts behind the odds), ``summary`` (one direct attack's odds),
``multi_target`` (one attack against several models), ``resolve`` (rolled direct attacks),
``indirect``, ``observation`` (Forward Observation and ECM), ``house_rule`` and ``reaction``.
Callers import from ``rules.hgb.attack``.
"""

from rules.hgb.attack.house_rule import (
    DESIGNATION_HOUSE_RULE,
    HOUSE_RULE_DESIGNATION_THRESHOLD,
    HouseRule,
    HouseRuleDesignation,
    HouseRuleDesignationResult,
    house_rule_designation_modifiers,
    house_rule_designation_odds,
    house_rule_designation_questions,
    resolve_house_rule_designation,
)
from rules.hgb.attack.indirect import (
    HAND_GRENADES,
    INDIRECT_THRESHOLD,
    SCATTER_STEP_DEGREES,
    GrenadeRange,
    IndirectResult,
    IndirectSummary,
    Scatter,
    grenade_range,
    grenade_reach,
    grenade_reach_words,
    indirect_defense_summary,
    indirect_modifiers,
    indirect_questions,
    indirect_summary,
    resolve_indirect,
    resolve_indirect_defense,
    scatter,
)
from rules.hgb.attack.inputs import (
    AUTOPILOT_DEFENSE_DICE,
    DEFAULT_EW,
    DEFAULT_SKILL,
    FROM_THE_DATACARD,
    REAR_ARC_MODIFIER,
    TYPED_IN,
    Attacker,
    Cover,
    MissingInput,
    MissingInputs,
    Modifier,
    RangeBand,
    Target,
    attack_skill,
    ew_skill,
    limited_ammo_counter,
    signed,
    total,
)
from rules.hgb.attack.modifiers import (
    BlastArea,
    armor_parts,
    attack_modifiers,
    attacker_roll_modifiers,
    attacks_this_round,
    blast_area,
    damage_multiplier_parts,
    defense_modifiers,
    mos_modifiers,
    rate_of_fire_warnings,
)
from rules.hgb.attack.multi_target import (
    MultiTargetSummary,
    multi_target_summary,
)
from rules.hgb.attack.observation import (
    EcmContest,
    EcmOdds,
    EcmResult,
    ForwardObservation,
    ecm_modifiers,
    ecm_odds,
    resolve_ecm,
)
from rules.hgb.attack.questions import (
    missing_inputs,
)
from rules.hgb.attack.reaction import (
    ReactionWindow,
)
from rules.hgb.attack.resolve import (
    ResolvedAttack,
    RollEntry,
    read_result,
    resolve_direct,
    resolve_multi_target,
)
from rules.hgb.attack.summary import (
    AttackSummary,
    attack_summary,
)

__all__ = [
    "DEFAULT_EW",
    "DEFAULT_SKILL",
    "attack_skill",
    "ew_skill",
    "limited_ammo_counter",
    "signed",
    "AUTOPILOT_DEFENSE_DICE",
    "AttackSummary",
    "Attacker",
    "BlastArea",
    "Cover",
    "DESIGNATION_HOUSE_RULE",
    "EcmContest",
    "EcmOdds",
    "EcmResult",
    "FROM_THE_DATACARD",
    "ForwardObservation",
    "GrenadeRange",
    "HAND_GRENADES",
    "HOUSE_RULE_DESIGNATION_THRESHOLD",
    "HouseRule",
    "HouseRuleDesignation",
    "HouseRuleDesignationResult",
    "INDIRECT_THRESHOLD",
    "IndirectResult",
    "IndirectSummary",
    "MissingInput",
    "MissingInputs",
    "Modifier",
    "MultiTargetSummary",
    "REAR_ARC_MODIFIER",
    "RangeBand",
    "ReactionWindow",
    "ResolvedAttack",
    "RollEntry",
    "SCATTER_STEP_DEGREES",
    "Scatter",
    "TYPED_IN",
    "Target",
    "armor_parts",
    "attack_modifiers",
    "attack_summary",
    "attacker_roll_modifiers",
    "attacks_this_round",
    "blast_area",
    "damage_multiplier_parts",
    "defense_modifiers",
    "ecm_modifiers",
    "ecm_odds",
    "grenade_range",
    "grenade_reach",
    "grenade_reach_words",
    "house_rule_designation_modifiers",
    "house_rule_designation_odds",
    "house_rule_designation_questions",
    "indirect_defense_summary",
    "indirect_modifiers",
    "indirect_questions",
    "indirect_summary",
    "missing_inputs",
    "mos_modifiers",
    "multi_target_summary",
    "rate_of_fire_warnings",
    "read_result",
    "resolve_direct",
    "resolve_ecm",
    "resolve_house_rule_designation",
    "resolve_indirect",
    "resolve_indirect_defense",
    "resolve_multi_target",
    "scatter",
    "total",
]
