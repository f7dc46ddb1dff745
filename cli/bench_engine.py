"""``tarot bench engine``: complete random deals per second beside a bare bitset loop.

Each engine deal: a seeded shuffle, the petit sec check, bidding, the discard,
the chelem decision, 72 plays with legal-action generation (and poignee
offers) at every step, and the score. Each run also times the same number of
deals of ``bitset_loop`` (72 random legal cards on int bitsets and nothing
else) right after the engine's, so that the ratio of the two comes from one
moment of a shared machine (they alternate in chunks of 50 deals, and CPU time
is counted, not wall time). Prints the medians of several runs and the median
of the runs' ratios.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from engine import apply_in_place, random_action, score
from engine.deal import new_deal

from .bitset_loop import random_deal


def add_parser(sub: Any) -> None:
    p = sub.add_parser("engine", help="complete random deals per second, beside a bare loop")
    p.add_argument("--deals", type=int, default=2000, help="deals per run (default 2000)")
    p.add_argument("--runs", type=int, default=5, help="runs; medians are printed (default 5)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


CHUNK = 50  # deals of each side in turn: both see the same moments of a shared machine


def engine_deals(deals: int, rng: random.Random, dealer: int = 0) -> int:
    """Play ``deals`` complete random deals through the engine; the number of card plays."""
    plays = 0
    for i in range(deals):
        deal = new_deal((dealer + i) % 4, rng)
        while not deal.is_over:
            apply_in_place(deal, random_action(deal, rng))
        score(deal)
        plays += sum(len(t.cards) for t in deal.tricks)
    return plays


def one_run(deals: int, seed: int) -> tuple[float, float, int]:
    """CPU seconds of ``deals`` engine deals and of as many loop deals, and the card plays.

    The two alternate in chunks of ``CHUNK`` deals; CPU time, not wall time,
    so that what other processes take of the core counts for neither.
    """
    engine_rng, loop_rng = random.Random(seed), random.Random(seed)
    engine_seconds = loop_seconds = 0.0
    plays = 0
    for first in range(0, deals, CHUNK):
        size = min(CHUNK, deals - first)
        start = time.process_time()
        plays += engine_deals(size, engine_rng, first)
        middle = time.process_time()
        for _ in range(size):
            random_deal(loop_rng)
        engine_seconds += middle - start
        loop_seconds += time.process_time() - middle
    return engine_seconds, loop_seconds, plays


def measure(deals: int, runs: int) -> dict[str, Any]:
    """The medians over ``runs`` runs: deals/s of each, us per card play, engine / loop."""
    results = [one_run(deals, seed) for seed in range(runs)]
    ratios = [loop / engine for engine, loop, _ in results]
    return {
        "deals_per_second": round(statistics.median(deals / e for e, _, _ in results), 1),
        "us_per_play": round(statistics.median(1e6 * e / p for e, _, p in results if p), 2),
        "bitset_loop_deals_per_second": round(
            statistics.median(deals / lp for _, lp, _ in results), 1
        ),
        "ratio": round(statistics.median(ratios), 3),
        "ratios": [round(r, 3) for r in ratios],
        "runs": runs,
        "deals_per_run": deals,
        "clock": "cpu",
    }


def run(args: argparse.Namespace) -> int:
    figures = measure(args.deals, args.runs)
    if args.json:
        print(json.dumps(figures))
        return 0
    print(
        f"engine: {figures['deals_per_second']} complete deals/s, "
        f"{figures['us_per_play']} us per card play\n"
        f"bare bitset loop: {figures['bitset_loop_deals_per_second']} deals/s\n"
        f"engine / loop: {figures['ratio']} (runs: {', '.join(map(str, figures['ratios']))}; "
        f"medians of {args.runs} runs of {args.deals} deals, one core)"
    )
    return 0
