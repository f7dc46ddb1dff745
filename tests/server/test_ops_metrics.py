"""Issue 25.4: metrics an operator can run a site with. A fresh node counts no lease
takeover; a table is counted in ``tarot_tables`` once over the nodes; the process, build,
history writer, Redis and drain metrics exist; the Grafana dashboard and the alert rules
in deploy/ name only metrics a running node has."""

from __future__ import annotations

import asyncio
import json
import re
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from server.app import App
from server.node.archive import Archive
from server.settings import Settings

from .conftest import REDIS_TEST_URL, flush
from .test_tables import create
from .wire import WireClient, is_event

ROOT = Path(__file__).resolve().parents[2]
PROMQL_WORDS = {"sum", "by", "rate", "increase", "deriv", "histogram_quantile", "max", "count"}
PROMQL_WORDS |= {"and", "or", "le", "instance", "job", "phase", "code", "operation", "generation"}
PROMQL_WORDS |= {"version", "python", "action", "up"}  # ``up``: Prometheus's own


def samples(app: App) -> dict[str, float]:
    url = f"http://127.0.0.1:{app.port}/metrics"
    with urllib.request.urlopen(url, timeout=5) as response:
        body = response.read().decode()
    out: dict[str, float] = {}
    for line in body.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            out[name] = out.get(name, 0.0) + float(value)
    return out


async def read(app: App) -> dict[str, float]:
    return await asyncio.to_thread(samples, app)


def names(found: dict[str, float]) -> set[str]:
    return {key.split("{")[0] for key in found}


def sum_of(found: dict[str, float], name: str) -> float:
    return sum(v for k, v in found.items() if k.split("{")[0] == name)


async def test_a_fresh_node_took_over_no_lease(app: App, url: str) -> None:
    """Before: the first lease of a table begun on the node counted as a takeover."""
    client = await WireClient.open(url)
    table_id = await create(client)
    await client.request({"type": "join", "table_id": table_id}, "joined")
    await client.send({"type": "start"})
    await client.until(is_event("turn"))
    await asyncio.sleep(1.5)  # several lease sweeps (lease_ms 600)
    found = await read(app)
    assert any(r.driving for r in app.node.runtimes.values())
    assert found["tarot_lease_takeovers_total"] == 0, found


@pytest.fixture
async def two_nodes() -> AsyncIterator[tuple[App, App]]:
    await flush(REDIS_TEST_URL)
    started = []
    try:
        for name in ("m1", "m2"):
            settings = Settings(port=0, lease_ms=600, redis_url=REDIS_TEST_URL, node_id=name)
            started.append(await App.start(settings))
        yield started[0], started[1]
    finally:
        for app in started:
            await app.stop(drain_seconds=0)
        await flush(REDIS_TEST_URL)


@pytest.mark.redis
async def test_a_table_is_counted_once_over_the_nodes(two_nodes: tuple[App, App]) -> None:
    """Before: every node that loaded a table counted it."""
    a, b = two_nodes
    player = await WireClient.open(f"ws://127.0.0.1:{a.port}/")
    table_id = await create(player)
    await player.request({"type": "join", "table_id": table_id, "seat": 0}, "joined")
    watcher = await WireClient.open(f"ws://127.0.0.1:{b.port}/")
    await watcher.request({"type": "watch", "table_id": table_id}, "snapshot")
    waiting = [sum_of(await read(app), "tarot_tables") for app in (a, b)]
    assert waiting == [1, 0], waiting
    await player.send({"type": "start"})
    await player.until(is_event("turn"))
    for _ in range(50):
        counts = [sum_of(await read(app), "tarot_tables") for app in (a, b)]
        if sum(counts) == 1:
            break
        await asyncio.sleep(0.1)
    assert sum(counts) == 1, counts


def named_in(expression: str) -> set[str]:
    without_strings = re.sub(r'"[^"]*"', "", expression)
    without_ranges = re.sub(r"\[[^\]]*\]", "", without_strings)
    words = set(re.findall(r"[a-zA-Z_][a-zA-Z0-9_]*", without_ranges))
    return words - PROMQL_WORDS


def dashboard_expressions() -> list[str]:
    dashboard = json.loads((ROOT / "deploy" / "grafana-dashboard.json").read_text())
    return [t["expr"] for panel in dashboard["panels"] for t in panel["targets"]]


def alert_rules() -> list[dict[str, str]]:
    text = (ROOT / "deploy" / "prometheus-alerts.yml").read_text()
    rules = json.loads("\n".join(ln for ln in text.splitlines() if not ln.startswith("#")))
    return [rule for group in rules["groups"] for rule in group["rules"]]


def test_the_alerts_cover_what_the_issue_asks() -> None:
    alerts = {rule["alert"]: rule["expr"] for rule in alert_rules()}
    assert "up{" in alerts["TarotNodeDown"]
    assert "tarot_action_seconds_bucket" in alerts["TarotActionLatencyHigh"]
    assert "tarot_history_queue_items" in alerts["TarotHistoryQueueGrowing"]
    assert "tarot_redis_errors_total" in alerts["TarotRedisErrors"]


@pytest.mark.redis
async def test_every_metric_the_dashboard_and_alerts_name_exists(tmp_path: Path) -> None:
    await flush(REDIS_TEST_URL)
    settings = Settings(port=0, lease_ms=600, redis_url=REDIS_TEST_URL, node_id="dash")
    archive = await Archive.open(f"sqlite:///{tmp_path / 'history.sqlite3'}")
    app = await App.start(settings, archive=archive)
    try:
        client = await WireClient.open(f"ws://127.0.0.1:{app.port}/")
        await client.send({"type": "join", "table_id": "nosuch"})  # a refusal, by code
        await client.until(lambda m: m["type"] == "error")
        table_id = await create(client)  # a table, by phase
        await client.request({"type": "join", "table_id": table_id}, "joined")
        values = await read(app)
        for _ in range(50):  # the pub/sub probe's first round trip
            if values["tarot_redis_pubsub_lag_seconds"] > 0:
                break
            await asyncio.sleep(0.1)
            values = await read(app)
        assert 0 < values["tarot_redis_pubsub_lag_seconds"] < 1, values
        found = names(values)
    finally:
        await app.stop(drain_seconds=0)
        await flush(REDIS_TEST_URL)
    expressions = dashboard_expressions() + [rule["expr"] for rule in alert_rules()]
    assert len(expressions) > 20
    missing = {name for e in expressions for name in named_in(e)} - found
    assert not missing, missing
    wanted = {
        "process_resident_memory_bytes",
        "process_open_fds",
        "process_cpu_seconds_total",
        "tarot_build_info",
        "tarot_history_queue_items",
        "tarot_history_write_errors_total",
        "tarot_history_write_seconds_bucket",
        "tarot_redis_pool_in_use_connections",
        "tarot_redis_round_trips_total",
        "tarot_redis_errors_total",
        "tarot_draining",
        "tarot_redis_pubsub_lag_seconds",
    }
    assert wanted <= found, wanted - found
