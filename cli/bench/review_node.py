"""The node's side of ``tarot bench review``: its CPU, its collector's pauses, its loop's stalls.

Wall-clock latencies on a shared machine are noisy; these figures say why a
run's p99 moved. Each run is bracketed by two scrapes of the node's
``/metrics`` (``bench_processes.gc_figures``: the collector's pauses, by
generation) and two reads of its CPU time. A pause's length cannot be taken
between two scrapes (the gauge is the longest since the node started), so the
longest pause of the run is bounded by the histogram instead: the upper bound
of the highest bucket that grew.

The loop's own thread's wait for a CPU (``/proc/PID/task/PID/schedstat``: the
time it was runnable but not running) says how much of a stall was the
machine's: other processes (the review worker among them, at nice 19) holding
both cores while the node had work.

``LoopProbe`` is the event-loop stall figure: one more connection that sends
a WebSocket ping every ``PING_SECONDS``; websockets answers a ping as soon as
the node's loop reads it, so a pong's delay is how long the loop (GC pauses
included) did not turn, with nothing of the game in it.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from typing import Any

from websockets.asyncio.client import connect

from .processes import cpu_seconds, gc_figures, scrape

PING_SECONDS = 0.025  # 40 a second: under the node's rate limit (50 a second)
STALL_MS = (20, 50, 100)
SETTLED_SHARE = 0.1


class NodeWindow:
    """A node's figures over ``seconds`` from ``start``: the measured seconds of a run."""

    def __init__(self, pid: int, port: int, url: str, seconds: float) -> None:
        self.pid, self.port, self.seconds = pid, port, seconds
        self.probe = LoopProbe(url)
        self._figures: dict[str, Any] = {}
        self._timer = threading.Timer(seconds, self._stop)

    def start(self) -> None:
        self._scraped = scrape(self.port)
        self._cpu = cpu_seconds(self.pid)
        self._waited = run_queue_seconds(self.pid)
        self._start = time.monotonic()
        self.probe.start()
        self._timer.start()

    def figures(self) -> dict[str, Any]:
        """The figures, once the window has closed (``start`` must have been called)."""
        self._timer.join()
        return self._figures

    def _stop(self) -> None:
        self.probe.stop()
        seconds = time.monotonic() - self._start
        cpu = cpu_seconds(self.pid) - self._cpu
        waited = run_queue_seconds(self.pid) - self._waited
        after = scrape(self.port)
        applied = "tarot_actions_applied_total"
        actions = after[applied] - self._scraped[applied]
        self._figures = {
            "cpu_share": round(cpu / seconds, 3),
            # of the loop's thread: seconds runnable but waiting for a CPU, per second
            "loop_cpu_wait_share": round(waited / seconds, 4),
            "cpu_seconds_per_1000_actions": round(1000 * cpu / actions, 3) if actions else None,
            **gc_figures(self._scraped, after),
            "gc_collections_by_generation": _grown_by_generation(self._scraped, after),
            "gc_run_longest_ms_at_most_by_generation": _longest_bounds(self._scraped, after),
            **self.probe.figures(),
        }


def settle(pid: int, share: float = SETTLED_SHARE, timeout: float = 20.0) -> float:
    """Wait until the node is nearly idle (under ``share`` of a core over half a second);
    the seconds waited. The previous run's 400 connections close as its clients exit,
    and the node's work on them (each seat marked away) spilled into the next run's
    window: young collections and loop stalls of up to 100 ms in a run with no tables."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        before = cpu_seconds(pid)
        time.sleep(0.5)
        if cpu_seconds(pid) - before < share * 0.5:
            break
    return round(time.monotonic() - start, 1)


def run_queue_seconds(pid: int) -> float:
    """How long the process's main thread (the event loop's) has waited for a CPU."""
    with open(f"/proc/{pid}/task/{pid}/schedstat") as f:
        return int(f.read().split()[1]) / 1e9


def _grown_by_generation(before: dict[str, float], after: dict[str, float]) -> list[int]:
    def count(scraped: dict[str, float], gen: int) -> float:
        return scraped.get(f'tarot_gc_pause_seconds_count{{generation="{gen}"}}', 0.0)

    return [int(count(after, g) - count(before, g)) for g in range(3)]


def _longest_bounds(before: dict[str, float], after: dict[str, float]) -> list[float | str | None]:
    """Per generation, the upper bound (ms) of the longest pause between the two scrapes:
    the highest histogram bucket whose count grew (None: no pause; "over 250": past the
    last bound)."""
    bounds: list[float | str | None] = []
    for gen in range(3):
        prefix = f'tarot_gc_pause_seconds_bucket{{generation="{gen}",le="'
        grown = [
            (float(key[len(prefix) : -2]), after[key] - before.get(key, 0.0))
            for key in after
            if key.startswith(prefix)
        ]
        bound = None
        previous = 0.0
        for le, cumulative in sorted(grown):  # cumulative counts: a bucket grew if the sum did
            if cumulative > previous:
                bound = le
            previous = cumulative
        if bound is None or bound != float("inf"):
            bounds.append(None if bound is None else round(1000 * bound, 1))
        else:
            bounds.append(f"over {1000 * max(b for b, _ in grown if b != bound):g}")
    return bounds


class LoopProbe:
    """Pings the node from a thread of its own; each pong's delay in seconds."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.delays: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._main()), daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)

    async def _main(self) -> None:
        with contextlib.suppress(OSError):
            async with connect(self.url, ping_interval=None) as ws:
                while not self._stop.is_set():
                    start = time.perf_counter()
                    await (await ws.ping())
                    self.delays.append(time.perf_counter() - start)
                    await asyncio.sleep(PING_SECONDS)

    def figures(self) -> dict[str, Any]:
        ordered = sorted(self.delays)

        def ms(q: float) -> float:
            return round(1000 * ordered[int(q * (len(ordered) - 1))], 1) if ordered else 0.0

        stalls = {f"loop_stalls_over_{t}ms": sum(d * 1000 > t for d in ordered) for t in STALL_MS}
        return {
            "loop_pings": len(ordered),
            "loop_p50_ms": ms(0.5),
            "loop_p99_ms": ms(0.99),
            "loop_longest_ms": ms(1.0),
            **stalls,
        }
