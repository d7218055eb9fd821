"""A match's live stream (matches/streams.py): who may hold one, what it says, and that a change
reaches every open stream of the match at once, through the process's broker (matches/push.py).

The streams are read through Django's AsyncClient (an ASGI request, as under uvicorn); each
scenario runs in an event loop of its own (``run``). The database is committed as in
production (``transaction=True``): a change is published once it commits.
"""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient, Client
from django.urls import reverse

from matches.models import Match
from matches.push import SEATS_ENDED, MemoryBroker, broker
from matches.streams import OPEN, TOO_MANY
from tests.factories import make_match, make_user, tap

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 3.0  # seconds a pushed change may take here (it takes milliseconds)


def run(scenario) -> None:
    async_to_sync(scenario)()


def as_async(client: Client) -> AsyncClient:
    streams = AsyncClient()
    streams.cookies = client.cookies
    return streams


async def opened(client: AsyncClient, url: str):
    """The stream's response and its events as text, chunk by chunk."""
    response = await client.get(url)
    assert response.status_code == 200, response.status_code
    return response, aiter(response.streaming_content)


async def hang_up(chunks) -> None:
    """The browser goes away: as Django's ASGI handler does then, the reading is cancelled."""
    reading = asyncio.ensure_future(anext(chunks))
    await asyncio.sleep(0)
    reading.cancel()
    await asyncio.gather(reading, return_exceptions=True)


async def next_chunk(chunks) -> str:
    return (await asyncio.wait_for(anext(chunks), WAIT)).decode()


@pytest.fixture
def played():
    owner = make_user("owner")
    player = Client()
    player.force_login(owner)
    match = make_match(owner)
    return match, player


@pytest.fixture
def seat_b(played):
    match, _ = played
    device = Client()
    device.post(reverse("matches:match-join", args=[match.join_slug]), {"name": "Anna"})
    assert Match.objects.get(pk=match.pk).b_joined
    return device


def stream(match: Match) -> str:
    return reverse("matches:stream", args=[match.pk])


def watch_stream(match: Match) -> str:
    return reverse("matches:watch-stream", args=[match.watch_slug])


def test_the_stream_opens_with_the_matchs_last_change_and_says_how_to_come_back(played):
    match, player = played
    tap(player, match, "mark b-1-1")

    async def scenario():
        response, chunks = await opened(as_async(player), stream(match))
        assert response["Content-Type"] == "text/event-stream"
        assert response["Cache-Control"] == "no-cache"
        assert response["X-Accel-Buffering"] == "no"
        assert await next_chunk(chunks) == "retry: 3000\nevent: seq\ndata: 1\n\n"
        await hang_up(chunks)

    run(scenario)


@pytest.mark.parametrize("who", ["owner", "seat b", "watcher"])
def test_players_and_watchers_hear_a_tap_at_once(who, played, seat_b):
    match, player = played
    url = watch_stream(match) if who == "watcher" else stream(match)
    device = {"owner": player, "seat b": seat_b, "watcher": Client()}[who]

    def tapped():
        assert tap(player, match, "mark b-1-1").status_code == 200

    async def scenario():
        _, chunks = await opened(as_async(device), url)
        assert "data: 0" in await next_chunk(chunks)
        await sync_to_async(tapped)()
        assert await next_chunk(chunks) == "event: seq\ndata: 1\n\n"
        await hang_up(chunks)

    run(scenario)


def test_the_opponent_taking_the_seat_is_pushed_to_the_first_player(played):
    match, player = played

    def joined():
        join = reverse("matches:match-join", args=[match.join_slug])
        assert Client().post(join, {"name": "Anna"}).status_code == 302

    async def scenario():
        _, chunks = await opened(as_async(player), stream(match))
        await next_chunk(chunks)
        await sync_to_async(joined)()
        # The same number: the board's poll (joined=0) then fetches the players box.
        assert await next_chunk(chunks) == "event: seq\ndata: 0\n\n"
        await hang_up(chunks)

    run(scenario)


@pytest.mark.parametrize("kind", ["account", "guest", "anonymous"])
def test_a_stranger_is_told_a_players_stream_does_not_exist(kind, played):
    match, _ = played
    client = AsyncClient()
    if kind == "account":
        client.cookies = _logged_in(make_user("eve")).cookies
    elif kind == "guest":
        guest = Client()
        guest.get(reverse("home"))
        client.cookies = guest.cookies

    async def scenario():
        assert (await client.get(stream(match))).status_code == 404
        missing = reverse("matches:stream", args=[match.pk + 1000])
        assert (await client.get(missing)).status_code == 404
        unknown = reverse("matches:watch-stream", args=["n" * 22])
        assert (await client.get(unknown)).status_code == 404

    run(scenario)


def _logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_stream_is_only_read(played):
    match, player = played

    async def scenario():
        response = await as_async(player).post(stream(match))
        assert response.status_code == 405

    run(scenario)


@pytest.mark.parametrize("how", ["logout", "password change"])
def test_ending_the_session_ends_its_stream(how, played):
    match, player = played

    def ended():
        if how == "logout":
            assert player.post(reverse("logout")).status_code == 302
        else:
            user = match.a_user
            user.set_password("a-new-password-8841")
            user.save()

    async def scenario():
        _, chunks = await opened(as_async(player), stream(match))
        await next_chunk(chunks)
        await sync_to_async(ended)()
        with pytest.raises(StopAsyncIteration):
            await next_chunk(chunks)
        if how == "logout":  # and a new one is refused: the seat is no longer this browser's
            assert (await as_async(player).get(stream(match))).status_code == 404

    run(scenario)


def test_another_seat_ending_leaves_the_stream_open(played, seat_b):
    match, player = played

    def b_logs_out():
        seat_b.post(reverse("logout"))

    async def scenario():
        _, chunks = await opened(as_async(player), stream(match))
        await next_chunk(chunks)
        await sync_to_async(b_logs_out)()
        await sync_to_async(broker().publish)(match.pk, 7)  # sync (PgBroker: a NOTIFY)
        assert await next_chunk(chunks) == "event: seq\ndata: 7\n\n"
        await hang_up(chunks)

    run(scenario)


def test_one_address_holds_only_so_many_streams(played, settings):
    settings.BLITZ_PUSH_PER_ADDRESS = 2
    match, player = played

    async def scenario():
        held = [(await opened(as_async(player), stream(match)))[1] for _ in range(2)]
        for chunks in held:
            await next_chunk(chunks)  # each is open
        refused = await as_async(player).get(stream(match))
        assert refused.status_code == 429
        assert refused.content.decode() == TOO_MANY
        await hang_up(held.pop())
        _, again = await opened(as_async(player), stream(match))
        assert "event: seq" in await next_chunk(again)
        for chunks in [*held, again]:
            await hang_up(chunks)
        assert OPEN.count() == 0

    run(scenario)


def test_a_waiting_stream_sends_heartbeats_and_reads_no_database(
    played, settings, django_assert_num_queries
):
    settings.BLITZ_PUSH_HEARTBEAT = 0.05
    match, player = played

    async def scenario():
        _, chunks = await opened(as_async(player), stream(match))
        await next_chunk(chunks)
        # Counted in the thread where the stream's database work runs (the test's).
        counting = django_assert_num_queries(0)
        await sync_to_async(counting.__enter__)()
        beats = [await next_chunk(chunks) for _ in range(3)]
        await sync_to_async(counting.__exit__)(None, None, None)
        assert beats == [": hb\n\n"] * 3
        await hang_up(chunks)
        assert broker().listening(match.pk) == 0  # closed: it no longer listens

    run(scenario)


def test_under_a_wsgi_server_the_board_polls_and_the_stream_says_so(played):
    match, player = played
    board = player.get(reverse("matches:match-board", args=[match.pk])).content.decode()
    assert 'data-stream=""' in board
    assert 'hx-trigger="every 2s, poll-now"' in board
    assert player.get(stream(match)).status_code == 204


@pytest.mark.parametrize("who", ["player", "watcher"])
def test_a_page_from_an_app_server_with_stream_servers_beside_it_follows_its_stream(
    who, played, settings
):
    """Production: a sync app server draws the board, the proxy sends its stream elsewhere."""
    settings.BLITZ_STREAM_SERVERS = True
    match, player = played
    if who == "player":
        board = player.get(reverse("matches:match-board", args=[match.pk]))
        assert f'data-stream="{stream(match)}"' in board.content.decode()
    else:
        board = Client().get(reverse("matches:match-watch", args=[match.watch_slug]))
        assert f'data-stream="{watch_stream(match)}"' in board.content.decode()
    # Asked of the app server itself (a proxy sending it to the wrong place), the stream holds no
    # sync worker: 204 at once, and the board polls.
    assert player.get(stream(match)).status_code == 204


@pytest.mark.parametrize("who", ["player", "watcher"])
def test_under_an_asgi_server_the_board_follows_its_stream(who, played):
    match, player = played
    page = reverse("matches:match-board", args=[match.pk]) if who == "player" else None
    page = page or reverse("matches:match-watch", args=[match.watch_slug])
    expected = stream(match) if who == "player" else watch_stream(match)

    async def scenario():
        response = await as_async(player if who == "player" else Client()).get(page)
        assert f'data-stream="{expected}"' in response.content.decode()

    run(scenario)


def test_the_broker_hands_a_change_from_another_thread_to_each_listener():
    hub = MemoryBroker()

    async def scenario():
        first, second = hub.listen(5), hub.listen(5)
        other = hub.listen(6)
        waits = [asyncio.ensure_future(anext(it)) for it in (first, second, other)]
        await asyncio.sleep(0)
        assert hub.listening(5) == 2
        publisher = threading.Thread(target=hub.publish, args=(5, 12))
        publisher.start()
        publisher.join()
        assert await asyncio.wait_for(asyncio.gather(*waits[:2]), WAIT) == [12, 12]
        assert not waits[2].done()
        # Several at once come as the latest; a seat ended comes as itself.
        for seq in (13, 14, SEATS_ENDED, 15):
            hub.deliver(5, seq)
        assert [await anext(first), await anext(first)] == [SEATS_ENDED, 15]
        waits[2].cancel()
        await asyncio.gather(waits[2], return_exceptions=True)
        for it in (first, second, other):
            await it.aclose()
        assert hub.listening() == 0

    run(scenario)


def test_a_broker_that_stops_listening_ends_its_streams(played):
    match, player = played

    async def scenario():
        _, chunks = await opened(as_async(player), stream(match))
        await next_chunk(chunks)
        broker().end_all()
        with pytest.raises(StopAsyncIteration):
            await next_chunk(chunks)  # the board polls, and opens it again
        assert OPEN.count() == 0

    run(scenario)
