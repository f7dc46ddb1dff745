"""The ceiling of ``tarot bench server``: the same clients against a bare broadcast server.

No rules, no store, only the transport: the ratio of the game's figures to
these says what the game costs.
"""

from __future__ import annotations

import asyncio
import random
import time

import msgpack
from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import ServerConnection, broadcast, serve

from .bench_clients import Barrier, Run, Table, measure, pack


async def ceiling_server(port: int) -> None:
    """A bare broadcast server: each frame goes to the four sockets of its path."""
    groups: dict[str, set[ServerConnection]] = {}

    async def handler(ws: ServerConnection) -> None:
        assert ws.request is not None
        group = groups.setdefault(ws.request.path, set())
        group.add(ws)
        async for frame in ws:
            broadcast(group, frame)

    async with serve(handler, "127.0.0.1", port, max_size=2**22):
        await asyncio.Future()


async def ceiling_seat(
    ws: ClientConnection, seat: int, table: Table, run: Run, rng: random.Random
) -> None:
    async for frame in ws:
        seq = msgpack.unpackb(frame, raw=False)["seq"]
        run.arrived(table, seq)
        if (seq + 1) % 4 == seat and not run.stop.is_set():
            if run.think:
                await asyncio.sleep(rng.uniform(0, 2 * run.think))
            table.pending_seq, table.received = seq + 1, 0
            table.sent_at = time.perf_counter()
            await ws.send(pack({"seq": seq + 1, "action": {"kind": "play", "card": "T21"}}))


async def ceiling_run(
    url: str, tables: int, seconds: float, think: float, barrier: Barrier, first: int
) -> list[float]:
    run = Run([Table() for _ in range(tables)], asyncio.Event(), think=think)
    sockets: list[ClientConnection] = []
    tasks: list[asyncio.Task[None]] = []
    for i, table in enumerate(run.tables):
        group = [await connect(f"{url}t{first + i}", max_size=2**22) for _ in range(4)]
        sockets.extend(group)
        tasks.extend(
            asyncio.create_task(ceiling_seat(ws, seat, table, run, random.Random(4 * i + seat)))
            for seat, ws in enumerate(group)
        )
    await barrier()
    for i, table in enumerate(run.tables):
        table.pending_seq, table.sent_at = 0, time.perf_counter()
        await sockets[4 * i].send(pack({"seq": 0}))
    return await measure(run, tasks, sockets, seconds)
