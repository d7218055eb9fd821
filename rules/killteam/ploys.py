"""A team's own ploys, named by its players: each strategic or firefight, with its CP cost
(docs/killteam-readings.md, 'Ploys'). The core rules give no faction ploys, only Command Re-roll
(offered to every team) and "Listen kosten jeweils 1 BP" (each costs 1 CP): a team's card may say
otherwise, so the cost is the team's figure, 1 unless the player types another. Illegal input
raises ``ProfileError`` naming the ploy and the field."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.killteam.command import COMMAND_REROLL, PLOY_COST
from rules.killteam.profile import MAX_NAME, Problem, ProfileError

STRATEGIC, FIREFIGHT = "strategic", "firefight"
PLOY_KINDS = {STRATEGIC: "strategic manoeuvre", FIREFIGHT: "firefight ploy"}
MAX_PLOYS = 30
"""Size bound of a team's ploy list (the board stays short): the app's, the text sets none."""
MAX_COST = 9
"""The highest CP cost Blitz takes for a ploy: the app's bound, the text gives only 1."""


@dataclass(frozen=True)
class Ploy:
    name: str
    kind: str  # STRATEGIC or FIREFIGHT
    cost: int = PLOY_COST

    @property
    def kind_words(self) -> str:
        return PLOY_KINDS[self.kind]


def _say(where: str, text: str) -> str:
    """A problem's sentence: after "Ploy 2: ", or on its own with a capital."""
    return where + text if where else text[:1].upper() + text[1:]


def same_name(a: str, b: str) -> bool:
    """Ploy names are told apart ignoring case and spacing ("Seek and destroy" is one ploy)."""
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def read_ploy(data: Any, where: str = "", field: str = "ploy") -> Ploy:
    """One ploy from plain data ({"name", "kind", "cost"}), checked; problems name ``field``."""
    if not isinstance(data, Mapping):
        raise ProfileError([Problem(field, _say(where, "not a ploy."))])
    problems: list[tuple[str, str]] = []
    raw_name = data.get("name")
    name = " ".join(raw_name.split()) if isinstance(raw_name, str) else ""
    if not name:
        problems.append(("name", "give the ploy a name."))
    elif len(name) > MAX_NAME:
        problems.append(("name", f"a ploy's name can be at most {MAX_NAME} characters."))
    elif same_name(name, COMMAND_REROLL):
        problems.append(
            ("name", f"{COMMAND_REROLL} is in the core rules for every team: the board offers it.")
        )
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in PLOY_KINDS:
        kind = ""
        problems.append(("kind", "a ploy is strategic or firefight."))
    cost = data.get("cost", PLOY_COST)
    if isinstance(cost, bool) or not isinstance(cost, int) or not 0 <= cost <= MAX_COST:
        problems.append(("cost", f"a ploy's cost is a whole number, 0 to {MAX_COST} CP."))
    if problems:
        raise ProfileError([Problem(f"{field}.{key}", _say(where, text)) for key, text in problems])
    return Ploy(name, kind, cost)


def read_ploys(data: Any) -> tuple[Ploy, ...]:
    """A team's stored ploy list, checked whole: each problem names its ploy."""
    if data is None:
        return ()
    if isinstance(data, str) or not isinstance(data, list | tuple):
        raise ProfileError([Problem("ploys", "The ploys must be a list.")])
    if len(data) > MAX_PLOYS:
        raise ProfileError([Problem("ploys", f"A team names at most {MAX_PLOYS} ploys.")])
    ploys: list[Ploy] = []
    problems: list[Problem] = []
    for index, item in enumerate(data):
        try:
            ploy = read_ploy(item, f"Ploy {index + 1}: ", f"ploys.{index}")
        except ProfileError as error:
            problems += error.problems
            continue
        if any(same_name(ploy.name, other.name) for other in ploys):
            problems.append(
                Problem(f"ploys.{index}.name", f"Ploy {index + 1}: {ploy.name} is named twice.")
            )
            continue
        ploys.append(ploy)
    if problems:
        raise ProfileError(problems)
    return tuple(ploys)


def add_ploy(ploys: tuple[Ploy, ...], name: Any, kind: Any, cost: Any) -> tuple[Ploy, ...]:
    """The list with one more ploy; a second ploy of the same name is refused."""
    ploy = read_ploy({"name": name, "kind": kind, "cost": cost})
    if any(same_name(ploy.name, other.name) for other in ploys):
        already = f"The team already has a ploy called {ploy.name}."
        raise ProfileError([Problem("ploy.name", already)])
    if len(ploys) >= MAX_PLOYS:
        raise ProfileError([Problem("ploy", f"A team names at most {MAX_PLOYS} ploys.")])
    return (*ploys, ploy)


def remove_ploy(ploys: tuple[Ploy, ...], name: str) -> tuple[Ploy, ...]:
    """The list without the ploy called ``name`` (already gone: unchanged)."""
    return tuple(ploy for ploy in ploys if not same_name(ploy.name, name))


def ploy_to_dict(ploy: Ploy) -> dict[str, Any]:
    return {"name": ploy.name, "kind": ploy.kind, "cost": ploy.cost}


def find_ploy(ploys: tuple[Ploy, ...], name: str) -> Ploy | None:
    for ploy in ploys:
        if same_name(ploy.name, name):
            return ploy
    return None
