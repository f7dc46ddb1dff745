"""``tarot bench cluster``: a deployment's parts each on a test host, under bot clients.

Each part runs on a host of its own (``hosts``: network namespaces on a
bridge): one Redis server or a 3-master Redis Cluster, 1, 2 and 4 server nodes
(``tarot serve --redis ... --host ADDRESS``), Debian's nginx in front of them
with the shipped ``deploy/nginx.conf`` (``balancer``), and the bot clients of
``tarot bench server`` on a host of their own, connecting to the balancer only.
For each configuration it prints actions/s, p50/p99, each node's CPU seconds
per 1,000 actions (/proc) and its share of the actions, each Redis shard's
CPU (``INFO cpu``) and nginx's. Then, with one node, the lobby as tables grow
(``lobby_probe``): the time of a ``list_tables`` page, and which Redis shards
it touches (``INFO commandstats``): the lobby's list is one key read a page at
a time (``ZRANGEBYLEX``), each table of the page read on its own shard.

Where the kernel has no ``netem`` (this machine's), the hosts talk over veth
with no latency added: the output says so.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from ..argtypes import at_least, event_loop, milliseconds, positive_seconds
from ..local_servers import python_module
from .deployment import Redis, Site
from .hosts import Hosts, HostsError, available
from .processes import progress, run_clients
from .server import node_extra

KINDS = ("single", "cluster")
LOBBY_PAGES = 3


def numbers(text: str) -> list[int]:
    """Whole numbers, one or more, separated by commas ('' for none)."""
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        message = f"must be whole numbers and commas, not {text!r}"
        raise argparse.ArgumentTypeError(message) from None
    if any(value < 1 for value in values):
        raise argparse.ArgumentTypeError(f"must be 1 or more each, not {text}")
    return values


def kinds(text: str) -> list[str]:
    """Redis set-ups among ``KINDS``, separated by commas."""
    chosen = [x.strip() for x in text.split(",") if x.strip()]
    unknown = [x for x in chosen if x not in KINDS]
    if not chosen or unknown:
        raise argparse.ArgumentTypeError(f"must be among {','.join(KINDS)}, not {text!r}")
    return chosen


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "cluster", help="nodes, Redis (a Cluster too), nginx and bots each on a test host"
    )
    p.add_argument("--tables", type=at_least(1), default=40, help="concurrent tables (default 40)")
    p.add_argument(
        "--seconds", type=positive_seconds, default=10.0, help="measured seconds per run"
    )
    p.add_argument("--nodes", type=numbers, default=[1, 2, 4], help="node counts (1,2,4)")
    p.add_argument("--redis", type=kinds, default=list(KINDS), help="single,cluster")
    p.add_argument(
        "--lobby",
        type=numbers,
        default=[1000, 10000, 50000],
        help="open tables listed in the lobby test (1000,10000,50000; '' to skip)",
    )
    p.add_argument("--think-ms", type=milliseconds, default=0.0, help="bots' mean thinking time")
    p.add_argument("--client-procs", type=at_least(1), default=2, help="bot client processes (2)")
    p.add_argument(
        "--delay-ms", type=milliseconds, default=1.0, help="netem delay each way, if any"
    )
    p.add_argument("--gc-sweep-ms", type=milliseconds, help="the nodes' --gc-sweep-ms")
    p.add_argument("--event-loop", type=event_loop, help="the nodes' --event-loop")
    p.add_argument(
        "--nginx-conf", type=Path, help="start from this nginx config (default deploy/nginx.conf)"
    )
    p.add_argument("--prefix", default="tarot-bench", help="the hosts' namespace prefix")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--out", type=Path, help="also write the JSON object to this file")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not args.nodes or max(args.nodes) > 4:  # each count is 1 or more (``numbers``)
        print("tarot bench cluster: --nodes from 1 to 4", file=sys.stderr)
        return 2
    why = available()
    if why is not None:
        print(f"tarot bench cluster: {why}", file=sys.stderr)
        return 2
    result: dict[str, Any] = {"tables": args.tables, "connections": 4 * args.tables}
    result.update(seconds=args.seconds, think_ms=args.think_ms, cpus=os.cpu_count())
    result["load_average_before"] = [round(x, 2) for x in os.getloadavg()]
    try:
        with Hosts(args.prefix, delay_ms=args.delay_ms) as hosts:
            for name in ("redis0", "redis1", "redis2", "balancer", "clients"):
                hosts.add(name)
            for i in range(max(args.nodes)):
                hosts.add(f"node{i}")
            result["netem"] = hosts.delayed
            result["delay_ms_each_way"] = args.delay_ms if hosts.delayed else 0.0
            result["configurations"] = []
            result["lobby"] = {}
            for kind in args.redis:
                try:
                    one_redis(hosts, kind, args, result)
                except Exception as e:  # the figures so far are kept and written
                    result.setdefault("failed", {})[kind] = repr(e)[-500:]
                    progress(f"redis {kind}: failed: {e!r}")
    except HostsError as e:
        print(f"tarot bench cluster: {e}", file=sys.stderr)
        return 2
    result["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    text = json.dumps(result)
    if args.out is not None:
        args.out.write_text(text + "\n")
    print(text if args.json else render(result))
    return 0


def one_redis(hosts: Hosts, kind: str, args: argparse.Namespace, result: dict[str, Any]) -> None:
    """Every node count on one Redis (``single``) or a 3-master Redis Cluster."""
    shards = [hosts.hosts[f"redis{i}"] for i in range(3 if kind == "cluster" else 1)]
    redis = Redis(shards, Path(tempfile.mkdtemp(prefix=f"tarot-bench-{kind}-")))
    try:
        redis.start()
        for count in args.nodes:
            progress(f"redis {kind}, {count} node(s) behind nginx: {args.tables} tables")
            conf = args.nginx_conf.read_text() if args.nginx_conf else None
            site = Site(hosts, redis, count, node_extra(args), conf)
            try:
                site.start()
                figures = measure(site, args)
                figures.update(redis=kind, node_count=count)
                result["configurations"].append(figures)
                if count == args.nodes[0] and args.lobby:
                    result["lobby"][kind] = lobby(site, args.lobby)
            finally:
                site.stop()
                redis.flush()
    finally:
        redis.stop()


def measure(site: Site, args: argparse.Namespace) -> dict[str, Any]:
    """The bots through the balancer; each node's, shard's and nginx's CPU meanwhile."""
    before: dict[str, Any] = {}

    def started() -> None:
        before.update(t=time.monotonic(), cpu=site.node_cpu(), redis=site.redis.cpu())
        before.update(lb=site.balancer_cpu(), scraped=[site.scrape(i) for i in range(site.count)])

    think = args.think_ms / 1000
    result = run_clients(
        [site.url],
        args.tables,
        args.seconds,
        think,
        args.client_procs,
        started,
        launch=site.clients.command,
    )
    cpu, redis_cpu, lb = site.node_cpu(), site.redis.cpu(), site.balancer_cpu()
    scraped = [site.scrape(i) for i in range(site.count)]
    wall = time.monotonic() - before["t"]
    key = "tarot_actions_applied_total"
    applied = [a[key] - b[key] for a, b in zip(scraped, before["scraped"], strict=True)]
    total = sum(applied) or 1.0
    used = [a - b for a, b in zip(cpu, before["cpu"], strict=True)]
    result["window_seconds"] = round(wall, 2)
    result["nodes"] = [
        {
            "cpu_seconds_per_1000_actions": round(1000 * c / a, 3) if a else None,
            "share_of_actions": round(a / total, 3),
            "actions": int(a),
            "cpu_cores_busy": round(c / wall, 2),
            "lease_handovers": int(
                after.get("tarot_lease_handovers_total", 0)
                - was.get("tarot_lease_handovers_total", 0)
            ),
        }
        for c, a, after, was in zip(used, applied, scraped, before["scraped"], strict=True)
    ]
    result["cpu_seconds_per_1000_actions_all_nodes"] = round(1000 * sum(used) / total, 3)
    result["redis_shards"] = [
        {
            "cpu_seconds_per_1000_actions": round(1000 * (a - b) / total, 3),
            "cpu_cores_busy": round((a - b) / wall, 2),
        }
        for a, b in zip(redis_cpu, before["redis"], strict=True)
    ]
    result["balancer_cpu_seconds_per_1000_actions"] = round(1000 * (lb - before["lb"]) / total, 3)
    return result


def lobby(site: Site, counts: list[int]) -> list[dict[str, Any]]:
    """With ``counts`` open tables stored in turn: a lobby page's time and the store's work."""
    python = python_module("bench.lobby_probe")
    found: list[dict[str, Any]] = []
    stored = 0
    for count in sorted(counts):
        progress(f"lobby: {count} open tables")
        filled = site.clients.run([*python, "fill", site.redis.url, str(count - stored)], 900)
        if filled.returncode:
            found.append({"open_tables": count, "probe_failed": f"fill: {filled.stderr[-300:]}"})
            break
        stored = count
        calls_before, cpu_before = site.redis.commands(), site.redis.cpu()
        node_before = site.node_cpu()[0]
        probe = site.clients.run(
            [*python, "page", site.url.replace("{table}", ""), str(LOBBY_PAGES)], 900
        )
        if probe.returncode:
            found.append({"open_tables": count, "probe_failed": probe.stderr[-500:]})
            break
        node_used = site.node_cpu()[0] - node_before
        progress(f"lobby: {count} open tables: {probe.stdout.strip()}")
        calls = [
            {k: v - b.get(k, 0) for k, v in a.items() if v - b.get(k, 0)}
            for a, b in zip(site.redis.commands(), calls_before, strict=True)
        ]
        cpu = [a - b for a, b in zip(site.redis.cpu(), cpu_before, strict=True)]
        reads = LOBBY_PAGES + 1  # at most: the cached page may have been read too
        found.append(
            {
                "open_tables": count,
                **json.loads(probe.stdout),
                "node_cpu_ms_per_list_read": round(1000 * node_used / LOBBY_PAGES, 1),
                "shards": [
                    {
                        "lobby_key_reads": c.get("zrange", 0) + c.get("zrangebylex", 0),
                        "table_reads": sum(v for k, v in c.items() if k.startswith("eval")),
                        "calls_per_list_read": round(sum(c.values()) / LOBBY_PAGES),
                        "cpu_ms_per_list_read": round(1000 * s / LOBBY_PAGES, 1),
                    }
                    for c, s in zip(calls, cpu, strict=True)
                ],
                "list_reads_at_most": reads,
            }
        )
    return found


def render(result: dict[str, Any]) -> str:
    lines: list[str] = []
    line = lines.append
    line(
        f"{result['tables']} tables, {result['connections']} connections through nginx, "
        f"{result['seconds']:g} s measured per configuration; {result['cpus']} CPUs; "
        f"load average {result['load_average_before']} before, {result['load_average_after']} after"
    )
    if not result["netem"]:
        line("  no netem in this kernel: the hosts talk over veth with no latency added")
    else:
        line(f"  netem: {result['delay_ms_each_way']} ms added each way between hosts")
    for c in result["configurations"]:
        line(
            f"  redis {c['redis']:<7} {c['node_count']} node(s): {c['actions_per_second']:>8.1f}"
            f" actions/s  p50 {c['p50_ms']:.2f} ms  p99 {c['p99_ms']:.2f} ms  "
            f"{c['cpu_seconds_per_1000_actions_all_nodes']} node CPU s per 1,000 actions; "
            f"nginx {c['balancer_cpu_seconds_per_1000_actions']}"
        )
        for i, node in enumerate(c["nodes"]):
            line(
                f"      node {i}: {node['cpu_seconds_per_1000_actions']} CPU s per 1,000, "
                f"{100 * node['share_of_actions']:.0f}% of the actions, "
                f"{node['cpu_cores_busy']} cores busy"
            )
        for i, shard in enumerate(c["redis_shards"]):
            line(
                f"      redis shard {i}: {shard['cpu_seconds_per_1000_actions']} CPU s per 1,000, "
                f"{shard['cpu_cores_busy']} cores busy"
            )
    for kind, steps in result["lobby"].items():
        line(f"  lobby on redis {kind} (one node):")
        for s in steps:
            if "probe_failed" in s:
                line(
                    f"    {s['open_tables']:>6} open tables: the probe failed: {s['probe_failed']}"
                )
                continue
            if "page_ms_list_read" not in s:
                line(f"    {s['open_tables']:>6} open tables: no answer: {s['refusals']}")
                continue
            shards = "; ".join(
                f"shard {i}: {x['lobby_key_reads']} lobby-key reads, {x['table_reads']} table "
                f"reads, {x['cpu_ms_per_list_read']} ms CPU per list read"
                for i, x in enumerate(s["shards"])
            )
            line(
                f"    {s['open_tables']:>6} open tables: page {s['page_ms_list_read']} ms when the "
                f"node reads the list ({s['node_cpu_ms_per_list_read']} ms node CPU), "
                f"{s['page_ms_cached']} ms cached; {s['pages_refused']} of {LOBBY_PAGES} "
                f"refused {s['refusals']}; {shards}"
            )
    for kind, error in result.get("failed", {}).items():
        line(f"  redis {kind}: failed: {error}")
    return "\n".join(lines)
