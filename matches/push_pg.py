"""The push across app servers: PostgreSQL's LISTEN/NOTIFY feeding each process's MemoryBroker.

``publish`` sends ``NOTIFY blitz_push, '<pk> <seq>'`` through Django's connection, after the
change committed (``matches.push.publish_on_commit``); PostgreSQL hands it to every connection
listening on the channel, on every app server. Each app process holds ONE such connection,
opened on the first stream the process serves, in a thread of its own with its own event loop
(psycopg 3, async): it lives as long as the process, whatever server or event loop the streams
run in. Each notification goes to a ``MemoryBroker``, which wakes that match's streams in this
process. A stream itself holds no database connection: a thousand open boards cost one
listening connection per process.

A stream starts once the connection listens (the first stream of a process waits those few
milliseconds; a stream that finds no connection within 5 s ends, and its board polls and comes
back). When the connection drops (a database restart, a network cut), every stream of the process
ends at once rather than stay silent while changes go unheard: the boards poll, and open their
streams again, which start with the match's current number. The connection is opened again after
0.5 s, doubling to 30 s, with jitter; a silent network cut is found within a minute (a query
every 30 s, and TCP keep-alives).
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
import weakref
from collections.abc import AsyncIterator, Callable
from contextlib import aclosing
from functools import partial
from typing import Any

import psycopg
from django.db import connection, connections

from matches.push import MemoryBroker

logger = logging.getLogger(__name__)

CHANNEL = "blitz_push"
APPLICATION_NAME = "blitz-push-listener"  # how the listening connection shows in pg_stat_activity
FIRST_RETRY_SECONDS = 0.5
LAST_RETRY_SECONDS = 30.0
CHECK_SECONDS = 30.0  # a query this often on a quiet connection finds a silent network cut
THREAD_NAME = "blitz-push-listener"
CONNECT_WAIT_SECONDS = 5.0  # how long a stream waits for the listening connection


class PgBroker:
    """``matches.push`` broker for several app servers sharing one PostgreSQL database."""

    def __init__(self) -> None:
        self.memory = MemoryBroker()
        LISTENER.feed(self.memory)

    def publish(self, match_pk: int, seq: int) -> None:
        # The one SQL the app writes by hand: LISTEN/NOTIFY has no ORM API. pg_notify() is
        # NOTIFY taking its channel and payload as parameters. Inside a transaction PostgreSQL
        # sends it at commit, and not at all on a rollback.
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{match_pk} {seq}"])

    async def listen(self, match_pk: int) -> AsyncIterator[int]:
        """The numbers published for ``match_pk`` on any app server, from now on; ends when the
        process's listening connection is lost (or cannot be had within 5 s)."""
        if LISTENER.start():
            # The process's first stream: its connection opens now. Waited for here, before
            # this stream listens and its board is told the match's number (a few ms, once
            # per process), so no change made meanwhile goes unheard.
            LISTENER.wait(CONNECT_WAIT_SECONDS)
        for _ in range(int(CONNECT_WAIT_SECONDS / 0.01)):
            if LISTENER.connected:
                break
            await asyncio.sleep(0.01)  # lost, being opened again: this board waits or polls
        else:
            return
        async with aclosing(self.memory.listen(match_pk)) as seqs:
            async for seq in seqs:
                yield seq

    def listening(self, match_pk: int | None = None) -> int:
        """How many streams of this process listen (to ``match_pk``, or to any match)."""
        return self.memory.listening(match_pk)

    def end_all(self) -> None:
        """End every stream of this process (their boards poll and open them again)."""
        self.memory.end_all()


class Listener:
    """The process's one listening connection, in a thread of its own with its own event loop;
    it hands each notification to the brokers it feeds."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop: Callable[[], object] = lambda: None
        self._connected = threading.Event()  # set while LISTEN is in force
        self._fed: weakref.WeakSet[MemoryBroker] = weakref.WeakSet()

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def feed(self, memory: MemoryBroker) -> None:
        with self._lock:
            self._fed.add(memory)

    def start(self) -> bool:
        """Open the connection (once): True when this call started it."""
        with self._lock:
            if self._thread is not None:
                return False
            params = connection_params(connections["default"].settings_dict)
            loop = asyncio.new_event_loop()
            task = loop.create_task(self._listen_forever(params))
            self._thread = threading.Thread(
                target=run_until_cancelled, args=(loop, task), name=THREAD_NAME, daemon=True
            )
            self._stop = partial(loop.call_soon_threadsafe, task.cancel)
            self._thread.start()
            return True

    def wait(self, seconds: float) -> bool:
        return self._connected.wait(seconds)

    def stop(self) -> None:
        """Close the connection and end its thread (its streams end; a process exiting needs
        not): the next stream opens it again."""
        with self._lock:
            thread, self._thread = self._thread, None
            stop, self._stop = self._stop, lambda: None
        if thread is not None:
            stop()
            thread.join(timeout=10)
            self._lost()

    async def _listen_forever(self, params: dict[str, Any]) -> None:
        delay = FIRST_RETRY_SECONDS
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(**params) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self._connected.set()
                    delay = FIRST_RETRY_SECONDS
                    while True:
                        async for notify in conn.notifies(timeout=CHECK_SECONDS):
                            self._deliver(notify.payload)
                        await conn.execute("SELECT 1")
            except Exception as error:  # noqa: BLE001 (whatever it was, listen again)
                logger.warning("The push listener lost its connection (%s); retrying.", error)
            self._lost()
            await asyncio.sleep(delay * random.uniform(0.5, 1.5))
            delay = min(delay * 2, LAST_RETRY_SECONDS)

    def _fed_now(self) -> list[MemoryBroker]:
        with self._lock:
            return list(self._fed)

    def _deliver(self, payload: str) -> None:
        match_pk, _, seq = payload.partition(" ")
        try:
            pk, number = int(match_pk), int(seq)
        except ValueError:
            logger.warning("The push listener ignored a notification: %r", payload)
            return
        for memory in self._fed_now():
            memory.deliver(pk, number)

    def _lost(self) -> None:
        """Changes now go unheard here: every stream ends, its board polls and comes back."""
        if self._connected.is_set():
            self._connected.clear()
            for memory in self._fed_now():
                memory.end_all()


LISTENER = Listener()


def run_until_cancelled(loop: asyncio.AbstractEventLoop, task: asyncio.Task[None]) -> None:
    asyncio.set_event_loop(loop)
    try:
        loop.run_until_complete(task)
    except asyncio.CancelledError:
        pass
    finally:
        loop.run_until_complete(loop.shutdown_default_executor())
        loop.close()


def connection_params(database: dict[str, Any]) -> dict[str, Any]:
    """psycopg connection parameters for the listening connection, from a DATABASES entry."""
    params = {
        "dbname": database["NAME"],
        "user": database["USER"],
        "password": database["PASSWORD"],
        "host": database["HOST"],
        "port": database["PORT"],
    }
    return {
        **{name: value for name, value in params.items() if value},
        "autocommit": True,
        "application_name": APPLICATION_NAME,
        "keepalives": 1,
        "keepalives_idle": 30,
        "keepalives_interval": 10,
        "keepalives_count": 3,
    }
