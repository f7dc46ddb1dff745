"""``tarot``: the command line entry point."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import (
    admin,
    archive,
    arena,
    bot,
    duplicate,
    play,
    reports,
    review,
    schema,
    score,
    serve,
    simulate,
    soak,
)
from .bench import cluster as bench_cluster
from .bench import duplicate as bench_duplicate
from .bench import engine as bench_engine
from .bench import history as bench_history
from .bench import queue as bench_queue
from .bench import review as bench_review
from .bench import server as bench_server
from .bench import table_path as bench_table_path


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tarot", description="cardavia-tarot: French Tarot")
    sub = parser.add_subparsers(dest="command", required=True)
    score.add_parser(sub)
    simulate.add_parser(sub)
    arena.add_parser(sub)
    serve.add_parser(sub)
    admin.add_parser(sub)
    schema.add_parser(sub)
    bot.add_parser(sub)
    play.add_parser(sub)
    review.add_parser(sub)
    archive.add_parser(sub)
    duplicate.add_parser(sub)
    reports.add_parser(sub)
    soak.add_parser(sub)
    bench = sub.add_parser("bench", help="benchmarks that print figures")
    bench_sub = bench.add_subparsers(dest="bench", required=True)
    bench_engine.add_parser(bench_sub)
    bench_server.add_parser(bench_sub)
    bench_table_path.add_parser(bench_sub)
    bench_cluster.add_parser(bench_sub)
    bench_review.add_parser(bench_sub)
    bench_history.add_parser(bench_sub)
    bench_duplicate.add_parser(bench_sub)
    bench_queue.add_parser(bench_sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
