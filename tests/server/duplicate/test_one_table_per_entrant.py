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
from websockets.asyncio.client import connect

from server.app import App

from ..conftest import REDIS_TEST_URL, flush
from .players import Player, history_app, new_event


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


async def test_a_tables_entrant_may_not_sit_at_its_table_and_another(tmp_path: Path) -> None:
    async with history_app(tmp_path) as app:
        url = f"ws://127.0.0.1:{app.port}/"
        event_id = await new_event(app, 2, kind="tables")
        ann, bob = await Player.sign_up(url, "Ann", 1), await Player.sign_up(url, "Bob", 2)
        play = {"type": "duplicate_play", "event_id": event_id}
        for player in (ann, bob):
            await player.ask({"type": "duplicate_enter", "event_id": event_id}, "duplicate_entered")
        await bob.ask(play, "joined")  # Bob's table, with a free seat
        again = await second_connection(app, ann)
        answers = await at_once([(ann, play), (again, {**play, "table_id": bob.table_id})])
        assert len(tables_of(answers)) == 1, answers
        refused = [a["code"] for a in answers if a["type"] == "error"]
        assert refused in ([], ["already_entered"]), answers


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
        ann = await Player.sign_up(f"ws://127.0.0.1:{a.port}/", "Ann", 1)
        bob = await Player.sign_up(f"ws://127.0.0.1:{b.port}/", "Bob", 2)
        play = {"type": "duplicate_play", "event_id": event_id}
        for player in (ann, bob):
            await player.ask({"type": "duplicate_enter", "event_id": event_id}, "duplicate_entered")
        await bob.ask(play, "joined")
        await ann.ask(play, "joined")  # Ann's own table, on node A
        on_b = await second_connection(b, ann)
        assert await on_b.refused({**play, "table_id": bob.table_id}) == "already_entered"


async def test_a_tables_entrant_who_left_its_table_before_the_start_may_sit_elsewhere(
    tmp_path: Path,
) -> None:
    async with history_app(tmp_path) as app:
        url = f"ws://127.0.0.1:{app.port}/"
        event_id = await new_event(app, 2, kind="tables")
        ann, bob = await Player.sign_up(url, "Ann", 1), await Player.sign_up(url, "Bob", 2)
        play = {"type": "duplicate_play", "event_id": event_id}
        for player in (ann, bob):
            await player.ask({"type": "duplicate_enter", "event_id": event_id}, "duplicate_entered")
        await ann.ask(play, "joined")
        own = ann.table_id
        await ann.ask({"type": "leave"}, "left")
        await bob.ask({**play, "table_id": own}, "joined")  # Bob sits at Ann's table
        await bob.ask({"type": "start"}, "ack")  # and starts it without her
        await ann.ask(play, "joined")  # her own started without her: a new one
        assert ann.table_id not in (own, None)
        await ann.ask({"type": "leave"}, "left")
        carl = await Player.sign_up(url, "Carl", 3)
        await carl.ask({"type": "duplicate_enter", "event_id": event_id}, "duplicate_entered")
        await carl.ask(play, "joined")
        await ann.ask({**play, "table_id": carl.table_id}, "joined")  # free to sit elsewhere
        assert ann.table_id == carl.table_id


async def test_a_seat_left_before_the_start_plays_for_nobody(tmp_path: Path) -> None:
    """Ann sits at Bob's table and leaves it before it starts: the AI that takes her seat
    does not play for her entry, and she may play the event at another table."""
    async with history_app(tmp_path) as app:
        url = f"ws://127.0.0.1:{app.port}/"
        event_id = await new_event(app, 2, kind="tables")
        ann, bob = await Player.sign_up(url, "Ann", 1), await Player.sign_up(url, "Bob", 2)
        play = {"type": "duplicate_play", "event_id": event_id}
        for player in (ann, bob):
            await player.ask({"type": "duplicate_enter", "event_id": event_id}, "duplicate_entered")
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
