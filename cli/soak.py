"""``tarot soak``: two real nodes on a Redis of its own, bots at many tables, faults on a
schedule, then the checks (docs/BENCHMARKS.md, "Soak").

The faults, in turn, one every ``--fault-every`` seconds: ``kill -9`` of a node
(restarted at once under a new id), SIGTERM of a node (it drains; restarted),
Redis ``DEBUG SLEEP`` past the nodes' store time-out, and Redis stopped (SIGTERM)
or killed (``kill -9``) and restarted on its append-only file. When the time is
up no fault is injected, the tables play to their end (``--drain-seconds`` at
most), the nodes stop, and every count is printed; the exit status is 1 when
any count is bad.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import random
import signal
import sqlite3
import subprocess
import tempfile
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake

from engine import load_record, score

from .argtypes import at_least, milliseconds, positive, positive_seconds, seconds
from .local_servers import NodeProcess, RedisServer, alive, descendants, kill_all
from .soak_seat import Counts, Seat, TableLog

FAULTS = ("kill_node", "sigterm_node", "redis_sleep", "redis_restart", "redis_kill")
STORE_TIMEOUT = 1.0  # the nodes' --redis-timeout: DEBUG SLEEP lasts longer
BAD = (  # the counts that must be 0
    *("lost", "applied_twice", "duplicated", "out_of_order", "older_snapshots", "stuck"),
    *("tables_lost", "rescore_mismatches", "deals_not_stored", "orphans"),
)


def add_parser(sub: Any) -> None:
    p = sub.add_parser("soak", help="two nodes, bots at many tables, faults; then the checks")
    length = p.add_mutually_exclusive_group()
    length.add_argument(
        "--minutes", type=positive("minutes"), help="how long faults are injected (5)"
    )
    length.add_argument("--seconds", type=positive_seconds, help="the same, in seconds")
    p.add_argument("--tables", type=at_least(1), default=20, help="tables of four bot seats (20)")
    p.add_argument(
        "--deals", type=at_least(1), default=2, help="deals per table; then a new table (2)"
    )
    p.add_argument(
        "--fault-every", type=positive_seconds, default=8.0, help="seconds between faults (8)"
    )
    p.add_argument("--think-ms", type=milliseconds, default=30.0, help="a bot's mean pause (30)")
    p.add_argument("--drain-seconds", type=seconds, default=120.0, help="for the tables to end")
    p.add_argument("--seed", type=int, default=1, help="the bots' and the schedule's seed")
    p.add_argument("--workdir", type=Path, help="logs, Redis data, history (a temporary dir)")
    p.add_argument("--json", action="store_true", help="the figures as one JSON object")
    p.set_defaults(run=run)


class Cluster:
    """The Redis, the two node slots (each a process, replaced on a fault) and their helpers."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.redis = RedisServer(workdir / "redis", "--enable-debug-command", "yes")
        self.db = f"sqlite:///{workdir / 'history.sqlite3'}"
        self.nodes: list[NodeProcess | None] = [None, None]
        self.generation = 0
        self.helpers: set[int] = set()  # every node's descendants ever seen

    def start_node(self, slot: int) -> None:
        self.generation += 1
        node_id = f"{'ab'[slot]}{self.generation}"
        flags = ["--redis-timeout", str(STORE_TIMEOUT), "--lease-ms", "2000", "--db", self.db]
        flags += ["--ai-pause", "0", "--bot-workers", "1", "--connections-per-address", "0"]
        flags += ["--tables-per-address", "0", "--tables-per-connection", "0"]
        node = NodeProcess(self.redis.url, node_id, self.workdir / f"{node_id}.log", *flags)
        self.nodes[slot] = node.start()

    def urls(self) -> list[str]:
        return [n.url for n in self.nodes if n is not None and n.process is not None]

    def watch_helpers(self) -> None:
        for node in self.nodes:
            if node is not None and node.process is not None:
                self.helpers |= descendants(node.process.pid)

    def stop(self) -> None:
        self.watch_helpers()
        for node in self.nodes:
            if node is not None:
                node.stop()
        self.redis.stop()


async def inject(cluster: Cluster, fault: str, rng: random.Random) -> None:
    """One fault; returns once the cluster is whole again."""
    cluster.watch_helpers()
    slot = rng.randrange(2)
    node = cluster.nodes[slot]
    if fault in ("kill_node", "sigterm_node") and node is not None:
        if fault == "kill_node":
            node.kill()
        else:
            assert node.process is not None
            node.process.terminate()
            await asyncio.to_thread(node.process.wait, 30)
        await asyncio.to_thread(node.stop)
        cluster.nodes[slot] = None
        await asyncio.sleep(0.5)
        await asyncio.to_thread(cluster.start_node, slot)
    elif fault == "redis_sleep":
        command = ["redis-cli", "-p", str(cluster.redis.port), "DEBUG", "SLEEP"]
        await asyncio.to_thread(
            subprocess.run, [*command, str(2.5 * STORE_TIMEOUT)], capture_output=True, timeout=30
        )
    elif fault in ("redis_restart", "redis_kill"):
        stop = cluster.redis.stop if fault == "redis_restart" else cluster.redis.kill
        await asyncio.to_thread(stop)
        await asyncio.sleep(0.5)
        await asyncio.to_thread(cluster.redis.start)


async def create_table(url: str, deals: int, ai: str) -> str:
    seat = Seat(TableLog(""), 0, lambda: [url], random.Random(0), Counts(), 0)
    ws = await seat.open(url)
    try:
        await ws.recv()  # welcome
        options = {"deals": deals, "ai_level": ai}
        await ws.send(json.dumps({"type": "create_table", "options": options}))
        while (reply := json.loads(await ws.recv()))["type"] != "table_created":
            if reply["type"] == "error":
                raise RuntimeError(f"create_table refused: {reply}")
        return str(reply["table"]["table_id"])
    finally:
        await ws.close()


async def seat_table(cluster: Cluster, run: Run, ai: bool) -> tuple[TableLog, list[Any]]:
    """A new table, four seats over both nodes; with ``ai``, seat 3 is left to the AI."""
    urls = cluster.urls()
    # expert decides in the node's bot worker (random and basic inline): workers to watch
    log = TableLog(await create_table(urls[0], run.deals, "expert" if ai else "random"))
    think = run.think_ms / 1000
    seats = [
        Seat(log, i, cluster.urls, random.Random(run.rng.random()), run.counts, think)
        for i in range(3 if ai else 4)
    ]
    sockets = []
    try:
        for i, seat in enumerate(seats):
            sockets.append(await seat.open(urls[i % len(urls)]))
            await seat.join(sockets[-1])
            while (reply := json.loads(await sockets[-1].recv()))["type"] != "joined":
                if reply["type"] == "error":
                    raise RuntimeError(f"join refused: {reply}")
            seat.token = reply["token"]
        if ai:
            await sockets[0].send(json.dumps({"type": "start"}))
    except BaseException:
        for ws in sockets:
            await ws.close()
        raise
    return log, [s.play(ws) for s, ws in zip(seats, sockets, strict=True)]


async def table_slot(cluster: Cluster, run: Run, index: int, until: float) -> None:
    """Table after table (every third with an AI seat) until ``until``; the last one ends."""
    ai = index % 3 == 2
    while time.monotonic() < until:
        try:
            log, players = await asyncio.wait_for(seat_table(cluster, run, ai), 30)
        except (
            OSError,
            RuntimeError,
            TimeoutError,
            ConnectionClosed,
            InvalidHandshake,
            IndexError,
        ):
            await asyncio.sleep(0.5)  # a fault meanwhile: that table is left, try another
            continue
        run.logs.append(log)
        await asyncio.gather(*players)


class Run:
    def __init__(self, args: argparse.Namespace) -> None:
        self.counts = Counts()
        self.think_ms = float(args.think_ms)
        self.deals = int(args.deals)
        self.rng = random.Random(args.seed)
        self.logs: list[TableLog] = []
        self.faults: dict[str, int] = dict.fromkeys(FAULTS, 0)


async def faults(cluster: Cluster, run: Run, args: argparse.Namespace, until: float) -> None:
    """Every kind once in turn, then in a shuffled order, each round; one every
    ``fault_every`` seconds from the start, however long each took."""
    schedule = list(FAULTS)
    started = time.monotonic()
    for n in itertools.count(1):
        at = started + n * args.fault_every
        if at >= until:
            return
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        if not schedule:
            schedule = run.rng.sample(FAULTS, len(FAULTS))
        fault = schedule.pop(0)
        await inject(cluster, fault, run.rng)
        run.faults[fault] += 1


async def soak(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    seconds = args.seconds if args.seconds is not None else 60 * (args.minutes or 5)
    cluster = Cluster(workdir)
    run = Run(args)
    try:
        await asyncio.to_thread(cluster.redis.start)
        for slot in (0, 1):
            await asyncio.to_thread(cluster.start_node, slot)
        started = time.monotonic()
        until = started + seconds
        slots = [
            asyncio.create_task(table_slot(cluster, run, i, until)) for i in range(args.tables)
        ]
        await faults(cluster, run, args, until)
        done, pending = await asyncio.wait(
            slots, timeout=max(0.0, until - time.monotonic()) + args.drain_seconds
        )
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        failed = [t.exception() for t in done if not t.cancelled() and t.exception()]
        elapsed = time.monotonic() - started
    finally:
        cluster.stop()  # not in a thread: this runs on a cancellation too (SIGTERM)
    await asyncio.sleep(2.0)  # helpers of a stopped node get a moment to go
    orphans = alive(cluster.helpers)
    kill_all(orphans)
    return figures(run, cluster, elapsed, orphans, failed)


def figures(
    run: Run,
    cluster: Cluster,
    elapsed: float,
    orphans: set[int],
    failed: list[BaseException | None],
) -> dict[str, Any]:
    logs = run.logs
    mismatches = rescored = 0
    sheets: set[tuple[str, str]] = set()
    for log in logs:
        for record, sheet in log.deals():
            rescored += 1
            again = score(load_record(record)).to_json()
            mismatches += sheet is None or again != sheet
            sheets.add((log.table_id, json.dumps(again, sort_keys=True)))
    stored = stored_sheets(cluster.db.removeprefix("sqlite:///"))
    counts = asdict(run.counts)
    return {
        "seconds": round(elapsed, 1),
        "tables": len(logs),
        "faults": run.faults,
        "faults_injected": sum(run.faults.values()),
        "actions_acknowledged": counts.pop("acknowledged"),
        "lost": sum(log.conflicts for log in logs),
        "applied_twice": sum(log.applied_twice() for log in logs),
        **counts,
        "stuck": sum(log.stuck() for log in logs),
        "deals_rescored": rescored,
        "rescore_mismatches": mismatches,
        "deals_not_stored": len(sheets - stored),
        "helpers_watched": len(cluster.helpers),  # bot workers and resource trackers
        "orphans": len(orphans),
        "stuck_tables": [log.where() for log in logs if log.stuck()],
        "seat_failures": [repr(e) for e in failed],
    }


def stored_sheets(path: str) -> set[tuple[str, str]]:
    """(table id, sheet) of every deal in the history database, each re-scored first."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        rows = db.execute("SELECT table_id, record FROM deals").fetchall()
    out = set()
    for table_id, record in rows:
        sheet = score(load_record(json.loads(record))).to_json()
        out.add((table_id, json.dumps(sheet, sort_keys=True)))
    return out


def _interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # asyncio.run cancels the soak: its nodes and Redis are stopped


def run(args: argparse.Namespace) -> int:
    signal.signal(signal.SIGTERM, _interrupted)
    if args.workdir is not None:
        args.workdir.mkdir(parents=True, exist_ok=True)
        result = asyncio.run(soak(args, args.workdir))
    else:
        with tempfile.TemporaryDirectory(prefix="tarot-soak-") as tmp:
            result = asyncio.run(soak(args, Path(tmp)))
    bad = [k for k in BAD if result[k]] + (["seat_failures"] if result["seat_failures"] else [])
    result["bad"] = bad
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>22}: {value}")
    return 1 if bad else 0
