"""A lost table ends the seat's stream: ``error`` ``table_lost`` (PROTOCOL.md section 14).

The server here is one of the test's own, speaking ``tarot.v2`` on loopback: it
seats the client with a real table's snapshot, then says the table store lost
the table, as a node does after Redis restarted empty.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from websockets.asyncio.server import ServerConnection, serve
from websockets.typing import Subprotocol

from clients.python import Client, Disconnected
from protocol import MSGPACK
from protocol import models as m


async def a_real_seat(url: str) -> tuple[m.Joined, m.Snapshot]:
    async with await Client.connect(url) as player:
        created = await player.create_table(m.TableOptions(deals=1, ai_level="basic"))
        state = await player.join(created.table.table_id, seat=1)
        assert state.token is not None and state.table is not None
        joined = m.Joined(table_id=state.table_id, seat=1, token=state.token)
        view = state.view
        return joined, m.Snapshot(
            table_id=state.table_id, seq=state.seq, table=state.table, view=view
        )


@pytest.fixture
async def losing(url: str) -> AsyncIterator[str]:
    """The URL of a server that seats a join, then loses its table."""
    joined, snapshot = await a_real_seat(url)

    async def answer(ws: ServerConnection) -> None:
        hello = MSGPACK.decode_client(await ws.recv())
        await ws.send(MSGPACK.encode(m.Welcome(server="losing", re=hello.id)))
        join = MSGPACK.decode_client(await ws.recv())
        await ws.send(MSGPACK.encode(joined.model_copy(update={"re": join.id})))
        await ws.send(MSGPACK.encode(snapshot))
        lost = f"table {snapshot.table_id} was lost by the table store"
        await ws.send(MSGPACK.encode(m.Error(code="table_lost", message=lost)))
        await ws.wait_closed()

    offered = [Subprotocol("tarot.v2.msgpack")]  # the library speaks version 2
    async with serve(answer, "127.0.0.1", 0, subprotocols=offered) as server:
        yield f"ws://127.0.0.1:{next(iter(server.sockets)).getsockname()[1]}/"


async def test_table_lost_ends_the_stream_with_disconnected(losing: str) -> None:
    client = await Client.connect(losing)
    try:
        state = await client.join("whatever", seat=1)
        assert isinstance(await client.next_message(timeout=10), m.Snapshot)  # the join's
        error = await client.next_message(timeout=10)
        assert isinstance(error, m.Error) and error.code == "table_lost"  # seen first
        with pytest.raises(Disconnected) as ended:
            await client.next_message(timeout=10)
        assert ended.value.reason == "table_lost" and client.state is state
        with pytest.raises(Disconnected):  # no request goes to a table that is gone
            await client.next_deal()
    finally:
        await client.close()
