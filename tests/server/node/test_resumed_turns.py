"""A node that missed some of a table's events must not take the turn it knew for the
current one because the same seat is to act again (issue 29.2): the seat's ``your_turn``
would be numbered before the events that led to its new turn, and no other would come."""

from __future__ import annotations

from server.table import transitions as tr

from ..recorder import Recorder
from .test_commit_chain import bid, two_nodes
from .test_commit_chain import ordinary_deals as ordinary_deals  # autouse: the tests bid


async def test_a_turn_of_the_same_seat_after_a_reload_is_asked_after_its_events() -> None:
    _, a, b = await two_nodes()
    assert b.state is not None
    seat = b.state.to_act  # the first bidder, asked on node B
    first = Recorder(seat)
    await b.follow(first)
    (asked,) = first.of_type("your_turn")
    # On node A it bids prise and the others pass: the seat is to act again (its discard).
    # B hears of none of it (its updates are late) until it reads the table again.
    for choice in (1, 0, 0, 0):
        await a.transact(lambda d, s, c=choice: tr.act(d, s, bid(a, c), 0))  # type: ignore[misc]
    assert a.state is not None and a.state.to_act == seat
    await b.reload()  # a commit of B's refused: it reads the store's table (no events)
    back = Recorder(seat)  # the seat resumes on B, with the last event it had
    await b.follow(back, asked["seq"])
    await b._fetch()  # the missed events, from the log
    for follower in (first, back):
        events = [f for f in follower.frames if f["type"] == "event"]
        turns = [e["seq"] for e in events if e["event"]["kind"] == "turn"]
        last_asked = follower.of_type("your_turn")[-1]
        assert last_asked["legal"]["phase"] == "discard", follower.frames
        assert last_asked["seq"] >= turns[-1], (last_asked["seq"], turns)
        assert follower.frames.index(last_asked) > follower.frames.index(events[-1])


async def test_a_turn_of_the_same_seat_after_a_missed_update_is_asked_after_its_events() -> None:
    """The same, when B hears only of the last change (a seat's drop, with no turn event):
    the updates before it were lost or come later, and the log fills the gap."""
    _, a, b = await two_nodes()
    assert b.state is not None
    seat = b.state.to_act
    first = Recorder(seat)
    await b.follow(first)
    for choice in (1, 0, 0, 0):
        await a.transact(lambda d, s, c=choice: tr.act(d, s, bid(a, c), 0))  # type: ignore[misc]
    other = (seat + 1) % 4
    await a.transact(lambda d, s: tr.dropped(d, s, other, 0))  # a seat event, no turn
    b.apply_update(a.services.store.committed[-1])  # type: ignore[attr-defined]
    await b._fetch()
    events = [f for f in first.frames if f["type"] == "event"]
    turns = [e["seq"] for e in events if e["event"]["kind"] == "turn"]
    last_asked = first.of_type("your_turn")[-1]
    assert last_asked["legal"]["phase"] == "discard", first.frames
    assert last_asked["seq"] >= turns[-1]
    assert first.frames.index(last_asked) > first.frames.index(events[-1])
