"""An entrant plays a duplicate event's deal at one table, however many connections ask
(docs/PROTOCOL.md, section 18): a robot event has one table per entrant and deal, a
``tables`` event one table per entrant. ``duplicate_play`` sent at the same moment on
two connections of one account, on one node or on two nodes sharing a Redis store,
seats both at the same table (the later one takes the seat back: a new token), or
refuses the second with ``already_entered`` when it names another table."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis
from websockets.asyncio.client import connect

from server.app import App
from server.table.seating import seat_of_account

from ..conftest import REDIS_TEST_URL, flush
from .players import Player, entrants, history_app, new_event


async def second_connection(app: App, player: Player) -> Player:
    """Another connection of ``player``'s account (signed in with its password)."""
    url = f"ws://127.0.0.1:{app.port}/"
    ws = await connect(url, subprotocols=["tarot.v2.json"], max_queue=None)  # type: ignore[list-item]
    other = Player(ws, player.name, player.rng, player.account_id)
    await other.ask({"type": "hello", "protocol": 2}, "welcome")
    sign_in = {"type": "sign_in", "name": player.name, "password": "correct horse 1"}
    await other.ask(sign_in, "signed_in")
    return other


async def answer_of(player: Player, marker: str) -> dict[str, Any]:
    """The answer to the request sent with id ``marker``: ``joined`` or an ``error``."""
    async with asyncio.timeout(30):
        while True:
            message: dict[str, Any] = json.loads(await player.ws.recv())
            if message.get("re") == marker and message["type"] in ("joined", "error"):
                return message


async def at_once(pairs: list[tuple[Player, dict[str, Any]]]) -> list[dict[str, Any]]:
    """Send each player its message at the same moment; their answers, in order."""
    marked = [(p, {**message, "id": f"m{i}"}) for i, (p, message) in enumerate(pairs)]
    await asyncio.gather(*(p.send(message) for p, message in marked))
    return [await answer_of(p, message["id"]) for p, message in marked]


def tables_of(answers: list[dict[str, Any]]) -> set[str]:
    return {a["table_id"] for a in answers if a["type"] == "joined"}


@pytest.mark.parametrize("kind", ["robot", "tables"])
async def test_two_connections_of_an_entrant_get_one_table(tmp_path: Path, kind: str) -> None:
    async with history_app(tmp_path) as app:
        event_id = await new_event(app, 2, kind=kind)
        ann = await Player.sign_up(f"ws://127.0.0.1:{app.port}/", "Ann", 1)
        await ann.ask({"type": "duplicate_enter", "event_id": event_id}, "duplicate_entered")
        again = await second_connection(app, ann)
        play = {"type": "duplicate_play", "event_id": event_id}
        answers = await at_once([(ann, play), (again, play)])
        assert all(a["type"] == "joined" for a in answers), answers
        assert len(tables_of(answers)) == 1, answers
        assert len(app.node.runtimes) == 1  # one table made for the entrant, no more


async def seats_and_plans(app: App, player: Player, *table_ids: str) -> tuple[int, int]:
    """How many of the tables (read from the store) seat ``player``'s account, and how many
    plan its entry's results."""
    seats = plans = 0
    for table_id in table_ids:
        data = await app.node.tables.store.load(table_id)
        assert data is not None and data.duplicate is not None
        seats += seat_of_account(data, player.account_id) is not None
        plans += player.entry_id in data.duplicate.entries
    return seats, plans


async def test_a_tables_entrant_may_not_sit_at_its_table_and_another(tmp_path: Path) -> None:
    """Ann asks for her own table and, on another connection at the same moment, for Bob's:
    whichever answer comes first, she ends seated at one table, her entry planned at one
    (a refused ask gives back the seat it took)."""
    async with history_app(tmp_path) as app:
        event_id = await new_event(app, 2, kind="tables")
        ann, bob = await entrants(app, event_id, "Ann", "Bob")
        play = {"type": "duplicate_play", "event_id": event_id}
        await bob.ask(play, "joined")  # Bob's table, with a free seat
        again = await second_connection(app, ann)
        answers = await at_once([(ann, play), (again, {**play, "table_id": bob.table_id})])
        assert len(tables_of(answers)) == 1, answers
        refused = [a["code"] for a in answers if a["type"] == "error"]
        assert refused in ([], ["already_entered"]), answers
        assert await seats_and_plans(app, ann, *app.node.runtimes) == (1, 1), answers


@asynccontextmanager
async def two_nodes(tmp_path: Path) -> AsyncIterator[tuple[App, App]]:
    """Two nodes on one Redis and one history database."""
    await flush(REDIS_TEST_URL)
    async with (
        history_app(tmp_path, redis_url=REDIS_TEST_URL) as a,
        history_app(tmp_path, redis_url=REDIS_TEST_URL) as b,
    ):
        yield a, b
    await flush(REDIS_TEST_URL)


@pytest.mark.redis
@pytest.mark.parametrize("kind", ["robot", "tables"])
async def test_two_nodes_give_an_entrant_one_table(tmp_path: Path, kind: str) -> None:
    async with two_nodes(tmp_path) as (a, b):
        event_id = await new_event(a, 2, kind=kind)
        ann = await Player.sign_up(f"ws://127.0.0.1:{a.port}/", "Ann", 1)
        await ann.ask({"type": "duplicate_enter", "event_id": event_id}, "duplicate_entered")
        on_b = await second_connection(b, ann)
        play = {"type": "duplicate_play", "event_id": event_id}
        answers = await at_once([(ann, play), (on_b, play)])
        assert len(tables_of(answers)) == 1, answers
        # One after the other as well: node B does not know what node A seated.
        third = await second_connection(b, ann)
        again = await third.ask(play, "joined")
        assert again["table_id"] in tables_of(answers)


@pytest.mark.redis
async def test_a_tables_entrant_seated_on_one_node_is_refused_another_table_on_another(
    tmp_path: Path,
) -> None:
    async with two_nodes(tmp_path) as (a, b):
        event_id = await new_event(a, 2, kind="tables")
        [ann], [bob] = (
            await entrants(a, event_id, "Ann"),
            await entrants(b, event_id, "Bob", first_seed=2),
        )
        play = {"type": "duplicate_play", "event_id": event_id}
        await bob.ask(play, "joined")
        await ann.ask(play, "joined")  # Ann's own table, on node A
        on_b = await second_connection(b, ann)
        assert await on_b.refused({**play, "table_id": bob.table_id}) == "already_entered"


async def test_a_tables_entrant_who_left_its_table_before_the_start_may_sit_elsewhere(
    tmp_path: Path,
) -> None:
    async with history_app(tmp_path) as app:
        event_id = await new_event(app, 2, kind="tables")
        ann, bob, carl = await entrants(app, event_id, "Ann", "Bob", "Carl")
        play = {"type": "duplicate_play", "event_id": event_id}
        await ann.ask(play, "joined")
        own = ann.table_id
        await ann.ask({"type": "leave"}, "left")
        await bob.ask({**play, "table_id": own}, "joined")  # Bob sits at Ann's table
        await bob.ask({"type": "start"}, "ack")  # and starts it without her
        await ann.ask(play, "joined")  # her own started without her: a new one
        assert ann.table_id not in (own, None)
        await ann.ask({"type": "leave"}, "left")
        await carl.ask(play, "joined")
        await ann.ask({**play, "table_id": carl.table_id}, "joined")  # free to sit elsewhere
        assert ann.table_id == carl.table_id


async def test_a_seat_left_before_the_start_plays_for_nobody(tmp_path: Path) -> None:
    """Ann sits at Bob's table and leaves it before it starts: the AI that takes her seat
    does not play for her entry, and she may play the event at another table."""
    async with history_app(tmp_path) as app:
        event_id = await new_event(app, 2, kind="tables")
        ann, bob = await entrants(app, event_id, "Ann", "Bob")
        play = {"type": "duplicate_play", "event_id": event_id}
        await bob.ask(play, "joined")
        bobs = bob.table_id
        await ann.ask({**play, "table_id": bobs}, "joined")
        await ann.ask({"type": "leave"}, "left")
        await bob.ask({"type": "start"}, "ack")
        assert bobs is not None
        planned = app.node.runtimes[bobs].data.duplicate
        assert planned is not None and planned.entries[1] is None  # the AI's, nobody's yet
        await ann.ask(play, "joined")
        assert ann.table_id != bobs


async def table_of(app: App, event_id: int, *names: str) -> str:
    """A table of the event at which ``names``, entered now, sit (the first one's own)."""
    first, *others = await entrants(app, event_id, *names, first_seed=10)
    play = {"type": "duplicate_play", "event_id": event_id}
    await first.ask(play, "joined")
    assert first.table_id is not None
    for player in others:
        await player.ask({**play, "table_id": first.table_id}, "joined")
    return first.table_id


@pytest.mark.redis
async def test_a_seat_the_claim_refuses_is_given_back_and_a_fourth_one_starts_nothing(
    tmp_path: Path,
) -> None:
    """Ann started her table with Eve and left it in its first deal (Eve has not played,
    the deal waits): that table plays her entry, and her claim names it. On node B, which
    never seated her, she asks for the fourth seat of Bob's table: the claim refuses it
    (``already_entered``). The join that filled Bob's table started it, and the seat could
    not be given back: Bob's table played her entry a second time. Now it waits still,
    the seat empty, her entry planned at her own table only."""
    async with two_nodes(tmp_path) as (a, b):
        event_id = await new_event(a, 2, kind="tables")
        ann, eve = await entrants(a, event_id, "Ann", "Eve")
        play = {"type": "duplicate_play", "event_id": event_id}
        await ann.ask(play, "joined")
        assert ann.table_id is not None
        own = ann.table_id
        await eve.ask({**play, "table_id": own}, "joined")
        await ann.ask({"type": "start"}, "ack")
        await ann.ask({"type": "leave"}, "left")
        bobs = await table_of(b, event_id, "Bob", "Carl", "Dan")
        on_b = await second_connection(b, ann)
        assert await on_b.refused({**play, "table_id": bobs}) == "already_entered"
        data = await b.node.tables.store.load(bobs)
        assert data is not None and data.status == "waiting"
        assert [s.occupant for s in data.seats] == ["human", "human", "human", "empty"]
        assert await seats_and_plans(b, ann, own, bobs) == (0, 1)


@pytest.mark.redis
@pytest.mark.parametrize("seated", [1, 3])
async def test_a_duplicate_play_the_store_fails_to_claim_leaves_no_seat(
    tmp_path: Path, seated: int
) -> None:
    """The store fails as Ann's seat at Bob's table is claimed: Redis refuses that call
    alone (the claim's key holds a hash: WRONGTYPE). The ask is refused (``unavailable``)
    and used to leave her seat there, followed by no connection (the fourth one started
    the table with it). It changes nothing now: Bob's table waits without her; once the
    store answers, she sits there."""
    await flush(REDIS_TEST_URL)
    client: Redis = Redis.from_url(REDIS_TEST_URL)
    try:
        async with history_app(tmp_path, redis_url=REDIS_TEST_URL) as app:
            event_id = await new_event(app, 2, kind="tables")
            bobs = await table_of(app, event_id, *["Bob", "Carl", "Dan"][:seated])
            [ann] = await entrants(app, event_id, "Ann")
            claim = f"{{shared}}:claim:duplicate:{event_id}:{ann.entry_id}"
            await client.hset(claim, "not", "a claim")
            play = {"type": "duplicate_play", "event_id": event_id, "table_id": bobs}
            assert await ann.refused(play) == "unavailable"
            data = await app.node.tables.store.load(bobs)
            assert data is not None and data.status == "waiting"
            assert await seats_and_plans(app, ann, bobs) == (0, 0)
            await client.delete(claim)
            await ann.ask(play, "joined")
            data = await app.node.tables.store.load(bobs)
            assert data is not None
            assert data.status == ("playing" if seated == 3 else "waiting")
            assert await seats_and_plans(app, ann, bobs) == (1, 1)
    finally:
        await client.aclose()
        await flush(REDIS_TEST_URL)
