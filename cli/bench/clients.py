"""The bot clients of ``tarot bench server``: four seats a table, random legal actions.

An action's latency is the time from its sending to the receipt of its first
event by all four seats of the table; ``measure`` keeps those sent in the
measured window. The clients run in worker processes (``worker``), against
a node or the bare relay (``relay``) alike. They speak protocol 2 (a commit's
events in one ``events`` frame, the turn folded in: docs/PROTOCOL.md, section
5) unless told 1 (``tarot bench server --protocol 1``); they read both kinds.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

VERSION = 2  # the protocol the bench clients speak (``subprotocol``)
SUBPROTOCOL = f"tarot.v{VERSION}.msgpack"


def subprotocol(version: int) -> str:
    return f"tarot.v{version}.msgpack"


Barrier = Callable[[], Awaitable[None]]  # set-up done: wait until every client process is


@dataclass
class Table:
    """One table's bookkeeping: the action in flight and the figures."""

    # Each action in flight, by the number of its event: when it was sent, and how
    # many seats have had the event. Several may be in flight: a bot that does not
    # think acts on its turn before the other seats have read the event before it.
    pending: dict[int, list[float]] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)

    def sent(self, seq: int) -> None:
        self.pending[seq] = [time.perf_counter(), 0]


@dataclass
class Run:
    tables: list[Table]
    stop: asyncio.Event
    go: asyncio.Event = field(default_factory=asyncio.Event)  # set once every seat is connected
    measuring: bool = False
    think: float = 0.0  # mean seconds a bot waits before acting
    frames: int = 0  # frames the seats received in the measured window

    def arrived(self, table: Table, seq: int) -> None:
        action = table.pending.get(seq)
        if action is None:
            return
        action[1] += 1
        if action[1] == 4:
            del table.pending[seq]
            if self.measuring:
                table.latencies.append(time.perf_counter() - action[0])

    def latencies(self) -> list[float]:
        return [x for t in self.tables for x in t.latencies]


def warm_up(seconds: float) -> float:
    """How long the bots play before their measured window opens: as long as the window,
    up to 1 s (the servers' figures are taken over the same window, ``processes.Window``)."""
    return min(1.0, seconds)


def figures(latencies: list[float], seconds: float) -> dict[str, Any]:
    latencies = sorted(latencies)
    if not latencies:
        return {"actions_per_second": 0.0, "p50_ms": 0.0, "p99_ms": 0.0, "actions": 0}
    return {
        "actions_per_second": round(len(latencies) / seconds, 1),
        "p50_ms": round(1000 * statistics.median(latencies), 2),
        "p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 2),
        "actions": len(latencies),
    }


def pack(message: dict[str, Any]) -> bytes:
    return bytes(msgpack.packb(message, use_bin_type=True))


def choose(legal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    if legal["bids"]:
        return {"kind": "bid", "contract": rng.choice(legal["bids"])}
    if legal["discard"]:
        rule = legal["discard"]
        optional = [c for c in rule["allowed"] if c not in rule["required"]]
        cards = rule["required"] + rng.sample(optional, rule["count"] - len(rule["required"]))
        return {"kind": "discard", "cards": cards}
    if legal["chelem"]:
        return {"kind": "chelem", "announce": False}
    return {"kind": "play", "card": rng.choice(legal["cards"])}


@dataclass
class Seat:
    """One bot seat: it acts on its turn, says ``next_deal`` after each score."""

    ws: ClientConnection
    table: Table
    run: Run
    rng: random.Random

    async def act(self, legal: dict[str, Any], seq: int) -> None:
        run = self.run
        await run.go.wait()  # tables start as they fill up; nobody acts before all are set
        if run.think:
            await asyncio.sleep(self.rng.uniform(0, 2 * run.think))
        if run.stop.is_set():
            return
        self.table.sent(seq + 1)
        await self.ws.send(pack({"type": "act", "action": choose(legal, self.rng)}))

    async def turn(self, offer: dict[str, Any]) -> None:
        if self.run.go.is_set():
            await self.act(offer["legal"], offer["seq"])
        else:
            asyncio.get_running_loop().create_task(self.act(offer["legal"], offer["seq"]))

    async def event(self, seq: int, body: dict[str, Any]) -> None:
        self.run.arrived(self.table, seq)
        if body["kind"] == "score":
            await self.ws.send(pack({"type": "next_deal"}))

    async def read(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "events":  # version 2: a commit's events, the turn folded in
            for numbered in message["events"]:
                await self.event(numbered["seq"], numbered["event"])
            if "your_turn" in message:
                await self.turn(message["your_turn"])
        elif kind == "event":
            await self.event(message["seq"], message["event"])
        elif kind == "your_turn":
            await self.turn(message)
        elif kind == "snapshot" and "your_turn" in message:
            await self.turn(message["your_turn"])
        elif kind == "error":
            raise RuntimeError(f"the server refused a bench action: {message}")


async def tarot_seat(ws: ClientConnection, table: Table, run: Run, rng: random.Random) -> None:
    seat = Seat(ws, table, run, rng)
    async for frame in ws:
        run.frames += run.measuring
        await seat.read(msgpack.unpackb(frame, raw=False))


async def open_seat(url: str, table_id: str, seat: int, version: int = VERSION) -> ClientConnection:
    """A seat's connection; ``{table}`` in ``url`` names its table (a balancer may route on it)."""
    sub = subprotocol(version)
    ws = await connect(url.replace("{table}", table_id), subprotocols=[sub], max_size=2**22)  # type: ignore[list-item]
    await ws.send(pack({"type": "hello", "protocol": version}))
    await ws.recv()
    await ws.send(pack({"type": "join", "table_id": table_id, "seat": seat}))
    while msgpack.unpackb(await ws.recv(), raw=False)["type"] != "joined":
        pass
    return ws


async def tarot_run(
    urls: list[str],
    tables: int,
    seconds: float,
    think: float,
    barrier: Barrier,
    version: int = VERSION,
) -> Run:
    lobby = await connect(urls[0].replace("{table}", ""), subprotocols=[subprotocol(version)])  # type: ignore[list-item]
    await lobby.send(pack({"type": "hello", "protocol": version}))
    await lobby.recv()
    run = Run([Table() for _ in range(tables)], asyncio.Event(), think=think)
    sockets: list[ClientConnection] = []
    tasks = []
    for i, table in enumerate(run.tables):
        await lobby.send(pack({"type": "create_table", "options": {"deals": None}}))
        table_id = msgpack.unpackb(await lobby.recv(), raw=False)["table"]["table_id"]
        seats = await asyncio.gather(
            *(open_seat(urls[(i + seat) % len(urls)], table_id, seat, version) for seat in range(4))
        )
        for seat, ws in enumerate(seats):
            sockets.append(ws)
            rng = random.Random(4 * i + seat)
            tasks.append(asyncio.create_task(tarot_seat(ws, table, run, rng)))
    await barrier()
    run.go.set()
    await measure(run, tasks, [*sockets, lobby], seconds)
    return run


async def measure(
    run: Run, tasks: list[asyncio.Task[None]], sockets: list[ClientConnection], seconds: float
) -> None:
    await asyncio.sleep(warm_up(seconds))
    run.measuring = True
    await asyncio.sleep(seconds)
    run.measuring = False
    run.stop.set()
    await asyncio.gather(*(ws.close() for ws in sockets))
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(BaseException):
            await task
    for task in tasks:
        error = task.exception() if task.done() and not task.cancelled() else None
        if error is not None and not isinstance(error, ConnectionClosed):
            raise RuntimeError(f"a bench client failed: {error!r}")
