"""Runtime defects found under load, each provoked against a real node (issues 13 and 14)."""

from __future__ import annotations

import asyncio
import urllib.request

from server.app import App
from server.table import seating
from server.table import transitions as tr
from server.table.data import TableData
from server.table.seating import JoinRequest

from .test_tables import create
from .wire import WireClient, is_event


async def test_refused_lookups_of_unknown_tables_and_forged_tokens_leave_nothing_behind(
    app: App, url: str
) -> None:
    client = await WireClient.open(url)
    codes = set()
    for i in range(80):  # within the rate limit's burst
        await client.send({"type": "join", "table_id": f"nosuch{i}"})
        codes.add((await client.until(lambda m: m["type"] == "error"))["code"])
        await client.send({"type": "resume", "token": f"forged{i}.secret"})
        codes.add((await client.until(lambda m: m["type"] == "error"))["code"])
    assert codes == {"unknown_table", "bad_token"}
    assert app.node.tables._loading == {} and app.node.tables._waiting == {}


def metrics(app: App) -> dict[str, float]:
    url = f"http://127.0.0.1:{app.port}/metrics"
    with urllib.request.urlopen(url, timeout=5) as response:
        body = response.read().decode()
    out = {}
    for line in body.splitlines():
        if line.startswith("tarot_tables{"):
            name, value = line.rsplit(" ", 1)
            out[name.split('"')[1]] = float(value)
    return out


async def test_the_phase_gauge_forgets_a_phase_no_table_is_in_any_more(app: App, url: str) -> None:
    client = await WireClient.open(url)
    table_id = await create(client)
    await client.request({"type": "join", "table_id": table_id}, "joined")
    loop = asyncio.get_running_loop()
    assert (await loop.run_in_executor(None, metrics, app)).get("waiting") == 1
    await client.send({"type": "start"})
    await client.until(is_event("turn"))
    for _ in range(50):  # counted by the node that drives it, from its next lease sweep
        counted = await loop.run_in_executor(None, metrics, app)
        if sum(counted.values()) == 1:
            break
        await asyncio.sleep(0.1)
    assert counted.get("waiting", 0) == 0, counted
    assert sum(counted.values()) == 1, counted


def test_a_closed_connection_of_an_older_session_does_not_mark_a_resumed_seat_away() -> None:
    data = TableData(table_id="t", options={"deals": 1})  # type: ignore[arg-type]
    data = seating.join(data, None, JoinRequest("ann", 0, 0)).data
    old = data.seats[0].session
    data = tr.present(data, None, 0).data  # resumed: a newer session holds the seat
    change = tr.dropped(data, None, 0, 1000, old)
    assert change.data is data and not change.events
    now = tr.dropped(data, None, 0, 1000, data.seats[0].session)
    assert now.data.seats[0].dropped_at_ms == 1000
