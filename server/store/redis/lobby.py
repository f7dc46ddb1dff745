"""The lobby's lists in Redis (``server.store.lobby_index``), and the reads of many tables.

On a single server the commit that changes a table's line in the lobby updates
the lists in the same script (``scripts.COMMIT``): all or nothing. On a Cluster
the lists (slot ``{lobby}``) are on another shard than the table, so a second
call follows the commit (``sync``); the table's line in its state hash is still
written with the commit, and a page checks each entry against it, so an entry
a node left behind when it died between the two calls is never shown (a table
it failed to add shows at the table's next change). A table met gone (expired)
leaves every list.

``RedisStore`` is built on it (``store``); this module only keeps that one small.
"""

from __future__ import annotations

import logging
from typing import Any

from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript

from protocol import models as m
from server.store import account_index as ai
from server.store import lobby_index as li
from server.store.base import StoreError
from server.table.data import TableData

from . import keys
from . import layout as rt
from .calls import RedisCalls

log = logging.getLogger("tarot.redis")
LineEntry = tuple[str, m.TableSummary | None]


class RedisLobby(RedisCalls):
    """Set by ``RedisStore.__init__``."""

    stored: dict[str, TableData]
    _load: AsyncScript
    _lobby: AsyncScript
    _line: AsyncScript
    _old_line: AsyncScript

    @property
    def lists_in_script(self) -> bool:
        """Whether a commit's script updates the lobby's lists (not on a cluster)."""
        return not isinstance(self.client, RedisCluster)

    def line(self, base: TableData | None, table: TableData) -> tuple[list[str], list[Any]]:
        """The lobby's keys and arguments of a script writing ``table`` over ``base``:
        the summary ('' when unchanged), the lists, the member, how many lists it is in."""
        if not li.summary_changed(base, table):
            return [], ["", "", "", 0]
        lists = li.lists_of(table)
        args: list[Any] = [li.summary_json(table), " ".join(lists), li.member(table), len(lists)]
        if not self.lists_in_script:
            return [], args
        return _ordered(lists), args

    async def sync(self, args: list[Any]) -> None:
        """On a cluster, after a script wrote a table's line (``line``): its lists.

        The table's change is made whatever happens here: a failure is logged, not raised
        (the table shows again at its next change).
        """
        summary, lists, member, count = args
        if summary and not self.lists_in_script:
            try:
                await self._sync(member, lists.split(), count)
            except StoreError as e:
                log.warning("the lobby's lists miss table %s's change: %s", member, e)

    async def _sync(self, member: str, lists: list[str], count: int) -> None:
        script_keys = _ordered(lists)
        await self.call(lambda: self._lobby(keys=script_keys, args=[member, count]), "lobby")

    # ------------------------------------------------------------ reads

    async def lobby_page(self, listing: str, after: str, limit: int) -> list[LineEntry]:
        found = await self._members(listing, "(" + after if after else "-", "+", limit)
        page: list[LineEntry] = []
        for member, summary in zip(found, await self._lines(listing, found), strict=True):
            shown = m.TableSummary.model_validate_json(summary) if summary else None
            page.append((member, shown))
        return page

    async def _lines(self, listing: str, members: list[str]) -> list[bytes | None]:
        """The summary of each table of ``members`` still in ``listing`` (else None), read
        in one round trip; the tables found gone (expired) leave every list."""
        ids = [li.table_of(member) for member in members]
        lines = await self._each_table(self._line, keys.state, ids, [])
        found: list[bytes | None] = []
        for member, (summary, lists) in zip(members, lines, strict=True):
            if summary is None:
                await self._sync(member, [], 0)
            listed = summary is not None and listing in lists.decode().split()
            found.append(summary if listed else None)
        return found

    async def lobby_count(self, listing: str) -> int:
        count: int = await self.call(lambda: self.client.zcard(keys.lobby_list(listing)), "lobby")
        return count

    async def lobby_ids(self, listing: str, before: str = "") -> list[str]:
        found = await self._members(listing, "-", "(" + before if before else "+", None)
        lines = await self._lines(listing, found)
        return [li.table_of(m) for m, line in zip(found, lines, strict=True) if line is not None]

    async def _members(self, listing: str, low: str, high: str, limit: int | None) -> list[str]:
        name = keys.lobby_list(listing)

        async def read() -> list[Any]:
            if limit is None:
                found: list[Any] = await self.client.zrangebylex(name, low, high)
            else:
                found = await self.client.zrangebylex(name, low, high, 0, limit)
            return found

        return [member.decode() for member in await self.call(read, "lobby")]

    async def index_old_tables(self) -> int:
        """The tables stored before the lobby's lists and the account index (by an older
        node) enter them: read once per store, at a node's start, until one node has done
        it. How many entered the lobby's lists."""
        entered = 0
        if await self._first_time("indexed"):
            for table in await self.list_tables():
                entered += await self._enter(table)
            await self._done_once("indexed")
        if entered:
            log.info("%d tables stored before the lobby's lists entered them", entered)
        if await self._first_time("accounts-indexed"):
            for table in await self.list_tables():
                for account_id in ai.seated_accounts(table):
                    await self._index_account(account_id, [table.table_id])
            await self._done_once("accounts-indexed")
        return entered

    async def _first_time(self, marker: str) -> bool:
        name = keys.lobby_list(marker)
        return not await self.call(lambda: self.client.exists(name), "lobby")

    async def _done_once(self, marker: str) -> None:
        name = keys.lobby_list(marker)
        await self.call(lambda: self.client.set(name, b"1"), "lobby")

    async def _enter(self, table: TableData) -> int:
        lists = li.lists_of(table)
        args = [li.summary_json(table), " ".join(lists), li.member(table)]
        state = [keys.state(table.table_id)]
        if not await self.call(lambda: self._old_line(keys=state, args=args), "lobby"):
            return 0
        await self._sync(li.member(table), lists, len(lists))
        return 1

    async def list_tables(self) -> list[TableData]:
        async def lobby() -> list[bytes]:
            return [i for i in await self.client.zrange(keys.LOBBY, 0, -1) if isinstance(i, bytes)]

        ids = await self.call(lobby, "lobby")
        tables = await self._read_tables([i.decode() for i in ids])
        gone = [i for i, table in zip(ids, tables, strict=True) if table is None]
        if gone:  # expired tables leave the lobby
            await self.call(lambda: self.client.zrem(keys.LOBBY, *gone))
        return [table for table in tables if table is not None]

    async def _read_tables(self, table_ids: list[str]) -> list[TableData | None]:
        """Each table of ``table_ids`` (None: gone), in one round trip; those this node
        knows at their stored commit are not parsed again."""
        known = [self.stored.get(table_id) for table_id in table_ids]
        args = {t.table_id: [t.commit] for t in known if t is not None}
        found = await self._each_table(self._load, rt.table_keys, table_ids, args)
        pairs = zip(known, found, strict=True)
        return [k if parts == [] else rt.loaded(parts) for k, parts in pairs]

    # ------------------------------------------------------------ the account index

    async def note_accounts(self, base: TableData | None, table: TableData) -> None:
        """Before ``table`` is written over ``base``: its new accounts' index holds it."""
        for account_id in ai.accounts_new(base, table):
            await self._index_account(account_id, [table.table_id])

    async def _index_account(self, account_id: int, table_ids: list[str]) -> None:
        name = keys.account_tables(account_id)

        async def add() -> None:
            async with self.client.pipeline(transaction=False) as pipe:
                pipe.sadd(name, *table_ids)
                pipe.pexpire(name, keys.ACCOUNT_TTL_MS)
                await pipe.execute()

        await self.call(add, "accounts")

    async def account_tables(self, account_id: int) -> list[TableData]:
        name = keys.account_tables(account_id)

        async def members() -> list[str]:
            async with self.client.pipeline(transaction=False) as pipe:
                pipe.smembers(name)
                pipe.pexpire(name, keys.ACCOUNT_TTL_MS)
                found, _ = await pipe.execute()
            return sorted(i.decode() for i in found)

        ids = await self.call(members, "accounts")
        tables = await self._read_tables(ids)
        left = [i for i, t in zip(ids, tables, strict=True) if not ai.still_held(t, account_id)]
        if left:
            await self.call(lambda: self.client.srem(name, *left), "accounts")
        return [t for t in tables if t is not None and ai.still_held(t, account_id)]

    async def playing_tables(self) -> list[str]:
        """The ids of the tables in play, from their list: no table is read."""
        return await self.lobby_ids(li.PLAYING)

    async def delete(self, table_id: str) -> None:
        # One slot (the keys share the table's hash tag): one DEL, then the lobby's entries.
        state = keys.state(table_id)
        member = await self.call(lambda: self.client.hget(state, "member"), "lobby")
        table_keys = [state, keys.events(table_id), keys.lease(table_id)]
        table_keys += [keys.followers(table_id), keys.actions(table_id)]
        self.stored.pop(table_id, None)
        await self.call(lambda: self.client.delete(*table_keys))
        await self.call(lambda: self.client.zrem(keys.LOBBY, table_id))
        if isinstance(member, bytes):
            await self._sync(member.decode(), [], 0)


def _ordered(lists: list[str]) -> list[str]:
    """Every list's key, those named in ``lists`` first (the scripts add to those)."""
    names = [*lists, *(name for name in li.LISTS if name not in lists)]
    return [keys.lobby_list(name) for name in names]
