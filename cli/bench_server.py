"""``tarot bench server``: tables of 4 bot clients over loopback WebSockets.

The server under test runs in its own process(es) (``tarot serve``); the bot
clients run here. Each client acts on its ``your_turn`` with a random legal
action; an action's latency is the time from its sending to the receipt of
its first event by all four seats of the table. The same clients then run
against a bare ``websockets`` broadcast server (the ceiling: no rules, no
store, only the transport), so that the ratio says what the game costs.

With ``--store redis`` the memory store runs too, side by side in the same
run; ``--nodes N`` spreads each table's four clients over N server processes
sharing one Redis, and prints each node's CPU seconds per 1,000 actions and
its share of the actions.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed

SUBPROTOCOL = "tarot.v1.msgpack"
Barrier = Callable[[], Awaitable[None]]  # set-up done: wait until every client process is


def add_parser(sub: Any) -> None:
    p = sub.add_parser("server", help="actions/s and latency of tables of 4 bot clients")
    p.add_argument("--tables", type=int, default=200, help="concurrent tables (default 200)")
    p.add_argument("--seconds", type=float, default=10.0, help="measured seconds per run")
    p.add_argument("--store", choices=["memory", "redis"], default="memory")
    p.add_argument(
        "--redis", default="redis://127.0.0.1:6379/14", help="Redis URL for --store redis"
    )
    p.add_argument("--nodes", type=int, default=1, help="server processes (needs --store redis)")
    p.add_argument(
        "--think-ms",
        type=float,
        default=0.0,
        help="each bot thinks this long (0-2x, uniform) before acting: a paced load (default 0)",
    )
    p.add_argument(
        "--client-procs", type=int, default=2, help="processes driving the bot clients (default 2)"
    )
    p.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="with --store redis: memory and redis runs alternate this many times and each "
        "figure is the median over the rounds (default 1)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


@dataclass
class Table:
    """One table's bookkeeping: the action in flight and the figures."""

    pending_seq: int = -1
    sent_at: float = 0.0
    received: int = 0
    latencies: list[float] = field(default_factory=list)


@dataclass
class Run:
    tables: list[Table]
    stop: asyncio.Event
    go: asyncio.Event = field(default_factory=asyncio.Event)  # set once every seat is connected
    measuring: bool = False
    think: float = 0.0  # mean seconds a bot waits before acting

    def arrived(self, table: Table, seq: int) -> None:
        if seq != table.pending_seq:
            return
        table.received += 1
        if table.received == 4 and self.measuring:
            table.latencies.append(time.perf_counter() - table.sent_at)

    def latencies(self) -> list[float]:
        return [x for t in self.tables for x in t.latencies]


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


async def tarot_seat(ws: ClientConnection, table: Table, run: Run, rng: random.Random) -> None:
    async def act(legal: dict[str, Any], seq: int) -> None:
        await run.go.wait()  # tables start as they fill up; nobody acts before all are set
        if run.think:
            await asyncio.sleep(rng.uniform(0, 2 * run.think))
        if run.stop.is_set():
            return
        table.pending_seq, table.received = seq + 1, 0
        table.sent_at = time.perf_counter()
        await ws.send(pack({"type": "act", "action": choose(legal, rng)}))

    async for frame in ws:
        message = msgpack.unpackb(frame, raw=False)
        kind = message["type"]
        if kind == "event":
            run.arrived(table, message["seq"])
            if message["event"]["kind"] == "score":
                await ws.send(pack({"type": "next_deal"}))
        elif kind == "your_turn":
            if run.go.is_set():
                await act(message["legal"], message["seq"])
            else:
                asyncio.get_running_loop().create_task(act(message["legal"], message["seq"]))
        elif kind == "error":
            raise RuntimeError(f"the server refused a bench action: {message}")


async def open_seat(url: str, table_id: str, seat: int) -> ClientConnection:
    ws = await connect(url, subprotocols=[SUBPROTOCOL], max_size=2**22)  # type: ignore[list-item]
    await ws.send(pack({"type": "hello", "protocol": 1}))
    await ws.recv()
    await ws.send(pack({"type": "join", "table_id": table_id, "seat": seat}))
    while msgpack.unpackb(await ws.recv(), raw=False)["type"] != "joined":
        pass
    return ws


async def tarot_run(
    urls: list[str], tables: int, seconds: float, think: float, barrier: Barrier
) -> list[float]:
    lobby = await connect(urls[0], subprotocols=[SUBPROTOCOL])  # type: ignore[list-item]
    await lobby.send(pack({"type": "hello", "protocol": 1}))
    await lobby.recv()
    run = Run([Table() for _ in range(tables)], asyncio.Event(), think=think)
    sockets: list[ClientConnection] = []
    tasks = []
    for i, table in enumerate(run.tables):
        await lobby.send(pack({"type": "create_table", "options": {"deals": None}}))
        table_id = msgpack.unpackb(await lobby.recv(), raw=False)["table"]["table_id"]
        seats = await asyncio.gather(
            *(open_seat(urls[(i + seat) % len(urls)], table_id, seat) for seat in range(4))
        )
        for seat, ws in enumerate(seats):
            sockets.append(ws)
            rng = random.Random(4 * i + seat)
            tasks.append(asyncio.create_task(tarot_seat(ws, table, run, rng)))
    await barrier()
    run.go.set()
    return await measure(run, tasks, [*sockets, lobby], seconds)


async def measure(
    run: Run, tasks: list[asyncio.Task[None]], sockets: list[ClientConnection], seconds: float
) -> list[float]:
    await asyncio.sleep(1.0)  # warm up
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
    return run.latencies()


# ---------------------------------------------------------------- the ceiling


async def ceiling_server(port: int) -> None:
    """A bare broadcast server: each frame goes to the four sockets of its path."""
    groups: dict[str, set[ServerConnection]] = {}

    async def handler(ws: ServerConnection) -> None:
        assert ws.request is not None
        group = groups.setdefault(ws.request.path, set())
        group.add(ws)
        async for frame in ws:
            broadcast(group, frame)

    async with serve(handler, "127.0.0.1", port, max_size=2**22):
        await asyncio.Future()


async def ceiling_seat(
    ws: ClientConnection, seat: int, table: Table, run: Run, rng: random.Random
) -> None:
    async for frame in ws:
        seq = msgpack.unpackb(frame, raw=False)["seq"]
        run.arrived(table, seq)
        if (seq + 1) % 4 == seat and not run.stop.is_set():
            if run.think:
                await asyncio.sleep(rng.uniform(0, 2 * run.think))
            table.pending_seq, table.received = seq + 1, 0
            table.sent_at = time.perf_counter()
            await ws.send(pack({"seq": seq + 1, "action": {"kind": "play", "card": "T21"}}))


async def ceiling_run(
    url: str, tables: int, seconds: float, think: float, barrier: Barrier, first: int
) -> list[float]:
    run = Run([Table() for _ in range(tables)], asyncio.Event(), think=think)
    sockets: list[ClientConnection] = []
    tasks: list[asyncio.Task[None]] = []
    for i, table in enumerate(run.tables):
        group = [await connect(f"{url}t{first + i}", max_size=2**22) for _ in range(4)]
        sockets.extend(group)
        tasks.extend(
            asyncio.create_task(ceiling_seat(ws, seat, table, run, random.Random(4 * i + seat)))
            for seat, ws in enumerate(group)
        )
    await barrier()
    for i, table in enumerate(run.tables):
        table.pending_seq, table.sent_at = 0, time.perf_counter()
        await sockets[4 * i].send(pack({"seq": 0}))
    return await measure(run, tasks, sockets, seconds)


# ---------------------------------------------------------------- processes


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_process(args: list[str]) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def wait_for_port(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            err = process.stderr.read().decode() if process.stderr else ""
            raise RuntimeError(f"the server process exited: {err[-500:]}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port}")


def run_clients(
    mode: str, urls: list[str], tables: int, seconds: float, think: float, procs: int
) -> dict[str, Any]:
    """Drive ``tables`` tables from ``procs`` client processes, measured over the same window."""
    shares = [tables // procs + (1 if i < tables % procs else 0) for i in range(procs)]
    workers = []
    first = 0
    for share in shares:
        if share:
            args = [
                sys.executable,
                "-m",
                "cli.bench_server",
                "worker",
                mode,
                ",".join(urls),
                str(share),
                str(seconds),
                str(think),
                str(first),
            ]
            workers.append(subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE))
        first += share
    try:
        for worker in workers:
            assert worker.stdout is not None
            if worker.stdout.readline().strip() != b"ready":
                raise RuntimeError("a bench client process failed to set up")
        progress(f"{4 * tables} connections from {len(workers)} client processes; measuring")
        for worker in workers:
            assert worker.stdin is not None
            worker.stdin.write(b"go\n")
            worker.stdin.flush()
        latencies: list[float] = []
        for worker in workers:
            out, _ = worker.communicate(timeout=seconds + 120)
            if worker.returncode:
                raise RuntimeError("a bench client process failed")
            latencies.extend(json.loads(out))
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
    return figures(latencies, seconds)


async def stdin_barrier() -> None:
    """A worker says it is ready and waits for the word to go."""
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)


def worker_main(argv: list[str]) -> None:
    mode, urls, tables, seconds, think, first = argv
    n, secs, th, start = int(tables), float(seconds), float(think), int(first)
    if mode == "tarot":
        latencies = asyncio.run(tarot_run(urls.split(","), n, secs, th, stdin_barrier))
    else:
        latencies = asyncio.run(ceiling_run(urls, n, secs, th, stdin_barrier, start))
    print(json.dumps(latencies), flush=True)


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def actions_applied(port: int) -> float:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        for line in response.read().decode().splitlines():
            if line.startswith("tarot_actions_applied_total"):
                return float(line.split()[1])
    return 0.0


def flush_redis(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()


def progress(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def serve_and_measure(
    tables: int, seconds: float, redis_url: str | None, nodes: int, think: float, procs: int
) -> dict[str, Any]:
    if redis_url:
        flush_redis(redis_url)
    ports = [free_port() for _ in range(nodes)]
    processes = []
    for i, port in enumerate(ports):
        args = [
            sys.executable,
            "-m",
            "cli.main",
            "serve",
            "--port",
            str(port),
            "--node-id",
            f"bench-{i}",
        ]
        processes.append(start_process(args + (["--redis", redis_url] if redis_url else [])))
    try:
        for port, process in zip(ports, processes, strict=True):
            wait_for_port(port, process)
        progress(f"{'redis' if redis_url else 'memory'} store, {nodes} node(s): {tables} tables")
        cpu_before = [cpu_seconds(p.pid) for p in processes]
        urls = [f"ws://127.0.0.1:{port}/" for port in ports]
        result = run_clients("tarot", urls, tables, seconds, think, procs)
        cpu = [cpu_seconds(p.pid) - c for p, c in zip(processes, cpu_before, strict=True)]
        applied = [actions_applied(port) for port in ports]
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(10)
            if process.stderr is not None:
                process.stderr.close()
        if redis_url:
            flush_redis(redis_url)
    total = sum(applied) or 1.0
    result["nodes"] = [
        {
            "cpu_seconds_per_1000_actions": round(1000 * c / a, 3) if a else None,
            "share_of_actions": round(a / total, 3),
        }
        for c, a in zip(cpu, applied, strict=True)
    ]
    return result


def versus(redis: dict[str, Any], memory: dict[str, Any]) -> dict[str, float | None]:
    """Redis's p99 and first node's CPU per action, as multiples of the memory store's."""
    cpu_r = redis["nodes"][0]["cpu_seconds_per_1000_actions"]
    cpu_m = memory["nodes"][0]["cpu_seconds_per_1000_actions"]
    return {
        "p99": round(redis["p99_ms"] / memory["p99_ms"], 2) if memory["p99_ms"] else None,
        "cpu": round(cpu_r / cpu_m, 2) if cpu_r and cpu_m else None,
    }


def median_figures(runs: list[dict[str, Any]]) -> Any:
    """Each figure's median over runs of the same shape (dicts, lists and numbers)."""
    first = runs[0]
    if isinstance(first, dict):
        return {key: median_figures([run[key] for run in runs]) for key in first}
    if isinstance(first, list):
        return [median_figures([run[i] for run in runs]) for i in range(len(first))]
    numbers = [x for x in runs if isinstance(x, int | float)]
    return round(statistics.median(numbers), 3) if numbers else first


def ceiling(tables: int, seconds: float, think: float, procs: int) -> dict[str, Any]:
    port = free_port()
    process = start_process([sys.executable, "-m", "cli.bench_server", "ceiling", str(port)])
    try:
        wait_for_port(port, process)
        progress(f"ceiling: bare websockets broadcast, {tables} groups of 4")
        return run_clients("ceiling", [f"ws://127.0.0.1:{port}/"], tables, seconds, think, procs)
    finally:
        process.terminate()
        process.wait(10)
        if process.stderr is not None:
            process.stderr.close()


def run(args: argparse.Namespace) -> int:
    if args.nodes > 1 and args.store != "redis":
        print("tarot bench server: --nodes > 1 needs --store redis", file=sys.stderr)
        return 2
    if args.tables < 1 or args.seconds <= 0 or args.client_procs < 1 or args.rounds < 1:
        print(
            "tarot bench server: --tables, --seconds, --client-procs, --rounds must be positive",
            file=sys.stderr,
        )
        return 2
    result: dict[str, Any] = {"tables": args.tables, "connections": 4 * args.tables}
    think = args.think_ms / 1000
    result["think_ms"] = args.think_ms
    procs = args.client_procs
    rounds: list[dict[str, Any]] = []
    for _ in range(args.rounds if args.store == "redis" else 1):
        one = {"memory": serve_and_measure(args.tables, args.seconds, None, 1, think, procs)}
        if args.store == "redis":
            one["redis"] = serve_and_measure(
                args.tables, args.seconds, args.redis, args.nodes, think, procs
            )
            one["redis_vs_memory"] = versus(one["redis"], one["memory"])
        rounds.append(one)
    for name in rounds[0]:
        result[name] = median_figures([one[name] for one in rounds])
    if len(rounds) > 1:
        result["rounds"] = rounds
    ceiling_figures = ceiling(args.tables, args.seconds, think, procs)
    main = result[args.store]
    result.update(
        store=args.store,
        node_count=args.nodes,
        actions_per_second=main["actions_per_second"],
        p50_ms=main["p50_ms"],
        p99_ms=main["p99_ms"],
        ceiling_actions_per_second=ceiling_figures["actions_per_second"],
        ceiling_p50_ms=ceiling_figures["p50_ms"],
        ceiling_p99_ms=ceiling_figures["p99_ms"],
    )
    result["ratio_to_ceiling"] = round(
        main["actions_per_second"] / max(ceiling_figures["actions_per_second"], 1e-9), 3
    )
    print(json.dumps(result) if args.json else render(result, args))
    return 0


def render(result: dict[str, Any], args: argparse.Namespace) -> str:
    lines: list[str] = []
    line = lines.append
    line(
        f"{args.tables} tables, {4 * args.tables} connections, {args.seconds:g} s measured, "
        f"bots think {args.think_ms:g} ms on average"
    )
    if args.rounds > 1 and args.store == "redis":
        line(f"  medians of {args.rounds} rounds, memory and redis alternating")
    for name in ("memory", "redis"):
        if name in result:
            f = result[name]
            line(
                f"  {name:<7} {f['actions_per_second']:>9.1f} actions/s   p50 {f['p50_ms']:.2f} ms"
                f"   p99 {f['p99_ms']:.2f} ms"
            )
            for i, node in enumerate(f["nodes"]):
                line(
                    f"          node {i}: {node['cpu_seconds_per_1000_actions']} CPU s per 1,000"
                    f" actions, {100 * node['share_of_actions']:.0f}% of the actions"
                )
    if "redis_vs_memory" in result:
        ratio = result["redis_vs_memory"]
        line(f"  redis / memory: p99 {ratio['p99']}x, CPU per action {ratio['cpu']}x (node 0)")
    line(
        f"  ceiling {result['ceiling_actions_per_second']:>9.1f} actions/s   p50 "
        f"{result['ceiling_p50_ms']:.2f} ms   p99 {result['ceiling_p99_ms']:.2f} ms"
        f"   (bare websockets broadcast)"
    )
    line(f"  ratio   {result['ratio_to_ceiling']:.3f} of the ceiling's actions/s ({args.store})")
    return "\n".join(lines)


if __name__ == "__main__":  # the bench's own processes: the ceiling server, client workers
    if sys.argv[1] == "ceiling":
        asyncio.run(ceiling_server(int(sys.argv[2])))
    else:
        worker_main(sys.argv[2:])
