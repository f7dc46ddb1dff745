"""Real processes for the Redis tests: Redis servers, a Redis Cluster, server nodes.

Each starts on free ports of 127.0.0.1, waits until it answers, and is ended
by its owner (the fixtures end them in ``finally``, whatever the test did).
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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED_REDIS = "redis://127.0.0.1:6379"


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


def wait_until(check: object, what: str, seconds: float = 15.0) -> None:
    assert callable(check)
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
        self.extra = extra
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        self.workdir.mkdir(parents=True, exist_ok=True)
        args = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        args += ["--dir", str(self.workdir), "--save", "", "--appendonly", "yes"]
        args += ["--appendfsync", "always", "--logfile", "redis.log", *self.extra]
        self.process = subprocess.Popen(
            args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=self.workdir
        )
        wait_until(lambda: redis_answers(self.port), f"redis on port {self.port}")
        return self

    def stop(self) -> None:
        """SIGTERM: Redis writes its append-only file and exits."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


class Cluster:
    """A Redis Cluster of three masters (no replicas) on free ports."""

    def __init__(self, workdir: Path) -> None:
        self.servers = [
            RedisServer(
                workdir / f"n{i}",
                "--cluster-enabled",
                "yes",
                "--cluster-config-file",
                "nodes.conf",
                "--cluster-node-timeout",
                "2000",
                "--cluster-port",  # the default, port + 10000, may not be a port
                str(free_port()),
            )
            for i in range(3)
        ]

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.servers[0].port}"

    def start(self) -> Cluster:
        for server in self.servers:
            server.start()
        addresses = [f"127.0.0.1:{s.port}" for s in self.servers]
        subprocess.run(
            ["redis-cli", "--cluster", "create", *addresses, "--cluster-yes"],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=30,
        )
        wait_until(self._ok, "cluster_state:ok on every node", 20)
        return self

    def _ok(self) -> bool:
        for server in self.servers:
            out = subprocess.run(
                ["redis-cli", "-p", str(server.port), "cluster", "info"],
                capture_output=True,
                text=True,
                timeout=5,
            ).stdout
            if "cluster_state:ok" not in out:
                return False
        return True

    def stop(self) -> None:
        for server in self.servers:
            server.stop()


class Node:
    """A ``tarot serve`` process (a server node) on a free port."""

    def __init__(self, redis_url: str, node_id: str, log: Path, *extra: str) -> None:
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

    def start(self) -> Node:
        args = [sys.executable, "-m", "cli.main", "serve", "--port", "0", "--redis"]
        args += [self.redis_url, "--node-id", self.node_id, *self.extra]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        env.pop("TAROT_REDIS_URL", None)
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
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        with contextlib.suppress(Exception):
            if self.process.stdout is not None:
                self.process.stdout.close()
        self.process = None
