"""Quick play on this node: its players' tickets, and the matching when it is this node's turn.

Theory of operation. Each ``tick`` (``QueueSettings.tick_seconds``) the node

1. reads the news of its own players' tickets (one round trip): a ready check proposed
   is sent as ``match_found``; a seat given is taken on the player's connection (as a
   ``resume`` with the seat's token: ``joined`` and the table's events follow); a ticket
   gone (its ready check not confirmed in time) is told ``queue_status`` ``idle``;
2. cancels the tickets of connections that closed, and renews its tickets' leases (a
   node that dies stops renewing: its tickets go, and only its);
3. when it holds the matcher lock (one node at a time, a lease: a node that dies hands
   it over), matches: ``matchmaker.py``.

The queue is the lobby's: a queued connection that joins, watches or resumes another
table leaves the queue (``withdraw``: ``queue_status`` ``idle``, ``reason``
``other_table``), as ``play_now`` does. A seat the matcher gave to a ticket that left the
queue meanwhile (cancelled, went elsewhere, closed), or that its connection cannot take,
is given up at once (``Matchmaker.release``: the AI's); never a seat nobody holds that the
others wait on.

Every few seconds each searching player gets ``queue_status`` (how many search, how long
it waited). Abandons: ``record_abandon`` charges a player who left a rated quick-play
table mid-game; the wait before its next queue doubles with each (``penalty_wait_ms``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Protocol, TypeVar

import engine
from protocol import models as m
from server.clock import now_ms
from server.queue.seats import RATED_TABLE, Sitter, never_taken
from server.queue.settings import QueueSettings
from server.queue.tickets import Penalty, Proposal, Seating, Ticket, TicketStore
from server.settings import Settings
from server.store.base import StoreError, unavailable
from server.table import transitions as tr
from server.table.data import TableData
from server.table.refusals import TableError

from .matchmaker import Blocks, Matchmaker
from .tables import Tables

log = logging.getLogger("tarot.quickplay")
STATUS_SECONDS = 2.0  # how often a searching player is told the count and its wait
T = TypeVar("T")


class Queuer(Protocol):
    """A connection in the queue, as the queue needs it (``server/net/queue_requests.py``)."""

    def send(self, message: m.Model) -> None: ...

    @property
    def closed(self) -> bool: ...

    async def take_seat(self, token: str) -> None: ...


@dataclass(slots=True)
class Waiting:
    queuer: Queuer
    ticket: Ticket
    announced: str | None = None  # the match id of the ready check it was told of
    confirmed: bool = False


def penalty_wait_ms(abandons: int, settings: QueueSettings) -> int:
    """The wait after the ``abandons``-th abandon: the first's, doubled at each next one."""
    if abandons <= 0:
        return 0
    wait = settings.abandon_wait_seconds * 2 ** min(abandons - 1, 30)
    return int(min(wait, settings.abandon_wait_max_seconds) * 1000)


class QuickPlay:
    def __init__(
        self,
        tickets: TicketStore,
        settings: Settings,
        tables: Tables,
        blocks: Blocks | None = None,
    ) -> None:
        self.tickets = tickets
        self.settings = settings.queue
        self.node_id = settings.node_id
        self.tables = tables
        self.matchmaker = Matchmaker(tickets, settings.queue, tables, blocks)
        self.mine: dict[str, Waiting] = {}  # this node's tickets
        self.searching = 0  # the last count read (every node's tickets)
        self._task: asyncio.Task[None] | None = None
        self._charging: set[asyncio.Task[None]] = set()
        self._renewed = 0.0
        self._told = 0.0
        self._counted = -STATUS_SECONDS  # when a lobby's count was last read

    # ------------------------------------------------------------ what players ask

    def ticket_of(self, queuer: Queuer) -> Waiting | None:
        return next((w for w in self.mine.values() if w.queuer is queuer), None)

    async def queue(self, queuer: Queuer, ticket: Ticket, re: m.RequestId | None) -> None:
        """Queue ``ticket`` for ``queuer`` (refused if it is queued, or waits a penalty)."""
        if self.ticket_of(queuer) is not None:
            raise tr.TableRefused("already_queued", "this connection is in the queue already")
        penalty = await self._store(self.tickets.penalty(ticket.player))
        if penalty.until_ms > now_ms():
            queuer.send(self._status("penalty", None, re, penalty_until_ms=penalty.until_ms))
            seconds = -(-(penalty.until_ms - now_ms()) // 1000)
            raise tr.TableRefused(
                "queue_penalty",
                f"{penalty.abandons} table{'s' if penalty.abandons > 1 else ''} left mid-game:"
                f" you may queue again in {seconds} s",
            )
        lease = now_ms() + self.settings.lease_ms
        held = await self._store(self.tickets.add(ticket, lease))
        if held is not None:
            raise tr.TableRefused("already_queued", "this account is in the queue already")
        waiting = Waiting(queuer, ticket)
        self.mine[ticket.ticket_id] = waiting
        self.searching = await self._store(self.tickets.searching())
        queuer.send(self._status("searching", waiting, re))

    async def cancel(self, queuer: Queuer, re: m.RequestId | None) -> None:
        waiting = self.ticket_of(queuer)
        if waiting is None:
            raise tr.TableRefused("not_queued", "this connection is not in the queue")
        await self._give_up(waiting.ticket.ticket_id)
        queuer.send(self._status("idle", None, re, reason="cancelled"))

    async def confirm(self, queuer: Queuer, match_id: str, re: m.RequestId | None) -> None:
        waiting = self.ticket_of(queuer)
        found = waiting is not None and waiting.announced == match_id
        if waiting is None or not found:
            raise tr.TableRefused("no_match", f"no ready check {match_id!r} is open for you")
        if not await self._store(self.tickets.confirm(waiting.ticket.ticket_id, match_id)):
            raise tr.TableRefused("no_match", f"the ready check {match_id!r} is over")
        waiting.confirmed = True
        queuer.send(self._status("searching", waiting, re))

    async def play_now(self, queuer: Queuer, sitter: Sitter, deals: int) -> None:
        """A table now with three AI: leaves the queue if the connection was in it."""
        waiting = self.ticket_of(queuer)
        if waiting is not None:
            await self._give_up(waiting.ticket.ticket_id)
            queuer.send(self._status("idle", None, None, reason="play_now"))
        _, tokens = await self.matchmaker.make_table([sitter], deals, "casual")
        await queuer.take_seat(tokens[0])

    async def withdraw(self, queuer: Queuer) -> None:
        """The connection went to another table (join, watch, resume): out of the queue.
        Its join is done: a store that does not answer is logged, and the ticket, no
        longer renewed, goes when its lease ends (its seat, if given, with it)."""
        waiting = self.ticket_of(queuer)
        if waiting is None:
            return
        self.mine.pop(waiting.ticket.ticket_id, None)
        try:
            await self._give_up(waiting.ticket.ticket_id)
        except TableError as e:
            log.warning("quick play: a ticket left to its lease: %s", e)
        queuer.send(self._status("idle", None, None, reason="other_table"))

    async def record_abandon(self, player: str) -> Penalty:
        """``player`` left a rated quick-play table mid-game: its next queue waits."""
        was = await self._store(self.tickets.penalty(player))
        abandons = was.abandons + 1
        penalty = Penalty(abandons, now_ms() + penalty_wait_ms(abandons, self.settings))
        ttl = int(self.settings.abandon_window_hours * 3600 * 1000)
        await self._store(self.tickets.set_penalty(player, penalty, ttl))
        return penalty

    def seen(
        self,
        before: TableData | None,
        before_state: engine.Deal | None,
        after: TableData,
        after_state: engine.Deal | None,
    ) -> None:
        """A table changed (every node that follows it says so): an account that left a
        rated quick-play table before its last deal is charged an abandon, once."""
        if before is None or after.options.name != RATED_TABLE:
            return
        if after.options.deals is not None and before.played >= after.options.deals:
            return  # the series was over: leaving then is no abandon
        for seat, (was, now) in enumerate(zip(before.seats, after.seats, strict=True)):
            if never_taken(was):
                continue  # given up before its player came: no table was left
            if was.occupant == "human" and was.account_id is not None and now.occupant != "human":
                key = f"{after.table_id}:{seat}:{was.account_id}"
                task = asyncio.get_running_loop().create_task(
                    self._abandoned(key, f"account:{was.account_id}")
                )
                self._charging.add(task)
                task.add_done_callback(self._charging.discard)

    async def _abandoned(self, key: str, player: str) -> None:
        window = int(self.settings.abandon_window_hours * 3600 * 1000)
        try:
            if await self.tickets.claim(f"abandon:{key}", window):  # once, whichever node
                await self.record_abandon(player)
        except (StoreError, TableError) as e:
            log.warning("quick play: an abandon not recorded (%s): %s", key, e)

    def _status(
        self,
        state: m.QueueState,
        waiting: Waiting | None,
        re: m.RequestId | None,
        reason: m.QueueReason | None = None,
        penalty_until_ms: int | None = None,
    ) -> m.QueueStatus:
        ticket = None if waiting is None else waiting.ticket
        return m.QueueStatus(
            state=state,
            searching=self.searching,
            mode=None if ticket is None else ticket.mode,  # type: ignore[arg-type]
            deals=None if ticket is None else ticket.deals,
            waited_ms=0 if ticket is None else max(0, now_ms() - ticket.since_ms),
            penalty_until_ms=penalty_until_ms,
            reason=reason,
            re=re,
        )

    async def searching_count(self) -> int:
        """How many search now, on every node: what every version 2 lobby is told after
        ``tables``. Read from the store at most every ``STATUS_SECONDS`` (a lobby's
        refreshes cost no more), the last count when the store does not answer."""
        if time.monotonic() - self._counted >= STATUS_SECONDS:
            self._counted = time.monotonic()
            try:
                self.searching = await self.tickets.searching()
            except StoreError as e:
                log.warning("quick play: the searching count not read: %s", e)
        return self.searching

    @staticmethod
    async def _store(call: Awaitable[T]) -> T:
        try:
            return await call
        except StoreError as e:
            raise unavailable(e) from e

    async def _leave(self, ticket_id: str) -> Seating | None:
        """Out of the queue: the seat the matcher gave the ticket meanwhile, if any."""
        self.mine.pop(ticket_id, None)
        return (await self._store(self.tickets.cancel([ticket_id]))).get(ticket_id)

    async def _give_up(self, ticket_id: str) -> None:
        """Out of the queue, and a seat given meanwhile is the AI's: the player will not
        take it (it cancelled, or went elsewhere)."""
        seating = await self._leave(ticket_id)
        if seating is not None:
            await self.matchmaker.release([seating])

    # ------------------------------------------------------------ the tick

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        # Its players are being disconnected: a seat the matcher gave one of them since
        # this node's last tick is the AI's now, or the table would wait out its grace.
        with contextlib.suppress(StoreError):
            await self.matchmaker.release((await self.tickets.cancel(list(self.mine))).values())
        self.mine.clear()
        with contextlib.suppress(StoreError):  # another node matches at its next tick
            await self.tickets.matcher_release(self.node_id)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.settings.tick_seconds)
            try:
                await self.tick()
            except StoreError as e:  # the store's outage is logged once (store/outage.py)
                log.debug("quick play: the queue's store failed: %s", e)
            except Exception:  # a bug here must not stop the queue: log it, go on
                log.exception("quick play: a tick failed")

    async def tick(self) -> None:
        await self._read_news()
        closed = [t for t, w in self.mine.items() if w.queuer.closed]
        if closed:
            for ticket_id in closed:
                self.mine.pop(ticket_id, None)
            await self.matchmaker.release((await self.tickets.cancel(closed)).values())
        if time.monotonic() - self._renewed >= 1.0:
            self._renewed = time.monotonic()
            await self.tickets.renew(list(self.mine), now_ms() + self.settings.lease_ms)
        if time.monotonic() - self._told >= STATUS_SECONDS and self.mine:
            self._told = time.monotonic()
            self.searching = await self.tickets.searching()
            for waiting in list(self.mine.values()):
                if waiting.announced is None:
                    waiting.queuer.send(self._status("searching", waiting, None))
        if await self.tickets.matcher_lock(self.node_id, self.settings.lease_ms):
            await self.match_once(now_ms())

    async def match_once(self, now: int) -> None:
        """The matcher's work of one tick (``matchmaker.py``)."""
        await self.matchmaker.match_once(now)

    async def _read_news(self) -> None:
        news = await self.tickets.news(list(self.mine))
        for ticket_id, found in news.items():
            waiting = self.mine.get(ticket_id)
            if waiting is None:
                continue
            queuer = waiting.queuer
            if found.seating is not None:
                await self._seated(waiting)
            elif not found.present:
                self.mine.pop(ticket_id, None)
                queuer.send(self._status("idle", None, None, reason="not_ready"))
            elif found.proposal is not None and found.proposal.match_id != waiting.announced:
                waiting.announced, waiting.confirmed = found.proposal.match_id, False
                queuer.send(self._found(waiting.ticket, found.proposal))
            elif found.proposal is None and waiting.announced is not None:
                waiting.announced, waiting.confirmed = None, False  # back in, first in line
                queuer.send(self._status("searching", waiting, None))

    @staticmethod
    def _found(ticket: Ticket, proposal: Proposal) -> m.MatchFound:
        return m.MatchFound(
            match_id=proposal.match_id,
            deadline_ms=proposal.deadline_ms,
            humans=proposal.humans,
            ai=proposal.ai,
            mode=ticket.mode,  # type: ignore[arg-type]
            deals=ticket.deals,
        )

    async def _seated(self, waiting: Waiting) -> None:
        """The matcher gave the ticket a seat: out of the queue, and to the seat. The
        seat is the one the cancel returns (None: a cancel or withdraw meanwhile took it
        and gave it up); a withdraw or cancel made while ours was on its way found
        nothing to give up, so the seat is given up here."""
        ticket_id = waiting.ticket.ticket_id
        seating = (await self._store(self.tickets.cancel([ticket_id]))).get(ticket_id)
        if self.mine.get(ticket_id) is not waiting:  # went elsewhere, cancelled, or closed
            if seating is not None:
                await self.matchmaker.release([seating])
            return
        del self.mine[ticket_id]
        if seating is None:  # the matcher ended the ticket meanwhile (its lease ran out)
            waiting.queuer.send(self._status("idle", None, None, reason="not_ready"))
            return
        waiting.queuer.send(self._status("idle", None, None, reason="seated"))
        await self._take(waiting.queuer, seating)

    async def _take(self, queuer: Queuer, seating: Seating) -> None:
        if queuer.closed:  # gone since its last tick: nobody will take the seat
            await self.matchmaker.release([seating])
            return
        try:
            await queuer.take_seat(seating.token)
        except TableError as e:  # the others must not wait on a seat nobody holds
            log.warning("quick play: could not seat a player at %s: %s", seating.table_id, e)
            await self.matchmaker.release([seating])
