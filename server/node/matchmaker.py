"""Quick play's matching: one node at a time (the matcher lock), every node's tickets.

``match_once`` reads the whole queue, drops the tickets whose lease ran out (their
node died, or stopped renewing them), seats the groups whose every player confirmed
its ready check (a new table: ``seats.seat_group``), ends the ready checks past their
deadline (who did not confirm leaves the queue; who did goes back in, keeping its
place), and proposes ready checks to the groups ``matching.match`` forms. The players'
nodes see the proposals and the seats in their tickets' news (``quickplay.py``).

Blocks: two accounts where one blocked the other are never grouped, nor seated together
(a block made during their ready check sends the group back to searching). The pairs
come from the history (``blocks``: ``history.blocked_pairs``), asked about the accounts
in the queue: a guest can neither block nor be blocked (``block`` needs an account and
names one). While the history does not answer, only guests are matched, and a group of
accounts that confirmed waits for it until its ready check's deadline, then searches again.

A seat given that nobody will take (its ticket was cancelled as the matcher seated it,
or its node died) is the AI's at once (``release``): the others never wait on its clock.
"""

from __future__ import annotations

import logging
import uuid
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable

import engine
from protocol import models as m
from server.clock import now_ms
from server.queue.matching import Group, MatchRules, Pairs, Seeker, kept_apart, match
from server.queue.seats import CASUAL_TABLE, RATED_TABLE, Sitter, seat_group, unseat
from server.queue.settings import QueueSettings
from server.queue.tickets import Proposal, QueueView, Seating, Ticket, TicketStore
from server.store.base import StoreError
from server.table import transitions as tr
from server.table.data import TableData
from server.table.refusals import TableError

from .tables import Tables

log = logging.getLogger("tarot.quickplay")
OPPONENTS_TTL_MS = 24 * 3600 * 1000
# The pairs among these account ids where one blocked the other (``history.blocked_pairs``).
Blocks = Callable[[list[int]], Awaitable[set[frozenset[int]]]]


def rules_of(settings: QueueSettings) -> MatchRules:
    return MatchRules(
        spreads=(
            (0.0, settings.spread),
            (settings.wide_after_seconds, settings.wide_spread),
            (settings.anyone_after_seconds, float("inf")),
        ),
        fill_three_seconds=settings.fill_three_seconds,
        fill_two_seconds=settings.fill_two_seconds,
    )


def quick_options(group_deals: int, mode: str, settings: QueueSettings) -> m.TableOptions:
    return m.TableOptions.model_validate(
        {
            "name": RATED_TABLE if mode == "rated" else CASUAL_TABLE,
            "deals": group_deals,
            "ai_level": settings.ai_level,
            "turn_seconds": settings.turn_seconds,
            "private": True,  # never listed, never joined but by the seats' tokens
        }
    )


class Matchmaker:
    """What the node holding the matcher lock does each tick; and the tables it makes."""

    def __init__(
        self,
        tickets: TicketStore,
        settings: QueueSettings,
        tables: Tables,
        blocks: Blocks | None = None,
    ) -> None:
        self.tickets = tickets
        self.settings = settings
        self.tables = tables
        self.blocks = blocks  # None: no history, no accounts' blocks
        self.rules = rules_of(settings)
        self.matches = 0  # tables this node made (``tarot bench queue``)
        self._history_down = False  # said once per outage

    async def match_once(self, now: int) -> None:
        view = await self.tickets.read()
        expired = [t for t in view.tickets if view.leases.get(t, 0) < now]
        if expired:
            await self.release((await self.tickets.cancel(expired)).values())
            for t in expired:
                view.tickets.pop(t, None)
        await self._settle_ready_checks(view, now)
        searching = [
            t
            for t in view.tickets.values()
            if t.ticket_id not in view.proposals and t.ticket_id not in view.seated
        ]
        if searching:
            await self._propose(searching, now)

    async def _settle_ready_checks(self, view: QueueView, now: int) -> None:
        checks: dict[str, list[str]] = defaultdict(list)
        for ticket_id, proposal in view.proposals.items():
            if ticket_id in view.tickets:
                checks[proposal.match_id].append(ticket_id)
        for ids in checks.values():
            proposal = view.proposals[ids[0]]
            everyone = len(ids) == proposal.humans
            if everyone and all(t in view.ready for t in ids):
                blocked = await self._blocked(view.tickets[t] for t in ids)
                if blocked is None:  # not known: wait for the history until the deadline,
                    if now > proposal.deadline_ms:  # then search again, as a deadline does
                        await self.tickets.reopen(ids)
                    continue
                if kept_apart((view.tickets[t].player for t in ids), blocked):
                    await self.tickets.reopen(ids)  # blocked since the proposal
                else:
                    await self._seat(view, ids)
            elif now > proposal.deadline_ms:
                await self.tickets.cancel([t for t in ids if t not in view.ready])
                await self.tickets.reopen([t for t in ids if t in view.ready])
            elif not everyone:  # one left: the others search again
                await self.tickets.reopen(ids)

    async def _propose(self, searching: list[Ticket], now: int) -> None:
        avoid = await self.tickets.last_opponents([t.player for t in searching])
        seekers = [
            Seeker(t.ticket_id, t.player, t.rating, t.mode, t.deals, t.since_ms)
            if t.player not in avoid
            else Seeker(
                t.ticket_id,
                t.player,
                t.rating,
                t.mode,
                t.deals,
                t.since_ms,
                frozenset(avoid[t.player]),
            )
            for t in searching
        ]
        blocked = await self._blocked(searching)
        if blocked is None:  # who blocked whom is not known: accounts wait, guests play
            seekers = [s for s in seekers if not s.player.startswith("account:")]
            blocked = set()
        proposals: dict[str, Proposal] = {}
        deadline = now + int(self.settings.ready_seconds * 1000)
        for group in match(seekers, now, self.rules, blocked):
            proposal = self._proposal(group, deadline)
            proposals.update(dict.fromkeys(group.tickets, proposal))
        await self.tickets.propose(proposals)

    async def _blocked(self, tickets: Iterable[Ticket]) -> Pairs | None:
        """The blocked pairs among the tickets' accounts, as players; None when the
        history does not answer."""
        ids = sorted({t.account_id for t in tickets if t.account_id is not None})
        if self.blocks is None or len(ids) < 2:
            return frozenset()
        try:
            pairs = await self.blocks(ids)
        except Exception as e:  # the history's outage: accounts wait, the queue goes on
            if not self._history_down:
                log.warning("quick play: blocks not read, accounts wait: %s", e)
            self._history_down = True
            return None
        self._history_down = False
        return {frozenset(f"account:{a}" for a in pair) for pair in pairs}

    @staticmethod
    def _proposal(group: Group, deadline: int) -> Proposal:
        humans = len(group.tickets)
        return Proposal(uuid.uuid4().hex[:16], deadline, humans, group.ai)

    async def _seat(self, view: QueueView, ids: list[str]) -> None:
        group = sorted((view.tickets[t] for t in ids), key=lambda t: (t.since_ms, t.ticket_id))
        sitters = [Sitter(t.name, t.account_id, t.node) for t in group]
        table_id, tokens = await self.make_table(sitters, group[0].deals, group[0].mode)
        seatings = {t.ticket_id: Seating(table_id, i, tokens[i]) for i, t in enumerate(group)}
        gone = await self.tickets.seat(seatings)  # left the queue since it was read
        await self.release(seatings[t] for t in gone)
        players = [t.player for t in group]
        await self.tickets.remember_opponents(
            {p: [o for o in players if o != p] for p in players}, OPPONENTS_TTL_MS
        )

    async def release(self, seatings: Iterable[Seating]) -> None:
        """Seats given that their players will not take: the AI's now (``seats.unseat``).
        Where the table does not answer, the seat's grace period ends it as a drop's."""
        for seating in seatings:
            try:
                await self._release(seating)
            except (StoreError, TableError) as e:
                log.warning(
                    "quick play: seat %s of %s not given up: %s", seating.seat, seating.table_id, e
                )

    async def _release(self, seating: Seating) -> None:
        runtime = await self.tables.runtime(seating.table_id)
        await runtime.transact(lambda d, s: unseat(d, s, seating.seat, seating.token))

    async def make_table(
        self, sitters: list[Sitter], deals: int, mode: str
    ) -> tuple[str, list[str]]:
        options = quick_options(deals, mode, self.settings)
        runtime = await self.tables.create(options, None, now_ms())
        tokens: list[str] = []

        def build(d: TableData, s: engine.Deal | None) -> tr.Change:
            change, made = seat_group(d, s, sitters, now_ms())
            tokens[:] = made
            return change

        await runtime.transact(build)
        self.matches += 1
        return runtime.table_id, tokens
