"""Reaction Fire: a model that kept its action shoots at a model while it moves.

Quickstart, Reaction Fire: "If a Model has saved its Action, it may respond to any currently
Moving Model by spending the Action to make a Ranged Attack. A Model may be acted against at most
once per inch moved on the table or per Action performed. [...] The Reaction Fire occurs after the
next inch of Movement (when movement ends if the Model keeps moving but stops at less than a full
inch) or the next Action performed by the Active Model."

Read here as: each inch the mover completes, a last part of an inch when its movement ends, and
each action it performs is one "trigger". A reaction declared now is resolved at the next trigger,
and each trigger carries at most one reaction against the mover, whoever makes it. The reaction
itself is an ordinary ranged attack (``attack_summary``/``resolve_direct``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.checks import check_flag, check_whole
from rules.errors import RulesError


@dataclass(frozen=True)
class ReactionWindow:
    """Reaction Fire against one active model during its activation.

    ``triggers``: inches completed, a last part inch once movement ends, and actions performed
    so far. ``reserved``: the trigger the latest declared reaction resolves at (0 if none yet).
    ``movement_over``: the model has ended its movement.
    """

    triggers: int = 0
    reserved: int = 0
    movement_over: bool = False

    def __post_init__(self) -> None:
        check_whole(self.triggers, "Triggers must be a whole number of 0 or more", 0)
        check_whole(self.reserved, "The reserved trigger must be a whole number of 0 or more", 0)
        check_flag(self.movement_over, "Movement over")
        if self.reserved > self.triggers + 1:
            raise RulesError("A reaction can only be declared for the next inch or action.")

    @property
    def reaction_pending(self) -> bool:
        """A reaction has been declared and resolves at the next inch or action."""
        return self.reserved > self.triggers

    @property
    def reaction_due(self) -> bool:
        """The trigger just counted is the one a declared reaction waits for: resolve it now."""
        return self.reserved > 0 and self.reserved == self.triggers

    def why_not(self, *, kept_action: bool) -> str | None:
        """Why a model can't react against the mover now, in a sentence; None if it can."""
        if not check_flag(kept_action, "Kept action"):
            return "Only a model that kept (saved) its action can make Reaction Fire."
        if self.reaction_pending:
            return (
                "A reaction against this model is already declared for its next inch or action: "
                "a model may be acted against at most once per inch moved or per action."
            )
        return None

    def can_react(self, *, kept_action: bool) -> bool:
        return self.why_not(kept_action=kept_action) is None

    def declare(self, *, kept_action: bool) -> ReactionWindow:
        """A model spends its kept action to react; it fires after the mover's next inch or action.

        Raises RulesError with the reason when it can't.
        """
        reason = self.why_not(kept_action=kept_action)
        if reason:
            raise RulesError(reason)
        return replace(self, reserved=self.triggers + 1)

    def inch_moved(self) -> ReactionWindow:
        """The mover completed one more inch; a pending reaction is resolved now."""
        if self.movement_over:
            raise RulesError("This model has already ended its movement.")
        return replace(self, triggers=self.triggers + 1)

    def end_movement(self, *, part_inch: bool) -> ReactionWindow:
        """The mover stops; ``part_inch``: it moved part of an inch since its last full inch,
        which counts as a trigger."""
        if self.movement_over:
            raise RulesError("This model has already ended its movement.")
        moved = 1 if check_flag(part_inch, "Part inch") else 0
        return replace(self, triggers=self.triggers + moved, movement_over=True)

    def action_performed(self) -> ReactionWindow:
        """The mover performed an action; a pending reaction is resolved now."""
        return replace(self, triggers=self.triggers + 1)
