"""``tarot bench review``: what deal reviews running on a node do to its tables' latency.

One ``tarot serve --bot-workers W`` process; the tables of ``tarot bench
server`` (4 bot clients each, latency from an action to its first event at
all four seats) are driven against it twice per round: once alone, once
while ``--reviewers`` clients each play deals against the AI and ask for
every deal's review (``review_deal``) as soon as it is scored, so that the
node's review slot is never idle. Rounds alternate the two, and the figures
are the medians over the rounds and the ratios with / without.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import subprocess
import sys
import threading
import time
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect

from .bench_clients import SUBPROTOCOL, choose
from .bench_processes import (
    UNLIMITED,
    free_port,
    progress,
    run_clients,
    start_process,
    wait_for_port,
)


def add_parser(sub: Any) -> None:
    p = sub.add_parser("review", help="table latency while deal reviews run on the node")
    p.add_argument("--tables", type=int, default=100, help="bench tables (default 100)")
    p.add_argument("--seconds", type=float, default=10.0, help="measured seconds per run")
    p.add_argument("--think-ms", type=float, default=300.0, help="bench bots' think time")
    p.add_argument("--reviewers", type=int, default=2, help="clients asking for reviews")
    p.add_argument("--bot-workers", type=int, default=2, help="the node's worker processes")
    p.add_argument("--rounds", type=int, default=3, help="alternations of the two runs")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


class Reviewers:
    """Clients in a thread of their own: each plays deals and asks for each one's review."""

    def __init__(self, url: str, count: int) -> None:
        self.url, self.count = url, count
        self.reviews = 0
        self.decisions = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._main()), daemon=True)

    def __enter__(self) -> Reviewers:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join(30)

    async def _main(self) -> None:
        tasks = [asyncio.create_task(self._client(i)) for i in range(self.count)]
        while not self._stop.is_set():
            await asyncio.sleep(0.1)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task

    async def _client(self, i: int) -> None:
        rng = random.Random(i)
        async with connect(self.url, subprotocols=[SUBPROTOCOL], max_size=2**24) as ws:  # type: ignore[list-item]
            await _send(ws, {"type": "hello", "protocol": 1})
            create = {"deals": None, "ai_level": "basic"}
            await _send(ws, {"type": "create_table", "options": create})
            table = await _until(ws, "table_created")
            table_id = table["table"]["table_id"]
            await _send(ws, {"type": "join", "table_id": table_id, "seat": 0})
            await _send(ws, {"type": "start"})
            async for frame in ws:
                await self._on(ws, msgpack.unpackb(frame, raw=False), rng)

    async def _on(self, ws: ClientConnection, message: dict[str, Any], rng: random.Random) -> None:
        kind = message["type"]
        if kind == "your_turn":
            await _send(ws, {"type": "act", "action": choose(message["legal"], rng)})
        elif kind == "event" and message["event"]["kind"] == "score":
            number = message["event"]["deal_number"]
            await _send(ws, {"type": "review_deal", "deal_number": number, "id": number})
        elif kind == "review_progress":
            self.decisions += 1
        elif kind == "deal_review":
            self.reviews += 1
            await _send(ws, {"type": "next_deal"})
        elif kind == "error" and message["code"] == "review_unavailable":
            await _send(ws, {"type": "next_deal"})  # a cancelled deal: nothing to review


async def _send(ws: ClientConnection, message: dict[str, Any]) -> None:
    await ws.send(msgpack.packb(message, use_bin_type=True))


async def _until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = msgpack.unpackb(await ws.recv(), raw=False)
        if message["type"] == kind:
            return message


def _measure(args: argparse.Namespace, url: str, reviewing: bool) -> dict[str, Any]:
    think = args.think_ms / 1000
    if not reviewing:
        return run_clients([url], args.tables, args.seconds, think, 2)
    with Reviewers(url, args.reviewers) as reviewers:
        deadline = time.monotonic() + 120
        while reviewers.decisions == 0 and time.monotonic() < deadline:
            time.sleep(0.1)  # the reviewers' first deal is still being played
        result = run_clients([url], args.tables, args.seconds, think, 2)
        result["review_decisions"] = reviewers.decisions
        result["reviews"] = reviewers.reviews
    return result


def run(args: argparse.Namespace) -> int:
    port = free_port()
    command = [sys.executable, "-m", "cli.main", "serve", "--port", str(port), "--ai-pause", "0"]
    server = start_process([*command, "--bot-workers", str(args.bot_workers), *UNLIMITED])
    url = f"ws://127.0.0.1:{port}/"
    rounds: list[dict[str, Any]] = []
    try:
        wait_for_port(port, server)
        for i in range(args.rounds):
            alone = _measure(args, url, reviewing=False)
            progress(f"round {i + 1}: alone p50 {alone['p50_ms']} ms, p99 {alone['p99_ms']} ms")
            busy = _measure(args, url, reviewing=True)
            progress(f"round {i + 1}: reviews p50 {busy['p50_ms']} ms, p99 {busy['p99_ms']} ms")
            rounds.append({"alone": alone, "reviewing": busy})
    finally:
        server.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(10)
        if server.stderr is not None:
            server.stderr.close()
    figures = summarise(rounds)
    print(json.dumps(figures) if args.json else render(figures))
    return 0


def summarise(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    def median(run: str, key: str) -> float:
        return round(float(statistics.median(r[run][key] for r in rounds)), 2)

    def ratio(key: str) -> float:
        return round(
            float(statistics.median(r["reviewing"][key] / r["alone"][key] for r in rounds)), 2
        )

    return {
        "rounds": rounds,
        "alone": {k: median("alone", k) for k in ("actions_per_second", "p50_ms", "p99_ms")},
        "reviewing": {
            k: median("reviewing", k)
            for k in ("actions_per_second", "p50_ms", "p99_ms", "review_decisions", "reviews")
        },
        "ratio_p50": ratio("p50_ms"),
        "ratio_p99": ratio("p99_ms"),
    }


def render(f: dict[str, Any]) -> str:
    a, r = f["alone"], f["reviewing"]
    return (
        f"tables alone:        {a['actions_per_second']} actions/s, p50 {a['p50_ms']} ms, "
        f"p99 {a['p99_ms']} ms\n"
        f"while reviews run:   {r['actions_per_second']} actions/s, p50 {r['p50_ms']} ms, "
        f"p99 {r['p99_ms']} ms ({r['review_decisions']} decisions, {r['reviews']} reviews "
        f"analysed in the run)\n"
        f"ratio (median of the rounds): p50 {f['ratio_p50']}x, p99 {f['ratio_p99']}x"
    )
