"""The game systems Blitz knows: one value per game, which every app may consult by its id.

A roster, a datacard pack and a match store the id of their game (``system``, "hgb" unless
said otherwise: everything made before there were two games is Heavy Gear Blitz). Code that
needs to know something about a game asks for it here, or in its own app's table of the game's
behaviour, and never writes ``if system == "killteam"``:

- ``blitz_site/systems.py`` (this module): what a game *is*: its id, its names, its rules package
  (``rules.hgb``, ``rules.killteam``: pure Python), and the one line the home page says of it.
  It imports no app, so every app may import it. The ``system`` columns are checked against it
  (``armies.models.known_system``), so a new game needs no migration.
- ``armies/systems/``: each game's ``Builder`` (``hgb.py``, ``killteam.py``): how its rosters
  are created, listed, shown, printed, copied, exported and imported, its datacard library (if
  any: the defaults on ``Builder`` say it has none) and its own URLconf (``Builder.urls``). The
  builder is thin; the game's pages, forms, presenters and services live in ``armies/<game>/``.
- ``matches/systems.py``: each game's tracker (how its match state is read, its board, where a
  match starts, which the match list's start buttons come from); a builder says whether a
  roster of its game can start a match (``Builder.play_url``).

Adding a third game changes these existing files, one entry each, and writes no migration:

- ``blitz_site/systems.py`` (here): the import of its rules package and its ``GameSystem``,
  appended to ``SYSTEMS`` (the order is the order players see; the first is the default);
- ``armies/systems/__init__.py``: its builder module in the import and in ``BUILDERS``;
- ``matches/systems.py``: its tracker row, when it has a tracker;
- ``pyproject.toml``: its packages in the import-linter contracts (``rules.<game>`` among the
  games in the independence and layers contracts, ``armies.<game>`` in the armies one; the
  layers contract is exhaustive, so ``make lint`` fails until the rules package is placed).

Everything else is new files: ``rules/<game>/`` (stdlib only; the shared ``rules.checks``,
``rules.exact`` and ``rules.eventlog`` are reused, not copied), ``armies/systems/<game>.py``
(its ``Builder``), ``armies/<game>/`` (its editor's views, forms, presenters, services and
``urls.py``), ``templates/armies/<game>_*.html``, and, for a tracker, ``matches/<game>/``. My
rosters, My datacards, the match list, the URLconf and the home page pick the game up from the
registries.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

import rules.hgb
import rules.killteam
import rules.mecha
import rules.ww2


@dataclass(frozen=True)
class GameSystem:
    id: str  # stored in Roster.system, DataPack.system, Match.system; never changes
    name: str  # the game's full name, as the pages title it
    short_name: str  # in lists, buttons and labels
    rules: ModuleType  # its rules package (pure Python, ``rules/``)
    blurb: str  # what Blitz does for it, one sentence on the home page

    def __str__(self) -> str:
        return self.name


HGB = GameSystem(
    id="hgb",
    name="Heavy Gear Blitz! Locked & Loaded",
    short_name="Heavy Gear Blitz",
    rules=rules.hgb,
    blurb="Combat groups, loadouts, TV and legality from the quickstart; live match tracking.",
)
KILLTEAM = GameSystem(
    id="killteam",
    name="Kill Team (2024)",
    short_name="Kill Team",
    rules=rules.killteam,
    blurb="Operatives from the profiles you type in, and the team's grenades.",
)

WW2 = GameSystem(
    id="ww2",
    name="WWII skirmish (rules fragment)",
    short_name="WWII skirmish",
    rules=rules.ww2,
    blurb="Vehicles with their crews and infantry, checked against what the rules fragment states.",
)

MECHA = GameSystem(
    id="mecha",
    name="Mecha attacks (rules fragment)",
    short_name="Mecha attacks",
    rules=rules.mecha,
    blurb="Unit and weapon cards you type in, checked against the attack rules' text.",
)

SYSTEMS: dict[str, GameSystem] = {system.id: system for system in (HGB, KILLTEAM, WW2, MECHA)}
DEFAULT = HGB
MAX_ID = 16  # the width of the ``system`` columns


def get(system_id: str) -> GameSystem:
    """The game with this id; KeyError for an id Blitz does not know."""
    return SYSTEMS[system_id]


def find(system_id: object) -> GameSystem | None:
    """The game with this id, or None (for ids that come from a request or a file)."""
    return SYSTEMS.get(system_id) if isinstance(system_id, str) else None
