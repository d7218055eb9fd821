"""Forward Observation, and ECM against a Forward Observer."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rules.checks import check_whole
from rules.errors import RulesError
from rules.hgb.attack.inputs import (
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
from rules.hgb.dice import apply_modifier, check_dice, check_modifier
from rules.hgb.odds import opposed_margin_distribution

# --- Forward Observation -------------------------------------------------------------------------


@dataclass(frozen=True)
class ForwardObservation:
    """A target marked by a Forward Observer: "for the remainder of the round (or until the
    target moves)". Friendly models acting later in that round may fire indirectly at it."""

    target: str
    round_number: int
    target_moved: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.target, str) or not self.target:
            raise RulesError("A Forward Observation marks one target: give its name or id.")
        check_whole(self.round_number, "A round number must be a whole number of 1 or more", 1)
        if not isinstance(self.target_moved, bool):
            raise RulesError("Target moved must be yes or no (True or False).")

    def marks(self, target: str, round_number: int) -> bool:
        """True if ``target`` is marked for indirect fire in ``round_number``."""
        return target == self.target and round_number == self.round_number and not self.target_moved

    def after_target_moved(self) -> ForwardObservation:
        """The mark ends when the target moves."""
        return ForwardObservation(self.target, self.round_number, True)


# --- ECM against a Forward Observer --------------------------------------------------------------


@dataclass(frozen=True)
class EcmContest:
    """A model with ECM spends its action to block a Forward Observation it can see.

    "Both sides roll a number of dice equal to their EW Skill and add their Comm rating as a
    modifier. The Model with ECM adds in the ECM Rating. If the blocking Model rolls higher, the
    Observation does not take place. Any Actions used will still be spent." Comm and ECM ratings
    the data does not give are None (the helper asks for them).
    """

    observer_ew: int
    blocker_ew: int
    observer_comm: int | None = None
    blocker_comm: int | None = None
    ecm_rating: int | None = None
    observer_state: DamageState = DamageState.UNDAMAGED
    blocker_state: DamageState = DamageState.UNDAMAGED
    observer_name: str = ""
    blocker_name: str = ""

    def __post_init__(self) -> None:
        check_dice(self.observer_ew)
        check_dice(self.blocker_ew)
        if self.observer_comm is not None:
            check_modifier(self.observer_comm, "A Comm rating")
        if self.blocker_comm is not None:
            check_modifier(self.blocker_comm, "A Comm rating")
        if self.ecm_rating is not None:
            check_whole(self.ecm_rating, "An ECM rating must be a whole number of 0 or more", 0)
        check_state(self.observer_state, "The observer's")
        check_state(self.blocker_state, "The blocking model's")
        if self.observer_state.is_out or self.blocker_state.is_out:
            raise RulesError("A destroyed model takes no part in an ECM contest.")
        for value in (self.observer_name, self.blocker_name):
            if not isinstance(value, str):
                raise RulesError(f"A model's name must be text; got {value!r}.")

    @property
    def observer(self) -> str:
        return self.observer_name or "Forward Observer"

    @property
    def blocker(self) -> str:
        return self.blocker_name or "Blocking model"

    def missing_inputs(self) -> tuple[MissingInput, ...]:
        """The ratings the helper must ask for."""
        observer = f"the {self.observer_name}'s" if self.observer_name else "the Forward Observer's"
        blocker = f"the {self.blocker_name}'s" if self.blocker_name else "the blocking model's"
        asks = (
            ("observer_comm", self.observer_comm, f"Enter {observer} Comm rating"),
            ("blocker_comm", self.blocker_comm, f"Enter {blocker} Comm rating"),
            ("ecm_rating", self.ecm_rating, f"Enter {blocker} ECM rating"),
        )
        return tuple(
            MissingInput(name, f"{ask}: the data does not give it.")
            for name, value, ask in asks
            if value is None
        )


def ecm_modifiers(contest: EcmContest) -> tuple[tuple[Modifier, ...], tuple[Modifier, ...]]:
    """(the observer's modifiers, the blocking model's modifiers): Comm, ECM rating, damage."""
    if not isinstance(contest, EcmContest):
        raise RulesError(f"An ECM contest is needed; got {contest!r}.")
    missing = contest.missing_inputs()
    if missing:
        raise MissingInputs(missing)
    assert contest.observer_comm is not None and contest.blocker_comm is not None
    assert contest.ecm_rating is not None
    observer = [Modifier(contest.observer_comm, f"{contest.observer}'s Comm rating")]
    blocker = [
        Modifier(contest.blocker_comm, f"{contest.blocker}'s Comm rating"),
        Modifier(contest.ecm_rating, f"{contest.blocker}'s ECM rating"),
    ]
    for modifiers, state, subject in (
        (observer, contest.observer_state, contest.observer),
        (blocker, contest.blocker_state, contest.blocker),
    ):
        penalty = penalty_modifier(state, subject)
        if penalty:
            modifiers.append(penalty)
    return tuple(observer), tuple(blocker)


@dataclass(frozen=True)
class EcmOdds:
    observer_dice: int
    observer_modifiers: tuple[Modifier, ...]
    blocker_dice: int
    blocker_modifiers: tuple[Modifier, ...]
    block_chance: Fraction
    """Chance the blocking model rolls higher: the Observation does not take place."""

    @property
    def observation_chance(self) -> Fraction:
        return 1 - self.block_chance


def ecm_odds(contest: EcmContest) -> EcmOdds:
    """The exact chance that ECM blocks the Forward Observation (a tie does not block)."""
    observer, blocker = ecm_modifiers(contest)
    margins = opposed_margin_distribution(
        contest.blocker_ew, total(blocker), contest.observer_ew, total(observer)
    )
    return EcmOdds(
        observer_dice=contest.observer_ew,
        observer_modifiers=observer,
        blocker_dice=contest.blocker_ew,
        blocker_modifiers=blocker,
        block_chance=sum((p for margin, p in margins.items() if margin > 0), Fraction(0)),
    )


@dataclass(frozen=True)
class EcmResult:
    observer_result: int
    observer_final: int
    blocker_result: int
    blocker_final: int

    @property
    def blocked(self) -> bool:
        """True if the blocking model rolled higher: the Observation does not take place."""
        return self.blocker_final > self.observer_final

    def describe(self) -> str:
        what = (
            "The ECM blocks the Forward Observation: it does not take place."
            if self.blocked
            else "The Forward Observation goes ahead."
        )
        return (
            f"ECM {self.blocker_final} against observer {self.observer_final}. {what} "
            "Both models' actions are spent either way."
        )


def resolve_ecm(
    contest: EcmContest, observer_roll: RollEntry, blocker_roll: RollEntry
) -> EcmResult:
    """Resolve the rolled ECM contest; both models spend their actions whatever the result."""
    observer, blocker = ecm_modifiers(contest)
    observer_result = read_result(observer_roll, contest.observer_ew, "The observer's")
    blocker_result = read_result(blocker_roll, contest.blocker_ew, "The blocking model's")
    return EcmResult(
        observer_result=observer_result,
        observer_final=apply_modifier(observer_result, total(observer)),
        blocker_result=blocker_result,
        blocker_final=apply_modifier(blocker_result, total(blocker)),
    )
