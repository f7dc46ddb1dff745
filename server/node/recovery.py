"""The reads a table's runtime must get answered in the end, after a store fault hid
something from it: each retried until the store answers (issue 13.14).

- A catch-up read (events missed between two updates): given up, it would leave the
  node's followers short of events for good, as no later update may come to ask
  again (the table waits for a player who was never sent its turn).
- The fate of a commit answered ``outcome_unknown``: no echo may ever bring it (the
  node may be the table's only follower), so the store is asked whether it landed
  (which also fences it off) and the table is read again. The runtime then asks the
  follower whose action it was for its turn again if it did not land
  (PROTOCOL.md, section 14: the events that follow, or a new ask, tell).
- A seat's drop whose commit failed: unmarked, the seat would never go away,
  and a table waiting for its player's turn would wait for good.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Awaitable, Callable, Iterator
from typing import TypeVar

from server.store.base import OutcomeUnknown, StoreError, TableStore
from server.table.data import StoredEvent, TableData
from server.table.refusals import TableError

log = logging.getLogger("tarot.table")
B = TypeVar("B")  # a change to commit (a table runtime's ``Build``)


def retry_pauses() -> Iterator[float]:
    """Seconds between tries: soon at first, then every 2 s."""
    yield from (0.05, 0.1, 0.25, 0.5, 1.0)
    yield from itertools.repeat(2.0)


async def events_since(
    store: TableStore, table_id: str, after: Callable[[], int]
) -> list[StoredEvent] | None:
    """The log's events after ``after()`` (read again at each try: it may have moved)."""
    pauses = retry_pauses()
    while True:
        try:
            return await store.events_since(table_id, after())
        except StoreError as e:
            log.warning("catch-up failed for table %s (retrying): %s", table_id, e)
            await asyncio.sleep(next(pauses))


async def events_between(
    store: TableStore, table_id: str, after: int, seq: int
) -> list[StoredEvent]:
    """The log's events after ``after`` up to ``seq``, read once (none if it cannot say):
    what a reload of the table missed, so that it knows whose turn came when."""
    try:
        events = await store.events_since(table_id, after)
    except StoreError:
        return []
    return [e for e in events or [] if e.seq <= seq]


async def landed(store: TableStore, table: TableData) -> bool:
    """Whether the commit that made ``table`` landed; from the answer on it never will."""
    pauses = retry_pauses()
    while True:
        try:
            return await store.settle(table)
        except OutcomeUnknown:
            return True  # it can no longer tell: taken as kept, never asked again
        except StoreError:
            await asyncio.sleep(next(pauses))


async def until_done(transact: Callable[[B], Awaitable[object]], build: B) -> None:
    """``transact(build)`` until the store takes it (or the table refuses it)."""
    pauses = retry_pauses()
    while True:
        try:
            await transact(build)
            return
        except TableError as e:
            if e.code not in ("unavailable", "outcome_unknown"):
                return
            await asyncio.sleep(next(pauses))


async def read_again(reload: Callable[[], Awaitable[None]]) -> bool:
    """``reload`` until the store answers; False when the table was found lost."""
    pauses = retry_pauses()
    while True:
        try:
            await reload()
            return True
        except TableError as e:
            if e.code != "unavailable":
                return False
            await asyncio.sleep(next(pauses))
