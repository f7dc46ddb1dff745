"""The tests' own Redis servers (cli/local_servers.py) start even when the free port they
chose was taken meanwhile: seen in CI, a cluster node's bus port bound by another
process between the choice and the start, and the whole cluster fixture failed."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from cli.local_servers import RedisServer, redis_answers

pytestmark = pytest.mark.redis


def taken() -> socket.socket:
    """A port of 127.0.0.1 that something listens on."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    return sock


def test_a_first_start_on_a_port_taken_meanwhile_takes_another(tmp_path: Path) -> None:
    with taken() as blocker:
        server = RedisServer(tmp_path / "redis")
        server.port = blocker.getsockname()[1]
        try:
            server.start()
            assert server.port != blocker.getsockname()[1] and redis_answers(server.port)
        finally:
            server.stop()


def test_a_cluster_bus_port_taken_meanwhile_is_chosen_again(tmp_path: Path) -> None:
    with taken() as blocker:
        bus = blocker.getsockname()[1]
        server = RedisServer(
            tmp_path / "redis", "--cluster-enabled", "yes", "--cluster-port", str(bus)
        )
        try:
            server.start()
            assert redis_answers(server.port)
            assert server.extra[-1] != str(bus)
        finally:
            server.stop()


def test_a_restart_keeps_its_port_and_says_so_when_it_is_taken(tmp_path: Path) -> None:
    server = RedisServer(tmp_path / "redis").start()
    port = server.port
    server.stop()
    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", port))
        blocker.listen()
        with pytest.raises(AssertionError, match=f"exited at its start on port {port}"):
            server.start()
    server.start()  # free again: back on the port its clients know
    try:
        assert server.port == port and redis_answers(port)
    finally:
        server.stop()
