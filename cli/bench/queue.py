"""``tarot bench queue``: how long queued players wait, and what the queue costs a match.

1,000 bot players (by default) queue on one node over ``--arrive-seconds``, their
ratings drawn around 1500 (a normal law, ``--rating-spread``), casual, one deal. Each
confirms its ready check at once and counts as seated when the node hands it its seat.
The node is a real one (its tables are made and seated as in play), on the memory store,
then on Redis; no WebSocket: the figures are the queue's. Printed for each store: the
wait from ``queue`` to the seat (median, p99, max), the groups by number of AI, the
node's CPU per match (the whole process) and the matcher's alone (``match_once``), the
node's memory growth, and Redis's own CPU per match.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import secrets
import statistics
import time
from collections import Counter
from typing import Any

from cli.argtypes import at_least, non_negative, seconds

from .processes import RedisCpu, flush_redis

DEFAULT_REDIS = "redis://127.0.0.1:6379/15"


def add_parser(sub: Any) -> None:
    p = sub.add_parser("queue", help="quick play: players' wait, the queue's CPU per match")
    p.add_argument("--players", type=at_least(4), default=1000, help="players queued (1000)")
    p.add_argument(
        "--arrive-seconds", type=seconds, default=20.0, help="they queue over this long (20)"
    )
    p.add_argument(
        "--rating-spread",
        type=non_negative("rating points"),
        default=200.0,
        help="ratings' std dev (200)",
    )
    p.add_argument("--store", choices=["memory", "redis", "both"], default="both")
    p.add_argument(
        "--redis", default=DEFAULT_REDIS, help=f"a Redis db it may flush ({DEFAULT_REDIS})"
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="the figures as one JSON object")
    p.set_defaults(run=run)


class BenchPlayer:
    """A queued bot: confirms at once, notes when it is seated."""

    def __init__(self, quickplay: Any) -> None:
        self.quickplay = quickplay
        self.queued = 0.0
        self.seated: float | None = None
        self.ai = 0
        self.closed = False

    def send(self, message: Any) -> None:
        if message.type == "match_found":
            self.ai = message.ai
            task = asyncio.get_running_loop().create_task(
                self.quickplay.confirm(self, message.match_id, None)
            )
            task.add_done_callback(lambda t: t.exception())

    async def take_seat(self, token: str) -> None:
        self.seated = time.monotonic()


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


async def measure(args: argparse.Namespace, redis_url: str | None) -> dict[str, Any]:
    from server.node.build import build_node
    from server.queue.tickets import Ticket
    from server.settings import Settings

    settings = Settings(port=0, redis_url=redis_url, next_deal_seconds=30)
    node = await build_node(settings)
    await node.start()
    quickplay = node.quickplay
    matcher_cpu = 0.0
    match_once = quickplay.match_once

    async def timed(now: int) -> None:
        nonlocal matcher_cpu
        start = time.process_time()
        await match_once(now)
        matcher_cpu += time.process_time() - start

    quickplay.match_once = timed  # type: ignore[method-assign]
    redis_cpu = RedisCpu(redis_url) if redis_url else None
    redis_before = redis_cpu.seconds() if redis_cpu else 0.0
    rng = random.Random(args.seed)
    players = [BenchPlayer(quickplay) for _ in range(args.players)]
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    cpu_before = time.process_time()
    try:
        for player in players:
            await asyncio.sleep(args.arrive_seconds / args.players)
            player.queued = time.monotonic()
            ticket = Ticket(
                ticket_id=secrets.token_hex(8),
                player=f"guest:{secrets.token_hex(8)}",
                name="",
                account_id=None,
                rating=rng.gauss(1500, args.rating_spread),
                mode="casual",
                deals=1,
                since_ms=int(time.time() * 1000),
                node=settings.node_id,
            )
            await quickplay.queue(player, ticket, None)
        deadline = time.monotonic() + settings.queue.fill_two_seconds + 30
        # A player left alone is never given three AI (``play_now`` is its own choice).
        while time.monotonic() < deadline and sum(p.seated is None for p in players) > 1:
            await asyncio.sleep(0.2)
        cpu = time.process_time() - cpu_before
    finally:
        redis_seconds = (redis_cpu.seconds() - redis_before) if redis_cpu else None
        await node.stop()
        await node.store.close()
        if redis_cpu:
            redis_cpu.close()
    waits = [p.seated - p.queued for p in players if p.seated is not None]
    matches = max(1, quickplay.matchmaker.matches)
    figures: dict[str, Any] = {
        "store": "redis" if redis_url else "memory",
        "players": len(players),
        "seated": len(waits),
        "tables": quickplay.matchmaker.matches,
        "seated_by_ai_seats": dict(sorted(Counter(p.ai for p in players if p.seated).items())),
        "wait_median_s": round(statistics.median(waits), 2) if waits else None,
        "wait_p99_s": round(percentile(waits, 0.99), 2) if waits else None,
        "wait_max_s": round(max(waits), 2) if waits else None,
        "node_cpu_ms_per_match": round(cpu * 1000 / matches, 2),
        "matcher_cpu_ms_per_match": round(matcher_cpu * 1000 / matches, 2),
        "node_rss_growth_mb": round(
            (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before) / 1024, 1
        ),
    }
    if redis_seconds is not None:
        figures["redis_cpu_ms_per_match"] = round(redis_seconds * 1000 / matches, 2)
    return figures


def run(args: argparse.Namespace) -> int:
    stores = ["memory", "redis"] if args.store == "both" else [args.store]
    results = []
    for store in stores:
        url = args.redis if store == "redis" else None
        if url:
            flush_redis(url)
        results.append(asyncio.run(measure(args, url)))
        if url:
            flush_redis(url)
    if args.json:
        print(json.dumps(results))
        return 0
    for figures in results:
        print(f"--- {figures['store']}")
        for key, value in figures.items():
            print(f"{key:>26}: {value}")
    return 0
