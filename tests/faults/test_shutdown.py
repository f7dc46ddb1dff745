"""SIGTERM: clients hear ``bye`` first, and the leases go back in one round trip (13.13)."""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request

from server.app import App
from server.settings import Settings

from ..server.wire import WireClient


def round_trips(app: App) -> float:
    value = app.node.metrics.registry.get_sample_value("tarot_store_seconds_count")
    return value or 0.0


async def test_draining_hands_every_lease_back_in_one_round_trip_after_the_byes(
    redis_url: str,
) -> None:
    settings = Settings(port=0, lease_ms=3000, ai_pause_seconds=0, redis_url=redis_url)
    app = await App.start(settings)
    try:
        url = f"ws://127.0.0.1:{app.port}/"
        players = []
        for _ in range(8):
            client = await WireClient.open(url)
            created = await client.request(
                {"type": "create_table", "options": {"deals": 1}}, "table_created"
            )
            table_id = created["table"]["table_id"]
            await client.request({"type": "join", "table_id": table_id}, "joined")
            await client.send({"type": "start"})
            await client.until(lambda m: m["type"] == "your_turn", timeout=30)
            players.append(client)
        assert sum(r.driving for r in app.node.runtimes.values()) == 8
        byes = asyncio.gather(*(p.until(lambda m: m["type"] == "bye") for p in players))
        before = round_trips(app)
        await app.node.release_leases()
        assert round_trips(app) - before <= 2  # one, and maybe a renewal of the sweep
        stopping = asyncio.create_task(app.stop(drain_seconds=0.5))
        assert {b["reason"] for b in await byes} == {"shutdown"}
        await stopping
    finally:
        if app.server.is_serving():
            await app.stop(drain_seconds=0)


def _status(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


async def fetch_status(url: str) -> tuple[int, str]:
    """The status and body of a GET (error statuses included)."""
    return await asyncio.to_thread(_status, url)
