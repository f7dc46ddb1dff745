"""What a table's runtime and its driver use of their node, and nothing more."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import engine
from server.metrics import Metrics
from server.settings import Settings
from server.store.base import TableStore
from server.table.data import TableData

from .bots import BotRunner

# What finished between two versions of a table goes to the history (``Archive.seen``).
ArchiveHook = Callable[[TableData | None, engine.Deal | None, TableData, engine.Deal | None], None]


@dataclass(frozen=True, slots=True)
class TableServices:
    """What a table's runtime and its driver use of their node, and nothing more."""

    store: TableStore
    settings: Settings  # the driver's pauses (``ai_pause_seconds``, ``next_deal_seconds``)
    metrics: Metrics
    bots: BotRunner
    lost: Callable[[str], None]  # the store no longer has this table (its id)
    archive: ArchiveHook | None = None

    @classmethod
    def alone(cls, settings: Settings, store: TableStore) -> TableServices:
        """Services for a runtime with no node around it (tests, tools)."""
        return cls(store, settings, Metrics(), BotRunner(settings.bot_workers), lambda _: None)
