"""The game data: its types, the loader, validation, host overrides and the data fingerprint.

The data lives in TOML files in ``rules/hgb/data/`` (read through ``importlib.resources``), each
stating its ``data_version``. A host may add files of its own, from the directories named in the
``BLITZ_DATA_DIRS`` environment variable (``os.pathsep``-separated) or passed as ``extra_dirs``: an
entry whose id is already loaded has the fields the host file gives replaced (a list field, such as
a loadout, is replaced whole); an entry with a new id is added and must be complete.

Never invent a game number: a figure the texts do not give is absent from the data and ``None``
here; ``show_figure`` renders it as "not provided".

Loading checks everything and fails with a ``DataError`` whose sentences each name the file, the
entry and the field.

The package: ``schema`` (the frozen dataclasses), ``sentences`` (words for the data),
``fields`` (what each entry may hold), ``reading`` (files, built-in and the host's),
``building`` (values and cross-checks) and ``loading`` (``load_catalog``, the fingerprint,
the cached default catalog). Callers import from ``rules.hgb.catalog``.
"""

from rules.hgb.catalog.fields import (
    Check,
    Fields,
)
from rules.hgb.catalog.loading import (
    default_catalog,
    load_catalog,
    reset_default_catalog,
)
from rules.hgb.catalog.reading import (
    env_data_dirs,
    read_host_entries,
)
from rules.hgb.catalog.schema import (
    ARC_NAMES,
    BOX_KINDS,
    BUILTIN_PREFIX,
    EDITIONS,
    ENV_DATA_DIRS,
    KINDS,
    MOVEMENT_MODES,
    NOT_PROVIDED,
    RANGE_BANDS,
    SPEEDS,
    Catalog,
    Choice,
    CoreRules,
    DataError,
    Faction,
    Limit,
    Model,
    Mount,
    MovementLine,
    Option,
    Preset,
    PresetGroup,
    Ranges,
    Skills,
    Slot,
    Source,
    Squad,
    Upgrade,
    Weapon,
    option_refusal,
    show_figure,
)
from rules.hgb.catalog.sentences import (
    article,
    number_word,
    sentence_case,
    with_article,
)

__all__ = [
    "ARC_NAMES",
    "BOX_KINDS",
    "BUILTIN_PREFIX",
    "Catalog",
    "Check",
    "Choice",
    "CoreRules",
    "DataError",
    "EDITIONS",
    "ENV_DATA_DIRS",
    "Faction",
    "Fields",
    "KINDS",
    "Limit",
    "MOVEMENT_MODES",
    "Model",
    "Mount",
    "MovementLine",
    "NOT_PROVIDED",
    "Option",
    "Preset",
    "PresetGroup",
    "RANGE_BANDS",
    "Ranges",
    "SPEEDS",
    "Skills",
    "Slot",
    "Source",
    "Squad",
    "Upgrade",
    "Weapon",
    "article",
    "default_catalog",
    "env_data_dirs",
    "load_catalog",
    "number_word",
    "option_refusal",
    "read_host_entries",
    "reset_default_catalog",
    "sentence_case",
    "show_figure",
    "with_article",
]
