"""``tarot simulate``: deals with random legal decisions, a summary, records on request."""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

from engine import (
    Contract,
    Deal,
    apply_in_place,
    deal_events,
    new_deal,
    random_action,
    score,
    step,
    to_record,
)

from .argtypes import at_least
from .describe import describe_event


def add_parser(sub: Any) -> None:
    p = sub.add_parser("simulate", help="play deals with random legal decisions")
    p.add_argument("--deals", type=at_least(1), default=1, help="how many deals (default 1)")
    p.add_argument("--seed", type=int, default=0, help="the seed of the whole run")
    p.add_argument("--out", type=Path, help="write each deal's record to this folder")
    p.add_argument("--verbose", action="store_true", help="print every move (default for 1 deal)")
    p.set_defaults(run=run)


def play_random_deal(dealer: int, rng: random.Random, verbose: bool) -> Deal:
    deal = new_deal(dealer, rng)
    if verbose:
        for event in deal_events(deal):
            print(describe_event(event))
    while not deal.is_over:
        action = random_action(deal, rng)
        if verbose:
            deal, events = step(deal, action)
            for event in events:
                print(describe_event(event))
        else:
            apply_in_place(deal, action)
    return deal


def run(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    verbose = args.verbose or args.deals == 1
    taken: Counter[str] = Counter()
    made: Counter[str] = Counter()
    cancelled: Counter[str] = Counter()
    totals = [0.0] * 4
    for i in range(args.deals):
        deal = play_random_deal(i % 4, rng, verbose)
        sheet = score(deal)
        if args.out:
            path = args.out / f"deal-{i + 1:05d}.json"
            path.write_text(json.dumps(to_record(deal)) + "\n")
        if sheet.reason is not None:  # cancelled (R3, R4)
            cancelled[sheet.reason] += 1
            continue
        taken[sheet.contract.code] += 1
        made[sheet.contract.code] += sheet.made
        totals = [t + s for t, s in zip(totals, sheet.scores, strict=True)]
        if verbose:
            print(json.dumps(sheet.to_json(), indent=2))
    _summary(args.deals, taken, made, cancelled, totals)
    return 0


def _summary(
    deals: int,
    taken: Counter[str],
    made: Counter[str],
    cancelled: Counter[str],
    totals: list[float],
) -> None:
    print(f"{deals} deals, {sum(cancelled.values())} cancelled ({_pairs(cancelled) or 'none'})")
    for contract in list(Contract)[1:]:
        code = contract.code
        if taken[code]:
            print(
                f"  {code:<13} taken {taken[code]:>6}  made {made[code]:>6}"
                f"  ({100 * made[code] / taken[code]:.0f}%)"
            )
    averages = ", ".join(f"seat {s}: {t / deals:+.2f}" for s, t in enumerate(totals))
    print(f"average score per deal: {averages}")


def _pairs(counter: Counter[str]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(counter.items()))
