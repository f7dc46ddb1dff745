"""``tarot bench engine``: complete random deals per second, every rule included.

Each deal: a seeded shuffle, the petit sec check, bidding, the discard, the
chelem decision, 72 plays with legal-action generation (and poignee offers)
at every step, and the score. Prints the median of several runs.
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


def add_parser(sub: Any) -> None:
    p = sub.add_parser("engine", help="complete random deals per second")
    p.add_argument("--deals", type=int, default=2000, help="deals per run (default 2000)")
    p.add_argument("--runs", type=int, default=5, help="runs; the median is printed (default 5)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def one_run(deals: int, seed: int) -> tuple[float, float]:
    """Seconds for ``deals`` complete deals, and the number of card plays."""
    rng = random.Random(seed)
    plays = 0
    start = time.perf_counter()
    for i in range(deals):
        deal = new_deal(i % 4, rng)
        while not deal.is_over:
            apply_in_place(deal, random_action(deal, rng))
        score(deal)
        plays += sum(len(t.cards) for t in deal.tricks)
    return time.perf_counter() - start, plays


def run(args: argparse.Namespace) -> int:
    results = [one_run(args.deals, seed) for seed in range(args.runs)]
    rates = [args.deals / seconds for seconds, _ in results]
    per_play = [1e6 * seconds / plays for seconds, plays in results if plays]
    figures = {
        "deals_per_second": round(statistics.median(rates), 1),
        "us_per_play": round(statistics.median(per_play), 2),
        "runs": args.runs,
        "deals_per_run": args.deals,
    }
    if args.json:
        print(json.dumps(figures))
    else:
        print(
            f"engine: {figures['deals_per_second']} complete deals/s, "
            f"{figures['us_per_play']} us per card play "
            f"(median of {args.runs} runs of {args.deals} deals, one core)"
        )
    return 0
