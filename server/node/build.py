"""Making a node: its store, its history and the parts that use them, wired once.

``build_node`` is the one place a node is put together: a node is never wired
afterwards by setting its attributes. What differs between a node alone (the
memory store) and nodes sharing Redis is asked of the store
(``TableStore.review_limits``), never by testing the store's type.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from server.settings import Settings
from server.store.base import TableStore
from server.store.memory import MemoryStore

from .bots import BotRunner
from .node import Node
from .review_limits import PlayerLimits
from .reviews import Reviews

if TYPE_CHECKING:
    from .archive import Archive  # SQLAlchemy only where the history is kept

HOUR_MS = 3600 * 1000


async def make_store(settings: Settings) -> TableStore:
    """The memory store, or Redis with ``settings.redis_url``."""
    if settings.redis_url is None:
        return MemoryStore()
    from server.store.redis.store import RedisStore  # the memory default needs no Redis

    return await RedisStore.connect(
        settings.redis_url,
        max_connections=settings.redis_pool,
        op_timeout=settings.redis_timeout,
        idle_ttl_ms=round(settings.idle_ttl_hours * HOUR_MS),
        finished_ttl_ms=round(settings.finished_ttl_hours * HOUR_MS),
    )


async def build_node(
    settings: Settings, store: TableStore | None = None, archive: Archive | None = None
) -> Node:
    """A node on ``store`` (made from the settings when None); ``archive``: where its
    finished deals, accounts and kept reviews are (``tarot serve`` opens the history's)."""
    store = store or await make_store(settings)
    per_window = settings.reviews_per_player
    kept = None
    if archive is not None and archive.engine is not None:
        from server.history import KeptReviews

        kept = KeptReviews(archive.engine)  # reviews made once, for any node
    # Deal reviews get a worker of their own at the lowest CPU priority: measured with the
    # tables' bot workers, a review raised the tables' p99 on two shared cores (docs/BENCHMARKS.md,
    # "Deal review").
    reviews = Reviews(
        BotRunner(1, niceness=19),
        limits=store.review_limits(per_window) or PlayerLimits(per_window),
        kept=kept,
    )
    return Node(
        settings,
        store,
        reviews=reviews,
        archive=archive,
        accounts=archive.accounts() if archive is not None else None,
    )
