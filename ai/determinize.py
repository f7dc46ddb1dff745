"""A sampled deal: engine ``Deal``s rebuilt from a seat's view and a guess of the hidden cards.

The guess (``Knowledge.sample``) gives every hand now and the pile (the chien
or the unseen discard). The cards each seat was dealt follow: what it holds
plus what it played (the taker: less the chien, plus the discard). The deal
is then rebuilt with ``engine.deal_from_hands`` and the known history replayed
through ``apply_in_place``: bids, discard, chelem, poignees, cards. A guess
the rules refuse raises ``engine.TarotError``.
"""

from __future__ import annotations

import engine
from engine import Contract, Deal, Phase, apply_in_place, deal_from_hands

from .cardset import cards_of, mask_of
from .knowledge import PILE, Knowledge


def rebuild(view: engine.View, k: Knowledge, hands: list[int]) -> Deal:
    """The deal that ``view`` shows, with ``hands`` (4 hands + pile) for the hidden cards."""
    shows = view.contract.shows_chien
    chien = mask_of(view.chien) if view.chien is not None else hands[PILE]
    if view.discard is not None:
        discard = mask_of(view.discard)
    else:
        discard = hands[PILE] | mask_of(view.discard_trumps)
    past_discard = view.phase not in (Phase.BIDDING, Phase.DISCARD)
    dealt = [hands[p] | k.played_by[p] for p in range(4)]
    if view.taker >= 0 and shows:
        taker = view.taker
        dealt[taker] = (dealt[taker] | (discard if past_discard else 0)) & ~chien
    deal = deal_from_hands(view.dealer, [cards_of(d) for d in dealt], cards_of(chien))
    for seat, contract in view.bids:
        apply_in_place(deal, engine.Bid(seat, Contract(contract)))
    if shows and past_discard:
        cards = frozenset(engine.Card(c) for c in cards_of(discard))
        apply_in_place(deal, engine.Discard(view.taker, cards))
    if view.phase is Phase.PLAY or view.phase is Phase.DONE:
        apply_in_place(deal, engine.DeclareChelem(view.taker, view.chelem))
        _replay_plays(deal, view)
    return deal


def _replay_plays(deal: Deal, view: engine.View) -> None:
    shown = {seat: frozenset(cards) for seat, cards in view.poignees}
    plays = [c for trick in view.tricks for c in trick.cards] + list(view.trick)
    for card in plays:
        seat = deal.to_act
        if seat in shown and not deal.played_by >> seat & 1:
            apply_in_place(deal, engine.ShowPoignee(seat, shown.pop(seat)))
        apply_in_place(deal, engine.PLAYS[seat][card])
    seat = deal.to_act
    if seat in shown:  # shown by the seat to act, its card not played yet
        apply_in_place(deal, engine.ShowPoignee(seat, shown.pop(seat)))
