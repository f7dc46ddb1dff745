"""``tarot bench server``: tables of 4 bot clients over loopback WebSockets.

The server under test runs in its own process(es) (``tarot serve``); the bot
clients run here. Each client acts on its ``your_turn`` with a random legal
action; an action's latency is the time from its sending to the receipt of
its first event by all four seats of the table. The same clients then run
against a bare ``websockets`` broadcast server (the ceiling: no rules, no
store, only the transport), so that the ratio says what the game costs.

With ``--store redis`` the memory store runs too, side by side in the same
run; ``--nodes N`` spreads each table's four clients over N server processes
sharing one Redis, and prints each node's CPU seconds per 1,000 actions and
its share of the actions.

This module is the command (its arguments, rounds, medians, the report); the
clients are in ``bench_clients``, the ceiling in ``bench_ceiling``, the
processes in ``bench_processes`` and ``bench_worker``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from typing import Any

from .bench_processes import ceiling, serve_and_measure


def add_parser(sub: Any) -> None:
    p = sub.add_parser("server", help="actions/s and latency of tables of 4 bot clients")
    p.add_argument("--tables", type=int, default=200, help="concurrent tables (default 200)")
    p.add_argument("--seconds", type=float, default=10.0, help="measured seconds per run")
    p.add_argument("--store", choices=["memory", "redis"], default="memory")
    p.add_argument(
        "--redis", default="redis://127.0.0.1:6379/14", help="Redis URL for --store redis"
    )
    p.add_argument("--nodes", type=int, default=1, help="server processes (needs --store redis)")
    p.add_argument(
        "--think-ms",
        type=float,
        default=0.0,
        help="each bot thinks this long (0-2x, uniform) before acting: a paced load (default 0)",
    )
    p.add_argument(
        "--client-procs", type=int, default=2, help="processes driving the bot clients (default 2)"
    )
    p.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="with --store redis: memory and redis runs alternate this many times and each "
        "figure is the median over the rounds (default 1)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def versus(redis: dict[str, Any], memory: dict[str, Any]) -> dict[str, float | None]:
    """Redis's p99 and first node's CPU per action, as multiples of the memory store's."""
    cpu_r = redis["nodes"][0]["cpu_seconds_per_1000_actions"]
    cpu_m = memory["nodes"][0]["cpu_seconds_per_1000_actions"]
    return {
        "p99": round(redis["p99_ms"] / memory["p99_ms"], 2) if memory["p99_ms"] else None,
        "cpu": round(cpu_r / cpu_m, 2) if cpu_r and cpu_m else None,
    }


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
    if args.tables < 1 or args.seconds <= 0 or args.client_procs < 1 or args.rounds < 1:
        print(
            "tarot bench server: --tables, --seconds, --client-procs, --rounds must be positive",
            file=sys.stderr,
        )
        return 2
    result: dict[str, Any] = {"tables": args.tables, "connections": 4 * args.tables}
    think = args.think_ms / 1000
    result["think_ms"] = args.think_ms
    procs = args.client_procs
    rounds: list[dict[str, Any]] = []
    for _ in range(args.rounds if args.store == "redis" else 1):
        one = {"memory": serve_and_measure(args.tables, args.seconds, None, 1, think, procs)}
        if args.store == "redis":
            one["redis"] = serve_and_measure(
                args.tables, args.seconds, args.redis, args.nodes, think, procs
            )
            one["redis_vs_memory"] = versus(one["redis"], one["memory"])
        rounds.append(one)
    for name in rounds[0]:
        result[name] = median_figures([one[name] for one in rounds])
    if len(rounds) > 1:
        result["rounds"] = rounds
    ceiling_figures = ceiling(args.tables, args.seconds, think, procs)
    main = result[args.store]
    result.update(
        store=args.store,
        node_count=args.nodes,
        actions_per_second=main["actions_per_second"],
        p50_ms=main["p50_ms"],
        p99_ms=main["p99_ms"],
        ceiling_actions_per_second=ceiling_figures["actions_per_second"],
        ceiling_p50_ms=ceiling_figures["p50_ms"],
        ceiling_p99_ms=ceiling_figures["p99_ms"],
    )
    result["ratio_to_ceiling"] = round(
        main["actions_per_second"] / max(ceiling_figures["actions_per_second"], 1e-9), 3
    )
    print(json.dumps(result) if args.json else render(result, args))
    return 0


def render(result: dict[str, Any], args: argparse.Namespace) -> str:
    lines: list[str] = []
    line = lines.append
    line(
        f"{args.tables} tables, {4 * args.tables} connections, {args.seconds:g} s measured, "
        f"bots think {args.think_ms:g} ms on average"
    )
    if args.rounds > 1 and args.store == "redis":
        line(f"  medians of {args.rounds} rounds, memory and redis alternating")
    for name in ("memory", "redis"):
        if name in result:
            f = result[name]
            line(
                f"  {name:<7} {f['actions_per_second']:>9.1f} actions/s   p50 {f['p50_ms']:.2f} ms"
                f"   p99 {f['p99_ms']:.2f} ms"
            )
            for i, node in enumerate(f["nodes"]):
                line(
                    f"          node {i}: {node['cpu_seconds_per_1000_actions']} CPU s per 1,000"
                    f" actions, {100 * node['share_of_actions']:.0f}% of the actions"
                )
    if "redis_vs_memory" in result:
        ratio = result["redis_vs_memory"]
        line(f"  redis / memory: p99 {ratio['p99']}x, CPU per action {ratio['cpu']}x (node 0)")
    line(
        f"  ceiling {result['ceiling_actions_per_second']:>9.1f} actions/s   p50 "
        f"{result['ceiling_p50_ms']:.2f} ms   p99 {result['ceiling_p99_ms']:.2f} ms"
        f"   (bare websockets broadcast)"
    )
    line(f"  ratio   {result['ratio_to_ceiling']:.3f} of the ceiling's actions/s ({args.store})")
    return "\n".join(lines)
