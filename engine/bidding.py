"""One round of bidding (R5) and the all-pass cancellation (R4).

Each seat bids once, from the dealer's right: pass, or a contract strictly
above the highest so far. After four bids the highest bidder is the taker.
"""

from __future__ import annotations

from .actions import Contract
from .deal import cancel
from .errors import IllegalBid
from .state import CHELEM, DISCARD, Deal

# By the highest bid so far: pass, or any contract above it.
_BIDS_ABOVE = {h: (Contract.PASS, *(c for c in Contract if c > h)) for h in Contract}
_PASS = Contract.PASS  # a global: an enum member read through its class costs ~80 ns


def legal_bids(deal: Deal) -> list[Contract]:
    return list(bids_above(deal))


def bids_above(deal: Deal) -> tuple[Contract, ...]:
    """``legal_bids`` as the shared tuple, for ``random_action``'s draw."""
    return _BIDS_ABOVE[max(deal.bids, default=_PASS)]


def apply_bid(deal: Deal, contract: Contract) -> None:
    highest = max(deal.bids, default=_PASS)
    if contract is not _PASS and contract <= highest:
        raise IllegalBid(
            f"seat {deal.to_act} bid {contract.code} but must pass or bid above {highest.code}"
        )
    deal.bids.append(contract)
    if len(deal.bids) < 4:
        deal.to_act = (deal.to_act + 1) % 4
        return
    _close_bidding(deal)


def _close_bidding(deal: Deal) -> None:
    contract = max(deal.bids)
    if contract is _PASS:
        cancel(deal, "all_pass")
        return
    deal.taker = (deal.first_bidder + deal.bids.index(contract)) % 4
    deal.contract = contract
    deal.to_act = deal.taker
    if contract.shows_chien:
        # R6: the chien is shown to all and joins the taker's hand.
        deal.hands[deal.taker] |= deal.chien
        deal.phase = DISCARD
    else:
        deal.phase = CHELEM


def bidder_seat(deal: Deal, index: int) -> int:
    """The seat that makes bid number ``index`` (docs/RECORD.md: ``bids[i]``)."""
    return (deal.first_bidder + index) % 4


__all__ = ["apply_bid", "bidder_seat", "bids_above", "legal_bids"]
