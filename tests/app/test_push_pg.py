"""matches/push_pg.py on a real PostgreSQL: a change published through Django's connection
reaches the listeners of its match, and only those, through one listening connection per process
whatever the number of streams; when that connection is lost the streams end (their boards poll
and come back), and it comes back.

Skipped on SQLite (run with DATABASE_URL=postgres://...; CI's second stage does). The database
is committed as in production (``transaction=True``): PostgreSQL sends a NOTIFY at commit.
Each scenario runs in an event loop of its own, its database calls in the test's thread.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.db import connection, transaction
from django.test import Client

from matches.push_pg import APPLICATION_NAME, LISTENER, PgBroker
from tests.factories import make_match, make_user

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="needs PostgreSQL (DATABASE_URL=postgres://...)"
    ),
]


@pytest.fixture
def pg():
    yield PgBroker()
    LISTENER.stop()  # (tests/conftest.py does it after every test too)


@pytest.fixture
def played():
    owner = make_user("owner")
    player = Client()
    player.force_login(owner)
    return make_match(owner), player


def listeners() -> list[int]:
    """The process ids of this database's listening connections (the test's own SQL: the
    server's activity view has no model)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity"
            " WHERE application_name = %s AND datname = current_database()",
            [APPLICATION_NAME],
        )
        return [pid for (pid,) in cursor.fetchall()]


def end_backend(pid: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])


async def until(condition, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


def opened(broker: PgBroker, match_pk: int):
    """A stream's listener, already taking what is published (its first step runs now)."""
    seqs = broker.listen(match_pk)
    return seqs, asyncio.ensure_future(anext(seqs))


async def heard(listener, seconds: float) -> tuple[list[int], bool]:
    """What the listener hears within ``seconds``, and whether it ended by itself (then or
    earlier); it is closed after."""
    seqs, first = listener
    got: list[int] = []
    try:
        async with asyncio.timeout(seconds):
            got.append(await first)
            async for seq in seqs:
                got.append(seq)
        return got, True
    except StopAsyncIteration:
        return got, True
    except TimeoutError:
        return got, False
    finally:
        await seqs.aclose()


def test_a_change_published_through_djangos_connection_reaches_a_listener_at_once(pg, played):
    match, _ = played

    async def scenario():
        listener = opened(pg, match.pk)
        await until(lambda: pg.listening(match.pk) == 1)
        await sync_to_async(pg.publish)(match.pk, 7)
        assert await heard(listener, 1.0) == ([7], False)

    async_to_sync(scenario)()


def test_a_listener_wakes_only_for_its_own_match(pg, played):
    match, _ = played
    other = make_match(make_user("other"))

    async def scenario():
        mine, theirs = opened(pg, match.pk), opened(pg, other.pk)
        await until(lambda: pg.listening() == 2)
        await sync_to_async(pg.publish)(other.pk, 5)
        assert await heard(mine, 0.5) == ([], False)
        assert await heard(theirs, 0.5) == ([5], False)

    async_to_sync(scenario)()


def test_a_rolled_back_change_is_never_heard_and_a_committed_one_is_heard_after_commit(pg, played):
    match, _ = played

    def publish_then_roll_back():
        with transaction.atomic():
            pg.publish(match.pk, 3)
            transaction.set_rollback(True)
        with transaction.atomic():
            pg.publish(match.pk, 4)

    async def scenario():
        listener = opened(pg, match.pk)
        await until(lambda: pg.listening(match.pk) == 1)
        await sync_to_async(publish_then_roll_back)()
        assert await heard(listener, 0.5) == ([4], False)

    async_to_sync(scenario)()


def test_forty_streams_on_ten_matches_and_two_brokers_hold_one_listening_connection(pg):
    owner = make_user("owner")
    matches = [make_match(owner) for _ in range(10)]

    async def scenario():
        other = PgBroker()  # as after tests/caches.py empties broker(): the same connection
        streams = [opened(pg, matches[i % 10].pk) for i in range(39)] + [
            opened(other, matches[9].pk)
        ]
        await until(lambda: pg.listening() == 39 and other.listening() == 1)
        assert len(await sync_to_async(listeners)()) == 1
        await sync_to_async(pg.publish)(matches[3].pk, 11)
        await sync_to_async(other.publish)(matches[9].pk, 12)
        heard_by = await asyncio.gather(*(heard(stream, 0.5) for stream in streams))
        assert [i for i, (got, _) in enumerate(heard_by) if got == [11]] == [3, 13, 23, 33]
        assert [i for i, (got, _) in enumerate(heard_by) if got == [12]] == [9, 19, 29, 39]
        assert all(got in ([11], [12]) for i, (got, _) in enumerate(heard_by) if i % 10 in (3, 9))
        assert all(got == [] for i, (got, _) in enumerate(heard_by) if i % 10 not in (3, 9))
        assert len(await sync_to_async(listeners)()) == 1  # kept for the next

    async_to_sync(scenario)()


def test_a_lost_listening_connection_ends_the_streams_and_comes_back(pg, played):
    match, _ = played

    async def scenario():
        listener = opened(pg, match.pk)
        await until(lambda: pg.listening(match.pk) == 1)
        (first,) = await sync_to_async(listeners)()
        await sync_to_async(end_backend)(first)
        # The stream ends at once (its board polls, and opens it again) rather than stay silent.
        assert await heard(listener, 2.0) == ([], True)
        assert not LISTENER.connected
        # A stream opened now waits for the connection to listen again, then hears as before.
        listener = opened(pg, match.pk)
        await until(lambda: pg.listening(match.pk) == 1)
        assert (await sync_to_async(listeners)())[0] != first  # a new connection
        await sync_to_async(pg.publish)(match.pk, 9)
        assert await heard(listener, 1.0) == ([9], False)

    async_to_sync(scenario)()
