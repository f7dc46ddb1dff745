"""Where tables live: the ``TableStore`` interface, its errors and what they answer.

A store keeps each table's data and event log, applies changes atomically
(check-and-set on ``version``), and tells every subscribed node about each
committed change, so that any node can serve any table. Leases let exactly
one node at a time run a table's background work (AI turns, timeouts).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from server.errors import ServerError
from server.queue.tickets import TicketStore
from server.table.commits import Update
from server.table.data import StoredEvent, TableData
from server.table.refusals import TableUnavailable

from .shared import Shared

if TYPE_CHECKING:
    from protocol import models as m
    from server.metrics import Metrics

EVENT_LOG_LIMIT = 2000  # events kept per table for reconnection catch-up
REVIEW_WINDOW_SECONDS = 3600.0  # deal reviews are counted per player over this window


class StoreError(ServerError):
    """Base of store failures."""


class StaleVersion(StoreError):
    """Another writer changed the table first: reload and retry."""


class StoreUnavailable(StoreError):
    """The store does not answer (Redis down or too slow); nothing was changed."""


class StoreRefused(StoreError):
    """The store answers but refuses this node for good (a wrong password, a database
    index it does not have): waiting would not help, a setting must change."""


class OutcomeUnknown(StoreError):
    """A write's reply was lost and the store stayed silent: it may or may not have landed
    (``TableStore.settle`` tells, once the store answers)."""


Listener = Callable[[Update], None]


class ReviewLimits(Protocol):
    """How many deal reviews a player may start: counted on one node, or by the store for
    every node that shares it (``TableStore.review_limits``)."""

    per_window: int

    async def charge(self, player: str) -> None:
        """Count a review ``player`` starts; ``TableRefused`` (``review_limit``) if over."""
        ...

    async def done(self, player: str) -> None:
        """The review ``player`` was charged for is over (made or failed)."""
        ...


class TableStore(Protocol):
    async def create(self, table: TableData) -> None: ...

    async def load(self, table_id: str) -> TableData | None: ...

    async def commit(self, table: TableData, events: list[StoredEvent]) -> Update:
        """Store ``table`` (whose version is the stored one + 1) and append ``events``;
        returns the update made, which the caller applies itself: the store's listeners
        hear it after the call returns, or (Redis: a node's listeners are its own) never.

        Raises ``StaleVersion`` if the stored version is not ``table.version - 1``,
        or was not made by the commit ``table.parent`` (when it names one).
        """
        ...

    async def settle(self, table: TableData) -> bool:
        """Whether the commit of ``table``, which met ``OutcomeUnknown``, landed; from this
        answer on it can never land. Raises ``StoreUnavailable`` while the store is silent,
        ``OutcomeUnknown`` when it can no longer tell."""
        ...

    async def events_since(self, table_id: str, seq: int) -> list[StoredEvent] | None:
        """Events after ``seq``, or None when some of them are no longer kept."""
        ...

    async def list_tables(self) -> list[TableData]:
        """Every table (reads them all: the lobby reads its lists instead)."""
        ...

    async def lobby_page(
        self, listing: str, after: str, limit: int
    ) -> list[tuple[str, m.TableSummary | None]]:
        """Up to ``limit`` entries of the lobby's list ``listing`` after the member ``after``
        ('' from the first), in order, each with the table's summary (no spectators), or
        None when the table is found no longer in that list (``server.store.lobby_index``)."""
        ...

    async def lobby_count(self, listing: str) -> int:
        """How many tables the lobby's list ``listing`` holds."""
        ...

    async def lobby_ids(self, listing: str, before: str = "") -> list[str]:
        """The ids of the tables of the list ``listing`` whose member is below ``before``
        ('' for all of them)."""
        ...

    async def delete(self, table_id: str) -> None:
        """Forget a table and its events (a closed table nobody sat at)."""
        ...

    async def account_tables(self, account_id: int) -> list[TableData]:
        """The tables not finished where ``account_id`` holds a seat, read from the account
        index (``server.store.account_index``), never every table."""
        ...

    async def playing_tables(self) -> list[str]:
        """The ids of the tables in play (their list: the lease sweep asks every few seconds)."""
        ...

    async def subscribe(self, table_id: str, listener: Listener) -> None: ...

    async def unsubscribe(self, table_id: str, listener: Listener) -> None: ...

    async def acquire_lease(self, table_id: str, owner: str, ttl_ms: int) -> bool:
        """Take or renew the table's lease for ``owner``; False if another holds it."""
        ...

    async def acquire_leases(self, table_ids: list[str], owner: str, ttl_ms: int) -> list[bool]:
        """``acquire_lease`` for several tables at once (one round trip on Redis)."""
        ...

    async def release_lease(self, table_id: str, owner: str) -> None: ...

    async def release_leases(self, table_ids: list[str], owner: str) -> None:
        """``release_lease`` for several tables at once (one round trip on Redis)."""
        ...

    async def heartbeat(self, node_id: str, ttl_ms: int) -> None:
        """This node lives for ``ttl_ms`` more (renewed with its leases)."""
        ...

    async def nodes_alive(self, node_ids: list[str]) -> set[str]:
        """Those of ``node_ids`` whose heartbeat has not expired."""
        ...

    async def ping(self) -> bool: ...

    async def close(self) -> None: ...

    def on_lost(self, listener: Callable[[str], None]) -> None:
        """Call ``listener(table_id)`` when a followed table is found gone from the store."""
        ...

    def attach_metrics(self, metrics: Metrics) -> None:
        """Report round trips to the node's ``metrics.store_seconds``."""
        ...

    def review_limits(self, per_window: int) -> ReviewLimits | None:
        """Deal review limits counted for every node sharing this store; None when the
        store is this process's alone (the node counts for itself)."""
        ...

    def shared(self) -> Shared:
        """What the nodes sharing this store decide and count together (``shared``)."""
        ...

    def ticket_queue(self) -> TicketStore:
        """Quick play's queue: one for every node sharing this store (``server/queue``)."""
        ...


def unavailable(error: StoreError) -> TableUnavailable:
    """The answer to a store failure (raise it ``from`` the failure): the only place a
    store failure becomes a protocol error, so every path answers it in the same words."""
    if isinstance(error, OutcomeUnknown):
        return TableUnavailable(
            "outcome_unknown",
            f"the table store did not say whether the change was kept: {error}",
        )
    return TableUnavailable("unavailable", f"the table store failed: {error}")
