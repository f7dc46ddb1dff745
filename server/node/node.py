"""This server process: its tables, its leases, its lobby, its bots and reviews.

Several nodes may share one store (Redis). A node loads a table's runtime on
first use (``tables.py``), follows the table's committed changes through the
store, and runs the background work of the tables whose lease it holds
(``leases.py``). Each part gets only what it uses; ``build.py`` makes a node.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import engine
from protocol import models as m
from server.clock import now_ms
from server.metrics import Metrics
from server.settings import Settings
from server.store.base import TableStore
from server.table.data import TableData

from . import rating_news
from .bots import BotRunner
from .leases import Leases
from .lobby import Lobby
from .matchmaker import Blocks
from .moderation import Moderation
from .quickplay import QuickPlay
from .rematch_timers import RematchTimers
from .review_limits import PlayerLimits
from .reviews import Reviews
from .runtime import TableRuntime, TableServices
from .shared_watch import SharedWatch
from .tables import Tables

if TYPE_CHECKING:
    from server.history import Accounts

    from .archive import Archive  # SQLAlchemy only where the history is kept
    from .duplicates import DuplicateTables


class Node:
    """The parts of one node (``build_node`` wires them); connections talk to this."""

    def __init__(
        self,
        settings: Settings,
        store: TableStore,
        *,
        bots: BotRunner | None = None,
        reviews: Reviews | None = None,
        archive: Archive | None = None,
        accounts: Accounts | None = None,
    ) -> None:
        self.settings = settings
        self.store = store
        self.metrics = Metrics()
        store.attach_metrics(self.metrics)
        self.bots = bots or BotRunner(settings.bot_workers)
        # Deal reviews get a worker of their own at the lowest CPU priority: measured with the
        # tables' bot workers, a review raised the tables' p99 on two shared cores
        # (docs/BENCHMARKS.md, "Deal review").
        self.reviews = reviews or Reviews(
            BotRunner(1, niceness=19), limits=PlayerLimits(settings.reviews_per_player)
        )
        self.archive = archive  # finished deals to the history (``tarot serve``)
        self.accounts = accounts  # in the history's database (``signin``)

        def seen(
            before: TableData | None,
            before_state: engine.Deal | None,
            after: TableData,
            after_state: engine.Deal | None,
        ) -> None:  # the history's, and quick play's abandons
            if archive is not None:
                archive.seen(before, before_state, after, after_state)
            self.quickplay.seen(before, before_state, after, after_state)
            self.rematches.seen(before, before_state, after, after_state)

        services = TableServices(
            store,
            settings,
            self.metrics,
            self.bots,
            lambda _: None,  # replaced by the tables' own
            seen,
        )
        self.tables = Tables(
            services,
            settings.next_deal_seconds,
            on_loaded=self._loaded,
            on_created=self.metrics.tables_created.inc,
            on_lost=self.metrics.tables_lost.inc,
        )
        self.metrics.tables_loaded.set_function(lambda: len(self.tables))
        self.leases = Leases(store, settings, self.metrics, self.tables)
        self.metrics.draining.set_function(lambda: float(self.leases.draining))
        if archive is not None:
            self.metrics.watch_history(archive.writer)
        self.moderation = Moderation(store.shared())  # maintenance and bans (the admin API)
        self.watch = SharedWatch(self.moderation, settings, self.metrics)  # and ``online``
        self.lobby = Lobby(store, settings, self.tables, self.moderation)
        self.quickplay = QuickPlay(store.ticket_queue(), settings, self.tables, _blocks(archive))
        self.rematches = RematchTimers(self.tables, store.shared())  # offers closed on time
        store.on_lost(self.tables.lost)
        self.duplicates: DuplicateTables | None = None  # duplicate events: with a history only
        if archive is not None and archive.engine is not None:
            from .duplicates import DuplicateTables

            self.duplicates = DuplicateTables(archive.engine, self.tables, settings)
        if archive is not None:  # the rating changes to the tables' score sheets
            archive.writer.on_rated = lambda changes: rating_news.tell(self.tables, changes)

    async def _loaded(self, runtime: TableRuntime) -> None:
        await self.leases.take(runtime)

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        await self.watch.start()
        await self.leases.start()
        self.lobby.start()
        self.quickplay.start()
        self.rematches.start()
        if self.duplicates is not None:
            self.duplicates.start()

    async def stop(self) -> None:
        await self.quickplay.stop()
        await self.rematches.stop()
        if self.duplicates is not None:
            await self.duplicates.stop()
        await self.lobby.stop()
        await self.watch.stop()
        await self.leases.stop()
        await self.tables.stop()
        await self.leases.release_on_stop()
        self.bots.close()
        self.reviews.close()

    async def release_leases(self) -> None:
        """Hand every lease over (draining): another node adopts the tables."""
        await self.leases.release_all()

    # ------------------------------------------------------------ what connections ask

    @property
    def runtimes(self) -> dict[str, TableRuntime]:
        return self.tables.runtimes

    @property
    def draining(self) -> bool:
        return self.leases.draining

    async def runtime(self, table_id: str) -> TableRuntime:
        """The runtime of a table, loaded from the store on first use."""
        return await self.tables.runtime(table_id)

    async def runtime_of_token(self, token: str) -> TableRuntime:
        return await self.tables.runtime_of_token(token)

    async def create_table(self, options: m.TableOptions, key: str | None = None) -> TableRuntime:
        """A new table; with ``key``, the one a first try made, if it did (``request_keys``)."""
        return await self.tables.create(options, key, now_ms())

    def lost_data_recently(self) -> bool:
        return self.tables.lost_data_recently()


def _blocks(archive: Archive | None) -> Blocks | None:
    """Who blocked whom, for quick play: the history's, where one is kept."""
    if archive is None or archive.engine is None:
        return None
    from server.history import blocked_pairs  # SQLAlchemy only where the history is kept

    return partial(blocked_pairs, archive.engine)
