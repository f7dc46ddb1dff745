"""The service markers: registered, applied per folder, and enforced.

A test that needs Redis or Chromium and lacks the marker would run (and fail, or
start nothing) under ``-m "not redis"``; the guards of tests/conftest.py fail it
instead, whatever the test does. These tests check that the guards bite.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis

from .conftest import SERVICES_FILE, SHARED_REDIS, SHARED_REDIS_ADDRESS, require_marker

ROOT = Path(__file__).resolve().parents[1]


def test_a_socket_to_the_shared_redis_is_refused_without_the_marker(
    redis_marker_guard: list[Any],
) -> None:
    with pytest.raises(ConnectionRefusedError, match="redis marker"):
        socket.create_connection(SHARED_REDIS_ADDRESS, timeout=1)
    assert len(redis_marker_guard) == 1
    redis_marker_guard.clear()  # seen: this test does not fail for it


async def test_redis_py_is_refused_without_the_marker(redis_marker_guard: list[Any]) -> None:
    client: Redis = Redis.from_url(SHARED_REDIS)
    try:
        with pytest.raises(Exception, match="redis marker"):
            await asyncio.wait_for(client.ping(), 5)
    finally:
        await client.aclose()
    assert redis_marker_guard
    redis_marker_guard.clear()


def test_the_guard_fails_the_test_that_tried() -> None:
    """An unmarked test that connects fails even if it swallows the refusal."""
    test = "\n".join(
        [
            "import socket",
            "from tests.conftest import SHARED_REDIS_ADDRESS",
            "def test_quiet():",
            "    try:",
            "        socket.create_connection(SHARED_REDIS_ADDRESS, timeout=1)",
            "    except OSError:",
            "        pass",
        ]
    )
    result = _pytest_on(test, "-p", "no:cacheprovider")
    assert result.returncode == 1, result.stdout
    assert "connects to the shared test Redis but is not marked 'redis'" in result.stdout


@pytest.mark.redis
def test_a_redis_test_reaches_the_shared_redis() -> None:
    with socket.create_connection(SHARED_REDIS_ADDRESS, timeout=1) as sock:
        sock.sendall(b"PING\r\n")
        assert sock.recv(16).startswith(b"+PONG")


def test_the_browser_fixture_needs_the_browser_marker(request: pytest.FixtureRequest) -> None:
    with pytest.raises(pytest.fail.Exception, match="is not marked 'browser'"):
        require_marker(request.node, "browser", "drives Chromium")


def test_folders_carry_their_markers(request: pytest.FixtureRequest) -> None:
    assert request.node.get_closest_marker("redis") is None
    # A module of each folder: the marker is the folder's (collecting them all took 8-25 s).
    services = _services_of(
        "tests/redis/test_echo.py", "tests/browser/test_views.py", "tests/engine/test_chien.py"
    )
    assert services == ["browser", "redis"]
    assert _services_of("tests/engine", "tests/protocol") == []


def test_the_tmux_helper_brings_the_terminal_marker() -> None:
    assert _services_of("tests/clients/test_terminal_process.py") == ["terminal"]
    assert _services_of("tests/clients/test_state.py") == []


def test_the_memory_and_redis_server_runs_are_told_apart() -> None:
    assert _services_of("tests/server/test_smoke.py", "-m", "not redis") == []
    assert _services_of("tests/server/test_smoke.py") == ["redis"]


def test_an_unknown_marker_is_refused() -> None:
    result = _pytest_on("import pytest\n@pytest.mark.redsi\ndef test_x():\n    pass\n")
    assert result.returncode != 0
    assert "'redsi' not found in `markers`" in result.stdout


def _services_of(*args: str) -> list[str]:
    """What tasks.py learns from collecting ``args``: the service markers selected."""
    out = ROOT / f".pytest-services-test-{os.getpid()}.json"  # one per xdist worker
    try:
        env = {**os.environ, SERVICES_FILE: str(out)}
        command = [sys.executable, "-m", "pytest", "--collect-only", "-q", *args]
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
        services: list[str] = json.loads(out.read_text())
        return services
    finally:
        out.unlink(missing_ok=True)


def _pytest_on(source: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run pytest on one throwaway test module placed among the project's tests."""
    module = ROOT / "tests" / f"test_zz_marker_probe_{os.getpid()}.py"
    module.write_text(source)
    try:
        command = [sys.executable, "-m", "pytest", str(module), *args]
        return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
    finally:
        module.unlink()
