"""Kill Team (2024) rules: pure Python, stdlib only, read as docs/killteam-readings.md says."""

from rules.errors import RulesError
from rules.eventlog import Event, EventError, LogEntry, Stale, Step, UnknownId
from rules.killteam.actions import (
    TABLE_CHECKS,
    action_key,
    another_target_likely,
    grenades_used_up,
    several_targets,
)
from rules.killteam.changes import label
from rules.killteam.command import (
    COMMAND_REROLL,
    PLOY_COST,
    STARTING_CP,
    command_points_gained,
)
from rules.killteam.dice import KeptDice
from rules.killteam.equipment import (
    Equipment,
    Grenade,
    equipment,
    grenade_weapon,
    mine_damage,
    mine_damage_distribution,
    stun_test,
    stun_test_chance,
)
from rules.killteam.fight import (
    ODDS_POLICY,
    Fight,
    FightChoice,
    FightOdds,
    fight_choices,
    fight_choose,
    fight_odds,
    fight_policy,
    start_fight,
)
from rules.killteam.log import plan_undo, plan_undo_from, replay, rewind
from rules.killteam.melee import (
    acting_side,
    check_fight,
    fight_attackers,
    fight_event,
    fight_targets,
    melee_weapons,
)
from rules.killteam.names import numbered_names
from rules.killteam.play import make_event, read_event, step
from rules.killteam.profile import (
    OperativeProfile,
    Problem,
    ProfileError,
    Weapon,
    WeaponRule,
    WeaponRuleKind,
    parse_weapon_rule,
    profile_to_dict,
    read_profile,
    weapon_rules,
)
from rules.killteam.shoot import (
    SHOOT_POLICY,
    AttackProfile,
    Blocks,
    ShootResult,
    attack_profile,
    block_options,
    incapacitate_chance,
    injure_chance,
    odds_policy,
    profile_of,
    read_attack,
    read_defence,
    resolve_shoot,
    shoot_damage_distribution,
)
from rules.killteam.state import (
    BattleOperative,
    BattleSide,
    KillTeamState,
    OperativeSpec,
    Phase,
    SideSpec,
    all_expended,
    new_battle,
    side_from_team,
    whose_turn,
)
from rules.killteam.storage import (
    apply_parts,
    changed_parts,
    state_from_dict,
    state_parts,
    state_to_dict,
)
from rules.killteam.team import Grenades, Operative, Team, grenade_choices, read_team, team_to_dict
from rules.killteam.weapons import (
    AttackRules,
    hot_damage,
    hot_damage_distribution,
    modelled_rules,
    read_weapon_rules,
    weapon_from_dict,
)
from rules.killteam.wounds import WoundState, wound_state

__all__ = [
    "COMMAND_REROLL",
    "ODDS_POLICY",
    "PLOY_COST",
    "SHOOT_POLICY",
    "STARTING_CP",
    "TABLE_CHECKS",
    "AttackProfile",
    "AttackRules",
    "BattleOperative",
    "BattleSide",
    "Blocks",
    "Equipment",
    "Event",
    "EventError",
    "Fight",
    "FightChoice",
    "FightOdds",
    "Grenade",
    "KeptDice",
    "KillTeamState",
    "LogEntry",
    "OperativeSpec",
    "Phase",
    "RulesError",
    "ShootResult",
    "SideSpec",
    "Stale",
    "Step",
    "UnknownId",
    "WoundState",
    "all_expended",
    "action_key",
    "another_target_likely",
    "grenades_used_up",
    "apply_parts",
    "attack_profile",
    "clear_caches",
    "block_options",
    "changed_parts",
    "command_points_gained",
    "equipment",
    "fight_choices",
    "fight_choose",
    "fight_odds",
    "fight_policy",
    "acting_side",
    "check_fight",
    "fight_attackers",
    "fight_event",
    "fight_targets",
    "melee_weapons",
    "grenade_weapon",
    "hot_damage",
    "hot_damage_distribution",
    "incapacitate_chance",
    "injure_chance",
    "label",
    "numbered_names",
    "make_event",
    "mine_damage",
    "mine_damage_distribution",
    "modelled_rules",
    "new_battle",
    "odds_policy",
    "plan_undo",
    "plan_undo_from",
    "profile_of",
    "read_attack",
    "read_defence",
    "read_event",
    "read_weapon_rules",
    "weapon_from_dict",
    "replay",
    "resolve_shoot",
    "rewind",
    "several_targets",
    "shoot_damage_distribution",
    "side_from_team",
    "start_fight",
    "state_from_dict",
    "state_parts",
    "state_to_dict",
    "step",
    "stun_test",
    "stun_test_chance",
    "whose_turn",
    "wound_state",
    "Grenades",
    "Operative",
    "OperativeProfile",
    "Problem",
    "ProfileError",
    "Team",
    "Weapon",
    "WeaponRule",
    "WeaponRuleKind",
    "grenade_choices",
    "parse_weapon_rule",
    "profile_to_dict",
    "read_profile",
    "read_team",
    "team_to_dict",
    "weapon_rules",
]


def clear_caches() -> None:
    """Forget every cached Kill Team distribution (for benchmarks; answers never change). The
    data files stay loaded."""
    from rules import exact
    from rules.killteam import dice, fight, shoot

    for module in (exact, dice, shoot, fight):
        module.clear_caches()
