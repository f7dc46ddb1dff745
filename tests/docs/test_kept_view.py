"""PROTOCOL.md section 6, "Keeping your own view", followed to the letter.

Tables are played through the server's own transitions (server/table/transitions.py),
committed as server/node/runtime.py commits them (``seq``, ``phase``), and every message
each viewpoint would receive is recorded: the four seats and a spectator, each
event in full or ``hidden``, and ``your_turn`` after a ``turn`` for that seat.
``fold`` below keeps a table and a view from a first snapshot by the rules of
the document's table alone (it is written from the document, not from the
server), and after every change it must equal a fresh snapshot, field by field,
for every viewpoint. ``spectators`` is left out: the document says no event
carries it.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

import engine
from protocol import models as m
from protocol.convert import legal_model, view_model
from protocol.frames import wire_event
from server.table import seating
from server.table import transitions as tr
from server.table.data import TableData
from server.table.seating import JoinRequest

from ..deal_seeds import deal_from, seeds, where

Msg = dict[str, Any]
VIEWPOINTS: tuple[int | None, ...] = (0, 1, 2, 3, None)
TARGET_NO_BOUT = 56
CARD_ORDER = {code: i for i, code in enumerate(engine.CODES)}  # deck order, section 2


# ---------------------------------------------------------------- the document's rules


def in_deck_order(cards: list[str]) -> list[str]:
    return sorted(cards, key=CARD_ORDER.__getitem__)


def fresh_view(me: int | None, ev: Msg) -> Msg:
    return {
        "seat": me,
        "deal_number": ev["deal_number"],
        "dealer": ev["dealer"],
        "phase": "bidding",
        "to_act": None,
        "hand": [],
        "hand_sizes": [18, 18, 18, 18],
        "bids": [],
        "taker": None,
        "contract": None,
        "chien": None,
        "discard": None,
        "discard_trumps": [],
        "chelem": False,
        "poignees": [],
        "trick": None,
        "tricks": [],
        "points": [0, 0],
        "tricks_won": [0, 0, 0, 0],
        "legal": None,
        "sheet": None,
        "taker_bouts": 0,
        "target": TARGET_NO_BOUT,
        "discard_points": None,
    }


ACTED = {"bid", "discard", "chelem", "poignee", "card"}  # a seat's own decision
Row = Callable[[Msg, Msg, Msg, int | None], None]  # (table, view, event, me)


def seat_row(table: Msg, view: Msg, ev: Msg, me: int | None) -> None:
    table["seats"][ev["seat"]["seat"]] = ev["seat"]


def hand_row(table: Msg, view: Msg, ev: Msg, me: int | None) -> None:
    view["hand"] = ev["cards"]


def bid_row(table: Msg, view: Msg, ev: Msg, me: int | None) -> None:
    view["bids"].append({"seat": ev["seat"], "contract": ev["contract"]})


def taker_row(table: Msg, view: Msg, ev: Msg, me: int | None) -> None:
    view.update(taker=ev["seat"], contract=ev["contract"])


def chien_row(table: Msg, view: Msg, ev: Msg, me: int | None) -> None:
    view["chien"] = ev["cards"]
    view["hand_sizes"][view["taker"]] += len(ev["cards"])
    if me == view["taker"]:
        view["hand"] = in_deck_order(view["hand"] + ev["cards"])


def discard_kept_row(table: Msg, view: Msg, ev: Msg, me: int | None) -> None:
    view["discard"] = ev["cards"]
    view["discard_points"] = ev["points"]
    view["hand"] = [c for c in view["hand"] if c not in ev["cards"]]


def discard_row(table: Msg, view: Msg, ev: Msg, me: int | None) -> None:
    view["discard_trumps"] = ev["trumps"]
    view["hand_sizes"][view["taker"]] -= 6


def chelem_row(table: Msg, view: Msg, ev: Msg, me: int | None) -> None:
    view["chelem"] = ev["announced"]


def poignee_row(table: Msg, view: Msg, ev: Msg, me: int | None) -> None:
    view["poignees"].append({k: ev[k] for k in ("seat", "level", "cards")})


def turn_row(table: Msg, view: Msg, ev: Msg, me: int | None) -> None:
    view.update(to_act=ev["seat"], phase=ev["phase"], legal=None)
    if ev["phase"] == "play" and view["trick"] is None:
        view["trick"] = {"leader": ev["seat"], "cards": [], "winner": None}


def card_row(table: Msg, view: Msg, ev: Msg, me: int | None) -> None:
    view["hand_sizes"][ev["seat"]] -= 1
    if me == ev["seat"]:
        view["hand"] = [c for c in view["hand"] if c != ev["card"]]
    view["trick"]["cards"].append(ev["card"])


def trick_row(table: Msg, view: Msg, ev: Msg, me: int | None) -> None:
    view["tricks"].append({k: ev[k] for k in ("leader", "cards", "winner")})
    view["tricks_won"][ev["winner"]] += 1
    view.update(trick=None, points=ev["points"], taker_bouts=ev["taker_bouts"])
    view["target"] = ev["target"]


def cancelled_row(table: Msg, view: Msg, ev: Msg, me: int | None) -> None:
    view.update(phase="done", to_act=None, legal=None)


def score_row(table: Msg, view: Msg, ev: Msg, me: int | None) -> None:
    view.update(sheet=ev["sheet"], phase="done", to_act=None, legal=None)
    table["totals"] = ev["totals"]


def between_deals_row(table: Msg, view: Msg, ev: Msg, me: int | None) -> None:
    table["next_deal_ms"] = ev["deadline_ms"]


def table_over_row(table: Msg, view: Msg, ev: Msg, me: int | None) -> None:
    table.update(status="finished", totals=ev["totals"], next_deal_ms=None)


ROWS: dict[str, Row] = {
    "seat": seat_row,
    "hand": hand_row,
    "bid": bid_row,
    "taker": taker_row,
    "chien": chien_row,
    "discard_kept": discard_kept_row,
    "discard": discard_row,
    "chelem": chelem_row,
    "poignee": poignee_row,
    "turn": turn_row,
    "card": card_row,
    "trick": trick_row,
    "cancelled": cancelled_row,
    "score": score_row,
    "between_deals": between_deals_row,
    "table_over": table_over_row,
}


def fold(kept: dict[str, Any], me: int | None, msg: Msg) -> None:
    """Apply one message to ``kept`` (``table``: TableSummary, ``view``: SeatView)."""
    if msg["type"] == "snapshot":
        kept["table"], kept["view"] = copy.deepcopy(msg["table"]), copy.deepcopy(msg["view"])
        return
    if msg["type"] == "your_turn":
        kept["view"]["legal"] = copy.deepcopy(msg["legal"])
        return
    ev, table = msg["event"], kept["table"]
    kind = ev["kind"]
    if kind in ACTED:
        kept["view"].update(to_act=None, legal=None)  # until the next turn says who
    if kind == "deal_started":
        kept["view"] = fresh_view(me, ev)
        table.update(status="playing", deal_number=ev["deal_number"], next_deal_ms=None)
    elif kind in ROWS:
        ROWS[kind](table, kept["view"], ev, me)
    # The table's phase is the view's (null while there is no view).
    table["phase"] = kept["view"]["phase"] if kept["view"] is not None else None


def numbers_in(value: Any) -> list[Any]:
    """Every number in a JSON value (booleans are not numbers here)."""
    if isinstance(value, dict):
        return [n for v in value.values() for n in numbers_in(v)]
    if isinstance(value, list):
        return [n for v in value for n in numbers_in(v)]
    return [value] if isinstance(value, int | float) and not isinstance(value, bool) else []


# ---------------------------------------------------------------- a table, as the server runs it

BID_WEIGHTS = {"pass": 10, "prise": 4, "garde": 3, "garde_sans": 1, "garde_contre": 1}


def an_action(state: engine.Deal, rng: random.Random, passes: int) -> engine.Action:
    """A legal action, drawn so that every contract, poignees and chelems all come up
    (and, with a heavy ``passes``, deals passed out)."""
    actions = engine.legal_actions(state).actions
    bids = [a for a in actions if isinstance(a, engine.Bid)]
    if bids:
        weight = {**BID_WEIGHTS, "pass": passes}
        weights = [weight[b.contract.code] for b in bids]
        return rng.choices(bids, weights)[0]
    shows = [a for a in actions if isinstance(a, engine.ShowPoignee)]
    if shows and rng.random() < 0.7:
        return rng.choice(shows)
    chelems = [a for a in actions if isinstance(a, engine.DeclareChelem)]
    if chelems:
        return chelems[1] if rng.random() < 0.1 and len(chelems) > 1 else chelems[0]
    return engine.random_action(state, rng)


class RecordedTable:
    """A table driven through the transitions, every viewpoint's messages recorded."""

    def __init__(self, deals: int, humans: int, passes: int = BID_WEIGHTS["pass"]) -> None:
        self.passes = passes
        self.numbers: list[Any] = []  # every number of every message, as sent
        self.data = TableData(
            table_id="fold", options=m.TableOptions(deals=deals), next_deal_seconds=3
        )
        self.state: engine.Deal | None = None
        self.now = 1_000_000
        self.humans = humans
        self.kept: dict[int | None, dict[str, Any]] = {}

    def snapshot(self, seat: int | None) -> Msg:
        view = None
        if self.state is not None and self.data.deal is not None:
            view = view_model(engine.view(self.state, seat), self.data.deal.number)
        snap = m.Snapshot(table_id="fold", seq=self.data.seq, table=self.data.summary(), view=view)
        return snap.model_dump(mode="json")

    def commit(self, change: tr.Change) -> None:
        """What server/node/runtime.py does with a change: number its events, note the phase,
        send each viewpoint its part, then ``your_turn`` to the seat to act."""
        data = self.data
        phase = change.state.phase.value if change.state is not None else None
        self.data = change.data.model_copy(
            update={"seq": data.seq + len(change.events), "phase": phase}
        )
        self.state = change.state
        turned = False
        for event in (e for _, e in change.events):
            self.numbers += numbers_in(wire_event(event))
        for i, (audience, event) in enumerate(change.events):
            body = wire_event(event)
            turned = turned or body["kind"] == "turn"
            for seat in VIEWPOINTS:
                if seat not in self.kept:
                    continue
                visible = audience is None or (seat is not None and seat in audience)
                msg = {"type": "event", "seq": data.seq + i + 1}
                msg["event"] = body if visible else {"kind": "hidden"}
                fold(self.kept[seat], seat, msg)
        state = self.state
        if turned and state is not None and not state.is_over and state.to_act in self.kept:
            legal = legal_model(engine.legal_actions(state))
            assert legal is not None
            body = legal.model_dump(mode="json")
            msg = {"type": "your_turn", "seq": self.data.seq, "legal": body}
            self.numbers += numbers_in(msg)
            fold(self.kept[state.to_act], state.to_act, msg)
        self.check()

    def check(self) -> None:
        for seat, kept in self.kept.items():
            fresh = self.snapshot(seat)
            self.numbers += numbers_in(fresh)
            table = {k: v for k, v in kept["table"].items() if k != "spectators"}
            assert table == {k: v for k, v in fresh["table"].items() if k != "spectators"}, seat
            assert kept["view"] == fresh["view"], (seat, self.data.seq)

    def follow(self, seat: int | None) -> None:
        """A connection starts following: its first snapshot."""
        kept: dict[str, Any] = {}
        snapshot = self.snapshot(seat)
        self.numbers += numbers_in(snapshot)
        fold(kept, seat, snapshot)
        self.kept[seat] = kept

    def play(self, rng: random.Random, follow: bool = True) -> None:
        """Play the whole table; with ``follow``, every viewpoint keeps its view."""
        if follow:
            self.follow(None)  # a spectator from the start
        for seat in range(self.humans):
            self.commit(
                seating.join(self.data, self.state, JoinRequest(f"P{seat}", self.now, seat))
            )
            if follow:
                self.follow(seat)
        self.commit(tr.start(self.data, self.state, self.now))
        for seat in range(self.humans, 4):
            if follow:
                self.follow(seat)  # the AI's seats, followed as a player would follow them
        self.finish(rng)

    def finish(self, rng: random.Random) -> None:
        """Play on until the table is over: the seats to act, people ready for each deal."""
        while self.data.status == "playing":
            state = self.state
            if state is not None and not state.is_over:
                action = an_action(state, rng, self.passes)
                self.commit(tr.act(self.data, self.state, action, self.now))
                continue
            self.now += 1000
            if state is not None and state.cancelled:  # the driver deals again at once
                self.commit(tr.next_deal(self.data, self.state, self.now))
                continue
            for seat in range(self.humans):
                if self.data.status == "playing" and not self.data.ready[seat]:
                    self.commit(tr.ready(self.data, self.state, seat, self.now))


def a_poignee_dealt(seed: str) -> bool:
    deal = engine.new_deal(0, bytes.fromhex(seed))
    trumps = engine.TRUMPS | engine.EXCUSE_BIT
    return any((hand & trumps).bit_count() >= 10 for hand in deal.dealt)


@pytest.mark.parametrize(
    "label", ["fold-a", "fold-b", "fold-c", "poignees-a", "poignees-b", "passed-out"]
)
def test_a_view_kept_by_the_documents_rules_is_a_fresh_snapshot_after_every_change(
    label: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three-deal tables, two people and two AI, every contract, poignees, chelems,
    cancelled deals; every viewpoint checked after every change."""
    deal_from(monkeypatch, where(label, a_poignee_dealt) if "poignee" in label else seeds(label))
    table = RecordedTable(deals=3, humans=2, passes=80 if label == "passed-out" else 10)
    table.play(random.Random(label))
    assert table.data.status == "finished"


def test_numbers_go_out_as_integers_when_whole() -> None:
    """PROTOCOL.md section 2 (issue 15.2): after half-point deals the running totals
    were sent as 10.0, -168.0; card points as 4.0, 17.0. Tables are played until two
    deals scored halves; no message of any viewpoint then holds a whole float."""
    halves = 0
    seen: list[Any] = []
    for i in range(40):
        with pytest.MonkeyPatch.context() as patch:
            deal_from(patch, seeds(f"halves-{i}"))
            table = RecordedTable(deals=3, humans=1)
            table.play(random.Random(i), follow=False)
            table.follow(None)  # and a snapshot of the table at its end
        seen += table.numbers
        halves += sum(1 for n in table.numbers if isinstance(n, float))
        if halves >= 2:
            break
    assert halves >= 2, "no half points came up: the test would prove nothing"
    whole = [n for n in seen if isinstance(n, float) and n.is_integer()]
    assert whole == [], f"{len(whole)} whole numbers sent as floats, e.g. {whole[:5]}"
