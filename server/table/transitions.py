"""How a table changes: pure functions from table data to new data plus events.

No I/O here and no rule of the game: legality is the engine's (``engine.step``);
this module only decides table matters (seats, tokens, the series of deals,
who sees which event). ``table.TableRuntime`` commits the results.

Each function returns a ``Change``: the new ``TableData`` (version not yet
bumped), the events to append with their audiences, and the engine state of
the current deal after the change.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass, field
from typing import Any

import engine
from protocol.convert import WIRE_EVENTS, numbers
from protocol.errors import ErrorCode

from .data import (
    DealData,
    SeatData,
    TableData,
    hash_token,
    new_seed,
    replaced,
)
from .duplicate_deals import (
    check_watchable,
    dealt_one,
    event_deals_over,
    next_event_deal,
    with_left,
)
from .refusals import TableRefused as TableRefused  # the refusals transitions raise
from .stored_events import StoredBody, deal_event, table_event

Audience = tuple[int, ...] | None


@dataclass(slots=True)
class Change:
    data: TableData
    state: engine.Deal | None
    # Each in the log's storage form (stored_events.py), not the wire's: the protocol
    # makes the wire bodies as they are sent.
    events: list[tuple[Audience, StoredBody]] = field(default_factory=list)
    # What a change tells the connection that asked for it, beside its events:
    seated: tuple[int, str] | None = None  # a join: the seat taken and its token

    def emit(self, event: StoredBody, audience: Audience = None) -> None:
        self.events.append((audience, event))


def seat_changed(change: Change, seat: int) -> None:
    """Tell everyone what the seat is now."""
    info = change.data.seat_info(seat)
    change.emit(
        table_event(
            "seat",
            seat=seat,
            occupant=info.occupant,
            name=info.name,
            connected=info.connected,
            away_until_ms=info.away_until_ms,
        )
    )


def check_invite(data: TableData, invite: str | None) -> None:
    if data.invite is not None and not hmac.compare_digest(data.invite, invite or ""):
        raise TableRefused(
            "bad_invite", f"table {data.table_id} is private: a valid invite is needed"
        )


def check_watch(data: TableData, invite: str | None, now_ms: int) -> None:
    """A watch: a private table's invite, and no duplicate event's table before its close
    (its cards are the deals every entrant is still to play)."""
    check_invite(data, invite)
    check_watchable(data, now_ms)


def is_mid_deal(data: TableData, state: engine.Deal | None) -> bool:
    """A deal is being played: its seats' cards are dealt and hidden."""
    return data.status == "playing" and state is not None and not state.is_over


def abandon(data: TableData, state: engine.Deal | None, now_ms: int, empty_ms: int) -> Change:
    """Close a waiting table nobody has sat at for ``empty_ms`` (unchanged otherwise)."""
    change = Change(data, state)
    if is_unattended(data, now_ms, empty_ms):
        _finish(change)
    return change


def is_unattended(data: TableData, now_ms: int, empty_ms: int) -> bool:
    """Waiting, nobody seated, and created at least ``empty_ms`` ago."""
    return (
        data.status == "waiting"
        and not any(s.occupant == "human" for s in data.seats)
        and now_ms - data.created_ms >= empty_ms
    )


def seat_of_token(data: TableData, token: str) -> int:
    token_hash = hash_token(token)
    for i, s in enumerate(data.seats):
        if s.occupant == "human" and s.token_hash and hmac.compare_digest(s.token_hash, token_hash):
            return i
    raise TableRefused("bad_token", "the seat token is unknown or no longer valid")


def present(data: TableData, state: engine.Deal | None, seat: int, node: str = "") -> Change:
    """The seat's player is (back) online, through ``node``: the AI hands the seat back.

    The seat's session grows, so that any older connection of the seat, on any
    node, is told it was replaced (the new number is in the seat's data).
    """
    was_away = data.seats[seat].dropped_at_ms is not None
    session = data.seats[seat].session + 1
    seats = data.with_seat(seat, dropped_at_ms=None, session=session, node=node)
    change = Change(data.model_copy(update={"seats": seats}), state)
    if was_away:
        seat_changed(change, seat)
    return change


def dropped(
    data: TableData, state: engine.Deal | None, seat: int, now_ms: int, session: int | None = None
) -> Change:
    """The seat's connection was lost: the grace period starts.

    ``session`` is the seat's session the lost connection held: when the seat
    has a newer one (the player resumed on another connection, maybe on another
    node, before the old one's close was seen), nothing changes.
    """
    change = Change(data, state)
    s = data.seats[seat]
    if session is not None and s.session != session:
        return change
    if s.occupant == "human" and s.dropped_at_ms is None:
        seats = data.with_seat(seat, dropped_at_ms=now_ms)
        change.data = data.model_copy(update={"seats": seats})
        seat_changed(change, seat)
    return change


def leave(
    data: TableData, state: engine.Deal | None, seat: int, now_ms: int, session: int | None = None
) -> Change:
    """A player leaves for good: the seat empties before the start, the AI takes it after.

    ``session``: the seat's session the leaving connection holds; a newer one (the seat
    was resumed on another connection meanwhile) is not given away: ``not_seated``.
    """
    if session is not None and data.seats[seat].session != session:
        raise TableRefused("not_seated", "this seat was resumed by another connection")
    occupant = "empty" if data.status == "waiting" else "ai"
    mid_deal = is_mid_deal(data, state)
    was = data.seats[seat]
    left: dict[str, Any] = {}
    if data.status == "playing" and was.occupant == "human" and was.account_id is not None:
        left = {
            "left_account_id": was.account_id,
            "left_deal": data.dealt - 1 if mid_deal else data.dealt,
        }
    seats = data.with_seat(
        seat,
        occupant=occupant,
        name="",
        token_hash=None,
        dropped_at_ms=None,
        account_id=None,
        **left,
    )
    data = with_left(data, seat, mid_deal)  # a duplicate entrant's seat: whose it is now
    change = Change(data.model_copy(update={"seats": seats}), state)
    seat_changed(change, seat)
    alone = not any(s.occupant == "human" for s in seats)
    if data.status == "playing" and alone and not (data.duplicate and mid_deal):
        _finish(change)
    return change


def start(data: TableData, state: engine.Deal | None, now_ms: int) -> Change:
    if data.status != "waiting":
        raise TableRefused("already_started", f"table {data.table_id} has already started")
    change = Change(data, state)
    start_series(change, now_ms)
    return change


def start_series(change: Change, now_ms: int) -> None:
    """The table starts: the AI takes the seats nobody took, the first deal is dealt."""
    seats = [
        s if s.occupant == "human" else SeatData(occupant="ai", name=f"AI {i + 1}")
        for i, s in enumerate(change.data.seats)
    ]
    change.data = change.data.model_copy(update={"seats": seats, "status": "playing"})
    for i, s in enumerate(change.data.seats):
        if s.occupant == "ai":
            seat_changed(change, i)
    begin_deal(change, now_ms)


def begin_deal(change: Change, now_ms: int) -> None:
    """Shuffle a new deal from a fresh secret seed; the dealer is the series' (R1).

    The deal is numbered by its place in the series: one dealt again after a
    cancelled deal keeps the cancelled one's number, so "deal 2 of 3" is the
    table's second counted deal whatever was passed out before it.
    """
    data = change.data
    number = data.played + 1
    planned = next_event_deal(data)  # a duplicate event's deal, or a fresh one
    dealer, seed = (data.dealer, new_seed()) if planned is None else (planned.dealer, planned.seed)
    if planned is not None:  # numbered by the event's deals (a deal all passed is one)
        data = dealt_one(data)
        number = data.duplicate.dealt if data.duplicate is not None else number
    deal = DealData(number=number, dealer=dealer, seed=seed, started_ms=now_ms)
    state = engine.new_deal(deal.dealer, bytes.fromhex(deal.seed))
    change.data = data.model_copy(
        update={
            "deal": deal,
            "dealt": data.dealt + 1,
            "ready": [False] * 4,
            "deal_over_ms": None,
            "next_deal_ms": None,
        }
    )
    change.state = state
    change.emit(table_event("deal_started", number=number, dealer=deal.dealer))
    for event in engine.deal_events(state):
        if isinstance(event, WIRE_EVENTS):  # DealStarted went first, with its number
            change.emit(deal_event(event), _audience(event))
    _after_move(change, now_ms)


def _audience(event: engine.DealEvent) -> Audience:
    audience = event.audience
    return None if audience is None else tuple(audience)


def act(data: TableData, state: engine.Deal | None, action: engine.Action, now_ms: int) -> Change:
    """Apply one seat's action through the engine (which decides legality)."""
    if data.status != "playing" or state is None or data.deal is None:
        raise TableRefused("not_started", f"table {data.table_id} is not playing a deal")
    try:
        after, events = engine.step(state, action)
    except engine.IllegalAction as e:
        code: ErrorCode = "not_your_turn" if isinstance(e, engine.NotYourTurn) else "illegal_action"
        raise TableRefused(code, str(e), rule=e.rule or None, reason=e.code) from e
    entry = engine.action_entry(action)
    deal = replaced(data.deal, {"actions": [*data.deal.actions, entry]})
    change = Change(data, after)
    for event in events:
        if isinstance(event, WIRE_EVENTS):  # the score is sent with the totals as the deal closes
            change.emit(deal_event(event), _audience(event))
    _after_move(change, now_ms, {"deal": deal})
    return change


def _after_move(change: Change, now_ms: int, update: dict[str, Any] | None = None) -> None:
    """Announce whose turn it is, or close the deal; ``update``: the move's, copied in."""
    state = change.state
    assert state is not None
    if not state.is_over:
        seat = state.to_act
        deadline = _deadline(change.data, seat, now_ms)
        change.data = replaced(change.data, {**(update or {}), "turn_deadline_ms": deadline})
        change.emit(table_event("turn", seat=seat, phase=state.phase.value, deadline_ms=deadline))
        return
    change.data = replaced(change.data, update) if update else change.data
    _close_deal(change, now_ms)


def _deadline(data: TableData, seat: int, now_ms: int) -> int | None:
    turn = data.options.turn_seconds
    if turn is None or data.seats[seat].occupant != "human":
        return None
    return now_ms + int(turn * 1000)


def _close_deal(change: Change, now_ms: int) -> None:
    """Score the deal, publish its record, move the series on (R1)."""
    data, state = change.data, change.state
    assert state is not None and data.deal is not None
    sheet = engine.score(state)
    series = engine.Series(
        deals_to_play=data.options.deals,
        dealer=data.dealer,
        totals=list(data.totals),
        played=data.played,
    )
    series.record(sheet)
    change.data = data.model_copy(
        update={
            "dealer": series.dealer,
            "totals": numbers(series.totals),  # 10, not 10.0, after two half-point deals
            "played": series.played,
            "deal_over_ms": now_ms,
            "turn_deadline_ms": None,
            "ready": [False] * 4,
        }
    )
    number = data.deal.number
    change.emit(
        table_event("deal_scored", number=number, sheet=sheet.to_json(), totals=change.data.totals)
    )
    change.emit(table_event("record", number=number, record=engine.to_record(state)))
    alone = not any(s.occupant == "human" for s in change.data.seats)
    if series.is_over or event_deals_over(data) or (data.duplicate is not None and alone):
        _finish(change)
    # A cancelled deal is dealt again at once, without waiting (a duplicate one is a result).
    elif not state.cancelled or data.duplicate is not None:
        wait = int(change.data.next_deal_seconds * 1000)
        change.data = change.data.model_copy(update={"next_deal_ms": now_ms + wait})
        _announce_wait(change, now_ms)


def _announce_wait(change: Change, now_ms: int) -> None:
    data = change.data
    assert data.deal is not None and data.next_deal_ms is not None
    waiting = [i for i in range(len(data.seats)) if not _counts_as_ready(data, i, now_ms)]
    change.emit(
        table_event(
            "between_deals",
            next_number=data.deal.number + 1,
            deadline_ms=data.next_deal_ms,
            waiting=waiting,
        )
    )


def _finish(change: Change) -> None:
    change.data = change.data.model_copy(update={"status": "finished", "turn_deadline_ms": None})
    change.emit(table_event("table_over", totals=change.data.totals))


def ready(data: TableData, state: engine.Deal | None, seat: int, now_ms: int) -> Change:
    """The seat wants the next deal; it starts once every present human is ready."""
    if data.status == "waiting":
        raise TableRefused("not_started", f"table {data.table_id} has not started")
    if data.status == "finished" or state is None or not state.is_over:
        # Late or repeated (the deal was re-dealt, or the table is over): nothing to do.
        return Change(data, state)
    if data.ready[seat]:
        return Change(data, state)  # said twice: nothing new
    change = Change(data.model_copy(update={"ready": _set(data.ready, seat)}), state)
    if everyone_ready(change.data, now_ms):
        begin_deal(change, now_ms)
    elif change.data.next_deal_ms is not None:
        _announce_wait(change, now_ms)
    return change


def _set(flags: list[bool], seat: int) -> list[bool]:
    out = list(flags)
    out[seat] = True
    return out


def everyone_ready(data: TableData, now_ms: int) -> bool:
    """Every human is ready, or away past the grace period (the AI plays for them)."""
    return all(_counts_as_ready(data, i, now_ms) for i in range(len(data.seats)))


def _counts_as_ready(data: TableData, seat: int, now_ms: int) -> bool:
    s = data.seats[seat]
    return data.ready[seat] or s.occupant != "human" or is_away(data, seat, now_ms)


def anyone_present(data: TableData) -> bool:
    """A human is connected: without one, a table does not start new deals."""
    return any(s.occupant == "human" and s.dropped_at_ms is None for s in data.seats)


def is_away(data: TableData, seat: int, now_ms: int) -> bool:
    """A human gone for longer than the grace period: the AI takes their turns."""
    dropped = data.seats[seat].dropped_at_ms
    return dropped is not None and now_ms >= dropped + data.options.grace_seconds * 1000


def next_deal(data: TableData, state: engine.Deal | None, now_ms: int) -> Change:
    """The driver's move after a deal: re-deal a cancelled one, or the wait is over."""
    change = Change(data, state)
    begin_deal(change, now_ms)
    return change


def mark(data: TableData, state: engine.Deal | None, version: int) -> Change:
    """A new version of ``data``, unchanged, if it is still at ``version``: a commit that only
    tells the other nodes the store's history (see ``TableRuntime.reload``)."""
    return Change(data.model_copy() if data.version == version else data, state)
