"""Reviews on real nodes that keep a history: ``review_stored_deal`` reviews a stored deal by
its id, a review is analysed once and any node answers it again from the database, and
the number of analyses is a player's, however many connections it opens."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from ai.review.judge import ReviewSettings
from protocol import models as m
from server.app import App
from server.history import store_deal, stored_deals, stored_review
from server.node.archive import Archive
from server.settings import Settings as ServerSettings

from ..server.test_review import a_played_deal, quick_reviews, review_of
from ..server.wire import Message, WireClient
from .databases import sqlite_url
from .golden import NAMES, finished_deals

ONE_SEAT = ReviewSettings(budget_ms=1.0, samples=2, seats=(0,))  # ~0.2 s a deal
PLAYED = [i for i, name in enumerate(NAMES) if not name.startswith("cancelled")]
CANCELLED = NAMES.index("cancelled_all_pass")


@asynccontextmanager
async def node(db_url: str | None) -> AsyncIterator[App]:
    """A node on the memory store whose history is ``db_url`` (None: it keeps none)."""
    archive = await Archive.open(db_url) if db_url is not None else None
    app = await App.start(ServerSettings(port=0, next_deal_seconds=30), archive=archive)
    quick_reviews(app, ONE_SEAT)
    try:
        yield app
    finally:
        await app.stop(drain_seconds=0)


def url_of(app: App) -> str:
    return f"ws://127.0.0.1:{app.port}/"


async def stored_review_of(
    client: WireClient, table_id: str, number: int, re: int
) -> tuple[list[Message], Message]:
    """Ask for a stored deal's review: its progress messages and the answer (or error)."""
    await client.send(
        {"type": "review_stored_deal", "table_id": table_id, "deal_number": number, "id": re}
    )
    progress: list[Message] = []
    while True:
        message = await client.until(lambda m: m.get("re") == re, timeout=110)
        if message["type"] != "review_progress":
            return progress, message
        progress.append(message)


async def test_a_stored_deal_is_analysed_once_and_any_node_answers_it_again(db_url: str) -> None:
    async with node(db_url) as first, node(db_url) as second:
        kept = first.node.reviews.kept
        assert kept is not None
        for deal in finished_deals():
            await store_deal(kept.engine, deal)
        number = PLAYED[0]
        client = await WireClient.open(url_of(first))
        progress, answer = await stored_review_of(client, "t-golden", number, 1)
        assert answer["type"] == "stored_deal_review", answer
        review = answer["review"]
        assert (answer["table_id"], answer["deal_number"]) == ("t-golden", number)
        assert [p["done"] for p in progress] == list(range(1, len(review["decisions"]) + 1))
        assert all(p["stored"] and p["deal_number"] == number for p in progress)
        assert first.node.reviews.decisions == len(review["decisions"]) > 0
        reviewer = first.node.reviews.reviewer
        kept_review = await stored_review(kept.engine, "t-golden", number, reviewer)
        assert m.Review.model_validate(kept_review) == m.Review.model_validate(review)
        # Another node, which never saw the deal: answered from the database, no analysis.
        other = await WireClient.open(url_of(second))
        progress, again = await stored_review_of(other, "t-golden", number, 2)
        assert progress == [] and again["review"] == review
        assert second.node.reviews.decisions == 0


async def test_the_deal_just_played_is_kept_for_the_other_nodes(db_url: str) -> None:
    async with node(db_url) as first, node(db_url) as second:
        client, table_id, number, record = await a_played_deal(url_of(first))
        _, answer = await review_of(client, number, 7)
        kept = first.node.reviews.kept
        assert kept is not None
        stored = [d async for d in stored_deals(kept.engine) if d.table_id == table_id]
        assert [d.record for d in stored if d.sheet["status"] == "played"] == [record]
        other = await WireClient.open(url_of(second))
        progress, again = await stored_review_of(other, table_id, stored[-1].deal_number, 8)
        assert progress == [] and again["review"] == answer["review"]
        assert second.node.reviews.decisions == 0


async def test_deals_that_cannot_be_reviewed_are_refused_and_nothing_is_analysed(
    db_url: str,
) -> None:
    async with node(db_url) as app, node(None) as without:
        kept = app.node.reviews.kept
        assert kept is not None
        for deal in finished_deals():
            await store_deal(kept.engine, deal)
        client = await WireClient.open(url_of(app))
        for table_id, number, says in (
            ("t-golden", CANCELLED, "was cancelled: nothing to review"),
            ("t-golden", 99, "no stored deal 99 of table 't-golden'"),
            ("t-nothing", 0, "no stored deal 0 of table 't-nothing'"),
        ):
            _, error = await stored_review_of(client, table_id, number, 3)
            assert error["type"] == "error" and error["code"] == "review_unavailable"
            assert says in error["message"]
        for bad in ({"deal_number": -1}, {"table_id": "a b"}, {"table_id": "x" * 65}):
            message = {"type": "review_stored_deal", "table_id": "t", "deal_number": 0} | bad
            await client.send(message | {"id": 4})
            error = await client.until(lambda m: m.get("re") == 4)
            assert error["code"] == "invalid_message"
        lone = await WireClient.open(url_of(without))
        _, error = await stored_review_of(lone, "t-golden", PLAYED[0], 5)
        assert error["code"] == "review_unavailable" and "keeps no history" in error["message"]
        assert app.node.reviews.decisions == without.node.reviews.decisions == 0


async def test_a_player_s_analyses_are_limited_whatever_its_connections(db_url: str) -> None:
    async with node(db_url) as app:
        kept = app.node.reviews.kept
        assert kept is not None
        for deal in finished_deals():
            await store_deal(kept.engine, deal)
        app.node.reviews.limits.per_window = 2
        one, two, three = [await WireClient.open(url_of(app)) for _ in range(3)]
        # One analysis at a time for the player: another connection's is refused meanwhile,
        # but it may wait for the same deal's, which costs nothing more.
        await one.send(
            {"type": "review_stored_deal", "table_id": "t-golden", "deal_number": PLAYED[0]}
            | {"id": 1}
        )
        await one.until(lambda m: m["type"] == "review_progress")
        _, refused = await stored_review_of(two, "t-golden", PLAYED[1], 2)
        assert refused["code"] == "review_limit" and "already running" in refused["message"]
        _, shared = await stored_review_of(two, "t-golden", PLAYED[0], 3)
        first = await one.until(lambda m: m["type"] == "stored_deal_review", timeout=110)
        assert shared["type"] == "stored_deal_review" and shared["review"] == first["review"]
        _, answer = await stored_review_of(two, "t-golden", PLAYED[1], 4)
        assert answer["type"] == "stored_deal_review"
        # Two analyses made: a third connection of the player gets no third...
        _, refused = await stored_review_of(three, "t-golden", PLAYED[2], 5)
        assert refused["code"] == "review_limit"
        assert "at most 2 reviews per player in 60 min" in refused["message"]
        # ...but the reviews already made, from the node's cache or the database.
        app.node.reviews._cache.clear()
        for number in PLAYED[:2]:
            progress, again = await stored_review_of(three, "t-golden", number, 6)
            assert progress == [] and again["type"] == "stored_deal_review"
        analysed = app.node.reviews.decisions
        assert analysed == len(first["review"]["decisions"]) + len(answer["review"]["decisions"])


async def test_a_signed_in_player_s_analyses_are_its_account_s(tmp_path: Path) -> None:
    # SQLite only: what is tested is the node's count, and signing up costs argon2's time
    async with node(sqlite_url(tmp_path)) as app:
        kept = app.node.reviews.kept
        assert kept is not None
        for deal in finished_deals():
            await store_deal(kept.engine, deal)
        app.node.reviews.limits.per_window = 1
        anna, anna_again, bob = [await WireClient.open(url_of(app)) for _ in range(3)]
        await anna.request({"type": "sign_up", "name": "Anna", "password": "p" * 8}, "signed_in")
        await bob.request({"type": "sign_up", "name": "Bob", "password": "p" * 8}, "signed_in")
        signed_in = {"type": "sign_in", "name": "anna", "password": "p" * 8}
        await anna_again.request(signed_in, "signed_in")
        _, answer = await stored_review_of(anna, "t-golden", PLAYED[0], 1)
        assert answer["type"] == "stored_deal_review"
        # Anna's other connection: her account's one analysis is spent...
        _, refused = await stored_review_of(anna_again, "t-golden", PLAYED[1], 2)
        assert refused["code"] == "review_limit"
        # ...not Bob's, though he comes from the same address.
        _, answer = await stored_review_of(bob, "t-golden", PLAYED[1], 3)
        assert answer["type"] == "stored_deal_review"


async def test_a_stored_deal_s_review_while_the_database_is_down_is_refused() -> None:
    async with node("postgresql://tarot@127.0.0.1:1/tarot") as app:  # nothing listens there
        client = await WireClient.open(url_of(app))
        _, error = await stored_review_of(client, "t-golden", 0, 1)
        assert error["code"] == "database_unavailable", error
        assert "the history database did not answer" in error["message"]
        assert app.node.reviews.decisions == 0
