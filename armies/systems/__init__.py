"""Each game's ``Builder``, by game id: how its rosters are built, shown, copied and exported.

One module per game (``hgb.py``, ``killteam.py``), each a thin ``Builder`` over the game's own
package (``armies/hgb/``, ``armies/killteam/``); ``BUILDERS`` lists them in the order of
``blitz_site.systems.SYSTEMS`` (see there for adding a game). The generic roster pages call
``for_roster`` and ask the builder; they never test which game a roster is.

The builders stay here rather than in their game packages: this package is the one place a
game plugs in, and the game packages import ``armies.systems.base`` (the ``Builder`` class and
its helpers) but never the registry, so no game package depends on another through it.
"""

from __future__ import annotations

from django.db import transaction

from armies import exports, services
from armies.models import DataPack, Owner, Roster
from armies.services import RosterError
from armies.systems import hgb, killteam, mecha, ww2
from armies.systems.base import Builder, ListItem, Templates
from blitz_site import systems

BUILDERS: dict[str, Builder] = {
    builder.system.id: builder
    for builder in (hgb.BUILDER, killteam.BUILDER, ww2.BUILDER, mecha.BUILDER)
}
assert list(BUILDERS) == list(systems.SYSTEMS), "one builder per game, in the games' order"
DEFAULT = BUILDERS[systems.DEFAULT.id]


def every() -> list[Builder]:
    return list(BUILDERS.values())


def find(system_id: object) -> Builder | None:
    """The builder of a game id from a request or a file, or None."""
    return BUILDERS.get(system_id) if isinstance(system_id, str) else None


def for_roster(roster: Roster) -> Builder:
    return BUILDERS[roster.system]


def for_pack(pack: DataPack | None) -> Builder:
    return BUILDERS[pack.system] if pack is not None else DEFAULT


def for_pack_file(filename: str) -> Builder:
    """The game whose pack files end as ``filename`` does (".json": Kill Team); any other name
    is read as the first game's, as before there were two."""
    for builder in BUILDERS.values():
        if builder.pack_file_suffix and filename.lower().endswith(builder.pack_file_suffix):
            return builder
    return DEFAULT


def copy_fields(roster: Roster, name: str) -> dict:
    """A roster's fields for a copy named ``name``, as its game makes them."""
    return for_roster(roster).copy_fields(roster, name)


@transaction.atomic
def roster_import(*, owner: Owner, importer: str, text: str, key: str = "") -> Roster:
    """Rebuild a roster of any game from an exported JSON file; refuse it whole, with reasons,
    if it's bad. Once per form ``key``: a second submit gets the roster the first made."""
    if first := services.created_with(owner, key):
        return first
    system_id, data = exports.read_export(text)
    builder = find(system_id)
    if builder is None:
        raise RosterError(f"This roster is for a game Blitz does not know (“{system_id[:40]}”).")
    return services.new_roster(owner, key=key, **builder.import_fields(data, importer=importer))


__all__ = [
    "BUILDERS",
    "DEFAULT",
    "Builder",
    "ListItem",
    "Templates",
    "copy_fields",
    "every",
    "find",
    "for_pack",
    "for_roster",
    "roster_import",
]
