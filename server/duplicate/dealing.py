"""An event's deals, derived from its secret seed: the same cards in the same seats for all.

Deal ``k`` of an event is dealt by seat ``k % 4`` (so over four deals each seat
deals once, and a robot entrant bids from every place) from a 16-byte deal
seed, ``HMAC-SHA256(event seed, "cardavia-tarot duplicate/1 deal k attempt j")``
cut to 16 bytes: the seed a table's deal holds (``DealData.seed``, hex), dealt by
``engine.new_deal(dealer, seed)`` exactly as a table deals (R2: same seed, same
cards; the dealer only says who bids first). A keyed hash, not ``seed + k``:
knowing the seeds of the deals one has played says nothing of the others, nor
of the event's seed.

A seed whose deal is cancelled at the deal (a petit sec, R3) is skipped (attempt
``j`` + 1): a table would deal that deal again from a fresh seed, and entrants
would no longer hold the same cards. A deal every seat passes (R4) is kept: it is
a result like any other.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

import engine

from .definition import DuplicateEvent

DERIVATION = b"cardavia-tarot duplicate/1"
DEAL_SEED_BYTES = 16  # as a table's fresh seeds (server.table.data.new_seed)
# A petit sec is dealt a few times in a hundred: a thousand in a row does not happen.
ATTEMPTS_MAX = 1000


@dataclass(frozen=True, slots=True)
class EventDeal:
    """Deal ``index`` of an event: its dealer and its seed (hex, as a table keeps it)."""

    index: int
    dealer: int
    seed: str

    def state(self) -> engine.Deal:
        """The dealt cards, as a table deals them from this seed and dealer."""
        return engine.new_deal(self.dealer, bytes.fromhex(self.seed))


def event_deal(seed: bytes, index: int) -> EventDeal:
    """Deal ``index`` (from 0) of the event whose seed is ``seed``.

    >>> deal = event_deal(bytes(16), 5)
    >>> deal.dealer, deal == event_deal(bytes(16), 5), deal.seed == event_deal(bytes(16), 6).seed
    (1, True, False)
    """
    if index < 0:
        raise ValueError(f"a deal index is 0 or more, not {index}")
    dealer = index % 4
    for attempt in range(ATTEMPTS_MAX):
        message = b"%s deal %d attempt %d" % (DERIVATION, index, attempt)
        deal_seed = hmac.new(seed, message, hashlib.sha256).digest()[:DEAL_SEED_BYTES]
        if engine.new_deal(dealer, deal_seed).cancelled != "petit_sec":
            return EventDeal(index, dealer, deal_seed.hex())
    raise AssertionError(f"{ATTEMPTS_MAX} petits secs in a row")  # pragma: no cover


def event_deals(event: DuplicateEvent) -> tuple[EventDeal, ...]:
    """Every deal of ``event``, in the order they are played."""
    return tuple(event_deal(event.seed, index) for index in range(event.deals))
