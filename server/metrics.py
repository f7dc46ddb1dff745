"""Prometheus metrics of one node (``GET /metrics``)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import accumulate

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, HistogramMetricFamily, Metric

from .gc_tuning import PAUSE_BOUNDS, Pauses


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
        self.tables_created = Counter("tarot_tables_created", "tables created", registry=r)
        self.tables_loaded = Gauge(
            "tarot_tables_loaded", "table runtimes this node holds in memory", registry=r
        )
        self.tables_lost = Counter(
            "tarot_tables_lost", "tables the store no longer had (lost data)", registry=r
        )

        # The process's collections; counted once ``run_server`` watches them.
        self.gc_pauses = Pauses()
        r.register(PauseFamilies(self.gc_pauses))

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
