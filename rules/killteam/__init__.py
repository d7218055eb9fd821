"""Kill Team (2024) rules: pure Python, stdlib only (shared/rules/killteam/NOTES.md)."""

from rules.killteam.profile import (
    Grenades,
    Operative,
    OperativeProfile,
    Problem,
    ProfileError,
    Team,
    Weapon,
    WeaponRule,
    WeaponRuleKind,
    grenade_choices,
    parse_weapon_rule,
    profile_to_dict,
    read_profile,
    read_team,
    team_to_dict,
    weapon_rules,
)

__all__ = [
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
