"""Telling every open board of a match, at once, that it changed: the push.

A board holds a stream (``matches.streams``) and polls the moment the stream says "seq N": the
poll stays the one path that draws a change, the push only makes it run now instead of within
2 s. What goes through here is a match's id and a number, nothing a player sees.

The broker is the process's fan-out. ``publish(match_pk, seq)`` is called after a change commits
(the tap writer, a join, a freed or ended seat: ``publish_on_commit``), from whatever thread the
change ran in; ``listen(match_pk)`` is an async iterator of the numbers published for that match,
for one stream, cleaned up when the stream closes. ``MemoryBroker`` fans out inside one process
(SQLite, ``make run``): ``deliver`` hands the number to each listener's event loop. A broker
across app servers (setting ``BLITZ_PUSH_BROKER``, a dotted path) feeds its process's
``MemoryBroker.deliver`` from the database's notifications.

``SEATS_ENDED`` (-1) is not an event number: published after a seat of the match was ended
(a logout, a password change) or freed, it makes each player's stream check its seat again
and close when the seat is no longer its own.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Protocol

from django.conf import settings
from django.db import transaction
from django.utils.module_loading import import_string

SEATS_ENDED = -1


class Broker(Protocol):
    def publish(self, match_pk: int, seq: int) -> None: ...

    def listen(self, match_pk: int) -> AsyncIterator[int]: ...


_END = object()  # a listener's queue: stop


@dataclass(eq=False)
class _Listener:
    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue[int | object] = field(default_factory=asyncio.Queue)


class MemoryBroker:
    """Fan-out inside one process: every listener of a match gets every number published."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: dict[int, set[_Listener]] = {}

    def publish(self, match_pk: int, seq: int) -> None:
        self.deliver(match_pk, seq)

    def deliver(self, match_pk: int, seq: int) -> None:
        """Wake this process's listeners of ``match_pk`` with ``seq`` (safe from any thread)."""
        with self._lock:
            listeners = list(self._listeners.get(match_pk, ()))
        for listener in listeners:
            try:
                listener.loop.call_soon_threadsafe(listener.queue.put_nowait, seq)
            except RuntimeError:
                pass  # its event loop has closed: the stream is gone

    def end_all(self) -> None:
        """End every listener of this process (its streams close; their boards poll and open
        them again): when the notifications stop coming in, say so instead of staying silent."""
        with self._lock:
            listeners = [listener for group in self._listeners.values() for listener in group]
        for listener in listeners:
            try:
                listener.loop.call_soon_threadsafe(listener.queue.put_nowait, _END)
            except RuntimeError:
                pass

    def listening(self, match_pk: int | None = None) -> int:
        """How many streams listen (to ``match_pk``, or to any match)."""
        with self._lock:
            if match_pk is not None:
                return len(self._listeners.get(match_pk, ()))
            return sum(len(group) for group in self._listeners.values())

    async def listen(self, match_pk: int) -> AsyncIterator[int]:
        """The numbers published for ``match_pk`` from now on; several waiting at once come as
        one (the highest: a poll fetches everything up to it). ``SEATS_ENDED`` comes as itself."""
        listener = _Listener(asyncio.get_running_loop())
        with self._lock:
            self._listeners.setdefault(match_pk, set()).add(listener)
        try:
            while True:
                waiting = [await listener.queue.get()]
                while not listener.queue.empty():
                    waiting.append(listener.queue.get_nowait())
                if _END in waiting:
                    return
                if SEATS_ENDED in waiting:
                    yield SEATS_ENDED
                numbers = [seq for seq in waiting if isinstance(seq, int) and seq != SEATS_ENDED]
                if numbers:
                    yield max(numbers)
        finally:
            with self._lock:
                group = self._listeners.get(match_pk)
                if group is not None:
                    group.discard(listener)
                    if not group:
                        del self._listeners[match_pk]


@cache
def broker() -> Broker:
    """The process's broker (the class named by the setting ``BLITZ_PUSH_BROKER``)."""
    return import_string(settings.BLITZ_PUSH_BROKER)()


def publish_on_commit(match_pks: Iterable[int], seq: int) -> None:
    """Publish ``seq`` for each match once the current transaction commits (at once outside
    one): a board told before the change is visible would poll and find nothing new."""
    pks = list(match_pks)
    if pks:
        # robust: a push that fails never fails the change (the boards' polls still find it)
        transaction.on_commit(lambda: [broker().publish(pk, seq) for pk in pks], robust=True)
