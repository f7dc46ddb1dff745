"""Every finished deal reaches the history database once: two nodes on one Redis and one
database, a node killed at a deal's end, the database unavailable mid-table (issue 16)."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..redis.conftest import NodeFactory
from ..server.wire import Message, WireClient, is_event, play_until

FLAGS = ("--ai-pause", "0", "--lease-ms", "1000")


def rows(path: Path) -> list[tuple[str, int, dict[str, Any]]]:
    with sqlite3.connect(path) as db:
        found = db.execute("SELECT table_id, deal_number, sheet FROM deals ORDER BY deal_number")
        return [(t, n, json.loads(sheet)) for t, n, sheet in found]


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """The database takes no write while this holds its write lock (the nodes' writes wait,
    then count it as unavailable and keep their deals in the outbox)."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("BEGIN EXCLUSIVE")
        yield
        db.execute("ROLLBACK")
    finally:
        db.close()


async def until_rows(path: Path, count: int, seconds: float = 30.0) -> None:
    async with asyncio.timeout(seconds):
        while len(rows(path)) < count:
            await asyncio.sleep(0.1)


async def seated(url: str, deals: int) -> tuple[WireClient, str]:
    """A player at a new table of ``deals`` deals with three random AI, started."""
    client = await WireClient.open(url)
    options = {"deals": deals, "ai_level": "random"}
    created = await client.request({"type": "create_table", "options": options}, "table_created")
    table_id = created["table"]["table_id"]
    await client.request({"type": "join", "table_id": table_id, "seat": 0}, "joined")
    await client.send({"type": "start"})
    return client, table_id


class Deals:
    """What the player saw: every deal dealt (cancelled ones too) and the played deals' sheets
    (a table's series has no cancelled deal: a petit sec or four passes, rare at random)."""

    def __init__(self) -> None:
        self.dealt = 0
        self.sheets: list[dict[str, Any]] = []
        self.totals: list[Any] = []

    def see(self, message: Message) -> bool:
        if is_event("deal_started")(message):
            self.dealt += 1
        if is_event("score")(message):
            if message["event"]["sheet"]["status"] == "played":
                self.sheets.append(message["event"]["sheet"])
            self.totals = message["event"]["totals"]
        return False


async def play_deal(client: WireClient, seen: Deals, rng: random.Random) -> Message:
    """Play until a deal is scored that is not cancelled (re-deals are played through)."""
    while True:
        done = await play_until(client, lambda m: seen.see(m) or is_event("score")(m), rng)
        if done["event"]["sheet"]["status"] == "played":
            return done


async def test_a_node_killed_at_the_deals_end_leaves_it_to_the_other_node(
    nodes: NodeFactory, redis_url: str, tmp_path: Path
) -> None:
    path = tmp_path / "history.sqlite3"
    db = ("--db", f"sqlite:///{path}")
    a = nodes(redis_url, "a", *db, *FLAGS)
    nodes(redis_url, "b", *db, *FLAGS)
    client, table_id = await seated(a.url, deals=2)
    seen = Deals()
    with locked(path):  # node a cannot write the deal before it dies
        await play_deal(client, seen, random.Random(7))
        a.kill()
    # Node b adopts the table (its lease ran out), finds the deal over and writes it.
    await until_rows(path, seen.dealt)
    stored = rows(path)
    assert [(t, n) for t, n, _ in stored] == [(table_id, i) for i in range(seen.dealt)]
    assert [sheet for _, _, sheet in stored if sheet["status"] == "played"] == seen.sheets


async def test_deals_finished_while_the_database_is_unavailable_are_written_when_it_returns(
    nodes: NodeFactory, redis_url: str, tmp_path: Path
) -> None:
    path = tmp_path / "history.sqlite3"
    db = ("--db", f"sqlite:///{path}")
    a = nodes(redis_url, "a", *db, *FLAGS)
    b = nodes(redis_url, "b", *db, *FLAGS)
    client, table_id = await seated(a.url, deals=3)
    watcher = await WireClient.open(b.url)  # node b follows the table: it writes each deal too
    await watcher.request({"type": "watch", "table_id": table_id}, "snapshot")
    seen, rng = Deals(), random.Random(11)
    await play_deal(client, seen, rng)
    await until_rows(path, seen.dealt)
    with locked(path):
        for _ in range(2):
            await client.send({"type": "next_deal"})
            await play_deal(client, seen, rng)
        assert len(rows(path)) < seen.dealt  # (a read: the lock lets readers through)
    await until_rows(path, seen.dealt)
    stored = rows(path)
    assert [(t, n) for t, n, _ in stored] == [(table_id, i) for i in range(seen.dealt)]
    assert [sheet for _, _, sheet in stored if sheet["status"] == "played"] == seen.sheets
    async with asyncio.timeout(30):
        while True:
            with sqlite3.connect(path) as conn:
                query = "SELECT id, deals_played, series, totals FROM tables"
                tables = conn.execute(query).fetchall()
            if tables:
                break
            await asyncio.sleep(0.1)
    [(stored_id, played, series, totals)] = tables
    assert (stored_id, played, json.loads(series)) == (table_id, 3, seen.sheets)
    assert json.loads(totals) == seen.totals
