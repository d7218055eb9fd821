"""Indirect fire, scatter and hand grenades.

Quickstart, Indirect Fire: "The attacking Model rolls a number of dice equal to its Attack Skill
versus a Threshold of 4, modified for Range, Attack Modifier, and Weapon Accuracy for the Model
performing the IF Attack, and Cover between the spotter and the target point. A success means that
it has struck the target point; a failure indicates a scatter. If the attack scatters, roll 1 dice
and count clockwise in 60 degree increments from a line between attacker and target point. The
landing point is moved a number of inches equal to the MoF in the indicated direction. Any target
under the landing point must defend (as in Ranged Attacks) against the unmodified attack roll."
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from numbers import Real

from rules.checks import check_whole
from rules.errors import RulesError
from rules.hgb.attack.inputs import (
    Attacker,
    Cover,
    MissingInput,
    MissingInputs,
    Modifier,
    RangeBand,
    Target,
    count_words,
    signed,
    total,
)
from rules.hgb.attack.modifiers import (
    attacker_roll_modifiers,
)
from rules.hgb.attack.multi_target import (
    targets_hit_odds,
)
from rules.hgb.attack.questions import (
    attacker_questions,
    check_attacker,
    check_targets,
    target_questions,
)
from rules.hgb.attack.resolve import (
    ResolvedAttack,
    RollEntry,
    final_words,
    read_result,
    resolve_plan,
)
from rules.hgb.attack.summary import (
    AttackSummary,
    Plan,
    make_plan,
    rof_notes,
    summarize,
)
from rules.hgb.attack.tables import (
    hits_by_attack_result,
    outcomes_by_attack_result,
)
from rules.hgb.damage import AttackOutcome
from rules.hgb.dice import apply_modifier, roll_counts

INDIRECT_THRESHOLD = 4
"""The Threshold of an indirect attack roll: the modified result must be higher than 4."""

SCATTER_STEP_DEGREES = 60


# --- Hand grenades -------------------------------------------------------------------------------

HAND_GRENADES = frozenset({"HG", "HHG"})
"""The arsenal's grenades, thrown by hand: "HG (Hand Grenade), HHG (Heavy Hand Grenade)". "Hand
Grenades use the IF rules, but do not require a spotter. [...] Grenades have only two ranges":
the thrower's Size (``grenade_range``). The texts give no DM, Accuracy or Area Effect for them."""


class GrenadeRange(Enum):
    """A hand grenade's two ranges: Short (+0) up to Size inches, Medium (-1) up to twice Size."""

    SHORT = "short"
    MEDIUM = "medium"

    @property
    def modifier(self) -> int:
        return 0 if self is GrenadeRange.SHORT else -1

    @property
    def label(self) -> str:
        return "Short" if self is GrenadeRange.SHORT else "Medium"

    @property
    def source(self) -> str:
        if self is GrenadeRange.SHORT:
            return "Short grenade range (up to the thrower's Size in inches)"
        return "Medium grenade range (up to twice the thrower's Size in inches)"


def _size_question() -> MissingInput:
    return MissingInput("size", "Enter the thrower's Size: the data does not give it.")


def grenade_reach(size: int | None) -> tuple[int, int]:
    """(Short, Medium) reach of a thrown grenade in inches: Size and twice Size."""
    if size is None:
        raise MissingInputs([_size_question()])
    check_whole(size, "A model's Size must be a whole number of 1 or more", 1)
    return size, 2 * size


def grenade_reach_words(size: int) -> str:
    """A thrower's grenade ranges in words: "Size 6: Short range is up to 6 inches (+0), Medium
    up to 12 inches (−1)."."""
    short, medium = grenade_reach(size)
    return (
        f"Size {size}: Short range is up to {short} inches "
        f"({signed(GrenadeRange.SHORT.modifier)}), Medium up to {medium} inches "
        f"({signed(GrenadeRange.MEDIUM.modifier)})."
    )


def indirect_questions(
    *,
    grenade: bool,
    band: RangeBand | GrenadeRange | None,
    cover: Cover | None,
    size: int | None = None,
    thrower: str = "",
) -> list[MissingInput]:
    """What an indirect attack (or a thrown grenade) asks before its odds, beyond the attacker's
    and the targets' figures (``indirect_summary``): the range band (the grenade range), the
    target's cover seen from the Forward Observer (from the thrower), and the thrower's Size,
    which sets a grenade's ranges, when the data does not give it."""
    missing = []
    if band is None:
        missing.append(
            MissingInput(
                "range_band",
                "Choose the grenade range: Short or Medium."
                if grenade
                else "Choose the range band to the target: Point-Blank to Extreme.",
            )
        )
    if cover is None:
        seen = "the thrower" if grenade else "the Forward Observer"
        missing.append(MissingInput("cover", f"Choose the target's cover, seen from {seen}."))
    if grenade and size is None:
        missing.append(
            MissingInput("size", f"Enter the Size of {thrower}: the data does not give it.")
            if thrower
            else _size_question()
        )
    return missing


def grenade_range(size: int | None, distance_inches: Real) -> GrenadeRange:
    """The grenade range band for a target ``distance_inches`` away from a thrower of ``size``.

    Short reaches up to and including Size inches, Medium up to and including twice Size; beyond
    that the target is out of range (RulesError).
    """
    short, medium = grenade_reach(size)
    if isinstance(distance_inches, bool) or not isinstance(distance_inches, Real):
        raise RulesError(f"A distance is a number of inches; got {distance_inches!r}.")
    if distance_inches < 0:
        raise RulesError(f"A distance can't be negative; got {distance_inches}.")
    if distance_inches <= short:
        return GrenadeRange.SHORT
    if distance_inches <= medium:
        return GrenadeRange.MEDIUM
    raise RulesError(
        f"Out of grenade range: a thrower of Size {size} reaches {medium} inches at most "
        f"(Medium range); the target is {distance_inches} inches away."
    )


# --- Indirect attack rolls -----------------------------------------------------------------------


def _check_band(range_band: object) -> RangeBand | GrenadeRange:
    if not isinstance(range_band, (RangeBand, GrenadeRange)):
        raise RulesError(
            "An indirect attack needs a range band (Point-Blank to Extreme) or, for a grenade, "
            f"a grenade range (Short or Medium); got {range_band!r}."
        )
    return range_band


def indirect_modifiers(
    attacker: Attacker, range_band: RangeBand | GrenadeRange, cover_from_observer: Cover
) -> tuple[Modifier, ...]:
    """Modifiers to an indirect attack roll: range, cover seen from the spotter, the attacker's
    movement modifier, weapon accuracy and damage penalty.

    With a ``GrenadeRange`` the thrower is its own spotter, so cover is seen from the thrower.
    Raises ``MissingInputs`` if the attacker's movement modifier or accuracy is not known.
    """
    check_attacker(attacker)
    band = _check_band(range_band)
    if not isinstance(cover_from_observer, Cover):
        raise RulesError(f"Cover is Open, Some, Partial or Full; got {cover_from_observer!r}.")
    seen_from = "the thrower" if isinstance(band, GrenadeRange) else "the Forward Observer"
    return (
        Modifier(band.modifier, band.source),
        Modifier(
            cover_from_observer.modifier, f"{cover_from_observer.label}, seen from {seen_from}"
        ),
        *attacker_roll_modifiers(attacker),
    )


def _check_indirect_rof(attacker: Attacker, band: RangeBand | GrenadeRange) -> None:
    if attacker.rof_points and band is RangeBand.EXTREME:
        raise RulesError(
            "RoF can't be used at Extreme range: only against targets at Long range or closer."
        )


def _indirect_notes(attacker: Attacker, band: RangeBand | GrenadeRange) -> tuple[str, ...]:
    spotter = (
        "The thrower is its own spotter: no Forward Observer is needed."
        if isinstance(band, GrenadeRange)
        else "The target must be marked by a Forward Observer this round."
    )
    return (
        spotter,
        f"The modified roll must be higher than {INDIRECT_THRESHOLD} to strike the target point.",
        f"A modified {INDIRECT_THRESHOLD} fails with MoF 0: the landing point moves 0 inches, "
        "so it still lands on the target point.",
        "Every model under the landing point defends against the unmodified attack roll, with "
        "its own defense modifiers; the attack comes from the direction of the attacking model.",
        *rof_notes(attacker, indirect=True),
    )


@dataclass(frozen=True)
class IndirectSummary:
    """Everything the helper shows before an indirect attack is rolled.

    ``scatter_chances`` maps each MoF (the scatter distance in inches) to its chance; MoF 0 lands
    on the target point anyway. ``targets`` are the models at the target point: their odds count
    a landing elsewhere as a miss (a scatter may still hit other models). ``targets_hit`` gives
    the exact chance of each number of those models hit.
    """

    attack_dice: int
    attack_dice_source: str
    modifiers: tuple[Modifier, ...]
    threshold: int
    strike_chance: Fraction
    lands_on_target_chance: Fraction
    scatter_chances: dict[int, Fraction]
    targets: tuple[AttackSummary, ...]
    targets_hit: dict[int, Fraction]
    expected_boxes: Fraction
    notes: tuple[str, ...]

    @property
    def modifier(self) -> int:
        return total(self.modifiers)


def _indirect_plans(attacker: Attacker, targets: tuple[Target, ...]) -> list[Plan]:
    missing = attacker_questions(attacker, damage=bool(targets))
    for index, target in enumerate(targets):
        missing.extend(target_questions(target, index, damage=True, direct=False))
    if missing:
        raise MissingInputs(missing)
    return [make_plan(attacker, target, ()) for target in targets]


def indirect_summary(
    attacker: Attacker,
    range_band: RangeBand | GrenadeRange,
    cover_from_observer: Cover,
    targets: Sequence[Target] = (),
) -> IndirectSummary:
    """The modifiers and exact odds of an indirect attack (or a thrown grenade).

    ``range_band`` is the range from the attacker to the target point (a ``GrenadeRange`` for a
    grenade); ``cover_from_observer`` the target's cover seen from the Forward Observer (from the
    thrower for a grenade). ``targets`` may list the models at the target point for their odds.
    """
    check_attacker(attacker)
    band = _check_band(range_band)
    checked = check_targets(targets) if targets else ()
    plans = _indirect_plans(attacker, checked)
    modifiers = indirect_modifiers(attacker, band, cover_from_observer)
    _check_indirect_rof(attacker, band)
    modifier = total(modifiers)
    dice = attacker.attack_dice
    attack_rolls = 6**dice
    counts = roll_counts(dice)
    finals = [apply_modifier(result, modifier) for result, _ in counts]
    lands = [final >= INDIRECT_THRESHOLD for final in finals]
    strike = sum(
        ways for (_, ways), final in zip(counts, finals, strict=True) if final > INDIRECT_THRESHOLD
    )
    scatter: dict[int, int] = {}
    for (_, ways), final in zip(counts, finals, strict=True):
        if final <= INDIRECT_THRESHOLD:
            mof = INDIRECT_THRESHOLD - final
            scatter[mof] = scatter.get(mof, 0) + ways
    notes = _indirect_notes(attacker, band)
    summaries = []
    rows = []
    for plan in plans:
        target = plan.target
        outcome_rows = outcomes_by_attack_result(
            dice,
            target.dice,
            plan.defense_modifier,
            plan.damage_multiplier,
            plan.armor,
            target.weak_facing,
        )
        defense_rolls = 6**target.dice
        outcome_counts = [0] * len(AttackOutcome)
        for (_, ways), landed, row in zip(counts, lands, outcome_rows, strict=True):
            if landed:
                for index, count in enumerate(row):
                    outcome_counts[index] += ways * count
            else:
                outcome_counts[0] += ways * defense_rolls
        denominator = attack_rolls * defense_rolls
        odds = {
            outcome: Fraction(count, denominator)
            for outcome, count in zip(AttackOutcome, outcome_counts, strict=True)
        }
        summaries.append(summarize(attacker, plan, odds, notes))
        rows.append(
            hits_by_attack_result(
                dice, None, target.dice, plan.defense_modifier, target.weak_facing
            )
        )
    return IndirectSummary(
        attack_dice=dice,
        attack_dice_source=f"Attack Skill {dice}",
        modifiers=modifiers,
        threshold=INDIRECT_THRESHOLD,
        strike_chance=Fraction(strike, attack_rolls),
        lands_on_target_chance=Fraction(
            sum(ways for (_, ways), landed in zip(counts, lands, strict=True) if landed),
            attack_rolls,
        ),
        scatter_chances={
            mof: Fraction(ways, attack_rolls) for mof, ways in sorted(scatter.items())
        },
        targets=tuple(summaries),
        targets_hit=targets_hit_odds(dice, rows, [6**plan.target.dice for plan in plans], lands),
        expected_boxes=sum((summary.expected_boxes for summary in summaries), Fraction(0)),
        notes=notes,
    )


# --- Scatter and resolution ----------------------------------------------------------------------


@dataclass(frozen=True)
class Scatter:
    """Where a failed indirect attack lands, from the target point.

    Direction: the die counts clockwise (seen from above) in 60-degree steps from the line from
    the attacker through the target point; 0 degrees (12 o'clock) is straight on, away from the
    attacker. A die of N turns N steps: 1 is 60 degrees (2 o'clock), 3 is 180 degrees (back toward
    the attacker), 6 is a full turn, straight on. Distance: the MoF in inches.
    """

    direction_die: int | None
    distance_inches: int

    @property
    def degrees(self) -> int | None:
        """Degrees clockwise from straight on, 0 to 300 (None when no direction is needed)."""
        if self.direction_die is None:
            return None
        return self.direction_die * SCATTER_STEP_DEGREES % 360

    @property
    def clock(self) -> str | None:
        """The direction as a clock face with 12 o'clock straight on: "4 o'clock"."""
        degrees = self.degrees
        if degrees is None:
            return None
        return f"{degrees // 30 or 12} o'clock"

    def describe(self) -> str:
        if self.distance_inches == 0:
            return "It lands on the target point (MoF 0: it moves 0 inches)."
        inches = f"{self.distance_inches} inch{'es' if self.distance_inches != 1 else ''}"
        return (
            f"It scatters {inches} toward {self.clock}: {self.degrees} degrees clockwise from "
            "the line from the attacker through the target point (12 o'clock is straight on)."
        )


def scatter(direction_die: int | None, mof: int) -> Scatter:
    """The scatter of a failed indirect attack: ``direction_die`` (1-6) and ``mof`` inches.

    With MoF 0 the landing point does not move and no direction is needed.
    """
    check_whole(mof, "A Margin of Failure must be a whole number of 0 or more", 0)
    if mof == 0:
        return Scatter(None, 0)
    if direction_die is None:
        raise RulesError("Roll one die for the scatter direction.")
    check_whole(direction_die, "The scatter direction is one die, 1 to 6", 1)
    if direction_die > 6:
        raise RulesError(f"The scatter direction is one die, 1 to 6; got {direction_die}.")
    return Scatter(direction_die, mof)


@dataclass(frozen=True)
class IndirectResult:
    """A rolled indirect attack: the roll against Threshold 4 and where it lands.

    ``attack_result`` is the unmodified roll (0 for a Fumble): every model under the landing point
    defends against it (``resolve_indirect_defense``). ``scatter`` is set on a failure once the
    direction die is known (or at once for MoF 0).
    """

    attack_result: int
    modifiers: tuple[Modifier, ...]
    final: int
    threshold: int
    mos: int | None
    mof: int | None
    scatter: Scatter | None

    @property
    def success(self) -> bool:
        return self.mos is not None

    @property
    def scatter_inches(self) -> int | None:
        """How far the landing point moves: the MoF, None on a success."""
        return self.mof

    @property
    def lands_on_target_point(self) -> bool:
        return self.success or self.mof == 0

    def describe(self) -> str:
        rolled = final_words(self.attack_result, total(self.modifiers), self.final)
        head = f"Indirect attack {rolled} against Threshold {self.threshold}"
        tail = (
            f" Models under the landing point defend against the unmodified roll, "
            f"{self.attack_result}."
        )
        if self.success:
            return f"{head}: it strikes the target point (MoS {self.mos}).{tail}"
        where = (
            self.scatter.describe()
            if self.scatter
            else f"Roll one die for the direction; it scatters {self.mof} inches."
        )
        return f"{head}: it fails (MoF {self.mof}). {where}{tail}"


def resolve_indirect(
    attacker: Attacker,
    range_band: RangeBand | GrenadeRange,
    cover_from_observer: Cover,
    attack_roll: RollEntry,
    direction_die: int | None = None,
) -> IndirectResult:
    """Resolve an indirect attack roll (or a thrown grenade) against Threshold 4.

    The roll is a result (0 for a Fumble), a ``Roll`` or the dice. A Fumble gets no modifiers: it
    is 0 and scatters 4 inches. ``direction_die`` is used only on a failure with MoF 1 or more.
    """
    check_attacker(attacker)
    band = _check_band(range_band)
    modifiers = indirect_modifiers(attacker, band, cover_from_observer)
    _check_indirect_rof(attacker, band)
    result = read_result(attack_roll, attacker.attack_dice, "The attacker's")
    final = apply_modifier(result, total(modifiers))
    if final > INDIRECT_THRESHOLD:
        return IndirectResult(
            result, modifiers, final, INDIRECT_THRESHOLD, final - INDIRECT_THRESHOLD, None, None
        )
    mof = INDIRECT_THRESHOLD - final
    landing = scatter(direction_die, mof) if mof == 0 or direction_die is not None else None
    return IndirectResult(result, modifiers, final, INDIRECT_THRESHOLD, None, mof, landing)


def indirect_defense_summary(
    attacker: Attacker, target: Target, attack_result: RollEntry
) -> AttackSummary:
    """The odds of a model under the landing point, which defends against ``attack_result``,
    the unmodified roll (0 for a Fumble). Only the defender's dice are left to roll."""
    check_attacker(attacker)
    (checked,) = check_targets((target,))
    (plan,) = _indirect_plans(attacker, (checked,))
    result = read_result(attack_result, attacker.attack_dice, "The attacker's")
    index = [value for value, _ in roll_counts(attacker.attack_dice)].index(result)
    row = outcomes_by_attack_result(
        attacker.attack_dice,
        checked.dice,
        plan.defense_modifier,
        plan.damage_multiplier,
        plan.armor,
        checked.weak_facing,
    )[index]
    odds = {
        outcome: Fraction(count, 6**checked.dice)
        for outcome, count in zip(AttackOutcome, row, strict=True)
    }
    notes = (
        f"Defends against the unmodified indirect attack roll, {result}, with its own modifiers.",
        *rof_notes(attacker, indirect=True),
    )
    return summarize(attacker, plan, odds, notes)


def resolve_indirect_defense(
    attacker: Attacker,
    targets: Sequence[Target],
    attack_result: RollEntry,
    defense_rolls: Sequence[RollEntry],
) -> tuple[ResolvedAttack, ...]:
    """Resolve the models under an indirect attack's landing point: each defends against the
    unmodified roll ``attack_result`` with its own defense modifiers."""
    check_attacker(attacker)
    checked = check_targets(targets)
    if isinstance(defense_rolls, (str, bytes)) or not isinstance(defense_rolls, Sequence):
        raise RulesError("Enter one defense roll for each model under the landing point.")
    if len(defense_rolls) != len(checked):
        raise RulesError(
            "Enter one defense roll for each model under the landing point: "
            f"{count_words(len(checked), 'model')}, {count_words(len(defense_rolls), 'roll')}."
        )
    plans = _indirect_plans(attacker, checked)
    result = read_result(attack_result, attacker.attack_dice, "The attacker's")
    return tuple(
        resolve_plan(plan, result, roll) for plan, roll in zip(plans, defense_rolls, strict=True)
    )
