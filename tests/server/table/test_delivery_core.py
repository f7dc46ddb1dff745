"""The delivery core against a simulated store and two simulated nodes (issue 13).

A hypothesis state machine commits events (some hidden from some seats, some
``turn`` events) to a log; each node hears of the commits late, out of order
and more than once, and reads the log when its core asks (``Fetch``). Followers
join at any time, fresh (a snapshot) or resuming from any earlier number (a
replay read in batches of any size, with commits landing between batches).
After every step: each follower got strictly increasing, gap-free numbers (a
snapshot may skip ahead, never back), each event in the right form for its
seat, and ``your_turn`` only after every event before its turn, at most once
per turn. Once everything has arrived: everyone has every event, and the seat
to act was asked exactly once for the current turn.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from server.table.data import StoredEvent
from server.table.delivery import Delivery, Fetch, Out, SendEvent, SendSnapshot, SendTurn, Turn


@dataclass
class Follower:
    seat: int | None
    start: int  # the number it had when it joined
    seen: list[int] = field(default_factory=list)  # event and snapshot numbers, in order
    snapshots: int = 0
    turns: list[Turn] = field(default_factory=list)
    replaying: bool = False
    again: bool = False  # its answer to its turn was not applied: one more ask is due


@dataclass
class SimNode:
    core: Delivery[int]
    inbox: list[list[StoredEvent]] = field(default_factory=list)  # updates on their way
    fetches: list[int] = field(default_factory=list)  # asked, not yet answered
    known_seq: int = 0  # what its table data says (a snapshot is numbered so)
    followers: dict[int, Follower] = field(default_factory=dict)


class DeliveryMachine(RuleBasedStateMachine):
    @initialize()
    def setup(self) -> None:
        self.log: list[StoredEvent] = []
        self.turn: tuple[int, int] | None = None  # (seq of the turn event, seat)
        self.nodes = [SimNode(Delivery()), SimNode(Delivery())]
        self.next_key = 0

    # ------------------------------------------------------------ the table

    @rule(
        kinds=st.lists(
            st.tuples(st.sampled_from(["card", "hand", "turn"]), st.integers(0, 3)),
            min_size=1,
            max_size=4,
        ),
        duplicate=st.booleans(),
    )
    def commit(self, kinds: list[tuple[str, int]], duplicate: bool) -> None:
        events = []
        for kind, seat in kinds:
            seq = len(self.log) + 1
            audience = (seat,) if kind == "hand" else None
            event = StoredEvent(seq=seq, audience=audience, event={"kind": kind, "seat": seat})
            self.log.append(event)
            events.append(event)
            if kind == "turn":
                self.turn = (seq, seat)
        for node in self.nodes:
            node.inbox.append(events)
            if duplicate:
                node.inbox.append(events)

    # ------------------------------------------------------------ a node hears

    @precondition(lambda self: any(n.inbox for n in self.nodes))
    @rule(which=st.integers(0, 1), pick=st.integers(0, 100))
    def hear(self, which: int, pick: int) -> None:
        node = self.nodes[which]
        if not node.inbox:
            return
        events = node.inbox.pop(pick % len(node.inbox))
        node.known_seq = max(node.known_seq, events[-1].seq)
        node.core.known = node.known_seq
        outs = node.core.set_turn(self._turn_known(node, events))
        self._carry(node, outs + node.core.receive(events))

    def _turn_known(self, node: SimNode, events: list[StoredEvent]) -> Turn | None:
        """The runtime's rule: the newest turn its table data knows of."""
        turns = [e for e in events if e.event["kind"] == "turn"]
        current = node.core.turn
        if turns and (current is None or turns[-1].seq > current.seq):
            return Turn(turns[-1].seq, turns[-1].event["seat"], None)
        return current

    @precondition(lambda self: any(n.fetches for n in self.nodes))
    @rule(which=st.integers(0, 1))
    def answer_fetch(self, which: int) -> None:
        node = self.nodes[which]
        if not node.fetches:
            return
        after = node.fetches.pop(0)
        self._carry(node, node.core.fetched(self.log[after:], node.known_seq))

    # ------------------------------------------------------------ followers

    @rule(which=st.integers(0, 1), seat=st.none() | st.integers(0, 3), data=st.data())
    def join(self, which: int, seat: int | None, data: st.DataObject) -> None:
        node = self.nodes[which]
        key = self.next_key
        self.next_key += 1
        resume = data.draw(st.booleans())
        start = data.draw(st.integers(0, node.core.delivered)) if resume else 0
        follower = Follower(seat, start, replaying=resume)
        node.followers[key] = follower
        node.core.add(key, seat, start)
        if not resume:
            follower.seen.append(node.known_seq)
            follower.snapshots += 1
            self._carry(node, node.core.snapshot(key, node.known_seq))

    @precondition(lambda self: any(f.replaying for n in self.nodes for f in n.followers.values()))
    @rule(which=st.integers(0, 1), batch=st.integers(1, 5), pick=st.integers(0, 100))
    def replay_step(self, which: int, batch: int, pick: int) -> None:
        node = self.nodes[which]
        replaying = [k for k, f in node.followers.items() if f.replaying]
        if not replaying:
            return
        key = replaying[pick % len(replaying)]
        after = node.core.replay_from(key)
        if after is None:
            node.followers[key].replaying = False
            self._carry(node, node.core.go_live(key))
            return
        outs = node.core.replay(key, self.log[after : after + batch])
        assert outs, "the log holds every event here: a replay step always moves on"
        self._carry(node, outs)

    @precondition(lambda self: any(n.followers for n in self.nodes))
    @rule(which=st.integers(0, 1), pick=st.integers(0, 100))
    def ask_again(self, which: int, pick: int) -> None:
        """The follower's act met outcome_unknown and did not land: its turn is asked
        again, once, and at once if it had been asked (``Delivery.ask_again``)."""
        node = self.nodes[which]
        if not node.followers:
            return
        key = list(node.followers)[pick % len(node.followers)]
        feed = node.core.feeds[key]
        asked = feed.turn_sent is not None and feed.turn_sent == node.core.turn
        node.followers[key].again = True
        outs = node.core.ask_again(key)
        assert [o.key for o in outs if isinstance(o, SendTurn)] == ([key] if asked else [])
        self._carry(node, outs)

    @precondition(lambda self: any(n.followers for n in self.nodes))
    @rule(which=st.integers(0, 1), pick=st.integers(0, 100))
    def leave(self, which: int, pick: int) -> None:
        node = self.nodes[which]
        if not node.followers:
            return
        key = list(node.followers)[pick % len(node.followers)]
        del node.followers[key]
        node.core.remove(key)

    # ------------------------------------------------------------ carrying out

    def _carry(self, node: SimNode, outs: list[Out[int]]) -> None:
        for out in outs:
            if isinstance(out, Fetch):
                node.fetches.append(out.after)
                continue
            follower = node.followers[out.key]
            if isinstance(out, SendEvent):
                assert not follower.replaying or out.event.seq <= node.core.delivered
                last = follower.seen[-1] if follower.seen else follower.start
                assert out.event.seq == last + 1, (follower, out.event.seq)
                audience = out.event.audience
                assert out.visible == (audience is None or follower.seat in audience)
                follower.seen.append(out.event.seq)
            elif isinstance(out, SendTurn):
                assert not follower.replaying, "your_turn in the middle of a replay"
                assert follower.seat == out.turn.seat
                last = follower.seen[-1] if follower.seen else follower.start
                assert out.seq == last >= out.turn.seq, "your_turn before the events of its turn"
                if out.turn in follower.turns:  # only once more, after ``ask_again``
                    assert follower.again, "your_turn twice for one turn"
                else:
                    follower.turns.append(out.turn)
                follower.again = False
            elif isinstance(out, SendSnapshot):
                follower.seen.append(node.known_seq)
                follower.snapshots += 1

    # ------------------------------------------------------------ checks

    @invariant()
    def numbers_only_go_up(self) -> None:
        for node in self.nodes:
            for follower in node.followers.values():
                seen = [follower.start, *follower.seen]
                assert all(a <= b for a, b in itertools.pairwise(seen)), seen

    def teardown(self) -> None:
        """Let everything arrive, then everyone has everything, and one your_turn."""
        if not hasattr(self, "nodes"):
            return
        for _ in range(10_000):
            node = next((n for n in self.nodes if n.inbox or n.fetches), None)
            replaying = [(n, k) for n in self.nodes for k, f in n.followers.items() if f.replaying]
            if node is not None:
                if node.inbox:
                    self.hear(self.nodes.index(node), 0)
                else:
                    self.answer_fetch(self.nodes.index(node))
            elif replaying:
                n, key = replaying[0]
                self.replay_step(
                    self.nodes.index(n),
                    5,
                    list(k for k, f in n.followers.items() if f.replaying).index(key),
                )
            else:
                break
        for node in self.nodes:
            assert node.core.delivered == len(self.log)
            for follower in node.followers.values():
                last = follower.seen[-1] if follower.seen else follower.start
                assert last == len(self.log), (follower, len(self.log))
                if self.turn is not None and follower.seat == self.turn[1]:
                    assert [t.seq for t in follower.turns].count(self.turn[0]) == 1, follower
                    assert follower.turns[-1].seq == self.turn[0]


DeliveryMachine.TestCase.settings = settings(
    max_examples=200, stateful_step_count=40, deadline=None
)
test_the_delivery_core_against_two_simulated_nodes = DeliveryMachine.TestCase
