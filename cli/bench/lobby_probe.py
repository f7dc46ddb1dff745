"""The lobby's cost as tables grow, for ``tarot bench cluster``; run on the clients' host.

``python -m cli.bench.lobby_probe fill REDIS_URL COUNT`` stores COUNT open
(waiting, public) tables as a node's ``create_table`` would (the store's own
``create``: the table's keys and its entry in the lobby index).
``python -m cli.bench.lobby_probe page WS_URL PAGES`` asks for the lobby's
first page PAGES times through the balancer, each after the node's cached list
has expired (``server.node.lobby.REFRESH_SECONDS``: that page reads the whole
list from the store), then once more from the cache, and prints the times (ms).
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import time

import msgpack
from websockets.asyncio.client import connect

from protocol import models as m
from server.clock import now_ms
from server.node.lobby import REFRESH_SECONDS
from server.store.redis.store import RedisStore
from server.table.data import TableData, new_table_id

from .clients import SUBPROTOCOL, pack

BATCH = 200


async def fill(url: str, count: int) -> None:
    store = await RedisStore.connect(url, max_connections=64)
    try:
        created = now_ms()
        for start in range(0, count, BATCH):
            tables = [
                TableData(table_id=new_table_id(), options=m.TableOptions(), created_ms=created + i)
                for i in range(start, min(count, start + BATCH))
            ]
            await asyncio.gather(*(store.create(t) for t in tables))
    finally:
        await store.close()


async def page(url: str, pages: int) -> dict[str, float | int]:
    async with connect(url, subprotocols=[SUBPROTOCOL], max_size=2**24) as ws:  # type: ignore[list-item]
        await ws.send(pack({"type": "hello", "protocol": 1}))
        await ws.recv()

        async def one() -> tuple[float, int]:
            started = time.perf_counter()
            await ws.send(pack({"type": "list_tables", "limit": 50}))
            while True:
                reply = msgpack.unpackb(await ws.recv(), raw=False)
                if reply["type"] == "tables":
                    return 1000 * (time.perf_counter() - started), len(reply["tables"])
                if reply["type"] == "error":
                    raise RuntimeError(f"list_tables refused: {reply}")

        expired: list[float] = []
        listed = 0
        for _ in range(pages):
            await asyncio.sleep(REFRESH_SECONDS + 0.2)
            ms, listed = await one()
            expired.append(ms)
        cached, _ = await one()
    return {
        "page_ms_list_read": round(statistics.median(expired), 2),
        "page_ms_list_read_max": round(max(expired), 2),
        "page_ms_cached": round(cached, 2),
        "page_tables": listed,
    }


if __name__ == "__main__":
    if sys.argv[1] == "fill":
        asyncio.run(fill(sys.argv[2], int(sys.argv[3])))
    else:
        print(json.dumps(asyncio.run(page(sys.argv[2], int(sys.argv[3])))), flush=True)
