"""Optional house rule: the translated edition's improvised designation roll.

Not a rule of the game but an optional house rule, off unless the players turn it on
(``DESIGNATION_HOUSE_RULE``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rules.errors import RulesError
from rules.hgb.attack.inputs import (
    Cover,
    MissingInput,
    MissingInputs,
    Modifier,
    check_state,
    penalty_modifier,
    total,
)
from rules.hgb.attack.resolve import (
    RollEntry,
    read_result,
)
from rules.hgb.damage import DamageState
from rules.hgb.dice import apply_modifier, check_dice, check_modifier, roll_counts

# --- Optional house rule: the translator's designation roll --------------------------------------


@dataclass(frozen=True)
class HouseRule:
    """A rule that is not part of the game, offered only as an option the players turn on."""

    key: str
    name: str
    label: str
    on_by_default: bool
    official: bool
    text: str


DESIGNATION_HOUSE_RULE = HouseRule(
    key="improvised_designation",
    name="Designation roll (house rule)",
    label=(
        "House rule, not official: improvised by the translator of the translated edition, "
        "not part of the quickstart rules"
    ),
    on_by_default=False,
    official=False,
    text=(
        "The spotter must see the target and spends an action. It rolls its EW Skill against "
        "Threshold 3, modified by its Sensors rating and the target's cover; a total of 4 or more "
        "designates the target. As many models may fire indirectly at that target as the "
        "spotter's EW Skill."
    ),
)

HOUSE_RULE_DESIGNATION_THRESHOLD = 3


def house_rule_designation_questions(
    *, sensors: int | None, cover: Cover | None, spotter: str = ""
) -> list[MissingInput]:
    """What the house rule's roll asks before its odds: the target's cover seen from the spotter,
    and the spotter's Sensors rating when the data does not give it."""
    missing = []
    if cover is None:
        missing.append(MissingInput("cover", "Choose the target's cover, seen from the spotter."))
    if sensors is None:
        whose = f"{spotter}'s" if spotter else "the spotter's"
        missing.append(
            MissingInput("sensors", f"Enter {whose} Sensors rating: the data does not give it.")
        )
    return missing


def house_rule_designation_modifiers(
    *,
    sensors: int | None,
    cover: Cover,
    state: DamageState = DamageState.UNDAMAGED,
) -> tuple[Modifier, ...]:
    """The house rule's modifiers: the spotter's Sensors rating, the target's cover, the
    spotter's damage penalty. Not official (see ``DESIGNATION_HOUSE_RULE``)."""
    if sensors is None:
        raise MissingInputs(
            [
                MissingInput(
                    "sensors", "Enter the spotter's Sensors rating: the data does not give it."
                )
            ]
        )
    check_modifier(sensors, "A Sensors rating")
    if not isinstance(cover, Cover):
        raise RulesError(f"Cover is Open, Some, Partial or Full; got {cover!r}.")
    check_state(state, "The spotter's")
    if state.is_out:
        raise RulesError("A destroyed model can't designate a target.")
    modifiers = [
        Modifier(sensors, "Spotter's Sensors rating"),
        Modifier(cover.modifier, f"{cover.label}, seen from the spotter"),
    ]
    penalty = penalty_modifier(state, "Spotter")
    if penalty:
        modifiers.append(penalty)
    return tuple(modifiers)


@dataclass(frozen=True)
class HouseRuleDesignation:
    """The odds of the house-rule designation roll (not official)."""

    dice: int
    modifiers: tuple[Modifier, ...]
    threshold: int
    success_chance: Fraction
    shooters_allowed: int
    label: str = DESIGNATION_HOUSE_RULE.label


def house_rule_designation_odds(
    *,
    ew: int,
    sensors: int | None,
    cover: Cover,
    state: DamageState = DamageState.UNDAMAGED,
) -> HouseRuleDesignation:
    """Chance that the house-rule designation roll succeeds (modified result above 3)."""
    check_dice(ew)
    modifiers = house_rule_designation_modifiers(sensors=sensors, cover=cover, state=state)
    modifier = total(modifiers)
    success = sum(
        ways
        for result, ways in roll_counts(ew)
        if apply_modifier(result, modifier) > HOUSE_RULE_DESIGNATION_THRESHOLD
    )
    return HouseRuleDesignation(
        dice=ew,
        modifiers=modifiers,
        threshold=HOUSE_RULE_DESIGNATION_THRESHOLD,
        success_chance=Fraction(success, 6**ew),
        shooters_allowed=ew,
    )


@dataclass(frozen=True)
class HouseRuleDesignationResult:
    """A rolled house-rule designation (not official)."""

    result: int
    final: int
    designated: bool
    shooters_allowed: int
    label: str = DESIGNATION_HOUSE_RULE.label


def resolve_house_rule_designation(
    *,
    ew: int,
    sensors: int | None,
    cover: Cover,
    roll: RollEntry,
    state: DamageState = DamageState.UNDAMAGED,
) -> HouseRuleDesignationResult:
    """Resolve the house-rule designation roll: designated on a modified 4 or more."""
    check_dice(ew)
    modifiers = house_rule_designation_modifiers(sensors=sensors, cover=cover, state=state)
    result = read_result(roll, ew, "The spotter's")
    final = apply_modifier(result, total(modifiers))
    return HouseRuleDesignationResult(
        result=result,
        final=final,
        designated=final > HOUSE_RULE_DESIGNATION_THRESHOLD,
        shooters_allowed=ew,
    )
