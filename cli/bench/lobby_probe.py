"""The lobby's cost as tables grow, for ``tarot bench cluster``; run on the clients' host.

``python -m cli.bench.lobby_probe fill REDIS_URL COUNT`` stores COUNT open
(waiting, public) tables as a node's ``create_table`` would (the store's own
``create``: the table's keys and its entry in the lobby index).
``python -m cli.bench.lobby_probe page WS_URL PAGES`` asks for the lobby's
first page PAGES times through the balancer, each a little more than
``server.node.lobby.REFRESH_SECONDS`` after the last (a lobby that cached the
store's whole list for that long read it again then), then once more at
once, and prints the times (ms) and the refusals (a read past the store's
time-out is ``unavailable``).
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import time
from typing import Any

import msgpack
from websockets.asyncio.client import connect

from protocol import models as m
from server.clock import now_ms
from server.node.lobby import REFRESH_SECONDS
from server.store.base import StaleVersion, StoreUnavailable
from server.store.redis.store import RedisStore
from server.table.data import TableData, new_table_id

from .clients import SUBPROTOCOL, VERSION, pack

BATCH = 200


async def fill(url: str, count: int) -> None:
    store = await RedisStore.connect(url, max_connections=64, op_timeout=60.0)
    try:
        created = now_ms()
        for start in range(0, count, BATCH):
            tables = [
                TableData(table_id=new_table_id(), options=m.TableOptions(), created_ms=created + i)
                for i in range(start, min(count, start + BATCH))
            ]
            await asyncio.gather(*(_create(store, t) for t in tables))
    finally:
        await store.close()


async def _create(store: RedisStore, table: TableData) -> None:
    """Store ``table``, again after a failure (a loaded machine's Redis connects late)."""
    for attempt in range(5):
        try:
            await store.create(table)
            return
        except StaleVersion:
            return  # the failed attempt had landed
        except StoreUnavailable:
            if attempt == 4:
                raise
            await asyncio.sleep(1.0)


async def page(url: str, pages: int) -> dict[str, Any]:
    try:
        return await _page(url, pages)
    except (TimeoutError, OSError) as e:  # a node too busy reading the list to answer at all
        return {"page_tables": 0, "pages_refused": pages, "refusals": [f"no answer: {e}"]}


async def _page(url: str, pages: int) -> dict[str, Any]:
    ws_options: dict[str, Any] = {"max_size": 2**24, "open_timeout": 30}
    async with connect(url, subprotocols=[SUBPROTOCOL], **ws_options) as ws:  # type: ignore[list-item]
        await ws.send(pack({"type": "hello", "protocol": VERSION}))
        await ws.recv()

        async def one() -> tuple[float, int, str | None]:
            started = time.perf_counter()
            await ws.send(pack({"type": "list_tables", "limit": 50}))
            while True:
                reply = msgpack.unpackb(await asyncio.wait_for(ws.recv(), 60), raw=False)
                if reply["type"] in ("tables", "error"):
                    ms = 1000 * (time.perf_counter() - started)
                    if reply["type"] == "error":  # e.g. the store's reply came too late
                        return ms, 0, f"{reply['code']}: {reply['message']}"
                    return ms, len(reply["tables"]), None

        expired: list[float] = []
        refused: list[str] = []
        listed = 0
        for _ in range(pages):
            await asyncio.sleep(REFRESH_SECONDS + 0.2)
            ms, count, error = await one()
            expired.append(ms)
            if error is None:
                listed = count
            else:
                refused.append(error)
        cached, _, _ = await one()
    return {
        "page_ms_list_read": round(statistics.median(expired), 2),
        "page_ms_list_read_max": round(max(expired), 2),
        "page_ms_cached": round(cached, 2),
        "page_tables": listed,
        "pages_refused": len(refused),
        "refusals": sorted(set(refused)),
    }


if __name__ == "__main__":
    if sys.argv[1] == "fill":
        asyncio.run(fill(sys.argv[2], int(sys.argv[3])))
    else:
        print(json.dumps(asyncio.run(page(sys.argv[2], int(sys.argv[3])))), flush=True)
