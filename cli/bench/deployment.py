"""The parts of a deployment on test hosts (``hosts``): Redis, server nodes, the balancer.

Each part runs on a host of its own (a network namespace): ``redis0`` (and
``redis1``, ``redis2`` for a 3-master Redis Cluster), ``node0`` ... ``node3``,
``balancer`` (nginx) and ``clients``. Since no host but the one it runs on can
be reached from the machine's own network, what is read from a part (its
``/metrics``, Redis's ``INFO``) is read by a small process started on a host.
A process's CPU is read from /proc: ``ip netns exec`` runs the command in its
own process, so the pid is the part's.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from cli.errors import CliError

from . import balancer
from .hosts import Host, Hosts
from .processes import cpu_seconds, node_args, samples, start_process

NODE_PORT, METRICS_PORT, REDIS_PORT, BALANCER_PORT = 8765, 9100, 6379, 80
FETCH = """
import sys, urllib.request
print(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())
"""
WAIT = """
import socket, sys, time
deadline = time.monotonic() + float(sys.argv[3])
while time.monotonic() < deadline:
    try:
        socket.create_connection((sys.argv[1], int(sys.argv[2])), 0.5).close()
        sys.exit(0)
    except OSError:
        time.sleep(0.1)
sys.exit(1)
"""


class DeploymentError(CliError, RuntimeError):
    """A part did not start."""


def wait_for(host: Host, address: str, port: int, process: subprocess.Popen[bytes]) -> None:
    """Until ``address:port`` accepts connections seen from ``host``."""
    done = host.run([sys.executable, "-c", WAIT, address, str(port), "30"], timeout=40)
    if done.returncode:
        err = b""
        if process.poll() is not None and process.stderr is not None:
            err = process.stderr.read()
        raise DeploymentError(f"nothing listens on {address}:{port}: {err.decode()[-500:]}")


@dataclass
class Redis:
    """One Redis server, or three masters of a Redis Cluster, each on its host."""

    hosts: list[Host]
    folder: Path
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)

    @property
    def cluster(self) -> bool:
        return len(self.hosts) > 1

    @property
    def url(self) -> str:
        return f"redis://{self.hosts[0].address}:{REDIS_PORT}/0"

    def start(self) -> Redis:
        for host in self.hosts:
            args = ["redis-server", "--bind", host.address, "--port", str(REDIS_PORT)]
            args += ["--save", "", "--appendonly", "no", "--protected-mode", "no"]
            args += ["--dir", str(self.folder)]
            if self.cluster:
                conf = f"nodes-{host.name}.conf"
                args += ["--cluster-enabled", "yes", "--cluster-config-file", conf]
            process = host.popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            self.processes.append(process)
            wait_for(host, host.address, REDIS_PORT, process)
        if self.cluster:
            masters = [f"{h.address}:{REDIS_PORT}" for h in self.hosts]
            create = ["redis-cli", "--cluster", "create", *masters, "--cluster-yes"]
            made = self.hosts[0].run(create, timeout=60)
            if made.returncode:
                raise DeploymentError(f"redis-cli --cluster create: {made.stdout[-500:]}")
            deadline = time.monotonic() + 30
            while not all("cluster_state:ok" in self.cli(i, "cluster", "info") for i in range(3)):
                if time.monotonic() > deadline:
                    raise DeploymentError("the Redis Cluster is not ok after 30 s")
                time.sleep(0.2)
        return self

    def cli(self, shard: int, *command: str) -> str:
        host = self.hosts[shard]
        argv = ["redis-cli", "-h", host.address, "-p", str(REDIS_PORT), *command]
        return host.run(argv, timeout=30).stdout

    def info(self, shard: int, section: str) -> dict[str, str]:
        pairs = (line.split(":", 1) for line in self.cli(shard, "info", section).splitlines())
        return {p[0]: p[1].strip() for p in pairs if len(p) == 2}

    def cpu(self) -> list[float]:
        """Each shard's CPU seconds (``INFO cpu``: user + sys)."""
        infos = [self.info(i, "cpu") for i in range(len(self.hosts))]
        return [float(i["used_cpu_user"]) + float(i["used_cpu_sys"]) for i in infos]

    def commands(self) -> list[dict[str, int]]:
        """Each shard's calls so far, by command (``INFO commandstats``)."""
        found: list[dict[str, int]] = []
        for i in range(len(self.hosts)):
            calls = {}
            for name, value in self.info(i, "commandstats").items():
                stats = dict(kv.split("=") for kv in value.split(","))
                calls[name.removeprefix("cmdstat_")] = int(stats["calls"])
            found.append(calls)
        return found

    def flush(self) -> None:
        for i in range(len(self.hosts)):
            self.cli(i, "flushall")

    def stop(self) -> None:
        stop(self.processes)


@dataclass
class Site:
    """``count`` server nodes on the Redis, nginx in front of them."""

    hosts: Hosts
    redis: Redis
    count: int
    extra: tuple[str, ...] = ()
    nginx_conf: str | None = None  # the configuration to start from: deploy/nginx.conf's if None
    nodes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    nginx: subprocess.Popen[bytes] | None = None
    folder: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="tarot-bench-lb-")))

    @property
    def node_hosts(self) -> list[Host]:
        return [self.hosts.hosts[f"node{i}"] for i in range(self.count)]

    @property
    def balancer(self) -> Host:
        return self.hosts.hosts["balancer"]

    @property
    def clients(self) -> Host:
        return self.hosts.hosts["clients"]

    @property
    def url(self) -> str:
        """The balancer's; a seat's connection names its table, as deploy/nginx.conf asks
        (``?table=ID``: a balancer that does not route on it ignores it)."""
        return f"ws://{self.balancer.address}:{BALANCER_PORT}/?table={{table}}"

    def start(self) -> Site:
        for i, host in enumerate(self.node_hosts):
            args = node_args(NODE_PORT, i, self.redis.url, self.extra)
            args += ["--host", host.address, "--allowed-hosts", "*", "--max-tables", "0"]
            args += ["--metrics-host", host.address, "--metrics-port", str(METRICS_PORT)]
            self.nodes.append(start_process(host.command(args)))
        for host, process in zip(self.node_hosts, self.nodes, strict=True):
            wait_for(self.clients, host.address, NODE_PORT, process)
        upstream = [f"{h.address}:{NODE_PORT}" for h in self.node_hosts]
        conf = self.folder / "nginx.conf"
        conf.write_text(
            balancer.config(upstream, f"{self.balancer.address}:{BALANCER_PORT}", self.nginx_conf)
        )
        argv = balancer.command(balancer.ensure_nginx(), conf, self.folder)
        self.nginx = self.balancer.popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wait_for(self.clients, self.balancer.address, BALANCER_PORT, self.nginx)
        return self

    def scrape(self, i: int) -> dict[str, float]:
        """Node ``i``'s ``/metrics``, read from the clients' host."""
        url = f"http://{self.node_hosts[i].address}:{METRICS_PORT}/metrics"
        return samples(self.clients.run([sys.executable, "-c", FETCH, url]).stdout)

    def node_cpu(self) -> list[float]:
        return [cpu_seconds(p.pid) for p in self.nodes]

    def balancer_cpu(self) -> float:
        """nginx's CPU seconds, its master's and its workers' (children in /proc)."""
        if self.nginx is None:
            return 0.0
        pids = [self.nginx.pid]
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{self.nginx.pid}/task").iterdir():
                pids += [int(p) for p in (task / "children").read_text().split()]
        total = 0.0
        for pid in pids:
            with contextlib.suppress(OSError):
                total += cpu_seconds(pid)
        return total

    def stop(self) -> None:
        stop([*self.nodes, *([self.nginx] if self.nginx else [])])
        self.nodes.clear()
        self.nginx = None


def stop(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stderr is not None:
            process.stderr.close()
