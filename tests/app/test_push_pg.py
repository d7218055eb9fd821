"""matches/push_pg.py on a real PostgreSQL: a change published through Django's connection
reaches the listeners of its match, and only those, through one listening connection per process
whatever the number of streams; a dropped listening connection comes back, and the boards hear
what was changed while it was gone.

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

from matches.models import Match
from tests.factories import make_match, make_user, tap

# Until the stream's own branch (matches/push.py, its MemoryBroker) is on main.
pytest.importorskip("matches.push")

from matches import push_pg  # noqa: E402
from matches.push_pg import APPLICATION_NAME, PgBroker  # noqa: E402

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="needs PostgreSQL (DATABASE_URL=postgres://...)"
    ),
]


@pytest.fixture
def pg():
    broker = PgBroker()
    yield broker
    broker.stop()


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


async def heard(listener, seconds: float) -> list[int]:
    """What the listener hears within ``seconds`` (then it is closed)."""
    seqs, first = listener
    got: list[int] = []
    try:
        async with asyncio.timeout(seconds):
            got.append(await first)
            async for seq in seqs:
                got.append(seq)
    except TimeoutError:
        pass
    finally:
        await seqs.aclose()
    return got


def test_a_change_published_through_djangos_connection_reaches_a_listener_at_once(pg, played):
    match, _ = played

    async def scenario():
        listener = opened(pg, match.pk)
        await until(lambda: pg.listening)
        sent = time.monotonic()
        await sync_to_async(pg.publish)(match.pk, 7)
        got = await heard(listener, 1.0)
        assert got[-1] == 7, got
        assert set(got) <= {match.seq, 7}  # the match's number when the connection began
        return time.monotonic() - sent

    async_to_sync(scenario)()


def test_a_listener_wakes_only_for_its_own_match(pg, played):
    match, _ = played
    other = make_match(make_user("other"))

    async def scenario():
        mine, theirs = opened(pg, match.pk), opened(pg, other.pk)
        await until(lambda: pg.listening)
        await sync_to_async(pg.publish)(other.pk, 5)
        assert set(await heard(mine, 0.5)) <= {match.seq}  # at most its own current number
        assert (await heard(theirs, 0.5))[-1] == 5

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
        await until(lambda: pg.listening)
        await sync_to_async(publish_then_roll_back)()
        got = await heard(listener, 0.5)
        assert 3 not in got and got[-1] == 4, got

    async_to_sync(scenario)()


def test_forty_streams_on_ten_matches_hold_one_listening_connection(pg):
    owner = make_user("owner")
    matches = [make_match(owner) for _ in range(10)]

    async def scenario():
        streams = [opened(pg, matches[i % 10].pk) for i in range(40)]
        await until(lambda: pg.listening)
        assert len(await sync_to_async(listeners)()) == 1
        await sync_to_async(pg.publish)(matches[3].pk, 11)
        heard_by = await asyncio.gather(*(heard(stream, 0.5) for stream in streams))
        told = [i for i, got in enumerate(heard_by) if 11 in got]
        assert told == [3, 13, 23, 33]
        assert len(await sync_to_async(listeners)()) == 1  # kept for the next streams

    async_to_sync(scenario)()


def test_a_dropped_listening_connection_comes_back_and_the_board_hears_what_it_missed(
    pg, played, monkeypatch
):
    match, player = played
    monkeypatch.setattr(push_pg, "FIRST_RETRY_SECONDS", 3.0)  # 1.5-4.5 s: time for a tap

    async def scenario():
        listener = opened(pg, match.pk)
        await until(lambda: pg.listening)
        (first,) = await sync_to_async(listeners)()
        await sync_to_async(end_backend)(first)
        await until(lambda: not pg.listening)
        # A tap while nothing listens: its notification reaches no one.
        response = await sync_to_async(tap)(player, match, "mark b-1-1")
        assert response.status_code == 200
        assert not pg.listening
        missed = (await sync_to_async(Match.objects.get)(pk=match.pk)).seq
        assert missed == match.seq + 1
        await until(lambda: pg.listening)
        assert await sync_to_async(listeners)() not in ([], [first])  # a new connection
        # Listening again, it tells the open stream the match's number: the board catches up.
        assert (await heard(listener, 1.0))[-1] == missed
        # And what is published from now on is heard as before.
        listener = opened(pg, match.pk)
        await asyncio.sleep(0.05)
        await sync_to_async(pg.publish)(match.pk, missed + 1)
        assert await heard(listener, 1.0) == [missed + 1]

    async_to_sync(scenario)()
