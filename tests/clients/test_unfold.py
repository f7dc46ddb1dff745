"""The library speaks version 2 and unfolds its folded frames into version 1's messages."""

from __future__ import annotations

from clients.python.connection import SPOKEN_VERSION, TarotSocket
from clients.python.unfold import unfold
from protocol import models as m

LEGAL = m.LegalChoices(
    seat=2, phase="play", bids=[], discard=None, chelem=False, poignees=[], cards=["1C"]
)


def test_an_events_frame_unfolds_into_its_events_then_the_turn_then_the_ack() -> None:
    folded = m.Events(
        table_id="t",
        events=[
            m.NumberedEvent(seq=7, event=m.HiddenEvent()),
            m.NumberedEvent(seq=8, event=m.TurnEvent(seat=2, phase="play", deadline_ms=None)),
        ],
        your_turn=m.TurnOffer(seq=8, legal=LEGAL, deadline_ms=None),
        re=5,
    )
    assert unfold(folded) == [
        m.Event(table_id="t", seq=7, event=m.HiddenEvent()),
        m.Event(table_id="t", seq=8, event=m.TurnEvent(seat=2, phase="play", deadline_ms=None)),
        m.YourTurn(table_id="t", seq=8, legal=LEGAL, deadline_ms=None),
        m.Ack(re=5, table_id="t", seq=8),
    ]
    bare = m.Events(table_id="t", events=[m.NumberedEvent(seq=9, event=m.HiddenEvent())])
    assert unfold(bare) == [m.Event(table_id="t", seq=9, event=m.HiddenEvent())]


def test_a_snapshot_with_the_turn_unfolds_into_the_snapshot_then_the_turn() -> None:
    table = m.TableSummary(table_id="t", options=m.TableOptions(), seats=[], status="playing")
    snapshot = m.Snapshot(
        table_id="t", seq=8, table=table, view=None, your_turn=m.TurnOffer(seq=8, legal=LEGAL)
    )
    assert unfold(snapshot) == [
        snapshot.model_copy(update={"your_turn": None}),
        m.YourTurn(table_id="t", seq=8, legal=LEGAL, deadline_ms=None),
    ]


async def test_the_library_speaks_version_2(url: str) -> None:
    assert SPOKEN_VERSION == 2
    socket = await TarotSocket.open(url)
    try:
        assert socket.welcome.protocol == 2
        assert socket.ws.subprotocol == "tarot.v2.msgpack"
    finally:
        await socket.close()
