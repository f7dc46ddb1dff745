"""A seat's picture of its table, kept up to date from the server's messages.

``TableState.apply`` takes every server message about the table, in order:
a ``snapshot`` replaces the picture; each ``event`` moves it on, exactly as
the server's own view of the seat moves (``view`` equals what a fresh
snapshot would say); ``your_turn`` adds what the seat may do now.

No rule of the game is written here. What an event means for the view is the
protocol's (the chien joins the taker's hand, a card leaves its player's);
card points won in tricks come with each ``trick`` event (the server's engine
applies the Excuse's rules, R13 and R14).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import engine
from protocol import ServerMessage
from protocol import models as m

# Events that do not change whose turn it is or what they may do.
# Events that leave a seat's turn as it was (chat, rematch and ratings: version 2's talk).
_KEEPS_TURN = frozenset({"seat", "hidden", "record", "between_deals", "chat", "rematch", "ratings"})


def card_order(code: str) -> int:
    """The engine's order of a card code (trumps, the Excuse, then S, H, D, C by rank)."""
    return int(engine.parse_card(code))


def sorted_cards(codes: list[str]) -> list[str]:
    return sorted(codes, key=card_order)


def fresh_view(seat: int | None, deal_number: int, dealer: int) -> m.SeatView:
    """The view at a ``deal_started`` event, before the hands arrive."""
    return m.SeatView(
        seat=seat,
        deal_number=deal_number,
        dealer=dealer,
        phase="bidding",
        to_act=None,
        hand=[],
        hand_sizes=[engine.HAND_SIZE] * 4,
        bids=[],
        taker=None,
        contract=None,
        chien=None,
        discard=None,
        discard_trumps=[],
        chelem=False,
        poignees=[],
        trick=None,
        tricks=[],
        points=[0.0, 0.0],
        tricks_won=[0, 0, 0, 0],
        legal=None,
        sheet=None,
    )


@dataclass(slots=True)
class TableState:
    """What this connection knows of the table it follows (a seat, or a spectator's).

    ``seq`` is the last event applied; ``turn`` the latest ``your_turn`` while
    it is still current (None once any event moves the deal on); ``sheets``
    and ``records`` the finished deals, in order.
    """

    table_id: str
    seat: int | None
    token: str | None = None
    seq: int = 0
    table: m.TableSummary | None = None
    view: m.SeatView | None = None
    turn: m.YourTurn | None = None
    totals: list[m.Points] = field(default_factory=lambda: [0, 0, 0, 0])
    sheets: list[m.ScoreSheet] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)
    over: bool = False
    chat: list[m.ChatEvent] = field(default_factory=list)  # the table's chat, as it came
    chat_seqs: list[int] = field(default_factory=list)  # each one's event number (``report``)
    ratings: list[m.RatingsEvent] = field(default_factory=list)  # rated deals' changes
    rematch: m.RematchEvent | None = None  # the latest answer to a rematch offer
    missed: int = 0  # gaps seen in the numbering (the server guarantees none)
    behind: bool = False  # a gap was seen: events are missing until a resume

    @property
    def is_my_turn(self) -> bool:
        return self.turn is not None

    @property
    def legal(self) -> m.LegalChoices | None:
        return self.turn.legal if self.turn is not None else None

    def apply(self, message: ServerMessage) -> bool:
        """Take one server message into account; False for an event not applied.

        An event already applied (a replay overlapping what we had) is skipped;
        so is one after a gap in the numbering, which sets ``behind``: the
        client then resumes from ``seq`` to get the missing ones.
        """
        match message:
            case m.Snapshot():
                self._snapshot(message)
            case m.Event(seq=seq, event=event):
                return self._event(seq, event)
            case m.Spectators(count=count) if self.table is not None:
                self.table = self.table.model_copy(update={"spectators": count})
            case m.YourTurn(seq=seq) if seq >= self.seq and not self.behind:
                self.turn = message
                if self.view is not None:
                    self.view = self.view.model_copy(update={"legal": message.legal})
            case _:
                pass
        return True

    def _snapshot(self, snapshot: m.Snapshot) -> None:
        self.seq = snapshot.seq
        self.table = snapshot.table
        self.view = snapshot.view
        self.totals = list(snapshot.table.totals)
        self.over = snapshot.table.status == "finished"
        self.turn = None
        self.behind = False

    def _event(self, seq: int, event: Any) -> bool:
        if seq <= self.seq:
            return False
        if seq > self.seq + 1:
            self.missed += 0 if self.behind else 1
            self.behind = True
            return False
        self.behind = False
        self.seq = seq
        if event.kind not in _KEEPS_TURN:
            self.turn = None
            if self.view is not None and self.view.legal is not None:
                self.view = self.view.model_copy(update={"legal": None})
        self._table_event(event)
        if isinstance(event, m.DealStartedEvent):
            self.view = fresh_view(self.seat, event.deal_number, event.dealer)
        elif self.view is not None:
            self.view = self._next_view(self.view, event)
        return True

    # ------------------------------------------------------------ the table

    def _table_event(self, event: Any) -> None:
        match event:
            case m.ScoreEvent(sheet=sheet, totals=totals):
                self.sheets.append(sheet)
                self.totals = list(totals)
            case m.RecordEvent(record=record):
                self.records.append(record)
            case m.TableOverEvent(totals=totals):
                self.totals = list(totals)
                self.over = True
            case m.ChatEvent():
                self.chat.append(event)
                self.chat_seqs.append(self.seq)
            case m.RatingsEvent():
                self.ratings.append(event)
            case m.RematchEvent():
                self.rematch = event
        if self.table is not None:
            self.table = self._next_table(self.table, event)

    @staticmethod
    def _next_table(table: m.TableSummary, event: Any) -> m.TableSummary:
        match event:
            case m.SeatChanged(seat=info):
                seats = [info if s.seat == info.seat else s for s in table.seats]
                return table.model_copy(update={"seats": seats})
            case m.DealStartedEvent(deal_number=number):
                update = {
                    "status": "playing",
                    "deal_number": number,
                    "phase": "bidding",
                    "next_deal_ms": None,
                }
                return table.model_copy(update=update)
            case m.BetweenDealsEvent(deadline_ms=deadline):
                return table.model_copy(update={"next_deal_ms": deadline})
            case m.TurnEvent(phase=phase):
                return table.model_copy(update={"phase": phase})
            case m.CancelledEvent():
                return table.model_copy(update={"phase": "done"})
            case m.ScoreEvent(totals=totals):
                return table.model_copy(update={"phase": "done", "totals": list(totals)})
            case m.TableOverEvent(totals=totals):
                update = {"status": "finished", "totals": list(totals), "next_deal_ms": None}
                return table.model_copy(update=update)
        return table

    # ------------------------------------------------------------ the seat's view

    def _next_view(self, view: m.SeatView, event: Any) -> m.SeatView:
        """The view after ``event``: the deal's events before the play, then the play's."""
        before = self._before_play(view, event)
        return before if before is not None else self._in_play(view, event)

    def _before_play(self, view: m.SeatView, event: Any) -> m.SeatView | None:
        match event:
            case m.HandEvent(seat=seat, cards=cards) if seat == self.seat:
                return _update(view, hand=sorted_cards(cards))
            case m.BidEvent(seat=seat, contract=contract):
                return _update(view, bids=[*view.bids, m.BidInfo(seat=seat, contract=contract)])
            case m.TakerEvent(seat=seat, contract=contract):
                return _update(view, taker=seat, contract=contract)
            case m.ChienEvent(cards=cards):
                return self._chien(view, cards)
            case m.DiscardEvent(seat=seat, trumps=trumps):
                size = view.hand_sizes[seat] - len(view.chien or ())
                return _update(view, discard_trumps=trumps, hand_sizes=_sizes(view, seat, size))
            case m.DiscardKeptEvent(seat=seat, cards=cards, points=points):
                hand = _without(view.hand, cards) if seat == self.seat else view.hand
                return _update(view, discard=sorted_cards(cards), hand=hand, discard_points=points)
            case m.ChelemEvent(announced=announced):
                return _update(view, chelem=announced)
            case m.PoigneeEvent(seat=seat, level=level, cards=cards):
                shown = m.PoigneeInfo(seat=seat, level=level, cards=sorted_cards(cards))
                return _update(view, poignees=sorted([*view.poignees, shown], key=_by_seat))
        return None

    def _in_play(self, view: m.SeatView, event: Any) -> m.SeatView:
        match event:
            case m.CardEvent(seat=seat, card=card):
                return self._card(view, seat, card)
            case m.TrickEvent():
                return self._trick(view, event)
            case m.TurnEvent(seat=seat, phase=phase):
                trick = view.trick
                if phase == "play" and trick is None:
                    trick = m.TrickInfo(leader=seat, cards=[])
                return _update(view, to_act=seat, phase=phase, trick=trick)
            case m.CancelledEvent():
                return _update(view, phase="done", to_act=None, trick=None)
            case m.ScoreEvent(sheet=sheet):
                return _update(view, phase="done", to_act=None, trick=None, sheet=sheet)
        return view

    def _chien(self, view: m.SeatView, cards: list[str]) -> m.SeatView:
        """R6 as the event says it: the shown chien joins the taker's hand."""
        taker = view.taker if view.taker is not None else -1
        hand = view.hand
        if taker == self.seat:
            hand = sorted_cards([*view.hand, *cards])
        size = view.hand_sizes[taker] + len(cards) if taker >= 0 else 0
        sizes = _sizes(view, taker, size) if taker >= 0 else view.hand_sizes
        return _update(view, chien=sorted_cards(cards), hand=hand, hand_sizes=sizes)

    def _card(self, view: m.SeatView, seat: int, card: str) -> m.SeatView:
        trick = view.trick or m.TrickInfo(leader=seat, cards=[])
        hand = _without(view.hand, [card]) if seat == self.seat else view.hand
        return _update(
            view,
            hand=hand,
            hand_sizes=_sizes(view, seat, view.hand_sizes[seat] - 1),
            trick=trick.model_copy(update={"cards": [*trick.cards, card]}),
        )

    def _trick(self, view: m.SeatView, event: m.TrickEvent) -> m.SeatView:
        points = list(event.points)
        done = m.TrickInfo(leader=event.leader, cards=event.cards, winner=event.winner)
        won = list(view.tricks_won)
        won[event.winner] += 1
        return _update(
            view,
            tricks=[*view.tricks, done],
            trick=None,
            tricks_won=won,
            points=points,
            taker_bouts=event.taker_bouts,
            target=event.target,
        )


def _update(view: m.SeatView, **changes: Any) -> m.SeatView:
    return view.model_copy(update=changes)


def _sizes(view: m.SeatView, seat: int, size: int) -> list[int]:
    sizes = list(view.hand_sizes)
    sizes[seat] = size
    return sizes


def _without(hand: list[str], cards: list[str]) -> list[str]:
    gone = set(cards)
    return [c for c in hand if c not in gone]


def _by_seat(info: m.PoigneeInfo) -> int:
    return info.seat
