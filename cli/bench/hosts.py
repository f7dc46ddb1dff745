"""Test hosts on one machine: network namespaces on a virtual switch, with a latency.

``tarot bench cluster`` runs each part of a deployment (Redis servers, server
nodes, the balancer, the bot clients) on a host of its own, as an operator
would, so that what crosses the network crosses a network: each host is a
network namespace (``ip netns``) with one interface on a bridge living in a
switch namespace, and ``tc netem`` delays what each host sends (``delay_ms``
each way: twice that per round trip) where the kernel has netem: this
machine's does not (``tc qdisc ... netem``: "Specified qdisc kind is
unknown"; of the qdiscs only htb, tbf and pfifo load), so there ``delayed``
is False and the hosts talk over veth with no latency added. Nothing is added
to the machine's own network namespace, and ``close`` deletes every namespace
made (their interfaces go with them).

Needs root (or CAP_NET_ADMIN) and iproute2's ``ip`` and ``tc``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from cli.errors import CliError

SUBNET = "10.77.0"  # hosts are 10.77.0.2 ... 10.77.0.250


class HostsError(CliError, RuntimeError):
    """The test hosts could not be made (no root, no ``ip``, a name taken)."""


def _ip(*args: str) -> None:
    result = subprocess.run(["ip", *args], capture_output=True, text=True, check=False)
    if result.returncode:
        raise HostsError(f"ip {' '.join(args)}: {result.stderr.strip()}")


def _in(namespace: str, *args: str) -> None:
    _ip("netns", "exec", namespace, *args)


def available() -> str | None:
    """Why test hosts cannot be made here, or None when they can."""
    if shutil.which("ip") is None or shutil.which("tc") is None:
        return "iproute2 (ip, tc) is not installed"
    if os.geteuid() != 0:
        return "network namespaces need root"
    return None


def _has_netem(namespace: str) -> bool:
    """Whether the kernel delays packets (``netem``): tried on the switch's loopback."""
    add = ["ip", "netns", "exec", namespace, "tc", "qdisc", "add", "dev", "lo", "root"]
    if subprocess.run([*add, "netem", "delay", "1ms"], capture_output=True).returncode:
        return False
    subprocess.run(
        ["ip", "netns", "exec", namespace, "tc", "qdisc", "del", "dev", "lo", "root"],
        capture_output=True,
    )
    return True


@dataclass
class Host:
    """One host: a network namespace and its address on the switch."""

    name: str
    namespace: str
    address: str

    def command(self, argv: list[str]) -> list[str]:
        """``argv`` run on this host."""
        return ["ip", "netns", "exec", self.namespace, *argv]

    def popen(self, argv: list[str], **kwargs: Any) -> subprocess.Popen[Any]:
        """``argv`` started on this host (``subprocess.Popen``'s keywords)."""
        return subprocess.Popen(self.command(argv), **kwargs)

    def run(self, argv: list[str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            self.command(argv), capture_output=True, text=True, timeout=timeout, check=False
        )


@dataclass
class Hosts:
    """Hosts on one switch: ``with Hosts("bench", delay_ms=1.0) as hosts: hosts.add("redis")``."""

    prefix: str
    delay_ms: float = 1.0
    hosts: dict[str, Host] = field(default_factory=dict)
    delayed: bool = False  # whether netem delays the hosts' sends (the kernel may lack it)
    _made: list[str] = field(default_factory=list)

    @property
    def switch(self) -> str:
        return f"{self.prefix}-sw"

    def __enter__(self) -> Hosts:
        why = available()
        if why is not None:
            raise HostsError(why)
        self._namespace(self.switch)
        _in(self.switch, "ip", "link", "add", "br0", "type", "bridge")
        _in(self.switch, "ip", "link", "set", "br0", "up")
        _in(self.switch, "ip", "link", "set", "lo", "up")
        self.delayed = _has_netem(self.switch)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def _namespace(self, name: str) -> None:
        _ip("netns", "add", name)
        self._made.append(name)

    def add(self, name: str) -> Host:
        """A new host on the switch, its own address, its sends delayed by ``delay_ms``."""
        if name in self.hosts:
            raise HostsError(f"host {name!r} exists")
        number = len(self.hosts) + 2
        if number > 250:
            raise HostsError("at most 249 hosts on one switch")
        namespace, address = f"{self.prefix}-{name}", f"{SUBNET}.{number}"
        self._namespace(namespace)
        port = f"p{number}"  # the switch's end; the host's end is eth0
        _ip(
            "link",
            "add",
            "eth0",
            "netns",
            namespace,
            "type",
            "veth",
            "peer",
            "name",
            port,
            "netns",
            self.switch,
        )
        _in(self.switch, "ip", "link", "set", port, "master", "br0")
        _in(self.switch, "ip", "link", "set", port, "up")
        _in(namespace, "ip", "addr", "add", f"{address}/24", "dev", "eth0")
        _in(namespace, "ip", "link", "set", "eth0", "up")
        _in(namespace, "ip", "link", "set", "lo", "up")
        if self.delay_ms > 0 and self.delayed:
            delay = f"{self.delay_ms}ms"
            _in(namespace, "tc", "qdisc", "add", "dev", "eth0", "root", "netem", "delay", delay)
        host = self.hosts[name] = Host(name, namespace, address)
        return host

    def close(self) -> None:
        """Delete every namespace made (best effort: each is tried)."""
        for namespace in reversed(self._made):
            subprocess.run(["ip", "netns", "del", namespace], capture_output=True, check=False)
        self._made.clear()
        self.hosts.clear()
