"""The processes ``tarot bench server`` starts: the ceiling server and the client workers.

``python -m cli.bench_worker ceiling PORT`` serves the ceiling;
``python -m cli.bench_worker worker MODE URLS TABLES SECONDS THINK FIRST`` drives
TABLES tables, says ``ready``, waits for a line on stdin, and prints the
latencies it measured as JSON.
"""

from __future__ import annotations

import asyncio
import json
import sys

from .bench_ceiling import ceiling_run, ceiling_server
from .bench_clients import tarot_run


async def stdin_barrier() -> None:
    """A worker says it is ready and waits for the word to go."""
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)


def worker_main(argv: list[str]) -> None:
    mode, urls, tables, seconds, think, first = argv
    n, secs, th, start = int(tables), float(seconds), float(think), int(first)
    if mode == "tarot":
        latencies = asyncio.run(tarot_run(urls.split(","), n, secs, th, stdin_barrier))
    else:
        latencies = asyncio.run(ceiling_run(urls, n, secs, th, stdin_barrier, start))
    print(json.dumps(latencies), flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "ceiling":
        asyncio.run(ceiling_server(int(sys.argv[2])))
    else:
        worker_main(sys.argv[2:])
