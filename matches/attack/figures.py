"""A unit's weapons and figures for the helper: from its datacard, a data pack, or typed in."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from matches.lru import LRU
from matches.models import Match, MatchEvent
from rules.army import model_profile, roster_from_dict
from rules.catalog import Catalog, default_catalog
from rules.datapack import complete_catalog
from rules.errors import RulesError
from rules.match import Unit

LOADOUTS_KEPT = 64
SPEED_WORDS = {"stationary": "Stationary", "combat": "Combat Speed", "top": "Top Speed"}


@dataclass(frozen=True)
class WeaponInfo:
    """A weapon a model carries, with the figures the data gives (None: not given)."""

    code: str
    name: str
    dm: int | None = None
    accuracy: int | None = None
    rof: int | None = None
    limited_ammo: int | None = None
    assumed: bool = False
    """Not in the model's loadout as the data gives it (a Hand Grenade offered to any model)."""

    @property
    def key(self) -> str:
        return self.code


def hand_grenade(catalog: Catalog | None = None) -> WeaponInfo:
    """A Hand Grenade for a model the data gives none: its figures as the data has them."""
    weapon = (catalog or default_catalog()).weapons.get("HG")
    if weapon is None:
        return WeaponInfo("HG", "Hand Grenade", assumed=True)
    return WeaponInfo(
        weapon.code, weapon.name, weapon.dm, weapon.accuracy, weapon.rof, None, assumed=True
    )


# Each model's weapons, by (match, watch slug, side, data fingerprint of the snapshot).
LOADOUTS: LRU[dict[str, tuple[WeaponInfo, ...]]] = LRU(LOADOUTS_KEPT)


def match_catalog(match: Match, side: str) -> Catalog:
    """The game data a side of the match started with: completed by the datacard pack the match
    recorded for it when it started (a later edit of the pack never reaches the match)."""
    record = getattr(match, f"{side}_pack", None) or {}
    return complete_catalog(default_catalog(), record.get("figures") or {})


def catalog_of(match: Match) -> Callable[[Unit], Catalog]:
    """Each model's game data, by its side (worked out once per side and request)."""
    catalogs = {side: match_catalog(match, side) for side in ("a", "b")}
    return lambda unit: catalogs[unit.id[:1]]


def side_weapons(
    army: dict, side: str, catalog: Catalog | None = None
) -> dict[str, tuple[WeaponInfo, ...]]:
    """The weapons of every model of a roster snapshot, by model id ("a-1-2")."""
    catalog = catalog or default_catalog()
    try:
        roster = roster_from_dict(army, catalog)
    except RulesError:
        return {}
    weapons = {}
    for g, group in enumerate(roster.groups):
        for m in range(len(group.models)):
            profile = model_profile(roster, catalog, g, m)
            weapons[f"{side}-{g + 1}-{m + 1}"] = tuple(
                WeaponInfo(w.code, w.name, w.dm, w.accuracy, w.rof, w.mount.limited_ammo)
                for w in profile.weapons
            )
    return weapons


def weapons_of(match: Match, unit_id: str) -> tuple[WeaponInfo, ...]:
    """The weapons of one model of the match (read from the snapshot once per app server)."""
    side = unit_id[:1]
    # The watch slug (random, never changed) keeps a match whose number is reused, as in tests,
    # from taking another's weapons (as for the states in ``matches.models``).
    key = (match.pk, match.watch_slug, side, getattr(match, f"{side}_fingerprint"))
    weapons = LOADOUTS.get(key)
    if weapons is None:
        army = Match.objects.filter(pk=match.pk).values_list(f"{side}_army", flat=True).get()
        weapons = side_weapons(army, side, match_catalog(match, side))
        LOADOUTS.put(key, weapons)
    return weapons.get(unit_id, ())


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


def datacard_move(unit: Unit, which: str, catalog: Catalog | None = None) -> int | None:
    """The movement modifier the data gives for the model's mode and speed (None: not given)."""
    model = (catalog or default_catalog()).models.get(unit.model)
    line = model.movement_for(unit.mode.value, unit.speed.value) if model else None
    if line is None:
        return None
    return line.attack_modifier if which == "att" else line.defense_modifier


def datacard_model(unit: Unit, figure: str, catalog: Catalog | None = None) -> int | None:
    """A model figure the data gives ("size", "sensors"), None when it does not."""
    model = (catalog or default_catalog()).models.get(unit.model)
    return getattr(model, figure, None) if model else None


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
