"""Quick play, chat, rematch and the counts across two nodes of one Redis and one history
(docs/PROTOCOL.md, sections 16 and 17): what one node does holds on the other, and a node
that stops in the middle leaves nothing stuck on the one that stays."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from server.app import App
from server.node.archive import Archive
from server.queue.settings import QueueSettings
from server.settings import Settings

from .conftest import REDIS_TEST_URL, flush
from .duplicate.players import Player, entrants, new_event
from .duplicate.test_one_table_per_entrant import second_connection
from .queue.test_quickplay import kind
from .social_wire import (
    V2Client,
    done,
    events_of,
    next_event,
    player,
    refused,
    table_of,
    url_of,
)
from .test_rematch import play_to_the_end
from .wire import WireClient

pytestmark = [pytest.mark.redis, pytest.mark.usefixtures("cheaper_argon2")]


async def start(db: str, node_id: str, **options: object) -> App:
    # Two humans may start (with two AI) after 1 s: a blocked pair alone would be a table.
    queue = QueueSettings(
        fill_three_seconds=1, fill_two_seconds=1, ready_seconds=5, tick_seconds=0.05
    )
    given: dict[str, object] = {
        "port": 0,
        "lease_ms": 600,
        "queue": queue,
        "next_deal_seconds": 30,
        "redis_url": REDIS_TEST_URL,
        "node_id": node_id,
        **options,
    }
    settings = Settings(**given)  # type: ignore[arg-type]
    return await App.start(settings, archive=await Archive.open(db))


@pytest.fixture
async def two(tmp_path: Path) -> AsyncIterator[tuple[App, App]]:
    """Nodes "na" and "nb" on the test Redis and one SQLite history; rematch offers close
    after 2 s."""
    await flush(REDIS_TEST_URL)
    db = f"sqlite:///{tmp_path / 'history.sqlite3'}"
    a = await start(db, "na", rematch_seconds=4.0)
    b = await start(db, "nb", rematch_seconds=4.0)
    try:
        yield a, b
    finally:
        await b.stop(drain_seconds=0)
        await a.stop(drain_seconds=0)  # again, if the test stopped it: harmless
        await flush(REDIS_TEST_URL)


async def resumed(app: App, token: str) -> WireClient:
    client = await V2Client.open(url_of(app))
    await client.request({"type": "resume", "token": token}, "joined")
    return client


async def test_a_rematch_accepted_on_a_node_that_stops_still_closes_on_time(
    two: tuple[App, App],
) -> None:
    """Anna accepts on node A, Bob says nothing; node A stops (a deploy drains it) and
    Anna resumes her new seat on node B. The offer closes 2 s after her accept: the new
    table starts, the AI in Bob's seat, whichever node is left."""
    a, b = two
    anna, bob = await player(a, "Anna"), await player(a, "Bob")
    await table_of(anna, bob)
    await asyncio.gather(play_to_the_end(anna, 1), play_to_the_end(bob, 2))
    joined = await anna.request({"type": "rematch", "accept": True}, "joined")
    await bob.close()
    await a.stop(drain_seconds=0)
    again = await resumed(b, joined["token"])
    dealt = await next_event(again, "deal_started", timeout=15)
    assert dealt["deal_number"] == 1


async def test_nodes_started_without_a_node_id_count_each_other_s_connections() -> None:
    """Two nodes of one image, each its container's process 1, started without
    ``--node-id`` (as the Dockerfile's command does): each must still be a node of its own
    to the others. Here both are in one process (the same pid): one connection on A and
    two on B are three online, on either node."""
    await flush(REDIS_TEST_URL)
    a = await App.start(Settings(port=0, lease_ms=600, redis_url=REDIS_TEST_URL))
    b = await App.start(Settings(port=0, lease_ms=600, redis_url=REDIS_TEST_URL))
    try:
        lobby = await V2Client.open(url_of(a))
        others = [await V2Client.open(url_of(b)) for _ in range(2)]
        await asyncio.sleep(2.5)  # each node tells its count every second
        for client in (lobby, others[0]):
            await client.send({"type": "list_tables"})
            online = await client.until(lambda m: m["type"] == "online")
            assert online["count"] == 3
    finally:
        await b.stop(drain_seconds=0)
        await a.stop(drain_seconds=0)
        await flush(REDIS_TEST_URL)


async def test_a_block_made_on_one_node_keeps_the_pair_apart_in_the_queue_of_both(
    two: tuple[App, App],
) -> None:
    """Annette (node A) blocks Bobby (node B); both queue, and Cidalia on B: the matcher,
    whichever node it is, never groups the pair."""
    a, b = two
    ann, bob, cid = await player(a, "Annette"), await player(b, "Bobby"), await player(b, "Cid")
    await ann.request({"type": "block", "name": "Bobby"}, "blocked")
    for client in (ann, bob, cid):
        await client.request({"type": "queue"}, "queue_status")
    found = await cid.until(kind("match_found"), 15)
    assert (found["humans"], found["ai"]) == (2, 2)
    await asyncio.sleep(0.5)  # each node tells its players at its own tick
    in_group = []
    for client in (ann, bob):  # a ready for a check not its own is refused (no_match)
        await client.send({"type": "ready", "match_id": found["match_id"], "id": "r"})
        answer = await client.until(lambda m: m.get("re") == "r")
        in_group += [client] if answer["type"] == "queue_status" else []
    assert len(in_group) == 1


async def test_a_rematch_answered_on_two_nodes_at_once_makes_one_table(
    two: tuple[App, App],
) -> None:
    """Anna (node A) and Bob, who came back on node B, accept at the same moment: one new
    table, both seated there, and it starts (every human answered)."""
    a, b = two
    anna, bob = await player(a, "Anna"), await player(a, "Bob")
    await table_of(anna, bob)
    bob_joined = next(m for m in bob.received if m["type"] == "joined")
    await asyncio.gather(play_to_the_end(anna, 1), play_to_the_end(bob, 2))
    await bob.close()
    bob_b = await resumed(b, bob_joined["token"])
    accept = {"type": "rematch", "accept": True}
    joined = await asyncio.gather(anna.request(accept, "joined"), bob_b.request(accept, "joined"))
    assert joined[0]["table_id"] == joined[1]["table_id"]
    assert sorted(j["seat"] for j in joined) == [0, 1]
    for client in (anna, bob_b):
        assert (await next_event(client, "deal_started", timeout=15))["deal_number"] == 1


async def test_a_spectator_on_another_node_sees_no_hand_and_no_muted_name(
    two: tuple[App, App],
) -> None:
    """Carl watches from node B a table played on node A; he muted Anna: her chat reaches
    him hidden, Bob's shown, and no hand reaches him."""
    a, b = two
    anna, bob = await player(a, "Anna"), await player(a, "Bob")
    table_id = await table_of(anna, bob, start=False)
    carl = await player(b, "Carl")
    await carl.request({"type": "mute", "name": "anna"}, "muted")
    await carl.request({"type": "watch", "table_id": table_id}, "watching")
    await done(anna, {"type": "chat", "text": "hello from Anna"})
    await done(bob, {"type": "chat", "text": "hello from Bob"})
    await done(anna, {"type": "start"})
    await next_event(carl, "turn", timeout=15)  # after both messages, in the table's order
    said = [e.get("text") for e in events_of(carl, "chat")]
    assert said == ["hello from Bob"], said
    assert "hello from Anna" not in str(carl.received)
    assert not events_of(carl, "hand")


async def test_a_duplicate_table_is_not_watched_through_another_node(
    two: tuple[App, App],
) -> None:
    """A ``tables`` event's table made on node A: a watch from node B is refused while
    the event is open (its cards are deals the other entrants are still to play)."""
    a, b = two
    event_id = await new_event(a, 2, kind="tables")
    [ann] = await entrants(a, event_id, "Ann")
    await ann.ask({"type": "duplicate_play", "event_id": event_id}, "joined")
    watcher = await Player.sign_up(url_of(b), "Wat", 9)
    refused = await watcher.refused({"type": "watch", "table_id": ann.table_id})
    assert refused == "results_hidden"


async def test_chat_hidden_to_a_connection_on_another_node_cannot_be_reported_by_it(
    two: tuple[App, App],
) -> None:
    """Carl watches from node B and muted Anna: her message (said on node A) reached him
    hidden, so he cannot report it. His own talk during the deal reached the seats on A
    hidden (spectators only): Bob cannot report it. Bob's message, shown to Carl, he can."""
    a, b = two
    anna, bob = await player(a, "Anna"), await player(a, "Bob")
    table_id = await table_of(anna, bob, start=False)
    carl = await player(b, "Carl")
    await carl.request({"type": "mute", "name": "anna"}, "muted")
    await carl.request({"type": "watch", "table_id": table_id}, "watching")
    await done(anna, {"type": "chat", "text": "rude words"})
    await done(bob, {"type": "chat", "text": "kind words"})
    await done(anna, {"type": "start"})
    await next_event(carl, "turn", timeout=15)
    await done(carl, {"type": "chat", "text": "spectators talk"})
    await next_event(bob, "turn", timeout=15)
    heard = {e["text"]: e["seq"] for c in (bob, carl) for e in events_of(c, "chat")}
    seq = {
        "anna": heard["rude words"],
        "bob": heard["kind words"],
        "carl": heard["spectators talk"],
    }
    report = {"type": "report", "reason": "insult"}
    error = await refused(carl, {**report, "seq": seq["anna"]})
    assert error["code"] == "no_such_message"
    error = await refused(bob, {**report, "seq": seq["carl"]})
    assert error["code"] == "no_such_message"
    await carl.request({**report, "seq": seq["bob"]}, "reported")


async def test_a_robot_entrant_back_on_another_node_gets_its_table_back(
    two: tuple[App, App],
) -> None:
    """Ann plays a robot event's deal on node A; node A stops mid-deal. On node B her
    ``duplicate_play`` seats her at the same table again (one table per deal), never a
    second one."""
    a, b = two
    event_id = await new_event(a, 2)
    [ann] = await entrants(a, event_id, "Ann")
    play = {"type": "duplicate_play", "event_id": event_id}
    first = await ann.ask(play, "joined")
    await a.stop(drain_seconds=0)
    back = await second_connection(b, ann)
    answer = await back.ask(play, "joined")
    assert answer["table_id"] == first["table_id"]


async def test_a_node_stopping_during_a_ready_check_leaves_the_others_searching(
    two: tuple[App, App],
) -> None:
    """Annette (node A, the matcher) and Bobby and Cid (node B) are proposed one table;
    B's two confirm, node A stops before Annette does. B's two search again (never seated
    beside a seat nobody holds), the count forgets Annette, and B's two are matched anew
    at once (node B need not wait for the stopped matcher's lease to run out)."""
    a, b = two
    for _ in range(50):  # a ticks first here: it holds the matcher lock
        if await a.node.quickplay.tickets.matcher_lock(a.node.settings.node_id, 5000):
            break
        await asyncio.sleep(0.05)
    ann = await player(a, "Annette")
    bob, cid = await player(b, "Bobby"), await player(b, "Cid")
    for client in (ann, bob, cid):
        await client.request({"type": "queue"}, "queue_status")
    found = await bob.until(kind("match_found"), 15)
    assert found["humans"] == 3
    await cid.until(lambda m: m == found)
    for client in (bob, cid):
        await client.request({"type": "ready", "match_id": found["match_id"]}, "queue_status")
    await a.stop(drain_seconds=0)  # it hands the matcher's lease over: no 5 s pause
    for client in (bob, cid):
        again = await client.until(kind("match_found", "joined"), 3)
        assert again["type"] == "match_found" and again["humans"] == 2, again
    assert await b.node.quickplay.tickets.searching() == 2


async def test_a_tables_entrant_back_on_another_node_gets_its_waiting_table_back(
    two: tuple[App, App],
) -> None:
    """Ann made her ``tables`` event table on node A; node A stops before it starts. On
    node B, ``duplicate_play`` without a table gives her that table back (it waits for
    players), never a second one nor ``already_entered``."""
    a, b = two
    event_id = await new_event(a, 2, kind="tables")
    [ann] = await entrants(a, event_id, "Ann")
    play = {"type": "duplicate_play", "event_id": event_id}
    first = await ann.ask(play, "joined")
    await a.stop(drain_seconds=0)
    back = await second_connection(b, ann)
    answer = await back.ask(play, "joined")
    assert answer["table_id"] == first["table_id"]


async def test_an_account_queued_on_one_node_is_refused_a_second_ticket_on_another(
    two: tuple[App, App],
) -> None:
    a, b = two
    ann = await player(a, "Annette")
    await ann.request({"type": "queue"}, "queue_status")
    again = await V2Client.open(url_of(b))
    sign_in = {"type": "sign_in", "name": "Annette", "password": "correct horse battery"}
    await again.request(sign_in, "signed_in")
    error = await refused(again, {"type": "queue"})
    assert error["code"] == "already_queued"


async def test_a_robot_deal_left_on_one_node_is_not_taken_back_on_another(
    tmp_path: Path,
) -> None:
    """Ann leaves her robot deal mid-deal on node A: the AI finishes it for her. Asked
    again on node B before it has, ``duplicate_play`` is ``deal_in_progress`` there too
    (docs/PROTOCOL.md, section 18), as it is on node A; her seat stays the AI's."""
    await flush(REDIS_TEST_URL)
    db = f"sqlite:///{tmp_path / 'history.sqlite3'}"
    a = await start(db, "na", ai_pause_seconds=1.0)
    b = await start(db, "nb", ai_pause_seconds=1.0)
    try:
        event_id = await new_event(a, 2)
        [ann] = await entrants(a, event_id, "Ann")
        play = {"type": "duplicate_play", "event_id": event_id}
        first = await ann.ask(play, "joined")
        await ann.ask({"type": "leave"}, "left")
        assert await ann.refused(play) == "deal_in_progress"  # on node A
        on_b = await second_connection(b, ann)
        assert await on_b.refused(play) == "deal_in_progress"
        data = await b.node.tables.store.load(first["table_id"])
        assert data is not None and data.seats[0].occupant == "ai"
    finally:
        await b.stop(drain_seconds=0)
        await a.stop(drain_seconds=0)
        await flush(REDIS_TEST_URL)


async def test_a_blocker_sees_nothing_the_blocked_says_on_another_node(
    two: tuple[App, App],
) -> None:
    """Anna (node A) blocks Bob, who sits at her table through node B: what Bob says on B
    reaches Anna hidden at once; Bob's own connection, on a node the block was not made
    on, is told from his next sign-in (docs/PROTOCOL.md, ``block``)."""
    a, b = two
    anna, bob_a = await player(a, "Anna"), await player(a, "Bob")
    await table_of(anna, bob_a, start=False)
    token = next(m for m in bob_a.received if m["type"] == "joined")["token"]
    await bob_a.close()
    bob = await V2Client.open(url_of(b))
    sign_in = {"type": "sign_in", "name": "Bob", "password": "correct horse battery"}
    await bob.request(sign_in, "signed_in")
    await bob.request({"type": "resume", "token": token}, "joined")
    await anna.request({"type": "block", "name": "Bob"}, "blocked")
    await done(bob, {"type": "chat", "text": "said on node b"})
    await done(anna, {"type": "chat", "text": "said on node a"})
    assert "said on node b" not in str(anna.received)
    assert [e["text"] for e in events_of(anna, "chat")] == ["said on node a"]


async def test_a_seat_given_to_a_player_of_a_node_that_stops_is_the_ai_s_at_once(
    tmp_path: Path,
) -> None:
    """The matcher (node A) seats Annette and Bobby; Bobby's node B stops before its tick
    told him: his seat, never taken, is the AI's at once (Annette does not wait out its
    grace period), as when its node dies or its player closed."""
    await flush(REDIS_TEST_URL)
    db = f"sqlite:///{tmp_path / 'history.sqlite3'}"
    a = await start(db, "na")
    slow = QueueSettings(
        fill_three_seconds=1,
        fill_two_seconds=1,
        ready_seconds=20,
        tick_seconds=2,  # B reads its news seldom: the seat waits there for its tick
        lease_ms=30_000,
    )
    b = await start(db, "nb", queue=slow)
    try:
        ann, bob = await player(a, "Annette"), await player(b, "Bobby")
        for client in (ann, bob):
            await client.request({"type": "queue"}, "queue_status")
        found = await bob.until(kind("match_found"), 15)
        await ann.until(lambda m: m == found)
        for client in (ann, bob):
            await client.request({"type": "ready", "match_id": found["match_id"]}, "queue_status")
        joined = await ann.until(kind("joined"), 5)
        await b.stop(drain_seconds=0)
        bobs = 1 - joined["seat"]
        occupant = None
        for _ in range(40):
            data = await a.node.tables.store.load(joined["table_id"])
            assert data is not None
            occupant = data.seats[bobs].occupant
            if occupant == "ai":
                break
            await asyncio.sleep(0.05)
        assert occupant == "ai"
    finally:
        await b.stop(drain_seconds=0)
        await a.stop(drain_seconds=0)
        await flush(REDIS_TEST_URL)
