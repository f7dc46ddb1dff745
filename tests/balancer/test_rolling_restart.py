"""Issue 25.1 and 25.2 with Debian's nginx and the shipped ``deploy/nginx.conf``: a table's
seats reach one node (the URL names the table, nginx hashes on it), and a rolling restart
(each node in turn stopped with SIGTERM, or killed, then started again) brings every client
back within 5 s, with no 502 while a node is alive. Before: ``max_fails=1
fail_timeout=5s`` marked the nodes down in turn, nginx answered "no live upstreams" (502)
and clients needed 38 s to come back."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from collections import defaultdict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from cli.local_servers import NodeProcess, RedisServer, free_port
from clients.python import Client, play_table
from clients.python.example_bot import Greedy
from protocol import models as m

from .nginx import Balancer

TABLES = 3
BACK_SECONDS = 5.0


@dataclass
class Site:
    redis: RedisServer
    nodes: list[NodeProcess]
    balancer: Balancer
    clients: list[Client] = field(default_factory=list)
    tasks: list[asyncio.Task[object]] = field(default_factory=list)


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    redis = RedisServer(tmp_path / "redis").start()
    nodes = []
    try:
        for name in ("node1", "node2"):
            port = free_port()
            log = tmp_path / f"{name}.log"
            node = NodeProcess(redis.url, name, log, "--port", str(port), "--lease-ms", "1500")
            nodes.append(node.start())
        balancer = Balancer(tmp_path / "nginx", [node.port for node in nodes]).start()
        built = Site(redis, nodes, balancer)
        yield built
    finally:
        if "built" in locals():
            for task in built.tasks:
                task.cancel()
            await asyncio.gather(*built.tasks, return_exceptions=True)
            for client in built.clients:
                with contextlib.suppress(Exception):
                    await client.close()
            built.balancer.stop()
        for node in nodes:
            node.stop()
        redis.stop()


async def seat_tables(site: Site) -> list[str]:
    """``TABLES`` tables of four Python clients, each connected with its table in the URL."""
    lobby = await Client.connect(site.balancer.url, "json")
    ids = []
    try:
        for _ in range(TABLES):
            created = await lobby.create_table(m.TableOptions(deals=200))
            ids.append(created.table.table_id)
    finally:
        await lobby.close()
    for table_id in ids:
        seated = []
        for seat in range(4):
            client = await Client.connect(
                site.balancer.url, "json", table=table_id, reconnect_seconds=60
            )
            await client.join(table_id, seat, f"p{seat}")
            seated.append(client)
        # Four humans seated: the table starts by itself.
        for client in seated:
            site.tasks.append(asyncio.create_task(play_table(client, Greedy())))
        site.clients += seated
    return ids


class Outages:
    """How long each client was without a connection, watched every 20 ms."""

    def __init__(self, clients: list[Client]) -> None:
        self.clients = clients
        self.lost: dict[int, float] = {}
        self.seconds: list[float] = []
        self.task = asyncio.create_task(self._watch())

    async def _watch(self) -> None:
        while True:
            now = time.monotonic()
            for i, client in enumerate(self.clients):
                connected = client._connected.is_set()
                if not connected and i not in self.lost:
                    self.lost[i] = now
                elif connected and i in self.lost:
                    self.seconds.append(now - self.lost.pop(i))
            await asyncio.sleep(0.02)

    async def settled(self, seconds: float = 30) -> None:
        deadline = time.monotonic() + seconds
        while self.lost or any(not c._connected.is_set() for c in self.clients):
            assert time.monotonic() < deadline, f"clients still away: {sorted(self.lost)}"
            await asyncio.sleep(0.05)

    async def stop(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task


def progress(clients: list[Client]) -> list[int]:
    return [client.state.seq if client.state else 0 for client in clients]


async def advanced(clients: list[Client], before: list[int], seconds: float) -> None:
    """Wait until every client has seen its table move past ``before``."""
    started = time.monotonic()
    while not all(b > a for a, b in zip(before, progress(clients), strict=True)):
        assert time.monotonic() < started + seconds, (before, progress(clients))
        await asyncio.sleep(0.05)
    print(f"every table moved on {time.monotonic() - started:.2f} s after its clients were back")


async def restart(node: NodeProcess, how: signal.Signals) -> None:
    assert node.process is not None
    node.process.send_signal(how)
    await asyncio.to_thread(node.process.wait, 30)
    node.stop()  # gone already: its pipe closed
    await asyncio.to_thread(node.start)  # on its port again (--port)


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "kill9"])
async def test_a_rolling_restart_brings_every_client_back_within_5_s(
    site: Site, how: signal.Signals
) -> None:
    ids = await seat_tables(site)
    await asyncio.sleep(1.0)
    outages = Outages(site.clients)
    reconnections = 0
    for node in site.nodes:
        before = progress(site.clients)
        await restart(node, how)
        await outages.settled()
        # The tables go on: after a kill -9, those whose lease the dead node held wait for
        # it to expire (--lease-ms 1500) and be taken over; 1.5 s of play after the clients
        # were back was once not enough for one of them on a loaded machine.
        await advanced(site.clients, before, BACK_SECONDS)
        reconnections = sum(client.reconnections for client in site.clients)
    await outages.stop()
    print(f"outages: {len(outages.seconds)}, longest {max(outages.seconds, default=0):.2f} s")
    assert reconnections >= 4, reconnections  # the restarts did move clients
    assert outages.seconds and max(outages.seconds) < BACK_SECONDS, sorted(outages.seconds)
    bad = [line for line in site.balancer.statuses() if line.startswith(("502", "503", "504"))]
    assert not bad, bad[:10]
    assert all(not task.done() or not task.exception() for task in site.tasks)
    assert len(ids) == TABLES


async def test_a_tables_seats_and_spectators_reach_one_node(site: Site) -> None:
    ids = await seat_tables(site)
    watchers = []
    for table_id in ids:
        watcher = await Client.connect(site.balancer.url, "json", table=table_id)
        await watcher.watch(table_id)
        watchers.append(watcher)
    await asyncio.sleep(0.5)
    for client in [*site.clients, *watchers]:
        await client.close()
    await asyncio.sleep(0.5)  # nginx logs a WebSocket when it closes
    nodes_of: dict[str, set[str]] = defaultdict(set)
    for line in site.balancer.statuses():
        _, upstream, _, uri = line.split(" ", 3)
        if uri.startswith("/t/"):
            nodes_of[uri[3:]].add(upstream)
    assert set(nodes_of) == set(ids), nodes_of
    assert all(len(upstreams) == 1 for upstreams in nodes_of.values()), nodes_of
