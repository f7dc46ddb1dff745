"""Bots anyone can write: one method per decision, and a runner that plays a seat.

    class FirstCardBot(Bot):
        def play(self, view: m.SeatView, cards: list[str]) -> str:
            return cards[0]

    totals = await play_table(client, FirstCardBot())

Every method gets the seat's view (``protocol.models.SeatView``: hand, bids,
trick, tricks, ...) and only the legal choices of that decision, so any
answer among them is legal. The defaults are plain and legal: pass, discard
the required cards then the first allowed ones, no chelem, no poignee, the
first playable card. Decisions run in a worker thread, so a slow bot never
stalls the connection.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from protocol import ServerMessage
from protocol import models as m

from .client import Client, WireAction
from .errors import ConnectionLost, Refused

log = logging.getLogger("tarot.bot")
OVERTAKEN = {"not_your_turn", "stale", "not_started"}  # the turn moved on meanwhile


class Bot:
    """Override the decisions you care about; each default is legal."""

    name = "bot"

    def bid(self, view: m.SeatView, bids: list[m.ContractCode]) -> m.ContractCode:
        """One of ``bids`` (``pass`` is always there)."""
        return "pass"

    def discard(self, view: m.SeatView, choice: m.DiscardChoice) -> list[str]:
        """``choice.count`` cards of ``choice.allowed``, including all of ``choice.required``."""
        rest = [c for c in choice.allowed if c not in choice.required]
        return [*choice.required, *rest[: choice.count - len(choice.required)]]

    def chelem(self, view: m.SeatView) -> bool:
        """Announce a chelem (the taker, once, before the first card)?"""
        return False

    def poignee(self, view: m.SeatView, offers: list[m.PoigneeChoice]) -> list[str] | None:
        """Show a poignee before the first card: the cards (e.g. an offer's), or None."""
        return None

    def play(self, view: m.SeatView, cards: list[str]) -> str:
        """One of ``cards``, the playable ones."""
        return cards[0]

    def decide(self, view: m.SeatView, legal: m.LegalChoices) -> WireAction:
        """The action for ``legal``: dispatches to the methods above."""
        if legal.bids:
            return m.BidAction(contract=self.bid(view, legal.bids))
        if legal.discard is not None:
            return m.DiscardAction(cards=self.discard(view, legal.discard))
        if legal.chelem:
            return m.ChelemAction(announce=self.chelem(view))
        if legal.poignees:
            shown = self.poignee(view, legal.poignees)
            if shown:
                return m.PoigneeAction(cards=shown)
        return m.PlayAction(card=self.play(view, legal.cards))


async def play_table(
    client: Client, bot: Bot, on_message: Callable[[ServerMessage], None] | None = None
) -> list[m.Points]:
    """Play the client's seat with ``bot`` until the table is over; return the totals.

    Answers each current ``your_turn``, says ``next_deal`` after each scored
    deal, and rides over reconnections and store outages (the client sends a
    request refused as ``unavailable`` again, with backoff). A refused action
    raises ``Refused`` (a bot's bug), except when the turn moved on
    meanwhile, or when the server cannot say whether it was applied
    (``outcome_unknown``): then the seat is resumed, and the server asks again
    if it is still its turn. ``on_message`` sees
    every message first (to log or draw them).
    """
    state = client.state
    if state is None or state.seat is None:
        raise ValueError("join a table (take a seat) before playing it")
    if state.over:
        return list(state.totals)
    async for message in client:
        if on_message is not None:
            on_message(message)
        if isinstance(message, m.YourTurn) and message is state.turn:
            await _answer(client, bot, message)
        elif isinstance(message, m.Event) and isinstance(message.event, m.RecordEvent):
            await _ready_for_next(client)
        if _ends_table(message):
            return list(state.totals)
    return list(state.totals)  # the client was closed


def _ends_table(message: ServerMessage) -> bool:
    if isinstance(message, m.Event):
        return isinstance(message.event, m.TableOverEvent)
    return isinstance(message, m.Snapshot) and message.table.status == "finished"


async def _answer(client: Client, bot: Bot, turn: m.YourTurn) -> None:
    state = client.state
    assert state is not None and state.view is not None
    action = await asyncio.to_thread(bot.decide, state.view, turn.legal)
    await _politely(client, lambda: client.act(action), OVERTAKEN)


async def _ready_for_next(client: Client) -> None:
    """After a deal's record: ready for the next one (a cancelled deal is re-dealt anyway)."""
    state = client.state
    assert state is not None
    last = state.sheets[-1] if state.sheets else None
    if state.over or last is None or last.status == "cancelled":
        return
    await _politely(client, client.next_deal, {"not_started"})  # the table is over, or dealt again


async def _politely(
    client: Client, call: Callable[[], Awaitable[None]], moved_on: set[str]
) -> None:
    """Make a call; let it go when the table ``moved_on``, or when it may have been applied.

    The client has already sent it again while it was refused as ``unavailable``
    or ``rate_limited``.
    """
    try:
        await call()
    except ConnectionLost:
        log.info("connection lost during a call; the resumed seat will tell")
    except Refused as e:
        if e.code == "outcome_unknown" or (e.resent and e.code != "rate_limited"):
            # It may have been applied (a server that answered ``unavailable`` for a
            # change it kept refuses the same change sent again): see what happened.
            log.info("%s: resuming to see whether it was applied", e)
            await client.resync()
        elif e.code in moved_on:
            log.info("overtaken by the table: %s", e)
        else:
            raise
