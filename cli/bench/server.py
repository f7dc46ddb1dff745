"""``tarot bench server``: tables of 4 bot clients over loopback WebSockets.

The server under test runs in its own process(es) (``tarot serve``); the bot
clients run in client processes. Each client acts on its ``your_turn`` with a
random legal action; an action's latency is the time from its sending to the
receipt of its first event by all four seats of the table. The same clients
run against a bare relay (``relay``: the same websockets stack, turn
and card-in-hand checks, each play to the four seats and a private
``your_turn``, no rules), so that the ratio of CPU per action says what the
game costs over the transport. Each node's collection pauses are read from
its ``/metrics`` (``server.collector.Pauses``).

Each round runs the relay, then the memory store, then (``--store redis``)
Redis, and takes their ratios; with ``--rounds R`` every figure and ratio is
the median over the rounds. ``--nodes N`` spreads each table's four clients
over N server processes sharing one Redis, and prints each node's CPU seconds
per 1,000 actions and its share of the actions; Redis's own CPU (``INFO
cpu``) is printed beside them.

This module is the command (its arguments, rounds, medians, the report); the
clients are in ``bench_clients``, the relay in ``relay``, the processes
in ``bench_processes`` and ``worker``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path
from typing import Any

from ..argtypes import at_least, event_loop, milliseconds, positive_seconds
from ..local_servers import CLI_PACKAGE
from .processes import Profiles, progress, relay, serve_and_measure


def add_parser(sub: Any) -> None:
    p = sub.add_parser("server", help="actions/s and latency of tables of 4 bot clients")
    p.add_argument(
        "--tables", type=at_least(1), default=200, help="concurrent tables (default 200)"
    )
    p.add_argument(
        "--seconds", type=positive_seconds, default=10.0, help="measured seconds per run"
    )
    p.add_argument("--store", choices=["memory", "redis"], default="memory")
    p.add_argument(
        "--redis", default="redis://127.0.0.1:6379/14", help="Redis URL for --store redis"
    )
    p.add_argument(
        "--nodes", type=at_least(1), default=1, help="server processes (needs --store redis)"
    )
    p.add_argument(
        "--think-ms",
        type=milliseconds,
        default=0.0,
        help="each bot thinks this long (0-2x, uniform) before acting: a paced load (default 0)",
    )
    p.add_argument(
        "--client-procs",
        type=at_least(1),
        default=2,
        help="processes driving the bot clients (default 2)",
    )
    p.add_argument(
        "--rounds",
        type=at_least(1),
        default=1,
        help="the relay, memory (and redis) runs alternate this many times and each figure "
        "is the median over the rounds (default 1)",
    )
    p.add_argument(
        "--protocol",
        type=int,
        choices=[1, 2],
        default=2,
        help="the protocol the bot clients speak: 2 folds a commit's frames into one per "
        "seat (default), 1 sends each event and turn apart",
    )
    p.add_argument(
        "--gc-sweep-ms",
        type=milliseconds,
        help="the nodes' --gc-sweep-ms (their default: 50; 0: CPython's own collections)",
    )
    p.add_argument(
        "--event-loop",
        type=event_loop,
        help="the nodes' --event-loop (their default: auto, uvloop where installed)",
    )
    p.add_argument(
        "--profile",
        type=Path,
        metavar="DIR",
        help="sample the relay's and every node's stacks into DIR/NAME.folded "
        "(cli.bench.sampler prints a summary of one)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--out", type=Path, help="also write the JSON object to this file")
    p.set_defaults(run=run)


def versus(redis: dict[str, Any], memory: dict[str, Any]) -> dict[str, float | None]:
    """Redis's p99 and first node's CPU per action, as multiples of the memory store's;
    with Redis's own CPU added to the node's when it was measured."""
    cpu_r = redis["nodes"][0]["cpu_seconds_per_1000_actions"]
    cpu_m = memory["nodes"][0]["cpu_seconds_per_1000_actions"]
    ratios = {"p99": ratio(redis["p99_ms"], memory["p99_ms"]), "cpu": ratio(cpu_r, cpu_m)}
    if "redis_cpu_seconds_per_1000_actions" in redis and cpu_r is not None:
        ratios["cpu_with_redis"] = ratio(cpu_r + redis["redis_cpu_seconds_per_1000_actions"], cpu_m)
    return ratios


def versus_relay(store: dict[str, Any], bare: dict[str, Any]) -> dict[str, float | None]:
    """A store's first node's CPU per action, p99 and frames per action over the relay's."""
    return {
        "cpu": ratio(
            store["nodes"][0]["cpu_seconds_per_1000_actions"], bare["cpu_seconds_per_1000_actions"]
        ),
        "p99": ratio(store["p99_ms"], bare["p99_ms"]),
        "frames": ratio(store["frames_per_action"], bare["frames_per_action"]),
    }


def ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 2) if a is not None and b else None


def median_figures(runs: list[dict[str, Any]]) -> Any:
    """Each figure's median over runs of the same shape (dicts, lists and numbers)."""
    first = runs[0]
    if isinstance(first, dict):
        return {key: median_figures([run[key] for run in runs]) for key in first}
    if isinstance(first, list):
        return [median_figures([run[i] for run in runs]) for i in range(len(first))]
    numbers = [x for x in runs if isinstance(x, int | float)]
    return round(statistics.median(numbers), 3) if numbers else first


def run(args: argparse.Namespace) -> int:
    if args.nodes > 1 and args.store != "redis":
        print("tarot bench server: --nodes > 1 needs --store redis", file=sys.stderr)
        return 2
    result: dict[str, Any] = {"tables": args.tables, "connections": 4 * args.tables}
    result.update(think_ms=args.think_ms, store=args.store, node_count=args.nodes)
    result.update(gc_sweep_ms=args.gc_sweep_ms, event_loop=args.event_loop)
    result["protocol"] = args.protocol
    result["load_average_before"] = [round(x, 2) for x in os.getloadavg()]
    if args.profile is not None:
        args.profile.mkdir(parents=True, exist_ok=True)
    rounds = [one_round(args, r) for r in range(1, args.rounds + 1)]
    for name in rounds[0]:
        result[name] = median_figures([one[name] for one in rounds])
    if len(rounds) > 1:
        result["rounds"] = rounds
    result["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    main = result[args.store]
    result.update(
        actions_per_second=main["actions_per_second"], p50_ms=main["p50_ms"], p99_ms=main["p99_ms"]
    )
    text = json.dumps(result)
    if args.out is not None:
        args.out.write_text(text + "\n")
    print(text if args.json else render(result, args))
    profiles = round_profiles(args, 1)
    if profiles is not None:
        summary = f"python -m {CLI_PACKAGE}.bench.sampler {profiles.path('memory-node-0')}"
        progress(f"profiles in {profiles.folder}, one .folded file a process; read one: {summary}")
    return 0


def round_profiles(args: argparse.Namespace, r: int) -> Profiles | None:
    """Where round ``r``'s processes write their profiles (``--profile``), if anywhere."""
    if args.profile is None:
        return None
    return Profiles(args.profile, f"-round-{r}" if args.rounds > 1 else "")


def node_extra(args: argparse.Namespace) -> tuple[str, ...]:
    """The nodes' own flags this run sets."""
    extra: tuple[str, ...] = ()
    if args.gc_sweep_ms is not None:
        extra += ("--gc-sweep-ms", str(args.gc_sweep_ms))
    if args.event_loop is not None:
        extra += ("--event-loop", args.event_loop)
    return extra


def one_round(args: argparse.Namespace, r: int) -> dict[str, Any]:
    """The relay, the memory store and (``--store redis``) Redis, one after the other."""
    think, procs, version = args.think_ms / 1000, args.client_procs, args.protocol
    profiles = round_profiles(args, r)
    loop = args.event_loop or "auto"
    one = {"relay": relay(args.tables, args.seconds, think, procs, loop, version, profiles)}
    same = (think, procs, node_extra(args), version, profiles)
    one["memory"] = serve_and_measure(args.tables, args.seconds, None, 1, *same)
    one["memory_vs_relay"] = versus_relay(one["memory"], one["relay"])
    if args.store == "redis":
        one["redis"] = serve_and_measure(args.tables, args.seconds, args.redis, args.nodes, *same)
        one["redis_vs_memory"] = versus(one["redis"], one["memory"])
        one["redis_vs_relay"] = versus_relay(one["redis"], one["relay"])
    return one


def render(result: dict[str, Any], args: argparse.Namespace) -> str:
    lines: list[str] = []
    line = lines.append
    line(
        f"{args.tables} tables, {4 * args.tables} connections, {args.seconds:g} s measured, "
        f"bots think {args.think_ms:g} ms on average, protocol {args.protocol}; "
        f"load {result['load_average_before'][0]}"
    )
    if args.rounds > 1:
        line(f"  medians of {args.rounds} rounds, relay, memory and redis in turn")
    for name in ("relay", "memory", "redis"):
        if name in result:
            line(figures_line(name, result[name]))
            for i, node in enumerate(result[name].get("nodes", [])):
                line(node_line(i, node))
            if name == "redis" and "redis_cpu_seconds_per_1000_actions" in result[name]:
                redis_cpu = result[name]["redis_cpu_seconds_per_1000_actions"]
                line(f"          redis-server: {redis_cpu} CPU s per 1,000 actions")
    for name in ("memory_vs_relay", "redis_vs_relay", "redis_vs_memory"):
        if name in result:
            ratios = ", ".join(f"{key} {value}x" for key, value in result[name].items())
            line(f"  {name.replace('_vs_', ' / ')}: {ratios}")
    return "\n".join(lines)


def figures_line(name: str, f: dict[str, Any]) -> str:
    cpu = f" {f['cpu_seconds_per_1000_actions']} CPU s per 1,000" if name == "relay" else ""
    return (
        f"  {name:<7} {f['actions_per_second']:>9.1f} actions/s   p50 {f['p50_ms']:.2f} ms"
        f"   p99 {f['p99_ms']:.2f} ms   {f['frames_per_action']} frames/action{cpu}"
    )


def node_line(i: int, node: dict[str, Any]) -> str:
    return (
        f"          node {i}: {node['cpu_seconds_per_1000_actions']} CPU s per 1,000 actions, "
        f"{100 * node['share_of_actions']:.0f}% of the actions; GC: {node['gc_pauses']} pauses, "
        f"{node['gc_pauses_over_5ms']} over 5 ms, longest {node['gc_longest_pause_ms']} ms"
        f" (by generation {node['gc_longest_pause_ms_by_generation']}; in CPU time"
        f" {node['gc_longest_pause_cpu_ms_by_generation']})"
    )
