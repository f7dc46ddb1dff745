"""``tarot bench review``: deal reviews and tables on one node, each with and without the other.

A ``tarot serve --bot-workers W`` process for each run. ``--reviewers``
clients each play deals against the AI and ask for every deal's review
(``review_deal``) as soon as it is scored, so that the node's review slot is
never idle. Each
round runs three things in turn:

- the reviews on an idle node (no tables): each decision's latency, from the
  request (or the previous decision's ``review_progress``) to its
  ``review_progress``, and each whole review's seconds;
- the tables of ``tarot bench server`` (4 bot clients each, latency from an
  action to its first event at all four seats) alone;
- both at once: the same figures of each.

A fresh node for each run, so that no run inherits another's state. On one
node for all of them (the first version), two things of the tables' own fell
in the "both" runs and were charged to the reviews (measured with a stall
watchdog in the node): the tables a run left behind, their players gone, are
played out by the AI once the grace period ends, in a later run's window
(bursts of 100-270 ms stalls, all in the driver's moves); and a round made
about as many young collections (12) as the period of the middle-generation
one (every 11th: the tables' recent objects, 180k, 110-200 ms of CPU at 100
tables), so in a fixed order that pause fell in the same run every round. One
such pause is the whole p99 of a 15 s run (a node that has run longer still
meets it: ``tarot bench server`` and ``server.collector`` are where it is
measured). The last two runs still alternate
(tables alone first in the odd rounds, both first in the even ones), each
starts once its node is nearly idle (``bench_review_node.settle``), and the
node's figures over each run (``bench_review_node``: CPU, collections by
generation, loop stalls) say what a run met.

The figures are the medians over the rounds and the ratios (tables: with
reviews / alone; reviews: with tables / on the idle node), each ratio the
median of the rounds' own ratios, so that one run gives them all.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import subprocess
import threading
import time
from collections.abc import Iterator
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect

from ..argtypes import at_least, milliseconds, positive_seconds
from ..local_servers import free_port, python_module
from .clients import SUBPROTOCOL, VERSION, choose
from .processes import (
    UNLIMITED,
    progress,
    run_clients,
    start_process,
    wait_for_port,
)
from .review_node import NodeWindow, settle
from .server import median_figures


def add_parser(sub: Any) -> None:
    p = sub.add_parser("review", help="deal reviews and tables on one node, with and without")
    p.add_argument("--tables", type=at_least(1), default=100, help="bench tables (default 100)")
    p.add_argument(
        "--seconds", type=positive_seconds, default=10.0, help="measured seconds per run"
    )
    p.add_argument("--think-ms", type=milliseconds, default=300.0, help="bench bots' think time")
    p.add_argument("--reviewers", type=at_least(1), default=2, help="clients asking for reviews")
    p.add_argument("--bot-workers", type=at_least(1), default=2, help="the node's worker processes")
    p.add_argument("--rounds", type=at_least(1), default=3, help="alternations of the two runs")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


class Reviewers:
    """Clients in a thread of their own: each plays deals and asks for each one's review."""

    def __init__(self, url: str, count: int) -> None:
        self.url, self.count = url, count
        self.reviews = 0
        self.decisions = 0
        # (when, seconds) of each decision and each whole review, for a window's figures
        self.decision_times: list[tuple[float, float]] = []
        self.review_times: list[tuple[float, float]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._main()), daemon=True)

    def __enter__(self) -> Reviewers:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join(30)

    async def _main(self) -> None:
        tasks = [asyncio.create_task(self._client(i)) for i in range(self.count)]
        while not self._stop.is_set():
            await asyncio.sleep(0.1)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task

    async def _client(self, i: int) -> None:
        rng = random.Random(i)
        async with connect(self.url, subprotocols=[SUBPROTOCOL], max_size=2**24) as ws:  # type: ignore[list-item]
            await _send(ws, {"type": "hello", "protocol": VERSION})
            create = {"deals": None, "ai_level": "basic"}
            await _send(ws, {"type": "create_table", "options": create})
            table = await _until(ws, "table_created")
            table_id = table["table"]["table_id"]
            await _send(ws, {"type": "join", "table_id": table_id, "seat": 0})
            await _send(ws, {"type": "start"})
            clock = _Clock()
            async for frame in ws:
                await self._on(ws, msgpack.unpackb(frame, raw=False), rng, clock)

    async def _on(
        self, ws: ClientConnection, message: dict[str, Any], rng: random.Random, clock: _Clock
    ) -> None:
        kind = message["type"]
        now = time.monotonic()
        if kind == "events":  # version 2: a commit's events, the turn folded in
            for numbered in message["events"]:
                await self._on(ws, {"type": "event", **numbered}, rng, clock)
            if "your_turn" in message:
                await self._on(ws, {"type": "your_turn", **message["your_turn"]}, rng, clock)
        elif kind == "your_turn":
            await _send(ws, {"type": "act", "action": choose(message["legal"], rng)})
        elif kind == "event" and message["event"]["kind"] == "score":
            number = message["event"]["deal_number"]
            clock.asked = clock.last = now
            await _send(ws, {"type": "review_deal", "deal_number": number, "id": number})
        elif kind == "review_progress":
            self.decisions += 1
            self.decision_times.append((now, now - clock.last))
            clock.last = now
        elif kind == "deal_review":
            self.reviews += 1
            self.review_times.append((now, now - clock.asked))
            await _send(ws, {"type": "next_deal"})
        elif kind == "error" and message["code"] == "review_unavailable":
            await _send(ws, {"type": "next_deal"})  # a cancelled deal: nothing to review

    def window(self, start: float, end: float) -> dict[str, Any]:
        """The reviews' figures between ``start`` and ``end`` (``time.monotonic``)."""
        decisions = sorted(s for t, s in self.decision_times if start <= t <= end)
        reviews = sorted(s for t, s in self.review_times if start <= t <= end)
        return {
            "decisions": len(decisions),
            "decision_p50_ms": _quantile_ms(decisions, 0.5),
            "decision_p99_ms": _quantile_ms(decisions, 0.99),
            "reviews": len(reviews),
            "review_median_s": round(statistics.median(reviews), 2) if reviews else None,
        }


class _Clock:
    """One reviewer's times: when it asked for the review, when the last decision came."""

    def __init__(self) -> None:
        self.asked = self.last = time.monotonic()


def _quantile_ms(ordered: list[float], q: float) -> float:
    return round(1000 * ordered[int(q * (len(ordered) - 1))], 1) if ordered else 0.0


async def _send(ws: ClientConnection, message: dict[str, Any]) -> None:
    await ws.send(msgpack.packb(message, use_bin_type=True))


async def _until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = msgpack.unpackb(await ws.recv(), raw=False)
        if message["type"] == kind:
            return message


def _reviewing(reviewers: Reviewers) -> None:
    deadline = time.monotonic() + 120
    while reviewers.decisions == 0 and time.monotonic() < deadline:
        time.sleep(0.1)  # the reviewers' first deal is still being played


def _measure(args: argparse.Namespace, run: str) -> dict[str, Any]:
    """One run on a fresh node: ``tables`` alone, ``reviews`` alone (an idle node) or
    ``both``; with the node's CPU, collector pauses and loop stalls over the measured
    seconds (``NodeWindow``)."""
    with _node(args) as node:
        settle(node.pid)  # its start-up done
        return _measured(args, node, run)


def _measured(args: argparse.Namespace, node: NodeUnderTest, run: str) -> dict[str, Any]:
    think = args.think_ms / 1000
    window = NodeWindow(node.pid, node.port, node.url, args.seconds)
    if run == "tables":
        result = run_clients([node.url], args.tables, args.seconds, think, 2, window.start)
        result["node"] = window.figures()
        return result
    with Reviewers(node.url, args.reviewers) as reviewers:
        _reviewing(reviewers)
        start = time.monotonic()
        if run == "reviews":
            window.start()
            time.sleep(args.seconds)
            return {"reviews": reviewers.window(start, time.monotonic()), "node": window.figures()}
        result = run_clients([node.url], args.tables, args.seconds, think, 2, window.start)
        result["reviews"] = reviewers.window(start, time.monotonic())
    result["node"] = window.figures()
    return result


class NodeUnderTest:
    """The ``tarot serve`` process under test."""

    def __init__(self, process: subprocess.Popen[bytes], port: int) -> None:
        self.process, self.port = process, port
        self.pid, self.url = process.pid, f"ws://127.0.0.1:{port}/"


def run(args: argparse.Namespace) -> int:
    rounds = [_round(args, i) for i in range(args.rounds)]
    figures = summarise(rounds)
    print(json.dumps(figures) if args.json else render(figures))
    return 0


@contextlib.contextmanager
def _node(args: argparse.Namespace) -> Iterator[NodeUnderTest]:
    """A fresh ``tarot serve`` for one run (see the module docstring)."""
    port = free_port()
    command = [*python_module("main"), "serve", "--port", str(port), "--ai-pause", "0"]
    server = start_process([*command, "--bot-workers", str(args.bot_workers), *UNLIMITED])
    try:
        wait_for_port(port, server)
        yield NodeUnderTest(server, port)
    finally:
        server.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(10)
        if server.stderr is not None:
            server.stderr.close()


def _round(args: argparse.Namespace, i: int) -> dict[str, Any]:
    """One round: the reviews on the idle node, then the tables alone and both, in an order
    that alternates (see the module docstring)."""
    idle = _measure(args, "reviews")
    progress(f"round {i + 1}: reviews on an idle node {_said(idle['reviews'])}")
    one: dict[str, Any] = {"idle": idle}
    for run in ("tables", "both") if i % 2 == 0 else ("both", "tables"):
        result = _measure(args, run)
        said = (
            f"round {i + 1}: {RUN_NAMES[run]}: p50 {result['p50_ms']} ms, p99 {result['p99_ms']} ms"
        )
        if run == "both":
            said += f"; reviews {_said(result['reviews'])}"
        progress(said)
        one["alone" if run == "tables" else "reviewing"] = result
    return one


RUN_NAMES = {"tables": "tables alone", "both": "both: tables"}


def _said(reviews: dict[str, Any]) -> str:
    return (
        f"decision p50 {reviews['decision_p50_ms']} ms, p99 {reviews['decision_p99_ms']} ms"
        f" ({reviews['decisions']} decisions)"
    )


RUNS = ("idle", "alone", "reviewing")
TABLE_KEYS = ("actions_per_second", "p50_ms", "p99_ms")
REVIEW_KEYS = ("decision_p50_ms", "decision_p99_ms", "decisions", "reviews")


def _ratio(pairs: list[tuple[float, float]]) -> float | None:
    """The median of the rounds' ratios (None if a round had nothing to divide by)."""
    if not pairs or any(below == 0 for _, below in pairs):
        return None
    return round(float(statistics.median(above / below for above, below in pairs)), 2)


def summarise(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    def median(values: list[float]) -> float:
        return round(float(statistics.median(values)), 2)

    def tables(run: str) -> dict[str, float]:
        return {k: median([r[run][k] for r in rounds]) for k in TABLE_KEYS}

    def reviews(run: str) -> dict[str, Any]:
        figures: dict[str, Any] = {
            k: median([r[run]["reviews"][k] for r in rounds]) for k in REVIEW_KEYS
        }
        known = [w for r in rounds if (w := r[run]["reviews"]["review_median_s"]) is not None]
        figures["review_median_s"] = median(known) if known else None
        return figures

    def review_pairs(key: str) -> list[tuple[float, float]]:
        return [(r["reviewing"]["reviews"][key], r["idle"]["reviews"][key]) for r in rounds]

    def table_pairs(key: str) -> list[tuple[float, float]]:
        return [(r["reviewing"][key], r["alone"][key]) for r in rounds]

    return {
        "rounds": rounds,
        "node": {run: median_figures([r[run]["node"] for r in rounds]) for run in RUNS},
        "tables": {
            "alone": tables("alone"),
            "with_reviews": tables("reviewing"),
            "ratio_p50": _ratio(table_pairs("p50_ms")),
            "ratio_p99": _ratio(table_pairs("p99_ms")),
        },
        "reviews": {
            "idle": reviews("idle"),
            "with_tables": reviews("reviewing"),
            "ratio_p50": _ratio(review_pairs("decision_p50_ms")),
            "ratio_p99": _ratio(review_pairs("decision_p99_ms")),
        },
    }


def render(f: dict[str, Any]) -> str:
    t, r = f["tables"], f["reviews"]
    a, b = t["alone"], t["with_reviews"]
    i, w = r["idle"], r["with_tables"]

    def review(x: dict[str, Any]) -> str:
        whole = "" if x["review_median_s"] is None else f", {x['review_median_s']} s a review"
        return (
            f"decision p50 {x['decision_p50_ms']} ms, p99 {x['decision_p99_ms']} ms"
            f" ({x['decisions']:g} decisions, {x['reviews']:g} reviews finished{whole})"
        )

    return (
        f"tables alone:          {a['actions_per_second']} actions/s, p50 {a['p50_ms']} ms, "
        f"p99 {a['p99_ms']} ms\n"
        f"tables, reviews on:    {b['actions_per_second']} actions/s, p50 {b['p50_ms']} ms, "
        f"p99 {b['p99_ms']} ms\n"
        f"  ratio (median of the rounds): p50 {t['ratio_p50']}x, p99 {t['ratio_p99']}x\n"
        f"reviews, idle node:    {review(i)}\n"
        f"reviews, tables on:    {review(w)}\n"
        f"  ratio (median of the rounds): p50 {r['ratio_p50']}x, p99 {r['ratio_p99']}x\n"
        + "\n".join(node_line(name, f["node"][run]) for name, run in zip(NAMES, RUNS, strict=True))
    )


NAMES = ("node, reviews only:", "node, tables only:", "node, both:")


def node_line(name: str, n: dict[str, Any]) -> str:
    """The node's figures over a run (medians of the rounds): why its latencies moved."""
    return (
        f"{name:<22} CPU {100 * n['cpu_share']:.0f}% ({n['cpu_seconds_per_1000_actions']} s"
        f" per 1,000 actions), waited for a CPU {100 * n['loop_cpu_wait_share']:.1f}%;"
        f" GC {n['gc_collections_by_generation']} collections by generation,"
        f" {n['gc_pauses_over_5ms']:g} over 5 ms, longest at most"
        f" {n['gc_run_longest_ms_at_most_by_generation']} ms; loop stalls over 50 ms"
        f" {n['loop_stalls_over_50ms']:g}, longest {n['loop_longest_ms']} ms"
    )
