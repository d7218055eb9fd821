"""Same-named operatives told apart: numbered in team order within their side."""

from __future__ import annotations

import pytest

from rules.killteam import OperativeSpec, SideSpec, label, new_battle, numbered_names


@pytest.mark.parametrize(
    ("names", "numbered"),
    [
        (["Gunner"] * 3, ("Gunner 1", "Gunner 2", "Gunner 3")),
        (["Leader", "Gunner", "Scout", "Gunner"], ("Leader", "Gunner 1", "Scout", "Gunner 2")),
        (["Leader", "Scout"], ("Leader", "Scout")),
        ([], ()),
        # A number that is another operative's name is skipped: every name comes out different.
        (["Gunner", "Gunner 1", "Gunner"], ("Gunner 2", "Gunner 1", "Gunner 3")),
    ],
)
def test_only_names_that_repeat_are_numbered_in_team_order(names, numbered):
    assert numbered_names(names) == numbered


def test_numbering_twice_changes_nothing():
    once = numbered_names(["Gunner", "Gunner 1", "Gunner", "Leader", "Gunner"])
    assert len(set(once)) == len(once)
    assert numbered_names(once) == once


def test_a_battle_numbers_each_side_on_its_own():
    def spec(label, names):
        return SideSpec(
            label, "Team", [OperativeSpec(name=n, apl=2, move=6, save=4, wounds=7) for n in names]
        )

    state = new_battle(spec("Anna", ["Gunner"] * 2 + ["Leader"]), spec("Ben", ["Gunner", "Leader"]))
    assert [op.name for op in state.operatives] == [
        "Gunner 1",
        "Gunner 2",
        "Leader",
        "Gunner",
        "Leader",
    ]
    assert label(state, state.operative("a-2")) == "Gunner 2 (Anna)"
