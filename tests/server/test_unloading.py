"""A node lets go of the tables nobody here follows (issue 13.10): memory stays flat."""

from __future__ import annotations

import asyncio

from server.app import App
from server.settings import Settings

from .test_tables import create
from .wire import WireClient, is_event


async def test_tables_no_connection_follows_are_unloaded_and_load_again_on_use() -> None:
    app = await App.start(Settings(port=0, lease_ms=600, unload_idle_seconds=0.3))
    try:
        url = f"ws://127.0.0.1:{app.port}/"
        ids = []
        for _ in range(4):
            client = await WireClient.open(url)
            table_id = await create(client, deals=1)
            await client.request({"type": "join", "table_id": table_id}, "joined")
            ids.append(table_id)
            await client.close()  # nobody here follows it any more
        gauge = "tarot_tables_loaded"
        assert app.node.metrics.registry.get_sample_value(gauge) == 4
        for _ in range(60):
            if not app.node.runtimes:
                break
            await asyncio.sleep(0.1)
        assert app.node.runtimes == {}, "tables nobody follows stay in memory"
        assert app.node.metrics.registry.get_sample_value(gauge) == 0
        # Loaded again on use, as they were: the seat's token still works.
        watcher = await WireClient.open(url)
        await watcher.request({"type": "watch", "table_id": ids[0]}, "watching")
        snapshot = await watcher.until(lambda m: m["type"] == "snapshot")
        assert snapshot["table"]["seats"][0]["occupant"] == "human"
        assert list(app.node.runtimes) == [ids[0]]
        assert not is_event("table_over")(snapshot)
    finally:
        await app.stop(drain_seconds=0)
