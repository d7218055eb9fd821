"""Every modifier of a direct attack with where it comes from; Rate of Fire and blast areas.

Quickstart: "Attack Modifiers", "Cover", "Defense Modifiers", Rate of Fire (Spray and
Concentrated Fire), Area Effect, and the perks Autopilot, Reinforced Arc and Weak Facing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.checks import check_flag, check_whole
from rules.errors import RulesError
from rules.hgb.attack.inputs import (
    REAR_ARC_MODIFIER,
    Attacker,
    MissingInputs,
    Modifier,
    RangeBand,
    Target,
    figure_origin,
    penalty_modifier,
    possessive,
)
from rules.hgb.attack.questions import (
    attacker_questions,
    check_attacker,
    check_targets,
    raise_if_missing,
    roll_questions,
    target_questions,
)
from rules.hgb.damage import (
    WEAK_FACING_BONUS,
)


def attacker_roll_modifiers(attacker: Attacker) -> tuple[Modifier, ...]:
    """The attacker's own modifiers: movement, weapon accuracy, damage penalty (if any).

    Raises ``MissingInputs`` if the movement modifier or the accuracy is not known.
    """
    check_attacker(attacker)
    raise_if_missing(roll_questions(attacker))
    assert attacker.movement_modifier is not None and attacker.accuracy is not None
    modifiers = [
        Modifier(
            attacker.movement_modifier,
            f"{possessive(attacker.subject)} movement modifier "
            f"({figure_origin(attacker, 'movement_modifier')})",
        ),
        Modifier(
            attacker.accuracy,
            f"{attacker.weapon or 'Weapon'} accuracy ({figure_origin(attacker, 'accuracy')})",
        ),
    ]
    penalty = penalty_modifier(attacker.state, attacker.subject)
    if penalty:
        modifiers.append(penalty)
    return tuple(modifiers)


def defense_modifiers(target: Target) -> tuple[Modifier, ...]:
    """The defender's modifiers: movement, rear arc (if), damage penalty (if).

    Raises ``MissingInputs`` if the defender's movement modifier is not known.
    """
    if not isinstance(target, Target):
        raise RulesError(f"The target must be a Target; got {target!r}.")
    if target.movement_modifier is None:
        raise MissingInputs(target_questions(target, 0, damage=False, direct=False))
    modifiers = [
        Modifier(
            target.movement_modifier,
            f"{possessive(target.subject)} movement modifier "
            f"({figure_origin(target, 'movement_modifier')})",
        )
    ]
    if target.rear_arc:
        modifiers.append(Modifier(REAR_ARC_MODIFIER, "Attacked from the rear arc"))
    penalty = penalty_modifier(target.state, target.subject)
    if penalty:
        modifiers.append(penalty)
    return tuple(modifiers)


def attack_modifiers(
    attacker: Attacker, target: Target
) -> tuple[tuple[Modifier, ...], tuple[Modifier, ...]]:
    """(modifiers to the attack roll, modifiers to the defense roll) of a direct attack.

    Attack: range band, cover seen from the attacker, the attacker's movement modifier, weapon
    accuracy, the attacker's damage penalty. Defense: the defender's movement modifier, rear arc,
    the defender's damage penalty. Raises ``MissingInputs`` naming every missing figure.
    """
    check_attacker(attacker)
    (target,) = check_targets((target,))
    missing = roll_questions(attacker)
    missing += target_questions(target, 0, damage=False, direct=True)
    raise_if_missing(missing)
    assert target.range_band is not None and target.cover is not None
    attack = (
        Modifier(target.range_band.modifier, target.range_band.source),
        Modifier(target.cover.modifier, target.cover.label),
        *attacker_roll_modifiers(attacker),
    )
    return attack, defense_modifiers(target)


def mos_modifiers(target: Target) -> tuple[Modifier, ...]:
    """The Weak Facing bonus to the MoS, when the attack comes from that facing."""
    if target.weak_facing:
        return (
            Modifier(
                WEAK_FACING_BONUS,
                "Weak Facing: +2 MoS on a successful attack, and a tie (MoF 0) succeeds",
            ),
        )
    return ()


def damage_multiplier_parts(attacker: Attacker) -> tuple[Modifier, ...]:
    """The weapon's DM, and +1 per Concentrated Fire point. Raises if the DM is not known."""
    if attacker.damage_multiplier is None:
        raise MissingInputs(
            [
                item
                for item in attacker_questions(attacker, damage=True)
                if item.field == "damage_multiplier"
            ]
        )
    parts = [
        Modifier(
            attacker.damage_multiplier,
            f"{attacker.weapon or 'Weapon'} Damage Multiplier "
            f"({figure_origin(attacker, 'damage_multiplier')})",
        )
    ]
    if attacker.concentrated:
        points = "point" if attacker.concentrated == 1 else "points"
        parts.append(
            Modifier(
                attacker.concentrated,
                f"Concentrated Fire: {attacker.concentrated} RoF {points}, +1 DM each",
            )
        )
    return tuple(parts)


def armor_parts(target: Target) -> tuple[Modifier, ...]:
    """The target's Armor, and a Reinforced Arc's value. Raises if the Armor is not known."""
    if target.armor is None:
        raise MissingInputs(
            [
                item
                for item in target_questions(target, 0, damage=True, direct=False)
                if item.field == "armor"
            ]
        )
    parts = [
        Modifier(
            target.armor, f"{possessive(target.subject)} Armor ({figure_origin(target, 'armor')})"
        )
    ]
    if target.reinforced_arc:
        parts.append(
            Modifier(
                target.reinforced_arc,
                f"Reinforced Arc: +{target.reinforced_arc} Armor against attacks from that arc",
            )
        )
    return tuple(parts)


# --- Rate of Fire and blast areas ----------------------------------------------------------------


def check_rate_of_fire(attacker: Attacker, main_target: Target) -> None:
    if attacker.rof_points and main_target.range_band is RangeBand.EXTREME:
        raise RulesError(
            "RoF can't be used at Extreme range: only against targets at Long range or closer."
        )


def rate_of_fire_warnings(
    rof_points: int, targets: Iterable[tuple[str, RangeBand | None]]
) -> list[str]:
    """A sentence for every model attacked with RoF points from beyond Long range.

    "RoF may only be used on attacks against targets in the weapon's long range band or closer":
    every target counts, not only the main one (a Spray Fire area can reach a model further off).
    ``targets`` are (name, range band); a band not given is not checked.
    """
    if not rof_points:
        return []
    return [
        f"{name} is at Extreme range: RoF may only be used on attacks against targets at Long "
        "range or closer."
        for name, band in targets
        if band is not None and not band.allows_rate_of_fire
    ]


def check_several_targets(attacker: Attacker, count: int) -> None:
    if count > 1 and not attacker.spray and not attacker.area_effect:
        raise RulesError(
            "Only Spray Fire or an Area Effect weapon attacks several models at once: use RoF "
            "points on Spray Fire, or enter the weapon's Area Effect rating."
        )


@dataclass(frozen=True)
class BlastArea:
    """The area an attack covers, in words and inches: everyone in it defends separately."""

    radius_inches: int
    centre: str
    who_defends: str
    direction: str
    shooter: str
    """Whether the attacking model itself is caught, as the translated edition says ("" when
    only the target defends)."""


def blast_area(*, area_effect: int = 0, spray: int = 0, indirect: bool = False) -> BlastArea:
    """The area of an attack: ``area_effect`` (the AE rating, a radius in inches) plus 1 inch per
    Spray Fire point.

    Spray Fire alone is measured around the main target's base; an Area Effect, and any indirect
    attack, around the point where it landed (the translated edition's clarifications). Every
    model in the area, friend or foe, defends separately with its own modifiers, and an Area
    Effect attack comes from the direction of the attacking model.

    The texts do not say how Spray Fire combines with an AE weapon; Spray Fire "makes the attack
    cover a larger area", one inch per point, so its inches are added to the AE radius.
    """
    check_whole(area_effect, "An Area Effect rating must be a whole number of inches, 0 or more", 0)
    check_whole(spray, "Spray Fire points must be a whole number of 0 or more", 0)
    check_flag(indirect, "Indirect")
    radius = area_effect + spray
    if indirect or area_effect:
        centre = "the point where the attack landed"
    else:
        centre = "the main target's base"
    if radius == 0:
        who = "Only the target defends."
        shooter = ""
    else:
        who = (
            f"Every model within {radius} inch{'es' if radius != 1 else ''} of {centre}, "
            "friend or foe, defends separately with its own modifiers."
        )
        shooter = (
            "The attacking model defends too if it is inside the area (translated edition)."
            if area_effect
            else "The attacking model itself does not defend (translated edition)."
        )
    return BlastArea(
        radius_inches=radius,
        centre=centre,
        who_defends=who,
        shooter=shooter,
        direction=(
            "The attack comes from the direction of the attacking model: use that direction for "
            "each model's rear arc, Weak Facing and Reinforced Arc."
        ),
    )


def attacks_this_round(autopilot: bool) -> int:
    """Attacks a model may make this round: 2 with its Autopilot on, else 1."""
    return 2 if check_flag(autopilot, "Autopilot") else 1
