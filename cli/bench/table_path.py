"""``tarot bench table-path``: a node's work on one action's table change, in one process.

What ``TableRuntime.transact`` runs for an action, with no socket and no
client: the transition (the engine's step), the commit's numbering, the
memory store's commit and event log, the delivery core and the fan-out with
its frames to four seated protocol 2 readers (msgpack; the frames are made,
then dropped). ``--tables`` tables act in turn, each action drawn at random
(``engine.random_action``, outside the timing); after each deal the four
seats say ``ready`` and the next one is dealt, as at a bench table.

The end-to-end ``tarot bench server`` moves ±5% from one run to the next on
this shared machine; this one holds to about ±2%, so a change to the table's
path can be judged here first. The figure is the wall time of ``transact``
per action, the median of ``--runs`` runs; the collector is set as a node's
(``gc_tuning.settle``). Each stage's time comes from timing its function
(``STAGES``) during the run; a timed call costs about 0.1 µs more, so the
stages are read against each other, the total against other runs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

import engine
from cli.argtypes import at_least
from protocol import MSGPACK, Codec
from protocol import models as m
from server import gc_tuning
from server.node import fanout, runtime
from server.node.runtime import Asked, Subscriber, TableRuntime, TableServices
from server.settings import Settings
from server.store import memory
from server.table import delivery, seating
from server.table import transitions as tr
from server.table.data import TableData
from server.table.seating import JoinRequest

Stages = defaultdict[str, float]  # seconds spent in each stage

# (what it is, the object that holds the function, its name there)
STAGES: tuple[tuple[str, Any, str], ...] = (
    ("transition", tr, "act"),
    ("numbering", runtime, "committed_update"),
    ("store commit", memory.MemoryStore, "commit"),
    ("delivery core", delivery.Delivery, "receive"),
    ("fan-out and frames", fanout.Fanout, "carry"),
)


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "table-path", help="a node's CPU per action on the table's change, in one process"
    )
    p.add_argument("--tables", type=at_least(1), default=50, help="tables acting in turn (50)")
    p.add_argument("--actions", type=at_least(100), default=20_000, help="actions a run (20000)")
    p.add_argument("--runs", type=at_least(1), default=3, help="runs, median (3)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="the figures as one JSON object")
    p.set_defaults(run=run)


class _Reader:
    """A seated protocol 2 reader that drops its frames (a ``Subscriber``)."""

    def __init__(self, seat: int, codec: Codec = MSGPACK) -> None:
        self.seat: int | None = seat
        self.codec = codec
        self.version = 2
        self.session = 1

    def send_frame(self, frame: str | bytes) -> None:
        pass

    def replaced(self) -> None:
        pass

    def lost(self, table_id: str) -> None:
        pass


class _Table:
    def __init__(self, runtime: TableRuntime, readers: list[_Reader]) -> None:
        self.runtime, self.readers = runtime, readers


async def _new_table(services: TableServices, number: int) -> _Table:
    data = TableData(table_id=f"bench{number}", options=m.TableOptions(), created_ms=1)
    await services.store.create(data)
    table = _Table(TableRuntime(services, data), [_Reader(seat) for seat in range(4)])
    for reader in table.readers:
        await table.runtime.follow(reader)
    for seat in range(4):
        request = JoinRequest("", 0, seat)
        await table.runtime.transact(lambda d, s, r=request: seating.join(d, s, r))  # type: ignore[misc]
    return table


async def _next_deal(table: _Table) -> float:
    """The four seats' ``ready`` after a deal (the next one is dealt): their seconds."""
    started = time.perf_counter()
    for seat in range(4):
        await table.runtime.transact(lambda d, s, seat=seat: tr.ready(d, s, seat, 0))  # type: ignore[misc]
    return time.perf_counter() - started


async def one_run(tables: int, actions: int, seed: int, stages: Stages) -> tuple[float, int]:
    """Seconds of ``transact`` over at least ``actions`` actions (a pass over the tables is
    finished) and how many were done, the deals' ends and starts included (a new table's
    set-up is not, in the total or in ``stages``)."""
    services = TableServices.alone(Settings(), memory.MemoryStore())
    rng = random.Random(seed)
    playing = [await _new_table(services, i) for i in range(tables)]
    made, done, spent = tables, 0, 0.0
    stages.clear()
    while done < actions:
        for i, table in enumerate(playing):
            state = table.runtime.state
            if state is None or state.is_over:
                spent += await _next_deal(table)
                state = table.runtime.state
                if state is None or state.is_over:  # the series is over: another table
                    kept = dict(stages)
                    playing[i] = await _new_table(services, made)
                    stages.clear()
                    stages.update(kept)
                    made += 1
                continue
            action = engine.random_action(state, rng)
            asked: Asked[Subscriber] = Asked(table.readers[state.to_act], 1)
            started = time.perf_counter()
            await table.runtime.transact(lambda d, s, a=action: tr.act(d, s, a, 0), asked=asked)  # type: ignore[misc]
            spent += time.perf_counter() - started
            done += 1
        await asyncio.sleep(0)  # the store's listeners hear the commits, as in a node
    return spent, done


@contextlib.contextmanager
def node_collector() -> Iterator[None]:
    """The collector as a node sets it (``gc_tuning.settle``) while this lasts, then as it
    was: the bench also runs inside other processes (its tests)."""
    threshold = gc.get_threshold()
    gc_tuning.settle()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)


@contextlib.contextmanager
def timed_stages(stages: Stages) -> Iterator[None]:
    """Each function of ``STAGES`` adds its time to ``stages`` while this lasts."""
    kept = [(holder, name, getattr(holder, name)) for _, holder, name in STAGES]
    try:
        for (label, holder, name), (_, _, original) in zip(STAGES, kept, strict=True):
            setattr(holder, name, _timer(label, original, stages))
        yield
    finally:
        for holder, name, original in kept:
            setattr(holder, name, original)


def _timer(label: str, original: Callable[..., Any], stages: Stages) -> Callable[..., Any]:
    if asyncio.iscoroutinefunction(original):
        # The memory store's commit never waits: the whole of it runs inside the await.
        async def timed_async(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await original(*args, **kwargs)
            finally:
                stages[label] += time.perf_counter() - started

        return timed_async

    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            stages[label] += time.perf_counter() - started

    return timed


def measure(tables: int, actions: int, runs: int, seed: int) -> dict[str, Any]:
    per_action: list[float] = []
    stage_runs: list[dict[str, float]] = []
    with node_collector():
        for r in range(runs):
            stages: Stages = defaultdict(float)
            with timed_stages(stages):
                spent, done = asyncio.run(one_run(tables, actions, seed + r, stages))
            per_action.append(spent / done)
            stage_runs.append({label: stages[label] / done for label, _, _ in STAGES})
    return {
        "tables": tables,
        "actions": actions,
        "runs": runs,
        "us_per_action": round(1e6 * statistics.median(per_action), 1),
        "us_per_action_runs": [round(1e6 * x, 1) for x in per_action],
        "stages_us_per_action": {
            label: round(1e6 * statistics.median(run[label] for run in stage_runs), 1)
            for label, _, _ in STAGES
        },
    }


def render(result: dict[str, Any]) -> str:
    runs = " / ".join(str(x) for x in result["us_per_action_runs"])
    lines = [
        f"table path: {result['tables']} tables, {result['actions']:,} actions a run, "
        f"{result['runs']} run(s), medians",
        f"  transact: {result['us_per_action']} µs per action (runs {runs})",
    ]
    for label, us in result["stages_us_per_action"].items():
        lines.append(f"    {label:<20} {us:6.1f} µs")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    result = measure(args.tables, args.actions, args.runs, args.seed)
    print(json.dumps(result) if args.json else render(result))
    return 0
