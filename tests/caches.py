"""Every cache a process keeps between requests, emptied: each test starts as a fresh server.

Found by what they are, not by name, so a cache moved to another module is still cleared:
``functools`` caches (``cache_clear``), the app servers' LRU maps (``entries`` under a ``lock``,
``matches/lru.py``) and the catalogs loaded once (``rules.hgb.default_catalog()``, the rules text).
"""

from __future__ import annotations

import sys
from collections import OrderedDict

import rules.hgb

OURS = ("rules", "armies", "matches", "blitz_site")


_found: dict[str, object] = {"modules": 0, "caches": [], "catalogs": []}


def _find() -> None:
    """Where the caches are: looked for again only when more modules have been imported."""
    if _found["modules"] == len(sys.modules):
        return
    caches, catalogs = [], []
    for name, module in list(sys.modules.items()):
        if module is None or name.split(".", 1)[0] not in OURS:
            continue
        namespace = vars(module)
        for attribute, value in list(namespace.items()):
            if callable(getattr(value, "cache_clear", None)):
                caches.append(value.cache_clear)
            elif isinstance(getattr(value, "entries", None), OrderedDict) and hasattr(
                value, "lock"
            ):
                caches.append(_emptier(value))
            elif attribute.startswith("_") and (
                isinstance(value, rules.hgb.Catalog) or attribute in ("_default", "_builtin")
            ):
                catalogs.append((namespace, attribute))
    _found.update(modules=len(sys.modules), caches=caches, catalogs=catalogs)


def _emptier(lru):
    def empty() -> None:
        with lru.lock:
            lru.entries.clear()

    return empty


def clear_process_caches() -> None:
    rules.hgb.reset_default_catalog()
    _find()
    for clear in _found["caches"]:
        clear()
    for namespace, attribute in _found["catalogs"]:
        namespace[attribute] = None  # loaded again on first use


def stop_push_listener() -> None:
    """The process's PostgreSQL listening connection (matches/push_pg.py), if a test opened one:
    closed, so the next test's streams start on their own and the test database can be dropped
    at the end (an open connection would keep it)."""
    push_pg = sys.modules.get("matches.push_pg")
    if push_pg is not None:
        push_pg.LISTENER.stop()
