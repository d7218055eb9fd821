"""The push across app servers: PostgreSQL's LISTEN/NOTIFY feeding each process's MemoryBroker.

``publish`` sends ``NOTIFY blitz_push, '<pk> <seq>'`` through Django's connection, after the
change committed (``matches.push.publish_on_commit``); PostgreSQL hands it to every connection
listening on the channel, on every app server. Each app process holds ONE such connection,
opened on the first stream the process serves, in a thread of its own with its own event loop
(psycopg 3, async): it lives as long as the process, whatever server or event loop the streams
run in. Each notification goes to a ``MemoryBroker``, which wakes that match's streams in this
process. A stream itself holds no database connection: a thousand open boards cost one
listening connection per process.

Each time the connection starts listening (the first time, and after it dropped), every match
with a stream here is told its current event number, so a change made while nothing listened
still reaches its boards (they poll once and catch up). A dropped connection is opened again
after 0.5 s, doubling to 30 s, with jitter; a silent network cut is found within a minute (a
query every 30 s, and TCP keep-alives).
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import aclosing
from functools import partial
from typing import Any

import psycopg
from django.db import connection, connections

from matches.models import Match
from matches.push import MemoryBroker

logger = logging.getLogger(__name__)

CHANNEL = "blitz_push"
APPLICATION_NAME = "blitz-push-listener"  # how the listening connection shows in pg_stat_activity
FIRST_RETRY_SECONDS = 0.5
LAST_RETRY_SECONDS = 30.0
CHECK_SECONDS = 30.0  # a query this often on a quiet connection finds a silent network cut
THREAD_NAME = "blitz-push-listener"


class PgBroker:
    """``matches.push`` broker for several app servers sharing one PostgreSQL database."""

    def __init__(self) -> None:
        self.memory = MemoryBroker()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop: Callable[[], object] = lambda: None
        self._listening = threading.Event()  # set while LISTEN is in force
        self._streams: Counter[int] = Counter()  # match pk -> open streams in this process

    def publish(self, match_pk: int, seq: int) -> None:
        # The one SQL the app writes by hand: LISTEN/NOTIFY has no ORM API. pg_notify() is
        # NOTIFY taking its channel and payload as parameters. Inside a transaction PostgreSQL
        # sends it at commit, and not at all on a rollback.
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{match_pk} {seq}"])

    async def listen(self, match_pk: int) -> AsyncIterator[int]:
        """The numbers published for ``match_pk`` on any app server, from now on."""
        self.start()
        with self._lock:
            self._streams[match_pk] += 1
        try:
            async with aclosing(self.memory.listen(match_pk)) as seqs:
                async for seq in seqs:
                    yield seq
        finally:
            with self._lock:
                self._streams[match_pk] -= 1
                if self._streams[match_pk] <= 0:
                    del self._streams[match_pk]

    @property
    def listening(self) -> bool:
        """Whether the process's connection listens now."""
        return self._listening.is_set()

    def start(self) -> None:
        """Open the process's listening connection in a thread of its own, once (the first
        ``listen`` does it)."""
        with self._lock:
            if self._thread is not None:
                return
            params = connection_params(connections["default"].settings_dict)
            loop = asyncio.new_event_loop()
            task = loop.create_task(self._listen_forever(params))
            self._thread = threading.Thread(
                target=run_until_cancelled, args=(loop, task), name=THREAD_NAME, daemon=True
            )
            self._stop = partial(loop.call_soon_threadsafe, task.cancel)
            self._thread.start()

    def stop(self) -> None:
        """Close the listening connection and end its thread (a process exiting needs not)."""
        with self._lock:
            thread, self._thread = self._thread, None
            stop, self._stop = self._stop, lambda: None
        if thread is not None:
            stop()
            thread.join(timeout=10)
        self._listening.clear()

    async def _listen_forever(self, params: dict[str, Any]) -> None:
        delay = FIRST_RETRY_SECONDS
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(**params) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self._listening.set()
                    delay = FIRST_RETRY_SECONDS
                    # Changes made before LISTEN took effect reached no stream here.
                    await asyncio.to_thread(self._catch_up)
                    while True:
                        async for notify in conn.notifies(timeout=CHECK_SECONDS):
                            self._deliver(notify.payload)
                        await conn.execute("SELECT 1")
            except Exception as error:  # noqa: BLE001 (whatever it was, listen again)
                logger.warning("The push listener lost its connection (%s); retrying.", error)
            self._listening.clear()
            await asyncio.sleep(delay * random.uniform(0.5, 1.5))
            delay = min(delay * 2, LAST_RETRY_SECONDS)

    def _deliver(self, payload: str) -> None:
        match_pk, _, seq = payload.partition(" ")
        try:
            self.memory.deliver(int(match_pk), int(seq))
        except ValueError:
            logger.warning("The push listener ignored a notification: %r", payload)

    def _catch_up(self) -> None:
        """Tell this process's open streams their match's current number (after a gap)."""
        with self._lock:
            pks = list(self._streams)
        if not pks:
            return
        try:
            for pk, seq in Match.objects.filter(pk__in=pks).values_list("pk", "seq"):
                self.memory.deliver(pk, seq)
        finally:
            connection.close()  # this thread's own: no connection is kept besides the listener


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
