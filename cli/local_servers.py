"""Real local processes on 127.0.0.1: a Redis server, server nodes, and a process's
descendants (read from /proc, Linux): what must die with a node.

Each starts on free ports of 127.0.0.1, waits until it answers, and is ended
by its owner. Shared by ``tarot soak`` and the Redis and fault test suites.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# The command line's package: ``cli`` in a checkout, ``cardavia_tarot.cli`` in an installed
# wheel (build_backend/namespaced_wheel.py), so its modules are started by their name here.
CLI_PACKAGE = __name__.rpartition(".")[0]


def python_module(module: str) -> list[str]:
    """``python -m`` for a module of the command line (``main``, ``bench.worker``)."""
    return [sys.executable, "-m", f"{CLI_PACKAGE}.{module}"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def redis_answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def stop_process(process: subprocess.Popen[Any], seconds: float = 10) -> None:
    """SIGTERM, and SIGKILL if ``process`` has not exited ``seconds`` later."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(seconds)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def wait_until(check: Callable[[], bool], what: str, seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {seconds}s")
        time.sleep(0.05)


class RedisServer:
    """A ``redis-server`` of our own, with its data (AOF) in ``workdir``: it survives a restart."""

    def __init__(self, workdir: Path, *extra: str) -> None:
        self.workdir = workdir
        self.port = free_port()
        self.extra = list(extra)
        self.process: subprocess.Popen[bytes] | None = None
        self.started = False  # once started, it keeps its port (clients reconnect to it)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        """Start it and wait until it answers.

        A free port is only free when it is chosen: another process may bind it before
        Redis does (seen with the cluster bus port while other servers started), and
        Redis then exits at once. A first start then takes other ports and tries again;
        a restart keeps its port, which its clients know.
        """
        self.workdir.mkdir(parents=True, exist_ok=True)
        for _ in range(5):
            if self._spawn():
                self.started = True
                return self
            if self.started:
                break
            self.port = free_port()
            self.extra = _fresh_cluster_port(self.extra)
        raise AssertionError(f"redis-server exited at its start on port {self.port}")

    def _spawn(self) -> bool:
        """Whether Redis answers (False: it exited before it did)."""
        args = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        args += ["--dir", str(self.workdir), "--save", "", "--appendonly", "yes"]
        args += ["--appendfsync", "always", "--logfile", "redis.log", *self.extra]
        process = subprocess.Popen(
            args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=self.workdir
        )
        self.process = process
        wait_until(
            lambda: process.poll() is not None or redis_answers(self.port),
            f"redis on port {self.port}",
        )
        if process.poll() is None:
            return True
        self.process = None
        return False

    def kill(self) -> None:
        """kill -9: Redis keeps only what its append-only file already holds."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process = None

    def stop(self) -> None:
        """SIGTERM: Redis writes its append-only file and exits."""
        if self.process is not None:
            stop_process(self.process)
        self.process = None


def _fresh_cluster_port(extra: list[str]) -> list[str]:
    """``extra`` with a new free port after ``--cluster-port``, if it names one."""
    out = list(extra)
    for i, arg in enumerate(out[:-1]):
        if arg == "--cluster-port":
            out[i + 1] = str(free_port())
    return out


class NodeProcess:
    """A ``tarot serve`` process (a server node) on a free port."""

    def __init__(self, redis_url: str | None, node_id: str, log: Path, *extra: str) -> None:
        self.redis_url = redis_url
        self.node_id = node_id
        self.log = log
        self.extra = extra
        self.port = 0
        self.process: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> NodeProcess:
        args = [*python_module("main"), "serve", "--port", "0"]
        if self.redis_url is not None:  # else the memory store
            args += ["--redis", self.redis_url]
        args += ["--node-id", self.node_id, *self.extra]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        env.pop("TAROT_REDIS_URL", None)
        # The history lives beside the logs (not in the user's home, not in TAROT_DB_URL's).
        env["TAROT_DB_URL"] = f"sqlite:///{self.log.parent / 'history.sqlite3'}"
        with self.log.open("a") as log:  # the child keeps its own descriptor
            self.process = subprocess.Popen(
                args, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=log, text=True
            )
        assert self.process.stdout is not None
        deadline = time.monotonic() + 30
        for line in self.process.stdout:
            found = re.search(r"tarot server on http://127\.0\.0\.1:(\d+)/", line)
            if found:
                self.port = int(found.group(1))
                return self
            if time.monotonic() > deadline:
                break
        self.stop()
        raise AssertionError(f"node {self.node_id} did not start")

    def kill(self) -> None:
        """kill -9: no goodbye, no lease handed over."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process is None:
            return
        stop_process(self.process, 15)
        with contextlib.suppress(Exception):
            if self.process.stdout is not None:
                self.process.stdout.close()
        self.process = None


def parents() -> dict[int, int]:
    """pid -> parent pid of every process now."""
    out = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # ended meanwhile
        # "pid (command) state ppid ...": the command may hold spaces and parentheses.
        out[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    return out


def descendants(pid: int) -> set[int]:
    tree = parents()
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        children = {child for child, parent in tree.items() if parent in frontier}
        frontier = children - found
        found |= children
    return found


def alive(pids: set[int]) -> set[int]:
    """Those of ``pids`` still running (zombies excluded)."""
    out = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            out.add(pid)
    return out


def kill_all(pids: set[int]) -> None:
    for pid in alive(pids):
        try:
            os.kill(pid, 9)
        except OSError:
            pass
