"""``TableState`` on its own: the event numbering (duplicates skipped, gaps detected)."""

from __future__ import annotations

from clients.python import TableState
from protocol import models as m


def event(seq: int, body: m.Model) -> m.Event:
    return m.Event.model_validate(
        {"table_id": "T", "seq": seq, "event": body.model_dump(mode="json")}
    )


def started(state: TableState) -> None:
    assert state.apply(event(1, m.DealStartedEvent(deal_number=1, dealer=3)))
    assert state.apply(event(2, m.HandEvent(seat=0, cards=["KH", "T21", "EX"])))


def test_an_event_seen_already_is_skipped_and_not_for_the_stream() -> None:
    state = TableState("T", seat=0)
    started(state)
    assert not state.apply(event(2, m.HandEvent(seat=0, cards=["1S"])))
    assert state.view is not None and state.view.hand == ["T21", "EX", "KH"]
    assert (state.seq, state.missed, state.behind) == (2, 0, False)


def test_a_gap_in_the_numbering_holds_events_back_until_the_missing_ones_come() -> None:
    state = TableState("T", seat=0)
    started(state)
    assert not state.apply(event(4, m.BidEvent(seat=1, contract="pass")))
    assert (state.seq, state.missed, state.behind) == (2, 1, True)
    legal = m.LegalChoices(seat=0, phase="bidding", bids=["pass"])
    state.apply(m.YourTurn(table_id="T", seq=4, legal=legal))
    assert state.turn is None  # not while events are missing
    assert state.apply(event(3, m.TurnEvent(seat=0, phase="bidding")))
    assert state.apply(event(4, m.BidEvent(seat=0, contract="pass")))
    assert state.view is not None and [b.seat for b in state.view.bids] == [0]
    assert (state.seq, state.behind) == (4, False)
