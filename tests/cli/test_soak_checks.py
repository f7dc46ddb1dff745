"""The checks of ``tarot soak`` count what they must: each fault of delivery it reports,
fed to a seat or a table log as a node would send it (no sockets: what is counted)."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from cli.soak_seat import Counts, Seat, TableLog


class Socket:
    """What a seat sends, kept."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, frame: str) -> None:
        self.sent.append(json.loads(frame))

    async def close(self) -> None:
        pass


def event(seq: int, **body: Any) -> dict[str, Any]:
    return {"type": "event", "table_id": "t", "seq": seq, "event": body}


def fed(*messages: dict[str, Any]) -> tuple[Seat, Counts, Socket]:
    counts, ws = Counts(), Socket()
    seat = Seat(TableLog("t"), 1, lambda: [], random.Random(1), counts, 0)

    async def feed() -> None:
        for message in messages:
            await seat.handle(ws, message)  # type: ignore[arg-type]

    asyncio.run(feed())
    return seat, counts, ws


def test_an_event_twice_or_past_a_gap_and_an_older_snapshot_are_counted() -> None:
    _, counts, _ = fed(
        event(1, kind="deal_started"),
        event(2, kind="bid", seat=0, contract="pass"),
        event(2, kind="bid", seat=0, contract="pass"),
        event(4, kind="bid", seat=2, contract="pass"),
        {"type": "snapshot", "table_id": "t", "seq": 3},
    )
    assert (counts.duplicated, counts.out_of_order, counts.older_snapshots) == (1, 1, 1)


def test_a_clean_stream_counts_nothing_bad_and_acknowledges_the_seats_own_action() -> None:
    legal = {"bids": ["pass"], "discard": None, "chelem": False, "cards": []}
    seat, counts, ws = fed(
        event(1, kind="deal_started"),
        {"type": "snapshot", "table_id": "t", "seq": 1},
        event(2, kind="bid", seat=0, contract="pass"),
    )
    asyncio.run(seat.act(ws, legal))  # type: ignore[arg-type]
    asyncio.run(seat.handle(ws, event(3, kind="bid", seat=1, contract="pass")))  # type: ignore[arg-type]
    assert ws.sent == [{"type": "act", "action": {"kind": "bid", "contract": "pass"}}]
    assert counts.acknowledged == 1
    assert (counts.duplicated, counts.out_of_order, counts.older_snapshots) == (0, 0, 0)


def test_unavailable_resends_the_action_and_table_lost_ends_the_seat() -> None:
    legal = {"bids": ["pass"], "discard": None, "chelem": False, "cards": []}
    seat, counts, ws = fed()
    asyncio.run(seat.act(ws, legal))  # type: ignore[arg-type]
    error = {"type": "error", "code": "unavailable", "message": "", "rule": None, "reason": None}
    assert not asyncio.run(seat.handle(ws, error))  # type: ignore[arg-type]
    assert len(ws.sent) == 2 and ws.sent[0] == ws.sent[1] and counts.retried == 1
    assert asyncio.run(seat.handle(ws, {**error, "code": "table_lost"}))  # type: ignore[arg-type]
    assert counts.tables_lost == 1 and seat.log.lost


def test_two_connections_seeing_different_events_at_one_seq_is_a_lost_commit() -> None:
    log = TableLog("t")
    log.saw(5, {"kind": "card", "seat": 0, "card": "1S"})
    log.saw(5, {"kind": "card", "seat": 0, "card": "1S"})
    assert log.conflicts == 0
    log.saw(5, {"kind": "card", "seat": 0, "card": "2S"})
    log.saw(6, {"kind": "hand", "cards": []})  # private events differ by seat: not compared
    assert log.conflicts == 1


def test_a_card_played_twice_or_a_seat_bidding_twice_in_one_deal_is_applied_twice() -> None:
    log = TableLog("t")
    stream: list[dict[str, Any]] = [
        {"kind": "deal_started"},
        {"kind": "bid", "seat": 0, "contract": "pass"},
        {"kind": "bid", "seat": 0, "contract": "pass"},
        {"kind": "card", "seat": 1, "card": "T1"},
        {"kind": "card", "seat": 2, "card": "T1"},
        {"kind": "deal_started"},  # a new deal: the same card again is fine
        {"kind": "card", "seat": 1, "card": "T1"},
    ]
    for seq, body in enumerate(stream, 1):
        log.saw(seq, body)
    assert log.applied_twice() == 2


def test_each_record_is_paired_with_its_deals_sheet() -> None:
    log = TableLog("t")
    log.saw(10, {"kind": "score", "deal_number": 0, "sheet": {"status": "played", "n": 0}})
    log.saw(11, {"kind": "record", "deal_number": 0, "record": {"r": 0}})
    log.saw(20, {"kind": "score", "deal_number": 1, "sheet": {"status": "played", "n": 1}})
    log.saw(21, {"kind": "record", "deal_number": 1, "record": {"r": 1}})
    log.saw(21, {"kind": "record", "deal_number": 1, "record": {"r": 1}})  # a second seat
    assert log.deals() == [
        ({"r": 0}, {"status": "played", "n": 0}),
        ({"r": 1}, {"status": "played", "n": 1}),
    ]
