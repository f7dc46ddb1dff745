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
SHARED_REDIS = os.environ.get("TAROT_TEST_REDIS", "redis://127.0.0.1:6379")


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
    """A Redis Cluster on free ports: three masters, each with ``replicas`` replicas.

    With replicas, a master that dies is replaced by its replica within a few
    ``node_timeout_ms`` (the replica is promoted; the cluster answers again).
    """

    def __init__(self, workdir: Path, replicas: int = 0, node_timeout_ms: int = 2000) -> None:
        self.replicas = replicas
        self.servers = [
            RedisServer(
                workdir / f"n{i}",
                "--cluster-enabled",
                "yes",
                "--cluster-config-file",
                "nodes.conf",
                "--cluster-node-timeout",
                str(node_timeout_ms),
                "--cluster-port",  # the default, port + 10000, may not be a port
                str(free_port()),
            )
            for i in range(3 * (1 + replicas))
        ]

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.servers[0].port}"

    def start(self) -> Cluster:
        for server in self.servers:
            server.start()
        addresses = [f"127.0.0.1:{s.port}" for s in self.servers]
        replicas = ["--cluster-replicas", str(self.replicas)]
        subprocess.run(
            ["redis-cli", "--cluster", "create", *addresses, *replicas, "--cluster-yes"],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=30,
        )
        wait_until(self.is_ok, "cluster_state:ok on every node", 20)
        if self.replicas:
            wait_until(self._replicas_up, "every replica in sync with its master", 20)
        return self

    def running(self) -> list[RedisServer]:
        return [s for s in self.servers if s.process is not None]

    def is_ok(self) -> bool:
        """Every running node says cluster_state:ok (and so serves every slot)."""
        return all("cluster_state:ok" in self.cli(s, "cluster", "info") for s in self.running())

    def cli(self, server: RedisServer, *command: str) -> str:
        return subprocess.run(
            ["redis-cli", "-p", str(server.port), *command],
            capture_output=True,
            text=True,
            timeout=5,
        ).stdout

    def has_failed_over(self) -> bool:
        """Three masters serve every slot again, after one was killed (a replica was promoted)."""
        return len(self.masters()) == 3 and self.is_ok()

    def masters(self) -> list[RedisServer]:
        """The running nodes that are masters now (a promoted replica included)."""
        return [s for s in self.running() if "role:master" in self.cli(s, "info", "replication")]

    def _replicas_up(self) -> bool:
        return all(self.in_sync(master) for master in self.masters())

    def in_sync(self, master: RedisServer) -> bool:
        """Its replicas are online and have acknowledged every write of the master.

        Replication is asynchronous: a master killed before this would take its
        last writes with it.
        """
        info = self.cli(master, "info", "replication")
        offset = re.search(r"master_repl_offset:(\d+)", info)
        replicas = re.findall(r"slave\d+:.*state=(\w+),offset=(\d+)", info)
        if offset is None or len(replicas) < self.replicas:
            return False
        return all(state == "online" and int(at) == int(offset[1]) for state, at in replicas)

    def kill(self, server: RedisServer) -> None:
        """kill -9: the node is gone, as in a crash; its replica must take over."""
        if server.process is not None:
            server.process.send_signal(signal.SIGKILL)
            server.process.wait()
            server.process = None

    def stop(self) -> None:
        for server in self.servers:
            server.stop()


class Node:
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

    def start(self) -> Node:
        args = [sys.executable, "-m", "cli.main", "serve", "--port", "0"]
        if self.redis_url is not None:  # else the memory store
            args += ["--redis", self.redis_url]
        args += ["--node-id", self.node_id, *self.extra]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        env.pop("TAROT_REDIS_URL", None)
        # Each test's nodes keep their history beside their logs (not in the user's home).
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
