"""The duplicate events' messages of one connection (protocol 2, PROTOCOL.md section 18).

``duplicate_list`` lists the events; ``duplicate_enter`` enters the signed-in
account in one (once); ``duplicate_play`` seats it for its next deal (a robot
event: a table of its own, one deal, three AI; a ``tables`` event: a table of
four that plays every deal) and the table arrives as ``joined`` and its events,
as any table's; ``duplicate_show`` shows standings and results to whom may see
them. Who may see what is the history's to decide (``duplicate_reads``): every
refusal comes from there, with its code (``results_hidden``, ``not_entered``...).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import engine
from protocol import models as m
from protocol.errors import error_code
from server.clock import now_ms
from server.duplicate import event_phase
from server.history import (
    HistoryError,
    ShownResult,
    StoredEvent,
    deal_results,
    enter_event,
    entry_of,
    entry_results,
    event_standings,
    own_standing,
    stored_event,
)
from server.history.duplicate_events import check_open
from server.history.duplicate_listing import ListedEvent, listed_event, listed_events
from server.history.duplicate_play import results_count
from server.node.duplicates import DuplicateTables
from server.node.runtime import TableRuntime
from server.table import seating
from server.table import transitions as tr
from server.table.data import TableData
from server.table.refusals import TableError, TableRefused
from server.table.seating import JoinRequest

from .requester import Requester

log = logging.getLogger("tarot.duplicate")

DuplicateRequest = m.DuplicateList | m.DuplicateEnter | m.DuplicatePlay | m.DuplicateShow


async def duplicate_request(conn: Requester, message: DuplicateRequest) -> None:
    """Answer one duplicate event message; a history refusal is sent with its own code."""
    try:
        await _answer(conn, message)
    except HistoryError as e:
        conn.error(error_code(e.code), e.message, re=message.id)


def _duplicates(conn: Requester) -> DuplicateTables:
    if conn.node.duplicates is None:
        raise TableRefused(
            "accounts_unavailable", "this server keeps no history: it has no duplicate events"
        )
    return conn.node.duplicates


def _account(conn: Requester) -> int:
    account_id = conn.signing.account_id
    if account_id is None:
        raise TableRefused("not_signed_in", "duplicate events are played signed in: sign in")
    return account_id


async def _answer(conn: Requester, message: DuplicateRequest) -> None:
    db = _duplicates(conn).engine
    viewer = conn.signing.account_id
    match message:
        case m.DuplicateList():
            listed = await listed_events(db, viewer)
            conn.send(m.DuplicateEvents(events=[event_info(e) for e in listed], re=message.id))
        case m.DuplicateEnter(event_id=event_id):
            await enter_event(db, event_id, account_id=_account(conn))
            event = event_info(await listed_event(db, event_id, viewer))
            conn.send(m.DuplicateEntered(event=event, re=message.id))
        case m.DuplicatePlay():
            await _play(conn, message)
        case m.DuplicateShow():
            await _show(conn, message)


def event_info(listed: ListedEvent, now: datetime | None = None) -> m.EventInfo:
    stored, event = listed.stored, listed.stored.event
    moment = now or datetime.now(UTC)
    return m.EventInfo(
        event_id=stored.id,
        name=event.name,
        kind=event.kind,
        scoring=event.scoring,
        deals=event.deals,
        opens_ms=int(event.opens.timestamp() * 1000),
        closes_ms=int(event.closes.timestamp() * 1000),
        phase=event_phase(event, moment),
        scored=stored.scored_at is not None,
        entry_id=listed.entry_id,
        played=listed.played,
    )


async def _play(conn: Requester, play: m.DuplicatePlay) -> None:
    duplicates, account_id = _duplicates(conn), _account(conn)
    stored = await stored_event(duplicates.engine, play.event_id)
    check_open(stored, datetime.now(UTC), "played")
    entry = await entry_of(duplicates.engine, play.event_id, account_id)
    if await _back_to_table(conn, duplicates, entry, account_id, play):
        return
    await _settled(conn)  # the deal just played is counted before the next is dealt
    index = await results_count(duplicates.engine, entry)
    if index >= stored.event.deals:
        raise TableRefused("event_played", f"you have played every deal of event {stored.id}")
    if stored.event.kind == "robot":
        # One table per entrant and deal, whoever asks: a second ask finds the first's.
        runtime = await duplicates.robot_table(stored, entry, index)
        _check_not_played(runtime, index, account_id)
        change, _ = await _seat(conn, runtime, entry)
    elif index > 0:
        raise TableRefused(
            "already_entered", f"you have played in event {stored.id} at a table already"
        )
    else:
        runtime, change = await _seat_at_event_table(conn, duplicates, stored, entry, play)
    await conn._seated_by(runtime, change, play.id)
    duplicates.playing(entry, runtime.table_id)


def _check_not_played(runtime: TableRuntime, index: int, account_id: int) -> None:
    if runtime.data.status == "finished":  # its result is on its way (another node's)
        raise TableRefused(
            "deal_in_progress",
            f"your deal {index} was played at table {runtime.table_id}: its result is being"
            " recorded, ask again in a moment",
        )
    # Left mid-deal, maybe on another node (``_back_to_table`` knows this node's only):
    # the AI finishes it, and the seat is not taken back.
    if (
        runtime.data.status == "playing"
        and seating.seat_of_account(runtime.data, account_id) is None
    ):
        raise TableRefused(
            "deal_in_progress",
            f"the AI is finishing your deal at table {runtime.table_id}: play on after it",
        )


async def _seat_at_event_table(
    conn: Requester,
    duplicates: DuplicateTables,
    stored: StoredEvent,
    entry: int,
    play: m.DuplicatePlay,
) -> tuple[TableRuntime, tr.Change]:
    """A seat at a ``tables`` event's table: the entrant's own (made by its first ask) or
    ``play.table_id``. The entrant plays at one table: a seat it holds at another (on any
    node) is taken back there, or refused; the seat taken is claimed for the entry in
    the store, and given back if another ask claimed another table first."""
    account_id = _account(conn)
    held = await duplicates.seated_at(stored, account_id)
    if held is not None and play.table_id not in (None, held):
        raise TableRefused(
            "already_entered", f"you play event {stored.id} at table {held}, not another"
        )
    if held is not None:
        runtime = await conn.node.runtime(held)  # its seat there, back (a new token)
    elif play.table_id is None:
        runtime = await duplicates.event_table(stored, entry)
        if runtime.data.status != "waiting":  # its own started without it (it left): another
            runtime = await duplicates.event_table(stored, entry, again=True)
    else:
        runtime = await conn.node.runtime(play.table_id)
        if runtime.data.duplicate is None or runtime.data.duplicate.event_id != stored.id:
            raise TableRefused(
                "duplicate_table", f"table {play.table_id} plays no deal of event {stored.id}"
            )
    # The fourth seat taken does not start the table yet: if the claim is refused, or
    # anything fails before the connection follows the seat, the seat goes back to a
    # table still waiting, and the entry plays nowhere but at the table it claimed.
    change, fresh = await _seat(conn, runtime, entry, hold_start=True)
    try:
        other = await duplicates.claim(stored, entry, account_id, runtime.table_id)
        if other is not None:
            raise TableRefused(
                "already_entered", f"you play event {stored.id} at table {other}, not another"
            )
        started = await runtime.transact(lambda d, s: seating.start_if_full(d, s, now_ms()))
    except BaseException:
        if fresh:  # a seat the account held before this ask stays its own
            await _give_back(runtime, change)
        raise
    change.data = started.data
    return runtime, change


async def _give_back(runtime: TableRuntime, change: tr.Change) -> None:
    assert change.seated is not None  # a join seats or refuses
    seat = change.seated[0]
    session = change.data.seats[seat].session
    try:
        await runtime.transact(lambda d, s: seating.give_back(d, s, seat, session, now_ms()))
    except TableError as e:  # the seat stays: its player may resume it by account
        log.warning(
            "table %s: seat %d stays after a refused duplicate_play: %s",
            runtime.table_id,
            seat,
            e.message,
        )


async def _back_to_table(
    conn: Requester,
    duplicates: DuplicateTables,
    entry: int,
    account_id: int,
    play: m.DuplicatePlay,
) -> bool:
    """Seat the entrant again at the table it plays at (a deal under way, a table of four
    through the event); False if it has none."""
    runtime = await duplicates.table_in_play(entry)
    if runtime is None:
        return False
    held = seating.seat_of_account(runtime.data, account_id)
    planned = runtime.data.duplicate
    plays_there = planned is not None and entry in planned.entries
    if held is None and (runtime.data.status == "waiting" or not plays_there):
        duplicates.forget(entry)  # it left a table before it started: free to take another
        return False
    if play.table_id is not None and play.table_id != runtime.table_id:
        raise TableRefused(
            "already_entered",
            f"you play event {play.event_id} at table {runtime.table_id}, not another",
        )
    if held is None:
        raise TableRefused(
            "deal_in_progress",
            f"the AI is finishing your deal at table {runtime.table_id}: play on after it",
        )
    node = conn.node.settings.node_id
    change = await runtime.transact(lambda d, s: seating.reclaim(d, s, account_id, node))
    await conn._seated_by(runtime, change, play.id)
    return True


async def _seat(
    conn: Requester, runtime: TableRuntime, entry: int, hold_start: bool = False
) -> tuple[tr.Change, bool]:
    """The entrant's seat at ``runtime``'s table; and whether it is a new one (not a seat
    the account held there already, taken back)."""
    account = conn.signing.account
    request = JoinRequest(
        name=account.name if account is not None else "",
        now_ms=now_ms(),
        seat=0 if runtime.data.duplicate and runtime.data.duplicate.kind == "robot" else None,
        node=conn.node.settings.node_id,
        account_id=conn.signing.account_id,
        entry=entry,
        hold_start=hold_start,
    )
    fresh = True

    def seat_and_start(data: TableData, state: engine.Deal | None) -> tr.Change:
        nonlocal fresh
        account_id = request.account_id
        fresh = account_id is None or seating.seat_of_account(data, account_id) is None
        change = seating.join(data, state, request)  # the account's seat back, if it has one
        robot = data.duplicate is not None and data.duplicate.kind == "robot"
        if robot and change.data.status == "waiting":
            tr.start_series(change, request.now_ms)  # alone with the AI: at once
        return change

    change = await runtime.transact(seat_and_start)
    return change, fresh


async def _settled(conn: Requester) -> None:
    """Until the results of the deals finished on this node are recorded."""
    archive = conn.node.archive
    if archive is not None and archive.duplicates is not None:
        await archive.duplicates.settled()


async def _show(conn: Requester, show: m.DuplicateShow) -> None:
    db, viewer = _duplicates(conn).engine, conn.signing.account_id
    await _settled(conn)  # one's own deal just played shows
    listed = await listed_event(db, show.event_id, viewer)
    now = datetime.now(UTC)
    own = None
    if listed.entry_id is not None and viewer is not None:
        running = await own_standing(db, show.event_id, viewer)
        own = m.OwnStanding(mark=running.mark, played=running.played, deals=running.deals)
    reply = m.DuplicateResults(
        event=event_info(listed, now), deal=show.deal, entry=show.entry, own=own, re=show.id
    )
    if show.deal is not None:
        found = await deal_results(db, show.event_id, show.deal, viewer)
        reply = reply.model_copy(update={"results": [result_info(r) for r in found]})
    elif show.entry is not None:
        found = await entry_results(db, show.event_id, show.entry, viewer)
        reply = reply.model_copy(update={"results": [result_info(r) for r in found]})
    elif now >= listed.stored.event.closes and listed.stored.scored_at is not None:
        standings = [
            m.StandingInfo(
                rank=s.rank,
                entry_id=s.entry_id,
                name=s.name,
                ai_level=s.ai_level,
                mark=s.mark,
                played=s.played,
            )
            for s in await event_standings(db, show.event_id, viewer)
        ]
        reply = reply.model_copy(update={"standings": standings})
    conn.send(reply)


def result_info(shown: ShownResult) -> m.ResultInfo:
    return m.ResultInfo(
        entry_id=shown.entry_id,
        name=shown.name,
        ai_level=shown.ai_level,
        deal=shown.deal_index,
        seat=shown.seat,
        contract=shown.contract,
        score=_points(shown.score),
        mark=shown.mark,
        table_id=shown.table_id,
        deal_number=shown.deal_number,
    )


def _points(score: float) -> int | float:
    return int(score) if float(score).is_integer() else score
