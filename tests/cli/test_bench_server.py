"""``tarot bench server``: its figures come from real runs (no timing is asserted)."""

from __future__ import annotations

import asyncio
import importlib.util
import json
from pathlib import Path

import pytest

from cli.bench.clients import Run, Table
from cli.bench.server import median_figures, versus, versus_relay
from cli.main import main

from ..redis.servers import SHARED_REDIS


def test_median_figures_take_each_figure_s_median_across_rounds() -> None:
    runs = [
        {"p99_ms": 4.0, "nodes": [{"cpu": 1.0, "share": 1.0}], "label": "a"},
        {"p99_ms": 9.0, "nodes": [{"cpu": 0.5, "share": 1.0}], "label": "a"},
        {"p99_ms": 5.0, "nodes": [{"cpu": 0.7, "share": 1.0}], "label": "a"},
    ]
    assert median_figures(runs) == {
        "p99_ms": 5.0,
        "nodes": [{"cpu": 0.7, "share": 1.0}],
        "label": "a",
    }


def test_versus_is_redis_over_memory() -> None:
    memory = {"p99_ms": 4.0, "nodes": [{"cpu_seconds_per_1000_actions": 0.5}]}
    redis = {"p99_ms": 6.0, "nodes": [{"cpu_seconds_per_1000_actions": 0.7}]}
    assert versus(redis, memory) == {"p99": 1.5, "cpu": 1.4}
    redis["redis_cpu_seconds_per_1000_actions"] = 0.1  # Redis's own CPU, when measured
    assert versus(redis, memory) == {"p99": 1.5, "cpu": 1.4, "cpu_with_redis": 1.6}


def test_versus_relay_is_a_store_over_the_bare_relay() -> None:
    store = {
        "p99_ms": 6.0,
        "frames_per_action": 10.5,
        "nodes": [{"cpu_seconds_per_1000_actions": 0.3}],
    }
    bare = {"p99_ms": 3.0, "frames_per_action": 5.0, "cpu_seconds_per_1000_actions": 0.1}
    assert versus_relay(store, bare) == {"cpu": 3.0, "p99": 2.0, "frames": 2.1}


@pytest.mark.redis
def test_bench_server_alternates_relay_memory_and_redis_rounds(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # A window long and busy enough for the relay's CPU to be counted: /proc counts it in
    # 10 ms ticks, and the figures now leave out the set-up, which used to fill them.
    args = ["bench", "server", "--tables", "6", "--seconds", "1", "--client-procs", "1"]
    args += ["--think-ms", "20"]  # paced: the server's rate limit would stop a spamming bot
    args += ["--store", "redis", "--redis", f"{SHARED_REDIS}/11", "--rounds", "2", "--json"]
    args += ["--profile", str(tmp_path / "profiles")]
    assert main(args) == 0
    out = capsys.readouterr()
    result = json.loads(out.out)
    assert_profiled(tmp_path / "profiles", out.err)
    assert len(result["rounds"]) == 2
    for one in result["rounds"]:
        for store in ("memory", "redis"):
            assert one[store]["actions"] > 0
            node = one[store]["nodes"][0]
            assert node["share_of_actions"] == 1.0
            assert node["gc_pauses"] >= node["gc_pauses_over_5ms"] >= 0
        # A play's 4 events and a your_turn; a deal's score event, 4 frames in 72 plays.
        assert one["relay"]["actions"] > 0
        assert one["relay"]["frames_per_action"] == pytest.approx(5.06, abs=0.4)
        # Protocol 2 (issue 28): one events frame per seat and commit, the turn folded in.
        for store in ("memory", "redis"):
            assert one[store]["frames_per_action"] <= 5, one[store]
        assert one["redis"]["redis_cpu_seconds_per_1000_actions"] > 0
        assert one["redis_vs_memory"]["p99"] > 0
        assert one["memory_vs_relay"]["cpu"] > 0 and one["redis_vs_relay"]["cpu"] > 0
    assert result["redis"]["p99_ms"] == pytest.approx(
        sorted(one["redis"]["p99_ms"] for one in result["rounds"])[0] / 2
        + sorted(one["redis"]["p99_ms"] for one in result["rounds"])[1] / 2,
        abs=0.01,
    )


def assert_profiled(folder: Path, err: str) -> None:
    """``--profile``: each measured process of each round left its stacks, and the
    last line names the folder and the command that reads them."""
    names = ["relay", "memory-node-0", "redis-node-0"]
    expected = {f"{name}-round-{r}.folded" for name in names for r in (1, 2)}
    assert {path.name for path in folder.iterdir()} == expected
    for r in (1, 2):
        # The relay's own module, and the node's server code (its stacks root at cli.main).
        assert "(cli/bench/worker.py:" in (folder / f"relay-round-{r}.folded").read_text()
        for store in ("memory", "redis"):
            assert "(server/" in (folder / f"{store}-node-0-round-{r}.folded").read_text()
    last = err.strip().splitlines()[-1]
    assert str(folder) in last and "-m cli.bench.sampler" in last


@pytest.mark.skipif(
    importlib.util.find_spec("uvloop") is not None, reason="uvloop is installed (not in CI)"
)
def test_the_bench_refuses_uvloop_where_it_is_not_installed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["bench", "server", "--event-loop", "uvloop"])
    assert exit_.value.code == 2
    assert "uvloop is not installed" in capsys.readouterr().err


async def test_an_action_sent_before_the_last_one_reached_every_seat_is_still_timed() -> None:
    """A bot that does not think acts on the event before the other seats have read it."""
    run = Run([Table()], asyncio.Event(), measuring=True)
    table = run.tables[0]
    table.sent(5)
    run.arrived(table, 5)  # the next seat reads the event (and its turn) first, and acts
    table.sent(6)
    for _ in range(3):
        run.arrived(table, 5)
    run.arrived(table, 7)  # no action made that event: not timed
    for _ in range(4):
        run.arrived(table, 6)
    assert len(table.latencies) == 2 and table.pending == {}
