"""Ratings in a real SQLite and PostgreSQL: rated tables move their accounts' ratings as
docs/RATINGS.md says, once per deal; guests' tables are unrated; AI seats never move and
are no opponent (the accounts are compared with each other); a leaver is rated last."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence
from itertools import pairwise

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from server.history import (
    Accounts,
    DealWriter,
    FinishedDeal,
    Occupant,
    open_engine,
    store_deal,
)
from server.history.rating_model import START, Rating, last_place, seat_scores, updated
from server.history.ratings import rate_deal, rate_pending, rating_history, rating_of
from server.history.schema import rated_deals, rating_changes, ratings
from server.history.schema import seats as seats_table

from .golden import finished_deals

PASSWORD = "correct horse battery"
NAMES = ("Anna", "Bruno", "Chloé", "Dmitri")


async def _accounts(engine: AsyncEngine, names: Sequence[str] = NAMES) -> list[int]:
    book = Accounts(engine)
    return [(await book.sign_up(name, PASSWORD)).account.id for name in names]


async def _store(engine: AsyncEngine, seats: tuple[Occupant, ...], table: str) -> list[int]:
    """Every golden deal stored as one deal of ``table`` with ``seats``; their numbers."""
    deals = [dataclasses.replace(d, seats=seats) for d in finished_deals(table)]
    for deal in deals:
        assert await store_deal(engine, deal)
    return [d.deal_number for d in deals]


def _replayed(start: list[Rating], table: str = "t") -> list[Rating]:
    """The four ratings after the golden deals, by the pure model alone."""
    current = list(start)
    for deal in finished_deals(table):
        scores = seat_scores(deal.sheet)
        if scores is not None:
            current = list(updated(current, scores))
    return current


async def _count(engine: AsyncEngine, table: object) -> int:
    async with engine.connect() as conn:
        return int((await conn.execute(select(func.count()).select_from(table))).scalar_one())  # type: ignore[arg-type]


async def test_a_table_of_four_signed_in_players_moves_all_four(engine: AsyncEngine) -> None:
    ids = await _accounts(engine)
    numbers = await _store(engine, tuple(Occupant(account_id=i) for i in ids), "t4")
    assert await rate_pending(engine) == len(numbers)
    expected = _replayed([Rating()] * 4)
    played = sum(seat_scores(d.sheet) is not None for d in finished_deals())
    for account_id, want in zip(ids, expected, strict=True):
        got = await rating_of(engine, account_id)
        assert got.deals == played and abs(got.value - want.value) < 1e-6
        assert got.provisional == (played < 20)
        history = await rating_history(engine, account_id)
        assert len(history) == played
        assert history[0].before == START and abs(history[-1].after - want.value) < 1e-6
        # Each change starts where the previous ended: a chart of the rating.
        assert all(a.after == b.before for a, b in pairwise(history))
    # Four accounts, one step each: the ratings' sum did not move.
    total = sum([(await rating_of(engine, i)).value for i in ids])
    assert abs(total - 4 * START) < 1e-6
    assert await _count(engine, rating_changes) == 4 * played
    assert await _count(engine, rated_deals) == len(numbers)


async def test_one_player_against_three_ai_moves_nobody(engine: AsyncEngine) -> None:
    """AI seats are no opponent: alone among AI, a player's deals are looked at, unrated."""
    [anna] = await _accounts(engine, ["Anna"])
    levels = ("random", "expert", "strong")
    seats = (
        Occupant(ai_level=levels[0]),
        Occupant(account_id=anna),
        *[Occupant(ai_level=level) for level in levels[1:]],
    )
    numbers = await _store(engine, seats, "t1")
    assert await rate_pending(engine) == len(numbers)
    assert await rating_of(engine, anna) == Rating()
    assert await _count(engine, rating_changes) == 0


async def test_two_players_and_two_ai_move_against_each_other_only(engine: AsyncEngine) -> None:
    """The old model took the AI at their fixed ratings (random's 726, strong's 1537); now
    the two accounts' ratings are what the pure model gives them with no AI at all."""
    anna, bruno = await _accounts(engine, ["Anna", "Bruno"])
    seats = (
        Occupant(account_id=anna),
        Occupant(ai_level="random"),
        Occupant(account_id=bruno),
        Occupant(ai_level="strong"),
    )
    await _store(engine, seats, "t2")
    await rate_pending(engine)
    current: list[Rating | None] = [Rating(), None, Rating(), None]
    for deal in finished_deals("t2"):
        scores = seat_scores(deal.sheet)
        if scores is not None:
            current = list(updated(current, scores))
    for account_id, want in ((anna, current[0]), (bruno, current[2])):
        got = await rating_of(engine, account_id)
        assert want is not None and got.deals == want.deals > 0
        assert abs(got.value - want.value) < 1e-6
    # Two accounts at one step: what one won, the other lost.
    total = (await rating_of(engine, anna)).value + (await rating_of(engine, bruno)).value
    assert abs(total - 2 * START) < 1e-6


async def _dmitri_left(engine: AsyncEngine, key: str) -> tuple[list[int], FinishedDeal]:
    """Four accounts; a played deal whose seat 3 Dmitri (the fourth) left mid-deal, the
    AI finishing it."""
    ids = await _accounts(engine)
    seats = (*[Occupant(account_id=i) for i in ids[:3]], Occupant(ai_level="expert"))
    played = next(d for d in finished_deals(key) if seat_scores(d.sheet) is not None)
    return ids, dataclasses.replace(played, seats=seats, left=((3, ids[3]),))


async def test_a_leaver_is_rated_last_once_by_the_deal_writer(engine: AsyncEngine) -> None:
    """Dmitri left seat 3 of a rated quick-play table mid-deal: the AI finished the deal
    (stored with the AI there), and the writer rates him last against the three others."""
    ids, deal = await _dmitri_left(engine, "left")
    dmitri = ids[3]
    writer = DealWriter(engine)
    writer.start()
    try:
        writer.submit(deal)
        writer.submit(deal)  # another node's copy: rated once all the same
        await writer.flush()
    finally:
        await writer.close()
    scores = seat_scores(deal.sheet)
    assert scores is not None
    want = updated([Rating()] * 4, last_place(scores, 3))
    for account_id, expected in zip(ids, want, strict=True):
        got = await rating_of(engine, account_id)
        assert got.deals == 1 and abs(got.value - expected.value) < 1e-6
    assert (await rating_of(engine, dmitri)).value < min(
        [(await rating_of(engine, i)).value for i in ids[:3]]
    )
    [change] = await rating_history(engine, dmitri)
    assert change.seat == 3 and change.deal_number == deal.deal_number
    async with engine.connect() as conn:
        stored = (await conn.execute(select(seats_table).where(seats_table.c.seat == 3))).one()
    assert stored.ai_level == "expert" and stored.account_id is None


async def test_a_leaver_kept_with_the_stored_seat_is_rated_last_by_rate_pending(
    engine: AsyncEngine,
) -> None:
    """The writer that stored the deal went before it rated it: the leaver is kept with
    the seat (migration 0009), so ``rate_pending`` rates Dmitri last all the same."""
    ids, deal = await _dmitri_left(engine, "pending")
    dmitri = ids[3]
    assert await store_deal(engine, deal)  # stored, not rated: no writer rated it
    async with engine.connect() as conn:
        stored = (await conn.execute(select(seats_table).where(seats_table.c.seat == 3))).one()
    assert (stored.ai_level, stored.account_id, stored.left_account_id) == ("expert", None, dmitri)
    assert await rate_pending(engine) == 1
    scores = seat_scores(deal.sheet)
    assert scores is not None
    want = updated([Rating()] * 4, last_place(scores, 3))
    for account_id, expected in zip(ids, want, strict=True):
        got = await rating_of(engine, account_id)
        assert got.deals == 1 and abs(got.value - expected.value) < 1e-6


async def test_a_table_with_a_guest_is_unrated(engine: AsyncEngine) -> None:
    ids = await _accounts(engine, NAMES[:3])
    seats = (*[Occupant(account_id=i) for i in ids], Occupant(guest_name="Zoé"))
    numbers = await _store(engine, seats, "guest")
    assert await rate_pending(engine) == len(numbers)  # looked at, once
    assert await _count(engine, ratings) == 0 and await _count(engine, rating_changes) == 0
    for account_id in ids:
        assert await rating_of(engine, account_id) == Rating()
    async with engine.connect() as conn:
        flags = (await conn.execute(select(rated_deals.c.rated))).scalars().all()
    assert len(flags) == len(numbers) and not any(flags)
    assert await rate_pending(engine) == 0


async def test_unknown_occupants_and_uncalibrated_ai_are_unrated(engine: AsyncEngine) -> None:
    [anna] = await _accounts(engine, ["Anna"])
    tables = {
        "nobody": (Occupant(account_id=anna), Occupant(), Occupant(), Occupant()),
        "odd-ai": (Occupant(account_id=anna), *[Occupant(ai_level="strong:budget_ms=5")] * 3),
        "all-ai": tuple(Occupant(ai_level="expert") for _ in range(4)),
        "twice": (Occupant(account_id=anna), Occupant(account_id=anna), *[Occupant()] * 2),
    }
    for table, seats in tables.items():
        await _store(engine, seats, table)
    await rate_pending(engine)
    assert await _count(engine, ratings) == 0 and await _count(engine, rating_changes) == 0


async def test_a_deal_is_rated_once_however_often_and_by_whomever(
    engine: AsyncEngine, db_url: str
) -> None:
    ids = await _accounts(engine)
    numbers = await _store(engine, tuple(Occupant(account_id=i) for i in ids), "t")
    engines = [open_engine(db_url) for _ in range(4)]
    try:
        results = await asyncio.gather(*(rate_deal(e, "t", n) for n in numbers for e in engines))
    finally:
        for e in engines:
            await e.dispose()
    assert sum(r is not None for r in results) == len(numbers)
    assert await rate_deal(engine, "t", numbers[0]) is None
    assert await rate_pending(engine) == 0
    played = sum(seat_scores(d.sheet) is not None for d in finished_deals())
    assert await _count(engine, rating_changes) == 4 * played
    for account_id in ids:
        assert (await rating_of(engine, account_id)).deals == played
    assert await rate_deal(engine, "no such table", 0) is None


async def test_two_tables_racing_on_one_player_keep_both_changes(
    engine: AsyncEngine, db_url: str
) -> None:
    """Anna at two tables whose deals are rated at once by two nodes: neither change is lost."""
    ids = await _accounts(engine, ["Anna", "Bruno", "Chloé", "Dmitri", "Emma", "Farid", "Gil"])
    anna, others = ids[0], ids[1:]
    first = (Occupant(account_id=anna), *[Occupant(account_id=i) for i in others[:3]])
    second = (Occupant(account_id=anna), *[Occupant(account_id=i) for i in others[3:]])
    numbers = await _store(engine, first, "left")
    await _store(engine, second, "right")
    engines = [open_engine(db_url) for _ in range(2)]
    try:
        for n in numbers:
            left, right = rate_deal(engines[0], "left", n), rate_deal(engines[1], "right", n)
            await asyncio.gather(left, right)
    finally:
        for e in engines:
            await e.dispose()
    played = sum(seat_scores(d.sheet) is not None for d in finished_deals())
    history = await rating_history(engine, anna)
    assert (await rating_of(engine, anna)).deals == 2 * played == len(history)
    chained = sorted(history, key=lambda c: c.deals)
    assert [c.deals for c in chained] == list(range(1, 2 * played + 1))
    assert all(a.after == b.before for a, b in pairwise(chained))


async def test_the_deal_writer_rates_each_deal_it_writes(engine: AsyncEngine) -> None:
    """What a node's writer does with a finished deal: store it, then rate it, once, even
    when the same deals are submitted again (another node's writer, a retry)."""
    ids = await _accounts(engine)
    deals = [
        dataclasses.replace(d, seats=tuple(Occupant(account_id=i) for i in ids))
        for d in finished_deals("w")
    ]
    writer = DealWriter(engine)
    writer.start()
    try:
        for deal in [*deals, *deals]:
            writer.submit(deal)
        await writer.flush()
    finally:
        await writer.close()
    expected = _replayed([Rating()] * 4)
    for account_id, want in zip(ids, expected, strict=True):
        got = await rating_of(engine, account_id)
        assert got.deals == want.deals and abs(got.value - want.value) < 1e-6
    assert await rate_pending(engine) == 0


async def test_a_deal_of_guests_only_is_marked_never_rated_as_it_is_stored(
    engine: AsyncEngine,
) -> None:
    """No account sat there: the store marks it looked at, and rating it costs nothing more
    (it was three statements a deal in the writer, most deals of a site of guests)."""
    seats = tuple(Occupant(guest_name=name) for name in NAMES)
    numbers = await _store(engine, seats, "guests")
    assert await _count(engine, rated_deals) == len(numbers)
    assert await rate_pending(engine) == 0
    assert await rate_deal(engine, "guests", numbers[0]) is None  # looked at already
    assert await _count(engine, ratings) == 0 and await _count(engine, rating_changes) == 0


async def test_a_casual_quick_play_deal_is_never_rated(engine: AsyncEngine) -> None:
    """Casual quick play (docs/RATINGS.md, "Quick play"): four accounts, and no rating
    moves; the deals stay in their history."""
    ids = await _accounts(engine)
    deals = [
        dataclasses.replace(d, seats=tuple(Occupant(account_id=i) for i in ids), rated=False)
        for d in finished_deals("casual")
    ]
    writer = DealWriter(engine)
    writer.start()
    try:
        for deal in deals:
            writer.submit(deal)
        await writer.flush()
    finally:
        await writer.close()
    assert await rate_pending(engine) == 0
    assert await _count(engine, ratings) == 0 and await _count(engine, rating_changes) == 0
    assert await _count(engine, rated_deals) == len(deals)
