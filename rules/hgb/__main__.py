"""Command line: ``python -m rules.hgb check [DIR ...]``.

Validates the built-in game data, plus the host directories of BLITZ_DATA_DIRS and those given,
prints the data fingerprint, what was loaded, and every starter preset with its TV. Exits 1 with
the messages when anything is invalid (or a preset no longer costs its printed TV), 2 on misuse.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from rules.hgb.army import preset_roster, roster_cost, roster_problems
from rules.hgb.catalog import DataError, env_data_dirs, load_catalog

USAGE = "usage: python -m rules.hgb check [DIR ...]"


def check(dirs: Sequence[str]) -> int:
    extra = (*env_data_dirs(), *dirs)
    try:
        catalog = load_catalog(extra)
    except DataError as error:
        print("The game data is invalid:", file=sys.stderr)
        for message in error.messages:
            print(f"  {message}", file=sys.stderr)
        return 1
    print(f"Data version {catalog.data_version}, fingerprint {catalog.fingerprint}")
    counts = ", ".join(f"{number} {kind}" for kind, number in catalog.counts().items())
    print(f"Loaded {counts} from {len(catalog.sources)} files:")
    for source in catalog.sources:
        origin = "built-in" if source.builtin else "host"
        print(f"  {source.path} ({origin}, data version {source.data_version})")
    failures = []
    for preset in catalog.presets_in_order():
        roster = preset_roster(catalog, preset.id)
        cost = roster_cost(roster, catalog)
        print(f"{preset.name}: {cost.total} TV")
        if cost.total != preset.tv:
            failures.append(
                f"{preset.name} costs {cost.total} TV, but the text prints {preset.tv} TV."
            )
        failures.extend(
            f"{preset.name}: {problem.message}" for problem in roster_problems(roster, catalog)
        )
    if failures:
        print("The game data is invalid:", file=sys.stderr)
        for message in failures:
            print(f"  {message}", file=sys.stderr)
        return 1
    print("OK")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] != "check":
        print(USAGE, file=sys.stderr)
        return 2
    return check(args[1:])


if __name__ == "__main__":
    sys.exit(main())
