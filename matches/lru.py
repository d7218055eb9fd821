"""A small thread-safe LRU map for what an app server may keep between requests.

It only ever spares work: every entry is keyed by something that changes whenever the database
changes what the entry was made from, so the database stays the truth.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

V = TypeVar("V")


class LRU(Generic[V]):
    def __init__(self, size: int) -> None:
        self.size = size
        self.entries: OrderedDict[tuple, V] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple) -> V | None:
        with self.lock:
            found = self.entries.get(key)
            if found is not None:
                self.entries.move_to_end(key)
            return found

    def put(self, key: tuple, value: V) -> None:
        with self.lock:
            self.entries[key] = value
            self.entries.move_to_end(key)
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)
