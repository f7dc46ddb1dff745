"""``tarot bench cluster`` at its smallest: Redis, a node, nginx and the bots each on a
test host (network namespaces: needs root, as test_hosts does); figures from a real run (no timing
asserted)."""

from __future__ import annotations

import json

import pytest

from cli.bench.balancer import SHIPPED, config
from cli.main import main

from .netns import namespaces


@pytest.mark.redis
def test_one_node_on_one_redis_behind_nginx_measures_actions_redis_and_the_lobby(
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = namespaces("tarot-tcl")
    args = ["bench", "cluster", "--nodes", "1", "--redis", "single", "--tables", "2"]
    args += ["--seconds", "2", "--client-procs", "1", "--lobby", "60", "--json"]
    args += ["--think-ms", "20", "--prefix", "tarot-tcl"]  # paced: the per-connection rate limit
    assert main(args) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["netem"] in (True, False) and len(result["load_average_before"]) == 3
    (one,) = result["configurations"]
    assert one["redis"] == "single" and one["node_count"] == 1
    assert one["actions"] > 0 and one["p99_ms"] >= one["p50_ms"] > 0
    (node,) = one["nodes"]
    assert node["share_of_actions"] == 1.0 and node["cpu_seconds_per_1000_actions"] > 0
    (shard,) = one["redis_shards"]
    assert shard["cpu_seconds_per_1000_actions"] > 0
    assert one["balancer_cpu_seconds_per_1000_actions"] >= 0
    (step,) = result["lobby"]["single"]
    assert step["open_tables"] == 60 and step["page_tables"] == 50  # a full first page
    (lobby_shard,) = step["shards"]
    assert lobby_shard["lobby_key_reads"] >= 1 and lobby_shard["table_reads"] >= 60
    assert namespaces("tarot-tcl") == before  # every host deleted


def test_the_balancer_is_the_shipped_config_with_the_bench_s_nodes_and_address() -> None:
    made = config(["10.77.0.5:8765", "10.77.0.6:8765"], "10.77.0.4:80")
    assert "server 10.77.0.5:8765" in made and "server 10.77.0.6:8765" in made
    assert "node1:8765" not in made and "listen 10.77.0.4:80;" in made
    assert made.count("proxy_pass http://tarot;") == SHIPPED.read_text().count(
        "proxy_pass http://tarot;"
    )
    # The upstream's other lines (a balancing method) and each server's parameters stay.
    shipped = "upstream tarot {\n    hash $t consistent;\n    server a:1 max_fails=0;\n}\n"
    shipped += "server {\n    listen 80;\n}\n"
    made = config(["x:2", "y:3"], "z:80", shipped)
    assert "hash $t consistent;" in made
    assert "server x:2 max_fails=0;" in made and "server y:3 max_fails=0;" in made
    assert "server a:1" not in made and "listen z:80;" in made


def test_bench_cluster_refuses_more_than_four_nodes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "cluster", "--nodes", "1,8"]) == 2
    assert "--nodes" in capsys.readouterr().err
