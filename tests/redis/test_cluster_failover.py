"""A Redis Cluster master dies mid-deal (kill -9) and its replica takes over: the deal goes
on across two server nodes, every action applied exactly once, nothing lost."""

from __future__ import annotations

import asyncio
import random

from redis.asyncio.cluster import RedisCluster

from engine import load_record, score, to_record
from protocol.frames import wire_event
from server.store.redis import keys
from server.store.redis.store import read_table
from server.table.data import StoredEvent, TableData, deal_state

from ..server.wire import Message, WireClient, is_event, random_choice
from .conftest import NodeFactory
from .play import create_table, events_by_seq, health, seat, watch
from .servers import Cluster, NodeProcess, RedisServer, wait_until

ACTIONS = ("bid", "discard", "chelem", "card")  # the events of a seat's own decisions


class Hold:
    """Stops the game at a chosen point: the seat to act waits before acting.

    Nothing is being written to the store then, so the test can let the
    replicas catch up before it kills a master (replication is asynchronous:
    a master killed in the middle of a write may take it with it).
    """

    def __init__(self, after_cards: int) -> None:
        self.after_cards = after_cards
        self.reached = asyncio.Event()
        self.released = asyncio.Event()

    async def gate(self, client: WireClient) -> None:
        cards = sum(1 for m in client.received if is_event("card")(m))
        if cards >= self.after_cards and not self.released.is_set():
            self.reached.set()
            await self.released.wait()


class Player:
    """A seat that answers every ``your_turn`` with a random legal action.

    An action refused with ``unavailable`` changed nothing: it is sent again
    until the table takes it. Each decision must come back as exactly one
    event of this seat, the one sent.
    """

    def __init__(self, client: WireClient, rng: random.Random, hold: Hold) -> None:
        self.client, self.rng, self.hold = client, rng, hold
        self.pending: Message | None = None
        self.decisions = 0
        self.refusals: list[str] = []

    async def play(self) -> Message:
        async with asyncio.timeout(50):
            while True:
                message = await self.client.recv(50)
                if message["type"] == "your_turn":
                    await self.hold.gate(self.client)
                    self.pending = random_choice(message["legal"], self.rng)
                    self.decisions += 1
                    await self.act()
                elif message["type"] == "error":
                    await self.refused(message)
                elif message["type"] == "event":
                    self.applied(message["event"])
                    if message["event"]["kind"] == "table_over":
                        return message

    async def act(self) -> None:
        assert self.pending is not None
        await self.client.send({"type": "act", "action": self.pending})

    async def refused(self, error: Message) -> None:
        self.refusals.append(error["code"])
        assert error["code"] == "unavailable", error
        if self.pending is not None:  # else it landed after all (its event came first)
            await asyncio.sleep(0.2)
            await self.act()

    def applied(self, event: Message) -> None:
        if event["kind"] not in ACTIONS or event["seat"] != self.client.seat:
            return
        assert self.pending is not None, f"an action of seat {event['seat']} nobody sent"
        sent, self.pending = self.pending, None
        if event["kind"] == "card":
            assert event["card"] == sent["card"]
        elif event["kind"] == "bid":
            assert event["contract"] == sent["contract"]

    def own_actions(self) -> int:
        events = events_by_seq(self.client).values()
        return sum(1 for e in events if e["kind"] in ACTIONS and e["seat"] == self.client.seat)


async def table_on(cluster: Cluster, node: NodeProcess, master: RedisServer) -> list[str]:
    """New tables until one's slot is served by ``master``: that one comes last."""
    client = RedisCluster.from_url(cluster.url)
    created: list[str] = []
    try:
        await client.initialize()
        for _ in range(60):  # each table lands on master with a chance of 1 in 3
            created.append(await create_table(node.url))
            owner = client.get_node_from_key(keys.state(created[-1]))
            if owner is not None and int(owner.port) == master.port:
                return created
    finally:
        await client.aclose()
    raise AssertionError(f"no table landed on the master at port {master.port}")


async def stored(cluster: Cluster, table_id: str) -> tuple[TableData, list[StoredEvent]]:
    """The table and its events as the cluster holds them now."""
    client = RedisCluster.from_url(f"redis://127.0.0.1:{cluster.running()[0].port}")
    try:
        table = await read_table(client, table_id)
        entries = await client.xrange(keys.events(table_id))
        assert table is not None and entries is not None
        events = [StoredEvent.model_validate_json(fields[b"e"]) for _, fields in entries if fields]
        return table, events
    finally:
        await client.aclose()


async def test_a_killed_cluster_master_is_replaced_by_its_replica_and_the_deal_finishes(
    replicated_cluster: Cluster, nodes: NodeFactory
) -> None:
    cluster = replicated_cluster
    master = cluster.servers[0]  # the node the server nodes were given: the hardest to lose
    assert master in cluster.masters()
    a, b = nodes(cluster.url, "a"), nodes(cluster.url, "b")
    *others, table_id = await table_on(cluster, a, master)
    spectator = await watch(b.url, table_id)
    hold = Hold(after_cards=20)  # in the fifth trick
    players = [
        Player(await seat((a, b)[i % 2].url, table_id, i), random.Random(i), hold) for i in range(4)
    ]
    games = [asyncio.create_task(p.play()) for p in players]
    try:
        await asyncio.wait_for(hold.reached.wait(), 30)
        await asyncio.to_thread(wait_until, lambda: cluster.in_sync(master), "replicas in sync")
        cluster.kill(master)
        hold.released.set()  # the held seat acts now, while the slot has no master
        await asyncio.to_thread(wait_until, cluster.has_failed_over, "a replica promoted", 20)
        ends = await asyncio.gather(*games, spectator.until(is_event("table_over"), timeout=50))
    finally:
        for game in games:
            game.cancel()

    # Everyone saw the same deal end, and the outage was felt (then lived through).
    assert len({tuple(end["event"]["totals"]) for end in ends}) == 1
    assert len({end["seq"] for end in ends}) == 1
    assert "unavailable" in [code for p in players for code in p.refusals]
    assert all(node.process is not None and node.process.poll() is None for node in (a, b))
    await asyncio.to_thread(wait_until, lambda: health(a) == health(b) == 200, "healthy nodes")
    lobby = await WireClient.open(b.url)  # no table lost, on any shard
    listed = await lobby.request({"type": "list_tables"}, "tables")
    assert {t["table_id"] for t in listed["tables"]} == set(others)  # ours is over

    # Every decision was applied exactly once, and every client saw the same events.
    for player in players:
        assert player.pending is None
        assert player.own_actions() == player.decisions
    public = events_by_seq(spectator)  # numbered without a gap (WireClient checks)
    for player in players:
        seen = events_by_seq(player.client)
        assert max(seen) == max(public)
        assert all(seen[s] == e for s, e in public.items() if s in seen and e["kind"] != "hidden")

    # The record replays to the score sheet, and the stored table is that replay.
    records = [e for e in public.values() if e["kind"] == "record"]
    sheets = [e for e in public.values() if e["kind"] == "score"]
    # Four random players may all pass (or be dealt a petit sec): that deal is dealt again.
    sheets = [e for e in sheets if e["sheet"]["status"] == "played"]
    assert len(sheets) == 1 and records
    assert sheets[0]["sheet"] == score(load_record(records[-1]["record"])).to_json()
    assert sheets[0]["totals"] == ends[0]["event"]["totals"]
    data, log = await stored(cluster, table_id)
    assert data.status == "finished"
    assert data.seq == ends[0]["seq"] and data.totals == ends[0]["event"]["totals"]
    assert data.deal is not None
    assert to_record(deal_state(data.deal)) == records[-1]["record"]
    assert [e.seq for e in log] == list(range(1, data.seq + 1))
    assert all(wire_event(e.event) == public[e.seq] for e in log if e.audience is None)
