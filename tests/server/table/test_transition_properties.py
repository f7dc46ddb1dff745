"""The table's transitions (server/table/transitions.py) under any sequence of requests.

A hypothesis state machine plays a table as the server would, from joins to the
end of a series, with people leaving, dropping and coming back, bad requests, a
clock, and the driver's own moves (the next deal), and checks after each step
what "the server never loses a table" rests on:

- a request is applied or refused with ``TableRefused``, never another error,
  and a refused request changes nothing;
- the stored data alone rebuilds the deal exactly (its seed and actions), so any
  node, or a restarted one, holds the same table;
- the series adds up: zero-sum totals, the sum of the scored deals, deals
  numbered by their place in the series, the status only moving forward;
- mid-deal a seat's cards stay with who held it when the deal began: no join
  gives anyone a seat (a new token) while its deal is being played.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from functools import partial

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

import engine
from engine import EXCUSE_BIT, TRUMPS, Card
from protocol import models as m
from server.table import seating
from server.table import transitions as tr
from server.table.data import TableData, deal_state
from server.table.seating import JoinRequest

from ...deal_seeds import deal_from, seeds, where
from .wired import wired

STATUS_ORDER = {"waiting": 0, "playing": 1, "finished": 2}


def a_poignee_in_hand(seed: str) -> bool:
    deal = engine.new_deal(0, bytes.fromhex(seed))
    return any(((hand & (TRUMPS | EXCUSE_BIT)).bit_count() >= 10) for hand in deal.dealt)


seats = st.integers(min_value=0, max_value=3)


class TableMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.data = TableData(
            table_id="prop", options=m.TableOptions(deals=2, grace_seconds=5), next_deal_seconds=3
        )
        self.state: engine.Deal | None = None
        self.now = 1_000_000
        self.scored: list[list[float]] = []  # the scores of each played deal, in order
        self.numbers: list[int] = []  # deal_started numbers, in order
        self.status_seen = "waiting"
        # Deals are shuffled from seeds drawn by hypothesis (see someone_sits_down), so
        # that a failure replays and shrinks; the server's own are back after.
        self.patches = pytest.MonkeyPatch()

    def teardown(self) -> None:
        self.patches.undo()

    # ------------------------------------------------------------ applying

    def step(self, request: Callable[[], tr.Change]) -> tr.Change | None:
        """Run one transition; a refusal must leave the table as it was."""
        before = self.data.model_copy(deep=True)
        state_before = self.state.copy() if self.state is not None else None
        try:
            change = request()
        except tr.TableRefused:
            assert self.data == before
            assert self.state == state_before
            return None
        assert isinstance(change, tr.Change)
        self.check_holders(before, state_before, change)
        for _, stored in change.events:
            emitted = wired(stored)
            if isinstance(emitted, m.ScoreEvent):
                if emitted.sheet.status == "played":
                    self.scored.append(list(emitted.sheet.scores))
                event(f"a deal {emitted.sheet.status}")
            if isinstance(emitted, m.DealStartedEvent):
                self.numbers.append(emitted.deal_number)
            if isinstance(emitted, m.TableOverEvent):
                event("a table over")
        self.data, self.state = change.data, change.state
        return change

    @staticmethod
    def check_holders(
        before: TableData, state_before: engine.Deal | None, change: tr.Change
    ) -> None:
        """In the same deal, mid-deal, a seat's token may go (a leave) but no new one comes."""
        after = change.data
        mid_deal = before.status == "playing" and state_before and not state_before.is_over
        if not mid_deal or before.deal is None or after.deal is None:
            return
        if before.deal.seed != after.deal.seed:
            return
        for old, new in zip(before.seats, after.seats, strict=True):
            assert new.token_hash in (old.token_hash, None), "a seat changed hands mid-deal"

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.data.seats) if s.occupant == "human"]

    # ------------------------------------------------------------ requests

    @rule(seat=st.one_of(st.none(), seats), name=st.text(max_size=5))
    def join(self, seat: int | None, name: str) -> None:
        self.step(lambda: seating.join(self.data, self.state, JoinRequest(name, self.now, seat)))

    @rule(data=st.data(), rarely=st.integers(0, 5))
    def leave(self, data: st.DataObject, rarely: int) -> None:
        """One in six: when the last person leaves a table under way, it is over."""
        if (humans := self.humans()) and rarely == 0:
            seat = data.draw(st.sampled_from(humans))
            self.step(lambda: tr.leave(self.data, self.state, seat, self.now))

    @rule(data=st.data())
    def drop(self, data: st.DataObject) -> None:
        if humans := self.humans():
            seat = data.draw(st.sampled_from(humans))
            self.step(lambda: tr.dropped(self.data, self.state, seat, self.now))

    @rule(data=st.data())
    def come_back(self, data: st.DataObject) -> None:
        if humans := self.humans():
            seat = data.draw(st.sampled_from(humans))
            self.step(lambda: tr.present(self.data, self.state, seat))

    @rule()
    def start(self) -> None:
        self.step(lambda: tr.start(self.data, self.state, self.now))

    @initialize(seat=seats, start=st.booleans(), deck=st.integers(0, 2**32), trumps=st.booleans())
    def someone_sits_down(self, seat: int, start: bool, deck: int, trumps: bool) -> None:
        """A person sits down, and often starts at once against 3 AI (the quick game).

        Half the tables are dealt only hands where a seat holds a poignee's 10 trumps."""
        label = f"machine-{deck}"
        deal_from(self.patches, where(label, a_poignee_in_hand) if trumps else seeds(label))
        self.step(lambda: seating.join(self.data, self.state, JoinRequest("", self.now, seat)))
        if start:
            self.step(lambda: tr.start(self.data, self.state, self.now))

    @rule(
        seed=st.integers(min_value=0, max_value=2**32),
        count=st.integers(1, 200),
        show=st.booleans(),
    )
    def act(self, seed: int, count: int, show: bool) -> None:
        """The seats to act (people or the AI) play ``count`` legal actions in a row,
        showing every poignee they are offered when ``show`` (R8)."""
        rng = random.Random(seed)
        for _ in range(count):
            state = self.state
            if state is None or state.is_over or self.data.status != "playing":
                return
            offered = [
                a for a in engine.legal_actions(state).actions if isinstance(a, engine.ShowPoignee)
            ]
            action = offered[0] if show and offered else engine.random_action(state, rng)
            if isinstance(action, engine.ShowPoignee):
                event("a poignee shown")
            applied = self.step(partial(tr.act, self.data, self.state, action, self.now))
            assert applied is not None, f"{action} was refused"

    @rule()
    def everyone_passes(self) -> None:
        """Pass while bidding: four passes cancel the deal, which is dealt again at once."""
        while (
            self.data.status == "playing"
            and self.state is not None
            and not self.state.is_over
            and self.state.phase is engine.Phase.BIDDING
        ):
            bid = engine.Bid(self.state.to_act, engine.Contract.PASS)
            assert self.step(partial(tr.act, self.data, self.state, bid, self.now)) is not None

    @rule()
    def act_out_of_phase(self) -> None:
        """The seat to act sends what its phase does not take: refused, nothing changes."""
        state = self.state
        if state is None or state.is_over or self.data.status != "playing":
            return
        seat = state.to_act
        if state.phase is engine.Phase.BIDDING:
            hand = state.hands[seat]
            wrong: engine.Action = engine.Play(seat, Card((hand & -hand).bit_length() - 1))
        else:
            wrong = engine.Bid(seat, engine.Contract.PASS)
        assert self.step(partial(tr.act, self.data, self.state, wrong, self.now)) is None

    @rule(seed=st.integers(min_value=0, max_value=2**32), seat=seats)
    def act_out_of_turn(self, seed: int, seat: int) -> None:
        """Another seat tries the same: refused, whatever the phase."""
        state = self.state
        if state is None or state.is_over or seat == state.to_act:
            return
        action = engine.random_action(state, random.Random(seed))
        moved = dataclasses.replace(action, seat=seat)
        assert self.step(lambda: tr.act(self.data, self.state, moved, self.now)) is None

    @rule(seat=seats)
    def ready(self, seat: int) -> None:
        self.step(lambda: tr.ready(self.data, self.state, seat, self.now))

    @rule(ms=st.integers(min_value=0, max_value=8_000))
    def wait(self, ms: int) -> None:
        self.now += ms

    @rule()
    def driver_deals_again(self) -> None:
        """The driver's move: a cancelled deal at once, a played one when its wait is over."""
        state, data = self.state, self.data
        if data.status != "playing" or state is None or not state.is_over:
            return
        waited = data.next_deal_ms is not None and self.now >= data.next_deal_ms
        if state.cancelled or waited or tr.everyone_ready(data, self.now):
            self.step(lambda: tr.next_deal(self.data, self.state, self.now))

    # ------------------------------------------------------------ invariants

    @invariant()
    def the_stored_data_rebuilds_the_deal(self) -> None:
        deal = self.data.deal
        if deal is None:
            assert self.state is None
            return
        assert self.state is not None
        assert deal_state(deal) == self.state

    @invariant()
    def the_series_adds_up(self) -> None:
        data = self.data
        assert sum(data.totals) == 0
        assert data.played == len(self.scored) <= (data.options.deals or len(self.scored))
        assert data.totals == [sum(s[i] for s in self.scored) for i in range(4)]
        # A deal's number is its place in the series: one dealt again keeps it.
        assert self.numbers == sorted(self.numbers)
        assert all(n == 1 or n - 1 in self.numbers for n in self.numbers)
        if data.deal is not None and self.state is not None:
            scored = self.state.is_over and not self.state.cancelled
            assert data.deal.number == data.played + (0 if scored else 1)
        assert STATUS_ORDER[data.status] >= STATUS_ORDER[self.status_seen]
        self.status_seen = data.status
        if data.status == "finished":
            assert data.options.deals is None or data.played <= data.options.deals


TableMachine.TestCase.settings = settings(
    max_examples=200,
    stateful_step_count=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_any_sequence_of_requests_keeps_the_table_whole = TableMachine.TestCase
