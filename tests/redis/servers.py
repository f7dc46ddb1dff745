"""Real processes for the Redis tests: Redis servers, a Redis Cluster, server nodes.

Each starts on free ports of 127.0.0.1, waits until it answers, and is ended
by its owner (the fixtures end them in ``finally``, whatever the test did).
The Redis server and the node are ``cli.local_servers``' (``tarot soak`` runs them too).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
from pathlib import Path

from cli.local_servers import ROOT, NodeProcess, RedisServer, free_port, redis_answers, wait_until

__all__ = [
    "ROOT",
    "SHARED_REDIS",
    "Cluster",
    "NodeProcess",
    "RedisServer",
    "free_port",
    "redis_answers",
    "wait_until",
]

SHARED_REDIS = os.environ.get("TAROT_TEST_REDIS", "redis://127.0.0.1:6379")


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
