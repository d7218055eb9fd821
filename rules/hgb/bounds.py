"""How big a roster Blitz keeps: bounds far above any army the rules allow.

A quickstart army is 610 TV: two combat groups of five (rules/hgb/data/*.toml); a combat group holds
at most six models (``max_group_size``), and the cheapest squad costs 205 TV for five. The
builder keeps illegal lists (they are marked "Not legal", never blocked), so the bounds leave
room for them while stopping a roster that would make every page slow (a 600-group import once
took 8-12 s and 14 MB to draw):

- ``MAX_GROUPS = 20``: ten times the starter force's two groups; 20 of the cheapest squads
  already cost 4,100 TV, nearly seven times the quickstart's 610.
- ``MAX_GROUP_MODELS = 10``: six legal models plus four over, so a too-large group can still be
  built and shown with its problem.
- ``MAX_MODELS = 100``: ten times the starter force's ten models (20 groups of five).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.errors import RulesError

if TYPE_CHECKING:
    from rules.hgb.army import Roster

MAX_GROUPS = 20
MAX_GROUP_MODELS = 10
MAX_MODELS = 100


def size_refusal(roster: Roster) -> str:
    """Why ``roster`` is bigger than Blitz keeps, as a sentence; empty when it is within bounds."""
    if len(roster.groups) > MAX_GROUPS:
        return (
            f"The roster has {len(roster.groups)} combat groups; Blitz keeps at most "
            f"{MAX_GROUPS} in one roster."
        )
    for number, group in enumerate(roster.groups, 1):
        if len(group.models) > MAX_GROUP_MODELS:
            return (
                f"Combat Group {number} has {len(group.models)} models; Blitz keeps at most "
                f"{MAX_GROUP_MODELS} in one combat group (the rules allow 6)."
            )
    models = sum(len(group.models) for group in roster.groups)
    if models > MAX_MODELS:
        return f"The roster has {models} models; Blitz keeps at most {MAX_MODELS} in one roster."
    return ""


def check_roster_size(roster: Roster) -> Roster:
    """Raise RulesError (with the sentence) if ``roster`` is bigger than Blitz keeps."""
    refusal = size_refusal(roster)
    if refusal:
        raise RulesError(refusal)
    return roster


def check_room_for_group(roster: Roster) -> None:
    if len(roster.groups) >= MAX_GROUPS:
        raise RulesError(
            f"This roster already has {MAX_GROUPS} combat groups, the most Blitz keeps in one "
            "roster; remove one before adding another."
        )
    _check_room_for_model(roster)


def check_room_for_model(roster: Roster, group_index: int) -> None:
    if len(roster.groups[group_index].models) >= MAX_GROUP_MODELS:
        raise RulesError(
            f"Combat Group {group_index + 1} already has {MAX_GROUP_MODELS} models, the most "
            "Blitz keeps in one combat group (the rules allow 6)."
        )
    _check_room_for_model(roster)


def _check_room_for_model(roster: Roster) -> None:
    if sum(len(group.models) for group in roster.groups) >= MAX_MODELS:
        raise RulesError(
            f"This roster already has {MAX_MODELS} models, the most Blitz keeps in one roster; "
            "remove one before adding more."
        )
