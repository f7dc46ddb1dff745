"""The store loses a commit (as a Redis failover can: replication is asynchronous) and the
table goes on from what the store kept, on every node, with nothing built on the lost change.

Two nodes; seats alternate between them, so the seat after the one whose card was lost
follows the table on the other node. Every connection ends with the store's picture.
"""

from __future__ import annotations

import asyncio
import random

from redis.asyncio import Redis

from engine import load_record, score, to_record
from server.store.redis import keys
from server.store.redis.store import read_table
from server.table.data import deal_state

from ..server.wire import Message, WireClient, is_event, random_choice
from .conftest import NodeFactory
from .play import create_table, health, seat, watch


async def quiet(client: WireClient) -> None:
    """Read what the client was sent until nothing more comes."""
    try:
        while True:
            await client.recv(0.5)
    except TimeoutError:
        pass


async def over(client: WireClient) -> Message:
    seen = [m for m in client.received if is_event("table_over")(m)]
    return seen[-1] if seen else await client.until(is_event("table_over"))


async def answer_turns(
    players: list[WireClient], rng: random.Random, until: int | None, seen: list[int]
) -> None:
    """Answer every ``your_turn`` (refusals and snapshots included) until ``until`` actions
    were taken, or until the table is over; ``seen`` counts actions sent, by seat."""
    inboxes = [asyncio.ensure_future(p.recv(60)) for p in players]
    try:
        while until is None or sum(seen) < until:
            done, _ = await asyncio.wait(inboxes, return_when=asyncio.FIRST_COMPLETED, timeout=60)
            assert done, "the table stopped moving"
            for task in done:
                index = inboxes.index(task)
                message: Message = task.result()
                if is_event("table_over")(message):
                    return
                if message["type"] == "your_turn":
                    action = random_choice(message["legal"], rng)
                    await players[index].send({"type": "act", "action": action})
                    seen[index] += 1
                inboxes[index] = asyncio.ensure_future(players[index].recv(60))
    finally:
        for task in inboxes:
            task.cancel()
        await asyncio.gather(*inboxes, return_exceptions=True)  # no recv left running


async def test_a_commit_the_store_lost_is_undone_everywhere_and_play_goes_on(
    redis_url: str, nodes: NodeFactory
) -> None:
    a, b = nodes(redis_url, "a"), nodes(redis_url, "b")
    table_id = await create_table(a.url)
    spectator = await watch(b.url, table_id)
    players = [await seat((a, b)[i % 2].url, table_id, i) for i in range(4)]
    await players[0].send({"type": "start"})
    rng = random.Random(4)
    seen = [0, 0, 0, 0]
    await answer_turns(players, rng, until=10, seen=seen)  # bids, maybe a discard, cards

    # The table waits for a seat. Keep the store as it is, let that seat act (one
    # commit, seen by both nodes), then put the store back: the commit is lost.
    for client in [*players, spectator]:
        await quiet(client)
    turn = next(m for m in reversed(players[0].received) if is_event("turn")(m))
    to_act = turn["event"]["seat"]
    your_turn = players[to_act].received[-1]
    assert your_turn["type"] == "your_turn" and your_turn["seq"] == turn["seq"]
    redis: Redis = Redis.from_url(redis_url)
    try:
        names = [keys.state(table_id), keys.events(table_id), keys.actions(table_id)]
        kept = [await redis.dump(name) for name in names]
        actor = players[to_act]
        before = actor.last_seq
        action = random_choice(your_turn["legal"], rng)
        await actor.send({"type": "act", "action": action})
        lost = await actor.until(lambda m: m["type"] == "event" and m["seq"] > before)
        await asyncio.sleep(0.3)  # both nodes have it
        assert kept[0] is not None and kept[1] is not None
        for name, value in zip(names, kept, strict=True):
            if value is None:  # no action yet
                await redis.delete(name)
            else:
                await redis.restore(name, 0, value, replace=True)

        # Play on: the next seat (on the other node) acts on the lost state, is refused,
        # and everyone gets the store's picture back; the deal then finishes.
        await answer_turns(players, rng, until=None, seen=seen)
        await spectator.until(is_event("table_over"), timeout=60)
        stored = await read_table(redis, table_id)
        assert stored is not None
    finally:
        await redis.aclose()

    # Everyone who had the lost events was put back by a snapshot of the store's picture.
    for client in [*players, spectator]:
        lost_at = [i for i, m in enumerate(client.received) if m is lost or m == lost]
        if lost_at:
            later = client.received[lost_at[0] :]
            assert any(m["type"] == "snapshot" for m in later), "not put back"
    # Everyone ends with the store's totals, and the store's deal holds no lost action.
    ends = [await over(c) for c in [*players, spectator]]
    totals = {tuple(end["event"]["totals"]) for end in ends}
    assert totals == {tuple(stored.totals)}
    assert stored.deal is not None
    record = to_record(deal_state(stored.deal))
    sheet = score(load_record(record))
    assert [float(s) for s in sheet.scores] == [float(t) for t in stored.totals]
    assert health(a) == health(b) == 200
