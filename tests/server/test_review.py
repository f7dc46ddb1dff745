"""``review_deal``: the deal just played is analysed in the bot workers, with progress, then
cached; a player runs one review at a time and a bounded number an hour; any other deal
is refused with ``review_unavailable`` and nothing changes."""

from __future__ import annotations

import asyncio
import random
import time

from ai.review.judge import ReviewSettings
from server.app import App
from server.node.bots import BotRunner
from server.node.reviews import Reviews

from .test_tables import create
from .wire import Message, WireClient, is_event, play_until

QUICK = ReviewSettings(budget_ms=1.0, samples=2)  # 2 samples of each option: ~2 s a deal


def quick_reviews(app: App, settings: ReviewSettings = QUICK) -> None:
    """The node's reviews at a small budget, in a worker at normal priority: the node's own
    runs at nice 19 and would wait for CPU on a busy test machine (the effect of that
    priority on the tables is what ``tarot bench review`` measures)."""
    old = app.node.reviews
    old.close()
    app.node.reviews = Reviews(BotRunner(1), settings)
    app.node.reviews.kept, app.node.reviews.limits = old.kept, old.limits


def played(message: Message) -> bool:
    return is_event("score")(message) and message["event"]["sheet"]["status"] == "played"


async def a_played_deal(url: str) -> tuple[WireClient, str, int, dict[str, object]]:
    """A client seated with three AI at a two-deal table, its first played deal over."""
    client = await WireClient.open(url)
    table_id = await create(client, deals=2, ai_level="basic")
    await client.request({"type": "join", "table_id": table_id, "seat": 1}, "joined")
    await client.send({"type": "start"})
    score = await play_until(client, played, random.Random(3))
    record = await client.until(is_event("record"))
    return client, table_id, score["event"]["deal_number"], record["event"]["record"]


async def review_of(client: WireClient, number: int, re: int) -> tuple[list[Message], Message]:
    """Ask for a review; the progress messages and the review (errors raise)."""
    await client.send({"type": "review_deal", "deal_number": number, "id": re})
    progress: list[Message] = []
    while True:
        message = await client.until(lambda m: m.get("re") == re, timeout=110, check_error=True)
        if message["type"] == "deal_review":
            return progress, message
        progress.append(message)


async def test_the_deal_just_played_is_reviewed_with_progress_then_from_the_cache(
    app: App, url: str
) -> None:
    quick_reviews(app)
    client, table_id, number, record = await a_played_deal(url)
    progress, answer = await review_of(client, number, 7)
    review = answer["review"]
    decisions = review["decisions"]
    assert answer["table_id"] == table_id and answer["deal_number"] == number
    assert [e["chosen"] for e in decisions if e["kind"] == "card"] == record["plays"]
    assert [p["done"] for p in progress] == list(range(1, len(decisions) + 1))
    assert {p["total"] for p in progress} == {len(decisions)}
    assert all(e["loss"] >= 0 for e in decisions)
    assert app.node.reviews.decisions == len(decisions)
    # Asked again (by this connection or another one): the same review, from the cache.
    other = await WireClient.open(url)
    await other.request({"type": "watch", "table_id": table_id}, "watching")
    progress, again = await review_of(other, number, 8)
    assert progress == [] and again["review"] == review
    assert app.node.reviews.decisions == len(decisions)
    # Kept encoded, not as an object tree the cycle collector would scan at every full
    # collection.
    kept = list(app.node.reviews._cache.values())
    assert kept and all(type(value) is bytes for value in kept)


async def test_other_deals_and_connections_without_a_table_are_refused(app: App, url: str) -> None:
    quick_reviews(app)
    client, _, number, _ = await a_played_deal(url)
    for bad in (number + 1, 99):
        await client.send({"type": "review_deal", "deal_number": bad, "id": "r"})
        error = await client.until(lambda m: m["type"] == "error")
        assert error["code"] == "review_unavailable" and error["re"] == "r"
    stranger = await WireClient.open(url)
    await stranger.send({"type": "review_deal", "deal_number": 1, "id": 1})
    error = await stranger.until(lambda m: m["type"] == "error")
    assert error["code"] == "review_unavailable"
    for wrong in (0, -1, "x", None):
        await stranger.send({"type": "review_deal", "deal_number": wrong, "id": 2})
        error = await stranger.until(lambda m: m["type"] == "error")
        assert error["code"] == "invalid_message"
    assert app.node.reviews.decisions == 0


async def test_one_review_at_a_time_and_a_bounded_number_per_player(app: App, url: str) -> None:
    quick_reviews(app)
    client, _, number, _ = await a_played_deal(url)
    await client.send({"type": "review_deal", "deal_number": number, "id": 1})
    await client.send({"type": "review_deal", "deal_number": number, "id": 2})
    error = await client.until(lambda m: m.get("re") == 2)
    assert error["type"] == "error" and error["code"] == "review_limit"
    await client.until(lambda m: m["type"] == "deal_review", timeout=110)
    # The next deal: a fresh review would be this player's second; allow only one.
    app.node.reviews.limits.per_window = 1
    await client.send({"type": "next_deal"})
    second = await play_until(client, played, random.Random(4))
    await client.send({"type": "review_deal", "deal_number": second["event"]["deal_number"]})
    error = await client.until(lambda m: m["type"] == "error")
    assert error["code"] == "review_limit"


async def test_the_event_loop_answers_while_a_review_runs(app: App, url: str) -> None:
    """The search runs in the worker processes: pings are answered meanwhile (a generous
    bound; the latency of tables under a review is measured by the benchmark:
    docs/BENCHMARKS.md)."""
    quick_reviews(app, ReviewSettings(budget_ms=50.0, seats=(1,)))
    client, _, number, _ = await a_played_deal(url)
    await client.send({"type": "review_deal", "deal_number": number, "id": "review"})
    await client.until(lambda m: m["type"] == "review_progress")
    worst = 0.0
    for i in range(10):
        start = time.perf_counter()
        await client.send({"type": "ping", "id": i})
        await client.until(lambda m: m["type"] == "pong" and m["re"] == i)  # noqa: B023
        worst = max(worst, time.perf_counter() - start)
        await asyncio.sleep(0.05)
    assert worst < 1.0
    await client.until(lambda m: m["type"] == "deal_review", timeout=110)
