"""Bots ride over a stalled table store: ``unavailable`` is sent again, with backoff.

A real Redis that the test stops (SIGSTOP), two real server nodes
(``tarot serve --redis``) whose store time-out is shorter than the stall, and
three ``tarot bot`` processes and the Node.js bot. The store is stopped before
the bots start and stays so for 2.5 s, and until every bot's join has been
refused; it stops 2.5 s again during the deal. The table must fill and
finish. ``tarot bot`` and the Node bot once exited on the first ``unavailable``.
On one node (the next test) the acts go out into the stall: the bots meet
``outcome_unknown`` too, resume, and the table finishes.
And a store that comes back empty lost the table: ``tarot bot`` stops and says
so (``table_lost``), where it used to wait for a table that is gone.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from clients.python import Client
from protocol import models as m

from ..redis.servers import ROOT, NodeProcess, RedisServer
from .test_bots_cli import NODE_BOT
from .test_bots_cli import node as node_js

pytestmark = pytest.mark.redis  # a redis-server of the test's own

STALL_SECONDS = 2.5


@pytest.fixture
def store_and_nodes(tmp_path: Path) -> Iterator[tuple[RedisServer, NodeProcess, NodeProcess]]:
    """A Redis and two nodes on it: the table is made on the first, the bots sit on the second."""
    redis = RedisServer(tmp_path / "redis").start()
    nodes = [
        NodeProcess(redis.url, f"n{i}", tmp_path / f"node{i}.log", "--redis-timeout", "0.5")
        for i in (1, 2)
    ]
    try:
        yield redis, nodes[0].start(), nodes[1].start()
    finally:
        for node in nodes:
            node.stop()
        redis.stop()


class BotProcess:
    """``tarot bot`` (seats 0-2) or the Node.js bot (seat 3); its standard error read live."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.said: list[str] = []
        assert process.stderr is not None
        self.reading = asyncio.ensure_future(self._read(process.stderr))

    @classmethod
    async def start(cls, url: str, table_id: str, seat: int, *extra: str) -> BotProcess:
        argv = [sys.executable, "-m", "cli.main", "bot", "--server", url, "--table", table_id]
        argv += ["--seat", str(seat), "--policy", "ai:basic", *extra]
        if seat == 3:
            argv = [*node_js(), str(NODE_BOT), url, table_id, "--seat", str(seat)]
        process = await asyncio.create_subprocess_exec(
            *argv, cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
        )
        return cls(process)

    async def _read(self, stream: asyncio.StreamReader) -> None:
        async for line in stream:
            self.said.append(line.decode())

    def join_refused(self) -> bool:
        """Its join met the stall: ``tarot bot``'s words, or the Node bot's."""
        return any("Join refused (unavailable)" in s or "refused (join" in s for s in self.said)

    async def result(self) -> tuple[int, str]:
        """Its exit status and standard output, once it has ended (killed if need be)."""
        assert self.process.stdout is not None
        try:
            async with asyncio.timeout(90):
                out = await self.process.stdout.read()
                await self.process.wait()
        finally:
            if self.process.returncode is None:
                self.process.kill()
                await self.process.wait()
            await self.reading
        assert self.process.returncode is not None
        return self.process.returncode, out.decode()


async def stall(redis: RedisServer, until: Callable[[], bool] = lambda: True) -> None:
    """The store stops answering (its process stopped) for 2.5 s, and longer while ``until``
    is false (20 s at most), then goes on."""
    assert redis.process is not None
    os.kill(redis.process.pid, signal.SIGSTOP)
    try:
        await asyncio.sleep(STALL_SECONDS)
        async with asyncio.timeout(20):
            while not until():
                await asyncio.sleep(0.05)
    finally:
        os.kill(redis.process.pid, signal.SIGCONT)


async def first_trick(watcher: Client, bots: list[BotProcess]) -> None:
    """Wait for the deal's first trick; fail as soon as a bot gives up instead."""

    async def trick() -> None:
        async for message in watcher:
            if isinstance(message, m.Event) and isinstance(message.event, m.TrickEvent):
                return

    seen = asyncio.ensure_future(trick())
    ended = [asyncio.ensure_future(b.process.wait()) for b in bots]
    done, _ = await asyncio.wait([seen, *ended], return_when=asyncio.FIRST_COMPLETED)
    for waiting in [seen, *ended]:
        waiting.cancel()
    for b in bots:
        if b.process.returncode is not None:
            await b.reading
            raise AssertionError(f"a bot gave up: {''.join(b.said)}")
    assert seen in done


async def test_tarot_bots_fill_and_finish_a_table_while_redis_stalls(
    store_and_nodes: tuple[RedisServer, NodeProcess, NodeProcess],
) -> None:
    # The bots' node has not loaded the table: a join first reads it from the store, so one
    # refused as unavailable wrote nothing. (On a node that has it loaded, a join sent into
    # a stall longer than the node's check is answered outcome_unknown, and a seat not yet
    # joined has no token to resume with: the next test stalls the deal on such a node.)
    redis, lobby, seats = store_and_nodes
    async with await Client.connect(lobby.url) as watcher:
        table_id = (await watcher.create_table(m.TableOptions(deals=1))).table.table_id
        await watcher.watch(table_id)
        bots: list[BotProcess] = []

        # Stopped before the bots start, and until each one's join was refused (or it gave up).
        def refused() -> bool:
            ended = [b.join_refused() or b.process.returncode is not None for b in bots]
            return len(ended) == 4 and all(ended)

        joins_stalled = asyncio.ensure_future(stall(redis, until=refused))
        bots += [await BotProcess.start(seats.url, table_id, seat) for seat in range(4)]
        try:
            await joins_stalled
            async with asyncio.timeout(60):
                await first_trick(watcher, bots)
            await stall(redis)  # the deal meets it too
        finally:
            results = [await b.result() for b in bots]
    for b, (code, _) in zip(bots, results, strict=True):
        assert code == 0, "".join(b.said)
    outputs = [json.loads(out) for _, out in results]
    assert sorted(r["seat"] for r in outputs) == [0, 1, 2, 3]
    assert len({tuple(r["totals"]) for r in outputs}) == 1 and sum(outputs[0]["totals"]) == 0


async def test_tarot_bot_says_its_table_was_lost_when_redis_comes_back_empty(
    tmp_path: Path,
) -> None:
    """A store restarted without its data lost the table: the bot stops, and says why."""
    redis = RedisServer(tmp_path / "redis").start()
    server = NodeProcess(
        redis.url, "n1", tmp_path / "node.log", "--ai-pause", "1", "--lease-ms", "1000"
    )
    try:
        server.start()
        async with await Client.connect(server.url) as watcher:
            table_id = (await watcher.create_table(m.TableOptions(deals=1))).table.table_id
            await watcher.watch(table_id)
            player = await BotProcess.start(server.url, table_id, 0, "--start")
            async for message in watcher:  # the bot sits, and the AI it started plays slowly
                if isinstance(message, m.Event) and isinstance(message.event, m.BidEvent):
                    break
            redis.stop()
            shutil.rmtree(redis.workdir)  # no persistence: it comes back empty
            redis.start()
            code, out = await player.result()
    finally:
        server.stop()
        redis.stop()
    said = "".join(player.said)
    assert code == 1 and out == "", said
    assert f"the table was lost: table {table_id} was lost by the table store" in said


async def test_tarot_bots_finish_a_table_while_redis_stalls_on_the_node_that_holds_it(
    tmp_path: Path,
) -> None:
    """One node: the bots' acts reach the node that has the table loaded, so a write
    goes out into the stall. The node answers truly (the act applied, ``unavailable``
    when it was not, ``outcome_unknown`` when Redis stays silent past its check) and
    the bots go on: each resends or resumes, and the table finishes, once."""
    redis = RedisServer(tmp_path / "redis").start()
    server = NodeProcess(redis.url, "n1", tmp_path / "node.log", "--redis-timeout", "0.5")
    try:
        server.start()
        async with await Client.connect(server.url) as watcher:
            table_id = (await watcher.create_table(m.TableOptions(deals=1))).table.table_id
            await watcher.watch(table_id)
            bots = [await BotProcess.start(server.url, table_id, seat) for seat in range(4)]
            try:
                async with asyncio.timeout(60):
                    await first_trick(watcher, bots)
                await stall(redis)
                await asyncio.sleep(1.0)  # a few moves between the stalls
                await stall(redis)
            finally:
                results = [await b.result() for b in bots]
    finally:
        server.stop()
        redis.stop()
    for b, (code, _) in zip(bots, results, strict=True):
        assert code == 0, "".join(b.said)
    outputs = [json.loads(out) for _, out in results]
    assert sorted(r["seat"] for r in outputs) == [0, 1, 2, 3]
    assert len({tuple(r["totals"]) for r in outputs}) == 1 and sum(outputs[0]["totals"]) == 0
    said = "".join("".join(b.said) for b in bots)
    assert "outcome_unknown" in said or "unavailable" in said, said  # the stalls were met
