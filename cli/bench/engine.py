"""``tarot bench engine``: complete random deals per second beside a bare bitset loop.

Each engine deal: a seeded shuffle, the petit sec check, bidding, the discard,
the chelem decision, 72 plays with the legal cards (and poignee offers) at
every step, each action checked by ``apply_in_place``, and the score. The
search path deals and bids the same way, then plays its cards as search does
(``legal_cards``, ``play_card``, ``taker_result``). Each run also times as
many deals of ``bitset_loop`` (72 random legal cards on int bitsets and
nothing else). The three alternate in chunks of 50 deals and CPU time is
counted, not wall time, so that their ratios come from the same moments of a
shared machine. Prints the medians of several runs and of the runs' ratios.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any, NamedTuple

from engine import (
    Card,
    Phase,
    apply_in_place,
    legal_cards,
    new_deal,
    play_card,
    random_action,
    score,
    taker_result,
)

from ..argtypes import at_least
from .bitset_loop import random_deal


def add_parser(sub: Any) -> None:
    p = sub.add_parser("engine", help="complete random deals per second, beside a bare loop")
    p.add_argument("--deals", type=at_least(1), default=2000, help="deals per run (default 2000)")
    p.add_argument(
        "--runs", type=at_least(1), default=5, help="runs; medians are printed (default 5)"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


CHUNK = 50  # deals of each kind in turn: all see the same moments of a shared machine


class Run(NamedTuple):
    """CPU seconds of one run's deals of each kind, and the engine's card plays."""

    engine: float
    search: float
    loop: float
    plays: int


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


def search_deals(deals: int, rng: random.Random, dealer: int = 0) -> None:
    """Random deals as search plays them: dealt and bid as above, then each card on the
    legal-card bitset (``legal_cards``, ``play_card``: make/unmake's half) and the result
    as one number (``taker_result``), no action objects and no checks."""
    for i in range(deals):
        deal = new_deal((dealer + i) % 4, rng)
        while deal.phase is not Phase.PLAY and not deal.is_over:
            apply_in_place(deal, random_action(deal, rng))
        hands = deal.hands
        while deal.phase is Phase.PLAY:
            legal = legal_cards(hands[deal.to_act], deal.trick)
            for _ in range(int(rng.random() * legal.bit_count())):
                legal &= legal - 1
            play_card(deal, Card((legal & -legal).bit_length() - 1))
        taker_result(deal)


def one_run(deals: int, seed: int) -> Run:
    """``deals`` deals of each kind, alternating in chunks of ``CHUNK``.

    CPU time, not wall time, so that what other processes take of the core
    counts for none of them.
    """
    rngs = [random.Random(seed) for _ in range(3)]
    seconds = [0.0, 0.0, 0.0]
    plays = 0
    for first in range(0, deals, CHUNK):
        size = min(CHUNK, deals - first)
        start = time.process_time()
        plays += engine_deals(size, rngs[0], first)
        after_engine = time.process_time()
        search_deals(size, rngs[1], first)
        after_search = time.process_time()
        for _ in range(size):
            random_deal(rngs[2])
        seconds[0] += after_engine - start
        seconds[1] += after_search - after_engine
        seconds[2] += time.process_time() - after_search
    return Run(seconds[0], seconds[1], seconds[2], plays)


def measure(deals: int, runs: int) -> dict[str, Any]:
    """The medians over ``runs`` runs: deals/s of each kind, us per card play, the ratios."""
    results = [one_run(deals, seed) for seed in range(runs)]
    ratios = [r.loop / r.engine for r in results]
    search_ratios = [r.loop / r.search for r in results]
    return {
        "deals_per_second": round(statistics.median(deals / r.engine for r in results), 1),
        "us_per_play": round(
            statistics.median(1e6 * r.engine / max(r.plays, 1) for r in results), 2
        ),
        "bitset_loop_deals_per_second": round(
            statistics.median(deals / r.loop for r in results), 1
        ),
        "ratio": round(statistics.median(ratios), 3),
        "ratios": [round(x, 3) for x in ratios],
        "search_deals_per_second": round(statistics.median(deals / r.search for r in results), 1),
        "search_ratio": round(statistics.median(search_ratios), 3),
        "search_ratios": [round(x, 3) for x in search_ratios],
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
        f"engine / loop: {figures['ratio']} (runs: {', '.join(map(str, figures['ratios']))})\n"
        f"search path: {figures['search_deals_per_second']} deals/s, / loop: "
        f"{figures['search_ratio']} (runs: {', '.join(map(str, figures['search_ratios']))})\n"
        f"medians of {args.runs} runs of {args.deals} deals, one core, CPU time"
    )
    return 0
