"""What must be asked: the figures an attack needs that the data does not give."""

from __future__ import annotations

from collections.abc import Iterable

from rules.errors import RulesError
from rules.hgb.attack.inputs import (
    Attacker,
    MissingInput,
    MissingInputs,
    Target,
)


def attacker_questions(attacker: Attacker, *, damage: bool) -> list[MissingInput]:
    missing = []
    whose = "the attacker's" if not attacker.name else f"the {attacker.name}'s"
    weapon = f"the {attacker.weapon}'s" if attacker.weapon else "the weapon's"
    if attacker.movement_modifier is None:
        missing.append(
            MissingInput(
                "movement_modifier",
                f"Enter {whose} movement modifier for its current speed: "
                "the data does not give it.",
            )
        )
    if attacker.accuracy is None:
        missing.append(
            MissingInput("accuracy", f"Enter {weapon} Accuracy: the data does not give it.")
        )
    if damage and attacker.damage_multiplier is None:
        missing.append(
            MissingInput(
                "damage_multiplier",
                f"Enter {weapon} Damage Multiplier (DM): the data does not give it.",
            )
        )
    if attacker.rof is None and attacker.rof_points:
        missing.append(
            MissingInput(
                "rof",
                f"Enter {weapon} Rate of Fire (RoF) rating: RoF points are used and the data "
                "does not give it.",
            )
        )
    return missing


def target_questions(
    target: Target, index: int, *, damage: bool, direct: bool
) -> list[MissingInput]:
    missing = []
    whose = "the defender's" if not target.name else f"the {target.name}'s"
    to = "the target" if not target.name else f"the {target.name}"
    if direct and target.range_band is None:
        missing.append(
            MissingInput(
                "range_band",
                f"Choose the range band to {to}: Point-Blank, Short, Medium, Long or Extreme.",
                index,
            )
        )
    if direct and target.cover is None:
        missing.append(
            MissingInput(
                "cover",
                f"Choose {whose} cover, seen from the attacker: Open, Some, Partial or Full.",
                index,
            )
        )
    if target.movement_modifier is None:
        missing.append(
            MissingInput(
                "movement_modifier",
                f"Enter {whose} movement modifier for its mode and speed: "
                "the data does not give it.",
                index,
            )
        )
    if damage and target.armor is None:
        missing.append(
            MissingInput("armor", f"Enter {whose} Armor: the data does not give it.", index)
        )
    return missing


def check_targets(targets: object) -> tuple[Target, ...]:
    if isinstance(targets, Target):
        return (targets,)
    if isinstance(targets, (str, bytes)) or not isinstance(targets, Iterable):
        raise RulesError(f"The targets must be a list of Target values; got {targets!r}.")
    checked = tuple(targets)
    if not checked:
        raise RulesError("An attack needs at least one target.")
    for target in checked:
        if not isinstance(target, Target):
            raise RulesError(f"Each target must be a Target; got {target!r}.")
    return checked


def check_attacker(attacker: object) -> Attacker:
    if not isinstance(attacker, Attacker):
        raise RulesError(f"The attacker must be an Attacker; got {attacker!r}.")
    return attacker


def missing_inputs(attacker: Attacker, *targets: Target) -> tuple[MissingInput, ...]:
    """Every figure the helper must ask for before it can show the odds of a direct attack.

    The attacker's first, then each target's in order (``target_index`` says which). Empty when
    nothing is missing.
    """
    check_attacker(attacker)
    checked = check_targets(targets)
    missing = attacker_questions(attacker, damage=True)
    for index, target in enumerate(checked):
        missing.extend(target_questions(target, index, damage=True, direct=True))
    return tuple(missing)


def roll_questions(attacker: Attacker) -> list[MissingInput]:
    """What the attacker's roll modifiers need: its movement modifier and weapon accuracy."""
    return [
        item
        for item in attacker_questions(attacker, damage=False)
        if item.field in ("movement_modifier", "accuracy")
    ]


def raise_if_missing(missing: list[MissingInput]) -> None:
    if missing:
        raise MissingInputs(missing)
