"""The library keeps its seat when the connection drops: it resumes and misses nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import engine
from cli.engine_bot import EngineBot
from clients.python import Client, TableState, play_table
from clients.python.errors import ConnectionLost
from protocol import models as m
from protocol.convert import view_model
from server.app import App
from server.settings import Settings
from server.store.memory import MemoryStore

Hook = Callable[[], Coroutine[Any, Any, None]]


class Recorder:
    """Every table message the bot saw, and a hook that fires on chosen turns."""

    def __init__(self, state: TableState, on_turns: dict[int, Hook]) -> None:
        self.state = state
        self.on_turns = on_turns
        self.seqs: list[int] = []
        self.snapshots = 0
        self.turns = 0
        self.tasks: list[asyncio.Task[None]] = []

    def __call__(self, message: m.Model) -> None:
        if isinstance(message, m.Event):
            self.seqs.append(message.seq)
        elif isinstance(message, m.Snapshot):
            self.snapshots += 1
        elif message is self.state.turn:
            self.turns += 1
            hook = self.on_turns.get(self.turns)
            if hook is not None:
                self.tasks.append(asyncio.ensure_future(hook()))


def assert_nothing_missed(state: TableState, recorder: Recorder, first_seq: int) -> None:
    """Each event once, in order, from the join's snapshot to the end."""
    assert recorder.seqs == list(range(first_seq + 1, state.seq + 1))
    assert state.missed == 0


def assert_view_is_the_servers(app: App, state: TableState) -> None:
    runtime = app.node.runtimes[state.table_id]
    assert runtime.state is not None and runtime.data.deal is not None
    assert runtime.data.seq == state.seq
    truth = engine.view(runtime.state, state.seat)
    assert state.view == view_model(truth, runtime.data.deal.number)


async def drop_connections(app: App) -> None:
    """The server side closes every client's WebSocket (as a proxy or a crash would)."""
    for connection in list(app.connections):
        await connection.ws.close(1011, "dropped by the test")


async def test_after_the_server_drops_the_socket_the_seat_is_resumed_and_nothing_missed(
    app: App, url: str
) -> None:
    client = await Client.connect(url, "json")
    created = await client.create_table(m.TableOptions(deals=2))
    state = await client.join(created.table.table_id, seat=3)
    first_seq = state.seq
    watcher = await Client.connect(url)
    await watcher.watch(created.table.table_id)
    await client.start()

    drop: dict[int, Hook] = {2: lambda: drop_connections(app), 15: lambda: drop_connections(app)}
    recorder = Recorder(state, drop)
    totals = await play_table(client, EngineBot("basic"), on_message=recorder)
    await asyncio.gather(*recorder.tasks)

    assert client.reconnections == 2
    assert recorder.snapshots == 1  # the join's: after each drop the server replayed events
    assert_nothing_missed(state, recorder, first_seq)
    assert_view_is_the_servers(app, state)
    assert sum(totals) == 0 and [s.status for s in state.sheets].count("played") == 2
    await client.close()

    async for message in watcher:  # the spectator was dropped too, and watches again
        if isinstance(message, m.Event) and isinstance(message.event, m.TableOverEvent):
            break
    assert watcher.reconnections == 2 and watcher.state is not None
    assert watcher.state.totals == totals and watcher.state.over
    assert_view_is_the_servers(app, watcher.state)
    await watcher.close()


async def test_after_a_server_restart_on_the_same_store_the_seat_is_resumed() -> None:
    store = MemoryStore()
    settings = Settings(port=0, lease_ms=600)
    servers = [await App.start(settings, store=store)]
    port = servers[0].port

    async def restart() -> None:
        await servers[-1].stop(drain_seconds=0)  # says bye (shutdown) to every client
        servers.append(await App.start(Settings(port=port, lease_ms=600), store=store))

    client = await Client.connect(f"ws://127.0.0.1:{port}/")
    try:
        created = await client.create_table(m.TableOptions(deals=1))
        state = await client.join(created.table.table_id)
        first_seq = state.seq
        await client.start()
        recorder = Recorder(state, {4: restart})
        totals = await play_table(client, EngineBot("basic"), on_message=recorder)
        await asyncio.gather(*recorder.tasks)

        assert len(servers) == 2 and client.reconnections == 1
        assert_nothing_missed(state, recorder, first_seq)
        assert_view_is_the_servers(servers[-1], state)
        assert sum(totals) == 0 and state.over
    finally:
        await client.close()
        await servers[-1].stop(drain_seconds=0)


async def test_a_next_deal_lost_with_its_connection_is_said_again_on_the_resumed_seat(
    app: App, url: str
) -> None:
    """Found by tests/balancer's kill -9 restart under CI load: a bot whose ``next_deal`` was
    lost with its connection never said it again (a resumed seat is told its turns again,
    not that the table waits for it between deals), and its table waited the whole 30 s of
    next_deal_seconds. Here the connection drops as the bot says it, before it leaves."""
    client = await Client.connect(url, "json")
    created = await client.create_table(m.TableOptions(deals=2))
    state = await client.join(created.table.table_id, seat=0)
    await client.start()  # three AI: the table waits for this seat alone between deals
    request = client._request
    lost: list[int] = []

    async def next_deal_lost_once(message: m.Request, accept: Any) -> m.Model:
        if isinstance(message, m.NextDeal) and not lost:
            lost.append(state.seq)
            await drop_connections(app)
            raise ConnectionLost("the connection dropped before the request left")
        return await request(message, accept)

    client._request = next_deal_lost_once  # type: ignore[method-assign, assignment]
    async with asyncio.timeout(20):  # well within the 30 s the table would otherwise wait
        totals = await play_table(client, EngineBot("basic"))
    assert lost and client.reconnections == 1
    assert sum(totals) == 0 and [s.status for s in state.sheets].count("played") == 2
    await client.close()
