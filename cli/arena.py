"""``tarot arena A B``: a duplicate match between two bots (see ``ai.arena``).

    tarot arena expert basic --deals 2000 --seed 1 --workers 2
    tarot arena strong:budget_ms=400 strong:budget_ms=100 --deals 200 --json

A bot is a level (``random``, ``basic``, ``expert``, ``strong``) with optional
``key=value`` options after a colon. Prints A's mean margin per deal over B
with a 95% paired-bootstrap interval, contracts taken and made, the petit au
bout, illegal actions and decision times; ``--out`` keeps every deal's record.

A match too long for one sitting is played in pieces: ``--first`` starts at
another deal index (or give another seed), and ``tarot arena-pool`` pools the
``--json`` figures of the pieces (each keeps every deal's margin).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

from ai.arena import (
    BotSpec,
    DealResult,
    PoolError,
    Summary,
    play_duplicate,
    play_duplicate_args,
    pool,
)

from .argtypes import at_least, seconds


def add_parser(sub: Any) -> None:
    p = sub.add_parser("arena", help="duplicate match between two bots")
    p.add_argument("a", help="bot A, e.g. expert or strong:budget_ms=400")
    p.add_argument("b", help="bot B, the reference")
    p.add_argument("--deals", type=at_least(1), default=100, help="deals (default 100)")
    p.add_argument("--seed", type=int, default=0, help="the seed of the match (default 0)")
    p.add_argument(
        "--first",
        type=at_least(0),
        default=0,
        help="the first deal's index, to go on with a match played in pieces (default 0)",
    )
    p.add_argument("--workers", type=at_least(1), default=1, help="processes (default 1)")
    p.add_argument("--budget-ms", type=float, help="budget_ms for strong bots without one")
    p.add_argument(
        "--match-deals",
        type=at_least(1),
        default=100,
        help="deals in a match of A against three B, for the matches won (default 100)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--out", type=Path, help="write every deal's five records to this folder")
    p.add_argument("--progress", action="store_true", help="report progress on stderr")
    p.add_argument(
        "--max-seconds",
        type=seconds,
        help="stop once this many seconds have passed; the figures cover the deals done",
    )
    p.set_defaults(run=run)
    q = sub.add_parser("arena-pool", help="pool the --json figures of arena runs")
    q.add_argument("files", nargs="+", type=Path, help="JSON files printed by tarot arena --json")
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.set_defaults(run=run_pool)


def run_pool(args: argparse.Namespace) -> int:
    """``tarot arena-pool F...``: one match from runs over disjoint deals."""
    runs = []
    try:
        for path in args.files:
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except json.JSONDecodeError as e:
                raise PoolError(f"{path}: not JSON ({e})") from None
            if not isinstance(data, dict):
                raise PoolError(f"{path}: not the JSON object of tarot arena --json")
            runs.append(data)
        figures = pool(runs)
    except (OSError, ValueError, TypeError) as e:  # PoolError and JSON errors are ValueErrors
        print(f"tarot arena-pool: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(figures))
    else:
        print(
            f"{figures['a']} (A) vs {figures['b']} (B): {figures['deals']} duplicate deals "
            f"from {figures['runs']} runs\n"
            f"A's margin: {figures['margin']:+.2f} points/deal, 95% CI "
            f"[{figures['ci_low']:+.2f}, {figures['ci_high']:+.2f}]\n"
            f"illegal actions: {figures['illegal']}"
        )
    return 1 if figures["illegal"] else 0


def _results(a: BotSpec, b: BotSpec, args: argparse.Namespace) -> Generator[DealResult, None, None]:
    jobs = [(a, b, i, args.seed) for i in range(args.first, args.first + args.deals)]
    if args.workers == 1:
        yield from (play_duplicate(*job) for job in jobs)
        return
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        yield from pool.imap(play_duplicate_args, jobs)


def _write(out: Path, result: DealResult) -> None:
    for table in result.tables:
        path = out / f"deal-{result.index + 1:05d}-{table.table}.json"
        data = {"deal": result.index, "seed": result.seed, "table": table.table}
        data |= {"sheet": table.sheet, "record": table.record}
        path.write_text(json.dumps(data) + "\n")


def run(args: argparse.Namespace) -> int:
    defaults = {} if args.budget_ms is None else {"budget_ms": args.budget_ms}
    try:
        a = BotSpec.parse(args.a, defaults)
        b = BotSpec.parse(args.b, defaults)
    except (ValueError, TypeError) as e:
        print(f"tarot arena: {e}", file=sys.stderr)
        return 2
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    summary = Summary(str(a), str(b), args.match_deals)
    start = time.monotonic()
    results = _results(a, b, args)
    for done, result in enumerate(results, 1):
        summary.add(result)
        if args.out:
            _write(args.out, result)
        if args.progress and (done % 10 == 0 or done == args.deals):
            mean = sum(summary.margins) / done
            print(
                f"{done}/{args.deals} deals, margin {mean:+.2f}, illegal {summary.illegal}",
                file=sys.stderr,
            )
        if args.max_seconds is not None and time.monotonic() - start > args.max_seconds:
            break
    results.close()  # stops the pool when --max-seconds ended the match early
    figures = summary.to_json(args.seed)
    print(json.dumps(figures) if args.json else render(figures))
    return 1 if figures["illegal"] else 0


def render(f: dict[str, Any]) -> str:
    lines = [
        f"{f['a']} (A) vs {f['b']} (B): {f['deals']} duplicate deals",
        f"A's margin: {f['margin']:+.2f} points/deal, 95% CI [{f['ci_low']:+.2f}, "
        f"{f['ci_high']:+.2f}]",
        f"illegal actions: {f['illegal']}",
        _render_matches(f["matches"]),
    ]
    for name in ("a", "b"):
        lines.extend(_render_side(name.upper(), f[f"bot_{name}"]))
    lines.append("decision times (ms):")
    for key, t in f["times_ms"].items():
        lines.append(
            f"  {key:<14} n={t['n']:<7} p50 {t['p50']:8.3f}  p99 {t['p99']:8.3f}"
            f"  max {t['max']:8.3f}"
        )
    return "\n".join(lines)


def _render_side(name: str, s: dict[str, Any]) -> list[str]:
    pab = s["petit_au_bout"]
    lines = [
        f"{name}: {s['score_per_seat_deal']:+.2f} points per seat-deal; took {s['taken']} "
        f"({100 * s['take_rate']:.1f}% of seat-deals), made {s['made']}; "
        f"petit au bout won {pab['won']}, lost {pab['lost']}"
    ]
    for code, c in s["contracts"].items():
        lines.append(
            f"  {code:<13} taken {c['taken']:>5}  made {c['made']:>5}  ({100 * c['rate']:.0f}%)"
        )
    return lines


def _render_matches(m: dict[str, Any]) -> str:
    rate = m["bootstrap_rate"]
    estimate = "" if rate is None else f"; redrawn from every deal: {100 * rate:.1f}%"
    return (
        f"A alone against three B, {m['deals']}-deal matches: won {m['won']} of "
        f"{m['played']}{estimate}"
    )
