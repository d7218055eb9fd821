"""A model's weapons and figures for the helper: as the match recorded them, or typed in.

The helper reads each model's weapons and datacard figures from the match's state
(``rules.hgb.match``: recorded when the match started). ``match_state`` is the one place it
reads the game data, for a match stored before matches recorded them.
"""

from __future__ import annotations

import re
from dataclasses import replace

from matches.models import Match, MatchEvent
from rules.errors import RulesError
from rules.hgb.army import model_profile, roster_from_dict
from rules.hgb.catalog import Catalog, default_catalog
from rules.hgb.datapack import complete_catalog
from rules.hgb.match import MatchState, Side, Unit
from rules.hgb.match_build import hand_grenade, match_weapon, model_figures

SPEED_WORDS = {"stationary": "Stationary", "combat": "Combat Speed", "top": "Top Speed"}


def match_catalog(match: Match, side: str) -> Catalog:
    """The game data a side of the match started with: completed by the datacard pack the match
    recorded for it when it started (a later edit of the pack never reaches the match)."""
    record = getattr(match, f"{side}_pack", None) or {}
    return complete_catalog(default_catalog(), record.get("figures") or {})


def match_state(match: Match) -> MatchState:
    """The match's state with every model's weapons and datacard figures and each side's Hand
    Grenade, as the match recorded them when it started.

    A match stored before matches recorded them has None there: for it they are worked out now
    as the helper always did, from the side's roster snapshot and the datacard pack the match
    recorded, with today's game data (a roster the data no longer reads gives no weapons). The
    only place the helper reads the game data for a match."""
    state = match.current_state()
    if all(_recorded(side) for side in state.sides):
        return state
    sides = tuple(side if _recorded(side) else _worked_out(match, side) for side in state.sides)
    return replace(state, sides=sides)


def _recorded(side: Side) -> bool:
    return side.grenade is not None and all(
        unit.weapons is not None and unit.figures is not None for unit in side.units
    )


def _worked_out(match: Match, side: Side) -> Side:
    catalog = match_catalog(match, side.key)
    weapons: dict[str, tuple] = {}
    if any(unit.weapons is None for unit in side.units):
        army = Match.objects.filter(pk=match.pk).values_list(f"{side.key}_army", flat=True).get()
        try:
            roster = roster_from_dict(army, catalog)
        except RulesError:
            roster = None
        for g, group in enumerate(roster.groups if roster else ()):
            for m in range(len(group.models)):
                profile = model_profile(roster, catalog, g, m)
                weapons[f"{side.key}-{g + 1}-{m + 1}"] = tuple(
                    match_weapon(weapon) for weapon in profile.weapons
                )

    def unit_of(unit: Unit) -> Unit:
        return replace(
            unit,
            weapons=unit.weapons if unit.weapons is not None else weapons.get(unit.id, ()),
            figures=unit.figures
            if unit.figures is not None
            else model_figures(unit.model, catalog),
        )

    groups = tuple(
        replace(group, units=tuple(unit_of(unit) for unit in group.units)) for group in side.groups
    )
    return replace(side, groups=groups, grenade=side.grenade or hand_grenade(catalog))


# --- Figures: from the datacard, or typed in ------------------------------------------------------


def other_weapon_key(name: str) -> str:
    """The key of a weapon the data does not list for the model, typed in by name."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40]
    return f"name:{slug}" if slug else "name:other"


def move_figure(unit: Unit, which: str) -> str:
    """The name of a movement modifier figure: "att.walker.combat" or "def.ground.top"."""
    return f"{which}.{unit.mode.value}.{unit.speed.value}"


MOVE_PARTS = {"att": "attack_modifier", "def": "defense_modifier"}
PLAIN_FIGURES = {"models": ("armor", "size", "sensors"), "weapons": ("accuracy", "dm", "rof")}


def pack_figure(remember: tuple[str, str, str] | None) -> tuple[str, str, str] | None:
    """Where a figure the helper remembers goes in a datacard pack: ("models" or "weapons", id,
    the pack's key, such as "movement.walker.combat.attack_modifier"); None when a pack has no
    such figure (an Area Effect, a weapon typed in by name, a model the data does not know)."""
    if remember is None:
        return None
    scope, entry_id, figure = remember
    if scope not in PLAIN_FIGURES or entry_id not in getattr(default_catalog(), scope):
        return None
    if figure in PLAIN_FIGURES[scope]:
        return scope, entry_id, figure
    which, _, place = figure.partition(".")
    if scope == "models" and which in MOVE_PARTS and place.count(".") == 1:
        return scope, entry_id, f"movement.{place}.{MOVE_PARTS[which]}"
    return None


def move_words(unit: Unit) -> str:
    return f"{unit.mode.label} mode, {SPEED_WORDS[unit.speed.value]}"


def remembered_figures(match: Match) -> dict[str, dict[str, dict[str, int]]]:
    """The figures typed in during the match, the latest of each: ``{"models": {"jager":
    {"armor": 14}}, "weapons": {"LAC": {"accuracy": 0}}}``.

    A figure is kept on the match (``Match.figures``) as soon as it is typed and again when an
    attack is applied; attacks applied before that was so kept theirs only in their event, so
    the events count too, under the match's. An undone attack's figures count as well: undoing
    the attack does not make the Armor typed in for it wrong."""
    rows = (
        MatchEvent.objects.filter(match_id=match.pk, kind__in=("attack", "ecm"))
        .order_by("seq")
        .values_list("payload__figures", flat=True)
    )
    merged: dict[str, dict[str, dict[str, int]]] = {"models": {}, "weapons": {}}
    for figures in [*rows, match.figures]:
        if not isinstance(figures, dict):
            continue
        for scope in ("models", "weapons"):
            for key, values in (figures.get(scope) or {}).items():
                if isinstance(values, dict):
                    merged[scope].setdefault(key, {}).update(values)
    return merged
