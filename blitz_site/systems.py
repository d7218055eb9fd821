"""The game systems Blitz knows: one value per game, which every app may consult by its id.

A roster, a datacard pack and a match store the id of their game (``system``, "hgb" unless
said otherwise: everything made before there were two games is Heavy Gear Blitz). Code that
needs to know something about a game asks for it here, or in its own app's table of the game's
behaviour, and never writes ``if system == "killteam"``:

- ``blitz_site/systems.py`` (this module): what a game *is*: its id, its names, its rules package
  (``rules`` or ``rules.killteam``, pure Python), and the one line the home page says of it.
  It imports no app, so every app may import it.
- ``armies/systems/``: how a game's rosters are created, edited, shown, printed, copied,
  exported and imported, and its datacard library (one module per game, ``hgb.py``,
  ``killteam.py``, each a ``Builder``).
- ``matches/systems.py``: each game's tracker (how its match state is read, its board, where a
  match starts; Kill Team's in ``matches/killteam/``); a builder says whether a roster of its
  game can start a match (``Builder.play_url``).

Adding a third game:

1. its rules as a package of ``rules/`` (stdlib only; shared dice and event-log modules are
   reused, not copied);
2. a ``GameSystem`` below, appended to ``SYSTEMS`` (the order is the order players see; the
   first is the default);
3. ``armies/systems/<game>.py`` with its ``Builder`` (templates, forms, the roster document,
   export and import), listed in ``armies/systems/__init__.py``, and its pages' templates
   under ``templates/armies/<game>_*.html``;
4. a migration: the ``system`` fields' choices come from ``choices()``;
5. when it has a tracker, a row in ``matches/systems.py``, its modules in ``matches/<game>/``
   and ``Builder.play_url``.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

import rules.hgb
import rules.killteam


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

SYSTEMS: dict[str, GameSystem] = {system.id: system for system in (HGB, KILLTEAM)}
DEFAULT = HGB
MAX_ID = 16  # the width of the ``system`` columns


def get(system_id: str) -> GameSystem:
    """The game with this id; KeyError for an id Blitz does not know."""
    return SYSTEMS[system_id]


def find(system_id: object) -> GameSystem | None:
    """The game with this id, or None (for ids that come from a request or a file)."""
    return SYSTEMS.get(system_id) if isinstance(system_id, str) else None
