"""Prometheus metrics of one node (``GET /metrics``); names follow Prometheus's conventions
(a unit suffix, ``_total`` for counters: prometheus_client adds it to a Counter's name).

Besides the tables': the process (``process_*``: resident memory, open files, CPU
seconds), the build (``tarot_build_info``), the history writer (queue, errors,
latency), Redis (the pool, round trips by operation, errors) and the drain.
"""

from __future__ import annotations

import bisect
import platform
from collections.abc import Iterator
from importlib import metadata
from itertools import accumulate
from typing import Protocol

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)

from .gc_tuning import PAUSE_BOUNDS, Pauses

# What the admin API does (server/net/admin.py), each counted.
ADMIN_ACTIONS = ("close_table", "disconnect", "ban", "unban", "announce", "drain")


class Metrics:
    """One registry per node, so that several nodes can live in one test process."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.connections = Gauge("tarot_connections", "open WebSocket connections", registry=r)
        self.tables_by_phase = Gauge(
            "tarot_tables", "tables on this node by phase", ["phase"], registry=r
        )
        self.actions = Counter("tarot_actions_applied", "actions applied", registry=r)
        self.events = Counter("tarot_events_committed", "table events committed", registry=r)
        self.refused = Counter("tarot_refused", "refused messages by code", ["code"], registry=r)
        self.action_latency = Histogram(
            "tarot_action_seconds",
            "from an action's arrival to its commit",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0),
            registry=r,
        )
        self.ai_seconds = Histogram(
            "tarot_ai_decision_seconds",
            "AI decision time",
            buckets=(0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0),
            registry=r,
        )
        self.store_seconds = Histogram(
            "tarot_store_seconds",
            "table store round trips",
            buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1),
            registry=r,
        )
        self.lease_sweep_seconds = Histogram(
            "tarot_lease_sweep_seconds", "one pass over the leases", registry=r
        )
        self.lease_takeovers = Counter(
            "tarot_lease_takeovers", "tables whose driver this node took on", registry=r
        )
        self.lease_handovers = Counter(
            "tarot_lease_handovers",
            "tables whose driver this node handed to the node holding all their seats",
            registry=r,
        )
        self.tables_created = Counter("tarot_tables_created", "tables created", registry=r)
        self.tables_loaded = Gauge(
            "tarot_tables_loaded", "table runtimes this node holds in memory", registry=r
        )
        self.tables_lost = Counter(
            "tarot_tables_lost", "tables the store no longer had (lost data)", registry=r
        )

        self.redis_calls = Counter(
            "tarot_redis_round_trips",
            "Redis round trips by operation (commit, load, lease, ...)",
            ["operation"],
            registry=r,
        )
        self.redis_errors = Counter(
            "tarot_redis_errors", "Redis round trips that failed or timed out", registry=r
        )
        self.redis_pool_size = Gauge(
            "tarot_redis_pool_connections", "Redis connections the node may open", registry=r
        )
        self.redis_pool_in_use = Gauge(
            "tarot_redis_pool_in_use_connections", "Redis connections in use now", registry=r
        )
        self.redis_pubsub_lag = Gauge(
            "tarot_redis_pubsub_lag_seconds",
            "from a PUBLISH of this node's probe to its reading here, the last one",
            registry=r,
        )
        self.redis_down = Gauge(
            "tarot_redis_down", "1 while Redis does not answer this node", registry=r
        )
        self.draining = Gauge("tarot_draining", "1 once the node drains", registry=r)
        self.maintenance = Gauge(
            "tarot_maintenance", "1 while a maintenance is announced", registry=r
        )
        self.admin_actions = Counter(
            "tarot_admin_actions", "admin API actions by kind", ["action"], registry=r
        )
        for action in ADMIN_ACTIONS:  # each series exists from the start, at 0
            self.admin_actions.labels(action=action)
        build = Gauge("tarot_build_info", "the running build", ["version", "python"], registry=r)
        build.labels(version=version(), python=platform.python_version()).set(1)
        ProcessCollector(registry=r)  # process_resident_memory_bytes, _open_fds, _cpu_seconds

        # The process's collections; counted once ``run_server`` watches them.
        self.gc_pauses = Pauses()
        r.register(PauseFamilies(self.gc_pauses))

    def watch_history(self, writer: WriterStats) -> None:
        """Report the history writer's queue, failures and write times."""
        self.registry.register(WriterFamilies(writer))

    def committed(self, events: int) -> None:
        self.events.inc(events)

    def render(self, phases: dict[str, int]) -> bytes:
        # A phase no table is in any more must read 0, not its last count.
        self.tables_by_phase.clear()
        for phase, n in phases.items():
            self.tables_by_phase.labels(phase=phase).set(n)
        return generate_latest(self.registry)


class PauseFamilies:
    """The collector's pauses as Prometheus families, read from ``Pauses`` at each render."""

    def __init__(self, pauses: Pauses) -> None:
        self.pauses = pauses

    def collect(self) -> Iterator[Metric]:
        p = self.pauses
        histogram = HistogramMetricFamily(
            "tarot_gc_pause_seconds", "garbage collection pauses", labels=["generation"]
        )
        longest = GaugeMetricFamily(
            "tarot_gc_pause_max_seconds", "the longest collection pause", labels=["generation"]
        )
        longest_cpu = GaugeMetricFamily(
            "tarot_gc_pause_cpu_max_seconds",
            "the longest collection pause in the thread's CPU time",
            labels=["generation"],
        )
        bounds = [*(repr(b) for b in PAUSE_BOUNDS), "+Inf"]
        for gen, counts in enumerate(p.buckets):
            cumulative = list(zip(bounds, accumulate(counts), strict=True))
            histogram.add_metric([str(gen)], cumulative, p.total[gen])
            longest.add_metric([str(gen)], p.longest[gen])
            longest_cpu.add_metric([str(gen)], p.longest_cpu[gen])
        yield histogram
        yield longest
        yield longest_cpu


def version() -> str:
    try:
        return metadata.version("cardavia-tarot")
    except metadata.PackageNotFoundError:
        return "unknown"


WRITE_BOUNDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0)


class Timings:
    """A histogram of durations kept without a registry (the history's writes): the
    node's metrics read it (``WriterFamilies``)."""

    def __init__(self, bounds: tuple[float, ...] = WRITE_BOUNDS) -> None:
        self.bounds = bounds
        self.counts = [0] * (len(bounds) + 1)
        self.total = 0.0

    def observe(self, seconds: float) -> None:
        self.counts[bisect.bisect_left(self.bounds, seconds)] += 1
        self.total += seconds

    def family(self, name: str, help_text: str) -> HistogramMetricFamily:
        family = HistogramMetricFamily(name, help_text)
        bounds = [*(repr(b) for b in self.bounds), "+Inf"]
        family.add_metric([], list(zip(bounds, accumulate(self.counts), strict=True)), self.total)
        return family


class WriterStats(Protocol):
    """What the metrics read of the history writer (``server.history.DealWriter``)."""

    failures: int
    stored: int
    dropped: int
    timings: Timings

    def __len__(self) -> int: ...


class WriterFamilies:
    def __init__(self, writer: WriterStats) -> None:
        self.writer = writer

    def collect(self) -> Iterator[Metric]:
        w = self.writer
        queue = GaugeMetricFamily(
            "tarot_history_queue_items", "finished deals and tables waiting to be written"
        )
        queue.add_metric([], len(w))
        yield queue
        yield CounterMetricFamily(
            "tarot_history_write_errors",
            "history writes the database did not answer",
            value=w.failures,
        )
        yield CounterMetricFamily(
            "tarot_history_dropped",
            "finished deals the database refused (dropped)",
            value=w.dropped,
        )
        yield CounterMetricFamily(
            "tarot_history_deals_written", "finished deals written", value=w.stored
        )
        yield w.timings.family("tarot_history_write_seconds", "one write of the history")
