"""The processes ``tarot bench server`` starts: the bare relay and the client workers.

``python -m cli.bench.worker relay PORT`` serves the relay (``relay``);
``python -m cli.bench.worker worker URLS TABLES SECONDS THINK [VERSION]`` drives TABLES
tables, says ``ready``, waits for a line on stdin, and prints what it
measured as JSON: the latencies and the frames its seats received.
"""

from __future__ import annotations

import asyncio
import json
import sys

from server import event_loop

from .clients import VERSION, tarot_run
from .relay import relay_server


async def stdin_barrier() -> None:
    """A worker says it is ready and waits for the word to go."""
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)


def worker_main(argv: list[str]) -> None:
    urls, tables, seconds, think, *version = argv
    run = asyncio.run(
        tarot_run(
            urls.split(","),
            int(tables),
            float(seconds),
            float(think),
            stdin_barrier,
            int(version[0]) if version else VERSION,
        )
    )
    print(json.dumps({"latencies": run.latencies(), "frames": run.frames}), flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "relay":
        # The relay runs on the nodes' loop, so that the ratio compares the same stack.
        event_loop.run(relay_server(int(sys.argv[2])), sys.argv[3] if len(sys.argv) > 3 else "auto")
    else:
        worker_main(sys.argv[2:])
