"""The queue of one node alone (the memory store): the ``TicketStore`` in dicts."""

from __future__ import annotations

import time

from .tickets import Penalty, Proposal, QueueView, Seating, Ticket, TicketNews


def _now_ms() -> int:
    return int(time.time() * 1000)


class MemoryTickets:
    def __init__(self) -> None:
        self.view = QueueView()
        self._players: dict[str, str] = {}
        self._opponents: dict[str, tuple[list[str], int]] = {}
        self._penalties: dict[str, tuple[Penalty, int]] = {}
        self._claims: dict[str, int] = {}

    async def add(self, ticket: Ticket, lease_until_ms: int) -> str | None:
        held = self._players.get(ticket.player)
        if held is not None and held in self.view.tickets:
            return held
        self._players[ticket.player] = ticket.ticket_id
        self.view.tickets[ticket.ticket_id] = ticket
        self.view.leases[ticket.ticket_id] = lease_until_ms
        return None

    async def cancel(self, ticket_ids: list[str]) -> dict[str, Seating]:
        view = self.view
        given: dict[str, Seating] = {}
        for ticket_id in ticket_ids:
            ticket = view.tickets.pop(ticket_id, None)
            if ticket is not None and self._players.get(ticket.player) == ticket_id:
                del self._players[ticket.player]
            view.leases.pop(ticket_id, None)
            view.proposals.pop(ticket_id, None)
            view.ready.discard(ticket_id)
            seating = view.seated.pop(ticket_id, None)
            if seating is not None:
                given[ticket_id] = seating
        return given

    async def renew(self, ticket_ids: list[str], until_ms: int) -> None:
        for ticket_id in ticket_ids:
            if ticket_id in self.view.tickets:
                self.view.leases[ticket_id] = until_ms

    async def news(self, ticket_ids: list[str]) -> dict[str, TicketNews]:
        view = self.view
        return {
            t: TicketNews(t in view.tickets, view.proposals.get(t), view.seated.get(t))
            for t in ticket_ids
        }

    async def confirm(self, ticket_id: str, match_id: str) -> bool:
        proposal = self.view.proposals.get(ticket_id)
        if proposal is None or proposal.match_id != match_id:
            return False
        self.view.ready.add(ticket_id)
        return True

    async def read(self) -> QueueView:
        view = self.view
        return QueueView(
            dict(view.tickets),
            dict(view.leases),
            dict(view.proposals),
            set(view.ready),
            dict(view.seated),
        )

    async def propose(self, proposals: dict[str, Proposal]) -> None:
        self.view.proposals.update(proposals)

    async def reopen(self, ticket_ids: list[str]) -> None:
        for ticket_id in ticket_ids:
            self.view.proposals.pop(ticket_id, None)
            self.view.ready.discard(ticket_id)

    async def seat(self, seatings: dict[str, Seating]) -> list[str]:
        gone: list[str] = []
        for ticket_id, seating in seatings.items():
            self.view.proposals.pop(ticket_id, None)
            if ticket_id in self.view.tickets:
                self.view.seated[ticket_id] = seating
            else:
                gone.append(ticket_id)
        return gone

    async def searching(self) -> int:
        return len(self.view.tickets)

    async def matcher_lock(self, owner: str, ttl_ms: int) -> bool:
        return True  # one node: it is always the matcher

    async def matcher_release(self, owner: str) -> None:
        return None  # one node: nobody to hand it to

    async def last_opponents(self, players: list[str]) -> dict[str, list[str]]:
        now = _now_ms()
        found = {p: self._opponents.get(p) for p in players}
        return {p: kept[0] for p, kept in found.items() if kept is not None and kept[1] > now}

    async def remember_opponents(self, opponents: dict[str, list[str]], ttl_ms: int) -> None:
        until = _now_ms() + ttl_ms
        for player, them in opponents.items():
            self._opponents[player] = (them, until)

    async def penalty(self, player: str) -> Penalty:
        kept = self._penalties.get(player)
        if kept is None or kept[1] <= _now_ms():
            return Penalty()
        return kept[0]

    async def set_penalty(self, player: str, penalty: Penalty, ttl_ms: int) -> None:
        self._penalties[player] = (penalty, _now_ms() + ttl_ms)

    async def claim(self, key: str, ttl_ms: int) -> bool:
        now = _now_ms()
        if self._claims.get(key, 0) > now:
            return False
        self._claims = {k: v for k, v in self._claims.items() if v > now}
        self._claims[key] = now + ttl_ms
        return True
