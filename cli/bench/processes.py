"""The processes of ``tarot bench server``: server nodes, client workers, their figures.

Each node is a ``tarot serve`` process; its CPU time is read from /proc and
the actions it applied from its ``/metrics``, both over the clients' measured
window (``Window``), so that a node's CPU seconds per 1,000 actions count what
it did while the tables played and nothing else.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..local_servers import free_port, python_module
from .clients import VERSION, figures, warm_up

# The load comes from one address and one connection makes every table: the
# per-address and per-connection limits (docs/DEPLOY.md, "Security") are off.
UNLIMITED = (
    "--tables-per-connection",
    "0",
    "--tables-per-address",
    "0",
    "--connections-per-address",
    "0",
    "--reviews-per-player",
    "0",
)


@dataclass(frozen=True, slots=True)
class Profiles:
    """``--profile DIR``: each measured process runs under ``cli.bench.sampled`` and
    writes ``DIR/NAME[SUFFIX].folded`` (the suffix names the round, with ``--rounds``)."""

    folder: Path
    suffix: str = ""

    def path(self, name: str) -> Path:
        return self.folder / f"{name}{self.suffix}.folded"

    def command(self, args: list[str], name: str) -> list[str]:
        """``args``, a ``python -m MODULE ...`` command, under the sampler."""
        return [*python_module("bench.sampled"), str(self.path(name)), *args[2:]]


def profiled(args: list[str], name: str, profiles: Profiles | None) -> list[str]:
    return profiles.command(args, name) if profiles else args


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
    urls: list[str],
    tables: int,
    seconds: float,
    think: float,
    procs: int,
    started: Callable[[], None] | None = None,
    version: int = VERSION,
    launch: Callable[[list[str]], list[str]] = list,
) -> dict[str, Any]:
    """Drive ``tables`` tables from ``procs`` client processes, measured over the same window
    (``started`` is called at the word to go, once every table is set up; the window opens
    ``clients.warm_up`` later and lasts ``seconds``; ``launch`` wraps each process's
    command, e.g. to run it on a test host)."""
    shares = [tables // procs + (1 if i < tables % procs else 0) for i in range(procs)]
    workers = []
    for share in shares:
        if share:
            args = [
                *python_module("bench.worker"),
                "worker",
                ",".join(urls),
                str(share),
                str(seconds),
                str(think),
                str(version),
            ]
            workers.append(
                subprocess.Popen(launch(args), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            )
    try:
        _start_together(workers, tables)
        if started is not None:
            started()
        latencies: list[float] = []
        frames = 0
        for worker in workers:
            out, _ = worker.communicate(timeout=seconds + 120)
            if worker.returncode:
                raise RuntimeError("a bench client process failed")
            measured = json.loads(out)
            latencies.extend(measured["latencies"])
            frames += measured["frames"]
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
    result = figures(latencies, seconds)
    result["frames_per_action"] = round(frames / max(len(latencies), 1), 2)
    return result


def _start_together(workers: list[subprocess.Popen[bytes]], tables: int) -> None:
    """Once every client process has set up its tables, all start measuring at once."""
    for worker in workers:
        assert worker.stdout is not None
        if worker.stdout.readline().strip() != b"ready":
            raise RuntimeError("a bench client process failed to set up")
    progress(f"{4 * tables} connections from {len(workers)} client processes; measuring")
    for worker in workers:
        assert worker.stdin is not None
        worker.stdin.write(b"go\n")
        worker.stdin.flush()


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def scrape(port: int) -> dict[str, float]:
    """A node's (or the relay's) ``/metrics``: each sample's value by its name and labels."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        return samples(response.read().decode())


def samples(text: str) -> dict[str, float]:
    """Prometheus's text format: each sample's value by its name and labels."""
    lines = (line.rsplit(" ", 1) for line in text.splitlines() if line and line[0] != "#")
    return {name: float(value) for name, value in lines}


def gc_figures(before: dict[str, float], after: dict[str, float]) -> dict[str, Any]:
    """The collector's pauses between two scrapes (``server.collector.Pauses``)."""

    def total(scraped: dict[str, float], prefix: str, suffix: str = "") -> float:
        return sum(v for k, v in scraped.items() if k.startswith(prefix) and k.endswith(suffix))

    def grew(prefix: str, suffix: str = "") -> float:
        return total(after, prefix, suffix) - total(before, prefix, suffix)

    pauses = grew("tarot_gc_pause_seconds_count")
    longest = _values(after, "tarot_gc_pause_max_seconds")
    longest_cpu = _values(after, "tarot_gc_pause_cpu_max_seconds")
    within_5ms = grew("tarot_gc_pause_seconds_bucket", 'le="0.005"}')
    return {
        "gc_pauses": int(pauses),
        "gc_pauses_over_5ms": int(pauses - within_5ms),
        "gc_pause_ms_total": round(1000 * grew("tarot_gc_pause_seconds_sum"), 1),
        # The longest since the node started (a maximum cannot be taken between scrapes).
        "gc_longest_pause_ms": round(1000 * max(longest, default=0.0), 2),
        "gc_longest_pause_ms_by_generation": [round(1000 * x, 2) for x in longest],
        "gc_longest_pause_cpu_ms_by_generation": [round(1000 * x, 2) for x in longest_cpu],
    }


def _values(scraped: dict[str, float], prefix: str) -> list[float]:
    return [v for k, v in scraped.items() if k.startswith(prefix)]


class RedisCpu:
    """Redis's own CPU seconds (``INFO cpu``), for the node's figures to be read beside."""

    def __init__(self, url: str) -> None:
        import redis

        self.client = redis.Redis.from_url(url)

    def seconds(self) -> float:
        info = self.client.info("cpu")
        return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])

    def close(self) -> None:
        self.client.close()


def flush_redis(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()


def progress(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def node_args(port: int, i: int, redis_url: str | None, extra: tuple[str, ...] = ()) -> list[str]:
    args = [*python_module("main"), "serve", "--port", str(port), "--node-id"]
    redis = ["--redis", redis_url] if redis_url else []
    return [*args, f"bench-{i}", *UNLIMITED, *redis, *extra]


def serve_and_measure(
    tables: int,
    seconds: float,
    redis_url: str | None,
    nodes: int,
    think: float,
    procs: int,
    node_extra: tuple[str, ...] = (),
    version: int = VERSION,
    profiles: Profiles | None = None,
) -> dict[str, Any]:
    """Nodes (memory store, or ``nodes`` on one Redis) under the bots; their figures."""
    if redis_url:
        flush_redis(redis_url)
    store = "redis" if redis_url else "memory"
    ports = [free_port() for _ in range(nodes)]
    processes = [
        start_process(
            profiled(node_args(port, i, redis_url, node_extra), f"{store}-node-{i}", profiles)
        )
        for i, port in enumerate(ports)
    ]
    redis_cpu = RedisCpu(redis_url) if redis_url else None
    try:
        for port, process in zip(ports, processes, strict=True):
            wait_for_port(port, process)
        progress(f"{store} store, {nodes} node(s): {tables} tables")
        redis_before = redis_cpu.seconds() if redis_cpu else 0.0
        result = measure_processes(processes, ports, tables, seconds, think, procs, version)
        if redis_cpu:
            redis_seconds = redis_cpu.seconds() - redis_before
            applied = sum(node["actions"] for node in result["nodes"]) or 1
            result["redis_cpu_seconds_per_1000_actions"] = round(1000 * redis_seconds / applied, 3)
    finally:
        stop_processes(processes)
        if redis_cpu:
            redis_cpu.close()
        if redis_url:
            flush_redis(redis_url)
    return result


def measure_processes(
    processes: list[subprocess.Popen[bytes]],
    ports: list[int],
    tables: int,
    seconds: float,
    think: float,
    procs: int,
    version: int = VERSION,
) -> dict[str, Any]:
    """The bots against these servers; each server's CPU, actions and GC pauses over the
    clients' measured window."""
    window = Window(processes, ports, seconds)
    urls = [f"ws://127.0.0.1:{port}/" for port in ports]
    result = run_clients(urls, tables, seconds, think, procs, window.open, version=version)
    (cpu_before, scraped_before), (cpu_after, scraped) = window.marks()
    cpu = [after - before for before, after in zip(cpu_before, cpu_after, strict=True)]
    applied = [
        after["tarot_actions_applied_total"] - before["tarot_actions_applied_total"]
        for before, after in zip(scraped_before, scraped, strict=True)
    ]
    total = sum(applied) or 1.0
    result["nodes"] = [
        {
            "cpu_seconds_per_1000_actions": round(1000 * c / a, 3) if a else None,
            "share_of_actions": round(a / total, 3),
            "actions": int(a),
            **gc_figures(before, after),
        }
        for c, a, before, after in zip(cpu, applied, scraped_before, scraped, strict=True)
    ]
    return result


Mark = tuple[list[float], list[dict[str, float]]]  # each server's CPU seconds and /metrics


class Window:
    """The servers' figures at the two ends of the clients' measured window: from the end
    of their warm-up (``clients.warm_up``) after the word to go, for ``seconds``.

    What comes before (each connection's handshake, hello and join: 800 of each at
    200 tables) and after (800 closes) is left out, as it is of the latencies: read
    from the start of the clients' run to its end, a node's CPU per action counted
    them, and the relay, which joins nobody, paid less for them.
    """

    def __init__(
        self, processes: Sequence[subprocess.Popen[Any]], ports: list[int], seconds: float
    ) -> None:
        self.processes, self.ports, self.seconds = processes, ports, seconds
        self._marks: list[Mark] = []
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._take, daemon=True)
        self._go = 0.0

    def open(self) -> None:
        """The clients were told to go (``run_clients``'s ``started``)."""
        self._go = time.monotonic()
        self._thread.start()

    def marks(self) -> tuple[Mark, Mark]:
        """Both ends, once the window has closed (``open`` must have been called)."""
        self._thread.join()
        if self._error is not None:
            raise RuntimeError(f"the servers could not be read: {self._error}") from self._error
        return self._marks[0], self._marks[1]

    def _take(self) -> None:
        try:
            start = self._go + warm_up(self.seconds)
            for at in (start, start + self.seconds):
                time.sleep(max(0.0, at - time.monotonic()))
                cpu = [cpu_seconds(p.pid) for p in self.processes]
                self._marks.append((cpu, [scrape(port) for port in self.ports]))
        except Exception as e:  # handed to ``marks``, in the bench's thread
            self._error = e


def stop_processes(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(10)
        if process.stderr is not None:
            process.stderr.close()


def relay(
    tables: int,
    seconds: float,
    think: float,
    procs: int,
    loop: str = "auto",
    version: int = VERSION,
    profiles: Profiles | None = None,
) -> dict[str, Any]:
    """The same bots against the bare relay (``relay``) on the event loop ``loop``."""
    port = free_port()
    args = [*python_module("bench.worker"), "relay", str(port), loop]
    process = start_process(profiled(args, "relay", profiles))
    try:
        wait_for_port(port, process)
        progress(f"bare relay (no rules): {tables} tables")
        result = measure_processes([process], [port], tables, seconds, think, procs, version)
    finally:
        stop_processes([process])
    node = result.pop("nodes")[0]
    return {**result, "cpu_seconds_per_1000_actions": node["cpu_seconds_per_1000_actions"]}
