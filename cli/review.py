"""``tarot review RECORD.json``: every decision of a finished deal judged by the strong AI.

    tarot review deal.json                      # the review, as text
    tarot review deal.json --seats 2 --json     # one seat's decisions, one JSON object
    tarot review deal.json --budget-ms 400 --seed 7

Each decision is searched in its own worker process (all cores unless
``--workers``), from the deciding seat's view at that moment (``ai.review``).
A terminal gets a progress bar on stderr. The same record, budget and seed
give the same review.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO

from ai.review.judge import DEFAULT_BUDGET_MS, Job, ReviewSettings, review
from ai.review.noise import compare
from engine import RecordError, parse_record

from .argtypes import at_least

BAR = 30


def add_parser(sub: Any) -> None:
    p = sub.add_parser("review", help="judge every decision of a finished deal (strong AI)")
    p.add_argument(
        "records",
        nargs="+",
        metavar="RECORD",
        help="a finished deal's tarot-record/1, - for stdin (several only with --noise)",
    )
    p.add_argument(
        "--budget-ms",
        type=_budget,
        default=DEFAULT_BUDGET_MS,
        help=f"search per decision, in ms of one core's work (default {DEFAULT_BUDGET_MS:g})",
    )
    p.add_argument("--seats", type=int, nargs="+", choices=range(4), help="review only these seats")
    p.add_argument("--seed", type=int, default=0, help="the seed of the search (default 0)")
    p.add_argument("--workers", type=at_least(1), help="processes (default: one per core)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--noise",
        type=int,
        metavar="SEED2",
        help="review every RECORD with --seed and with SEED2 and print how far they differ",
    )
    p.set_defaults(run=run)


def _budget(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of ms, not {text!r}") from None
    if not 0 < value <= 60_000:
        raise argparse.ArgumentTypeError(f"must be in (0, 60000] ms, not {text}")
    return value


def _read(name: str) -> Any:
    try:
        if name == "-":
            text = sys.stdin.buffer.read().decode("utf-8")
        else:
            with open(name, encoding="utf-8") as f:
                text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"cannot read {name}: {getattr(e, 'strerror', None) or e}") from e
    return parse_record(text)


def run(args: argparse.Namespace) -> int:
    seats = tuple(sorted(set(args.seats))) if args.seats else (0, 1, 2, 3)
    settings = ReviewSettings(budget_ms=args.budget_ms, seed=args.seed, seats=seats)
    workers = args.workers or os.cpu_count() or 1
    if args.noise is None and len(args.records) > 1:
        print("tarot review: one RECORD at a time (several only with --noise)", file=sys.stderr)
        return 2
    try:
        records = [_read(name) for name in args.records]
        if args.noise is not None:
            figures = _noise(records, settings, args.noise, workers)
            print(json.dumps(figures) if args.json else render_noise(figures))
            return 0
        result = _review(records[0], settings, workers, _progress(sys.stderr))
    except RecordError as e:
        print(f"tarot review: {e}", file=sys.stderr)
        return 2
    print(json.dumps(result) if args.json else render(result))
    return 0


def _noise(
    records: list[Any], settings: ReviewSettings, seed2: int, workers: int
) -> dict[str, Any]:
    other = dataclasses.replace(settings, seed=seed2)
    a: list[dict[str, Any]] = []
    b: list[dict[str, Any]] = []
    for i, record in enumerate(records, 1):
        bar = _progress(sys.stderr, f"record {i}/{len(records)}")
        a.extend(_review(record, settings, workers, bar)["decisions"])
        b.extend(_review(record, other, workers, bar)["decisions"])
    return compare(a, b) | {"budget_ms": settings.budget_ms, "seeds": [settings.seed, seed2]}


def render_noise(f: dict[str, Any]) -> str:
    gap = f["loss_gap"]
    return (
        f"seeds {f['seeds'][0]} and {f['seeds'][1]} at {f['budget_ms']:g} ms: "
        f"{f['decisions']} decisions searched\n"
        f"gap between the two losses (per defender's share): median {gap['median']:g}, "
        f"p90 {gap['p90']:g}, p95 {gap['p95']:g}, p99 {gap['p99']:g}, max {f['loss_gap_max']:g}\n"
        f"best choice differs: {f['best_differs']}; marked by either: {f['marked_by_either']},"
        f" marked differently: {f['marked_differently']}, marked by one seed only:"
        f" {f['marked_by_one_only']}"
    )


def _review(
    record: Any,
    settings: ReviewSettings,
    workers: int,
    progress: Callable[[int, int], None] | None,
) -> dict[str, Any]:
    if workers == 1:
        return review(record, settings, map, progress)
    with multiprocessing.get_context("spawn").Pool(workers) as pool:

        def imap(fn: Callable[[Job], dict[str, Any]], items: Iterable[Job]) -> Iterator[Any]:
            return pool.imap(fn, items)

        return review(record, settings, imap, progress)


def _progress(stream: TextIO, what: str = "") -> Callable[[int, int], None] | None:
    """A bar redrawn in place on a terminal; nothing when stderr is a file or a pipe."""
    if not stream.isatty():
        return None
    what = f"{what} " if what else ""

    def draw(done: int, total: int) -> None:
        filled = BAR * done // max(1, total)
        end = "\n" if done == total else ""
        bar = "#" * filled + "." * (BAR - filled)
        stream.write(f"\rreviewing {what}[{bar}] {done}/{total} decisions{end}")
        stream.flush()

    return draw


def render(result: dict[str, Any]) -> str:
    lines = [
        f"review at {result['budget_ms']:g} ms per decision, seed {result['seed']} "
        f"(losses in the seat's points; marks per defender's share: "
        + ", ".join(f"{k} >= {v:g}" for k, v in result["thresholds"].items())
        + ")"
    ]
    for e in result["decisions"]:
        lines.append(_render_entry(e))
    lines.append("summary:")
    for seat, s in result["summary"].items():
        counts = ", ".join(f"{k} {v}" for k, v in s["labels"].items() if v)
        lines.append(
            f"  seat {seat}: {s['decisions']} decisions, average loss {s['average_loss']:.2f}"
            f" ({counts})"
        )
    return "\n".join(lines)


def _render_entry(e: dict[str, Any]) -> str:
    where = f"trick {e['trick']:>2}" if e["trick"] else "        "
    head = f"{e['index']:>3} seat {e['seat']} {e['kind']:<7} {where}  {e['chosen']:<18}"
    if e["label"] == "forced":
        return f"{head} forced"
    text = f"{head} {e['chosen_score']:+8.1f}  {e['label']}"
    if e["label"] != "best":
        text += f"  best {e['best']} {e['best_score']:+.1f} (loss {e['loss']:.1f})"
    if e["reason"]:
        text += f"  - {e['reason']}"
    hindsight = e.get("hindsight")
    if hindsight and hindsight["loss"] > 0:
        text += f"  [open cards: {hindsight['best']}, loss {hindsight['loss']:g}]"
    return text
