"""The HTTP side of a node's port: the browser client's files, health, metrics, shutdown."""

from __future__ import annotations

import asyncio
import random
import urllib.error
import urllib.request

from server.app import App
from server.settings import Settings

from ..test_tables import create
from ..wire import WireClient, is_event, play_until


def get(url: str) -> tuple[int, str, str]:
    """Status, content type and body of a GET (errors included)."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.headers["Content-Type"], response.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers["Content-Type"], e.read().decode()


async def fetch(url: str) -> tuple[int, str, str]:
    return await asyncio.get_running_loop().run_in_executor(None, get, url)


async def test_the_browser_client_is_served_at_the_root(app: App) -> None:
    status, kind, body = await fetch(f"http://127.0.0.1:{app.port}/")
    assert status == 200 and kind.startswith("text/html")
    assert "<html" in body.lower()
    status, kind, _ = await fetch(f"http://127.0.0.1:{app.port}/app.js")
    assert status == 200 and kind.startswith("text/javascript")


async def test_nothing_outside_the_client_folder_is_served(app: App) -> None:
    for path in ("/../pyproject.toml", "/%2e%2e/pyproject.toml", "/nope.js", "/../../etc/passwd"):
        status, _, body = await fetch(f"http://127.0.0.1:{app.port}{path}")
        assert status == 404, path
        assert "cardavia-tarot" not in body


async def test_health_and_metrics(app: App, url: str) -> None:
    status, _, body = await fetch(f"http://127.0.0.1:{app.port}/healthz")
    assert (status, body) == (200, "ok\n")
    client = await WireClient.open(url)
    table_id = await create(client, deals=1)
    await client.request({"type": "join", "table_id": table_id}, "joined")
    await client.send({"type": "start"})
    await play_until(client, is_event("table_over"), random.Random(3))
    stranger = await WireClient.open(url)
    await stranger.send({"type": "join", "table_id": "nope"})
    assert (await stranger.until(lambda m: m["type"] == "error"))["code"] == "unknown_table"
    status, kind, metrics = await fetch(f"http://127.0.0.1:{app.port}/metrics")
    assert status == 200 and kind.startswith("text/plain")
    lines = {
        line.split(" ")[0]: line.split(" ")[1] for line in metrics.splitlines() if line[:1] != "#"
    }
    assert float(lines["tarot_actions_applied_total"]) >= 18  # at least our 18 cards
    assert float(lines['tarot_refused_total{code="unknown_table"}']) == 1
    assert float(lines["tarot_connections"]) >= 1
    assert "tarot_action_seconds_bucket" in metrics and "tarot_ai_decision_seconds_count" in metrics


async def test_a_stopping_server_says_goodbye_to_its_clients() -> None:
    app = await App.start(Settings(port=0))
    client = await WireClient.open(f"ws://127.0.0.1:{app.port}/")
    stopping = asyncio.create_task(app.stop(drain_seconds=5))
    bye = await client.until(lambda m: m["type"] == "bye")
    assert bye["reason"] == "shutdown"
    await client.close()  # the client leaves, so the drain ends at once
    await asyncio.wait_for(stopping, 10)


async def test_a_client_without_a_subprotocol_speaks_json(app: App) -> None:
    from websockets.asyncio.client import connect

    async with connect(f"ws://127.0.0.1:{app.port}/") as ws:
        await ws.send('{"type": "hello", "protocol": 1}')
        assert '"welcome"' in str(await asyncio.wait_for(ws.recv(), 5))
