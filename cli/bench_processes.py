"""The processes of ``tarot bench server``: server nodes, client workers, their figures.

Each node is a ``tarot serve`` process; its CPU time is read from /proc and
the actions it applied from its ``/metrics``, so that a node's CPU seconds per
1,000 actions count what it did and nothing else.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Any

from .bench_clients import figures

# The load comes from one address and one connection makes every table: the
# per-address and per-connection limits (docs/DEPLOY.md, "Security") are off.
UNLIMITED = (
    "--tables-per-connection",
    "0",
    "--tables-per-address",
    "0",
    "--connections-per-address",
    "0",
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_process(args: list[str]) -> subprocess.Popen[bytes]:
    """A node or worker; a node keeps its finished deals in a history database of its own.

    Nodes write history as in production (so the figures count it), but into a
    fresh file of the run's, never the user's own database (TAROT_DB_URL included).
    """
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "TAROT_DB_URL": bench_history_url()}
    return subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def bench_history_url() -> str:
    folder = tempfile.mkdtemp(prefix="tarot-bench-history-")
    return f"sqlite:///{folder}/history.sqlite3"


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
                "cli.bench_worker",
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
            *UNLIMITED,
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


def ceiling(tables: int, seconds: float, think: float, procs: int) -> dict[str, Any]:
    port = free_port()
    process = start_process([sys.executable, "-m", "cli.bench_worker", "ceiling", str(port)])
    try:
        wait_for_port(port, process)
        progress(f"ceiling: bare websockets broadcast, {tables} groups of 4")
        return run_clients("ceiling", [f"ws://127.0.0.1:{port}/"], tables, seconds, think, procs)
    finally:
        process.terminate()
        process.wait(10)
        if process.stderr is not None:
            process.stderr.close()
