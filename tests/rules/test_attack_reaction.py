"""Reaction Fire: "A Model may be acted against at most once per inch moved on the table or per
Action performed." The reaction fires "after the next inch of Movement (when movement ends if the
Model keeps moving but stops at less than a full inch) or the next Action performed"."""

import pytest

from rules.hgb import RulesError
from rules.hgb.attack import ReactionWindow


def test_a_model_that_kept_its_action_may_react_to_a_moving_model():
    window = ReactionWindow()
    assert window.can_react(kept_action=True)
    declared = window.declare(kept_action=True)
    assert declared.reaction_pending


def test_a_model_that_did_not_keep_its_action_may_not_react():
    assert ReactionWindow().why_not(kept_action=False) == (
        "Only a model that kept (saved) its action can make Reaction Fire."
    )
    with pytest.raises(RulesError, match="kept"):
        ReactionWindow().declare(kept_action=False)


def test_the_reaction_fires_after_the_next_inch():
    window = ReactionWindow().declare(kept_action=True).inch_moved()
    assert window.reaction_due
    assert not window.reaction_pending


def test_the_reaction_fires_after_the_next_action():
    window = ReactionWindow().declare(kept_action=True).action_performed()
    assert window.reaction_due


def test_a_part_inch_counts_when_movement_ends_there():
    window = ReactionWindow().declare(kept_action=True).end_movement(part_inch=True)
    assert window.reaction_due
    stopped_on_an_inch = ReactionWindow().declare(kept_action=True).end_movement(part_inch=False)
    assert stopped_on_an_inch.reaction_pending


def test_only_one_reaction_per_inch_moved():
    window = ReactionWindow().declare(kept_action=True)
    assert "at most once per inch moved or per action" in window.why_not(kept_action=True)
    with pytest.raises(RulesError, match="already declared"):
        window.declare(kept_action=True)
    # After the inch, the next inch is open for one more reaction.
    assert window.inch_moved().can_react(kept_action=True)


@pytest.mark.parametrize(
    "steps,reactions",
    [
        (["inch"] * 3, 3),
        (["inch", "action", "inch"], 3),
        (["action"], 1),
        ([], 0),
    ],
)
def test_a_mover_can_be_reacted_against_at_most_once_per_inch_or_action(steps, reactions):
    window = ReactionWindow()
    fired = 0
    for step in steps:
        # Everyone who can, declares; only one gets through for each inch or action.
        for _ in range(3):
            if window.can_react(kept_action=True):
                window = window.declare(kept_action=True)
        window = window.inch_moved() if step == "inch" else window.action_performed()
        fired += window.reaction_due
    assert fired == reactions


def test_a_model_can_not_move_after_its_movement_ended():
    window = ReactionWindow().end_movement(part_inch=False)
    with pytest.raises(RulesError, match="already ended its movement"):
        window.inch_moved()
    # It may still perform an action, which is a trigger too.
    assert window.action_performed().triggers == 1
