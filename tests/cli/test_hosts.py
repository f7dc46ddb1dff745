"""The test hosts of ``tarot bench cluster``: namespaces that reach each other over a switch,
and nothing left behind (cli/bench/hosts.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cli.bench.hosts import Hosts, HostsError

from .netns import namespaces

ECHO = """
import socket, sys
server = socket.create_server((sys.argv[1], 9000))
print("ready", flush=True)
conn, _ = server.accept()
conn.sendall(conn.recv(64).upper())
"""
ASK = """
import socket, sys
with socket.create_connection((sys.argv[1], 9000), timeout=5) as sock:
    sock.sendall(b"hello")
    print(sock.recv(64).decode())
"""


def test_two_hosts_talk_over_the_switch_and_leave_nothing_behind() -> None:
    before = namespaces("tarot-test")
    with Hosts("tarot-test", delay_ms=1.0) as hosts:
        server, client = hosts.add("server"), hosts.add("client")
        assert server.address != client.address
        echo = server.popen(
            [sys.executable, "-c", ECHO, server.address], stdout=subprocess.PIPE, text=True
        )
        try:
            assert echo.stdout is not None and echo.stdout.readline().strip() == "ready"
            asked = client.run([sys.executable, "-c", ASK, server.address])
            assert asked.stdout.strip() == "HELLO", asked.stderr
        finally:
            echo.kill()
            echo.communicate()
        # Not on the machine's own network: the server's address is the hosts' alone.
        assert subprocess.run(
            [sys.executable, "-c", ASK, server.address], capture_output=True, timeout=10
        ).returncode
        made = namespaces("tarot-test") - before
        assert made == {"tarot-test-sw", "tarot-test-server", "tarot-test-client"}
    assert namespaces("tarot-test") == before


def test_a_host_name_is_taken_once() -> None:
    with Hosts("tarot-test", delay_ms=0) as hosts:
        hosts.add("a")
        with pytest.raises(HostsError):
            hosts.add("a")
