"""Issue 25.6: ``/livez`` (the process answers) apart from ``/readyz`` (it can take players:
store reachable, not draining); ``/healthz`` is ``/readyz``. The deployment files probe
liveness, so that an orchestrator restarts no node during a Redis blip."""

from __future__ import annotations

import asyncio
import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from server.app import App

ROOT = Path(__file__).resolve().parents[3]


def get(url: str, host: str | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


async def fetch(url: str, host: str | None = None) -> tuple[int, str]:
    return await asyncio.to_thread(get, url, host)


async def test_live_and_ready_answer_any_host(app: App) -> None:
    base = f"http://127.0.0.1:{app.port}"
    for path in ("/livez", "/readyz", "/healthz"):
        assert await fetch(base + path, host="10.1.2.3:8765") == (200, "ok\n"), path


async def test_a_draining_node_is_alive_but_not_ready(app: App) -> None:
    base = f"http://127.0.0.1:{app.port}"
    await app.node.release_leases()  # what a drain does first
    assert await fetch(base + "/livez") == (200, "ok\n")
    assert await fetch(base + "/readyz") == (503, "draining\n")
    assert await fetch(base + "/healthz") == (503, "draining\n")


def test_the_deployment_files_probe_liveness() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    healthcheck = dockerfile[dockerfile.index("HEALTHCHECK") :].split("\n\n")[0]
    assert "/livez" in healthcheck and "/healthz" not in healthcheck
    compose = (ROOT / "docker-compose.yml").read_text()
    node_checks = re.findall(r"8765/(\w+)", compose)
    assert node_checks and set(node_checks) == {"livez"}, node_checks


@pytest.mark.redis
async def test_redis_down_leaves_a_node_alive_and_not_ready(tmp_path: Path) -> None:
    from cli.local_servers import NodeProcess, RedisServer

    redis = RedisServer(tmp_path / "redis").start()
    node = NodeProcess(redis.url, "a", tmp_path / "a.log").start()
    try:
        assert await fetch(node.http + "/readyz") == (200, "ok\n")
        redis.stop()
        assert await fetch(node.http + "/livez") == (200, "ok\n")
        assert await fetch(node.http + "/readyz") == (503, "unavailable\n")
        redis.start()
        for _ in range(50):
            if await fetch(node.http + "/readyz") == (200, "ok\n"):
                break
            await asyncio.sleep(0.1)
        assert await fetch(node.http + "/readyz") == (200, "ok\n")
    finally:
        node.stop()
        redis.stop()
