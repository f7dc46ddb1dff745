"""Several server nodes (``tarot serve`` processes) on one Redis serve the same tables."""

from __future__ import annotations

import asyncio
import random

from ..server.wire import Message, WireClient, is_event, play_until
from .conftest import NodeFactory
from .play import create_table, events_by_seq, seat, watch


async def test_four_players_on_two_nodes_play_a_deal_watched_from_the_other_node(
    redis_url: str, nodes: NodeFactory
) -> None:
    a, b = nodes(redis_url, "a"), nodes(redis_url, "b")
    table_id = await create_table(a.url)
    spectator = await watch(b.url, table_id)
    players = [
        await seat((a, b)[i % 2].url, table_id, i, ("json", "msgpack")[i // 2]) for i in range(4)
    ]
    ends = await asyncio.gather(
        *(play_until(p, is_event("table_over"), random.Random(i)) for i, p in enumerate(players)),
        spectator.until(is_event("table_over"), timeout=60),
    )
    assert len({tuple(end["event"]["totals"]) for end in ends}) == 1
    seen = [events_by_seq(p) for p in players]
    watched = events_by_seq(spectator)
    common = set(watched).intersection(*seen)
    assert max(common) == spectator.last_seq  # everyone reached the same last event
    for seq in common:
        bodies = [s[seq] for s in seen]
        public = all(body == bodies[0] for body in bodies) and bodies[0]["kind"] != "hidden"
        if public:
            assert watched[seq] == bodies[0], seq
        else:
            assert watched[seq] == {"kind": "hidden"}, seq


async def test_the_same_request_sent_at_once_through_two_nodes_is_applied_once(
    redis_url: str, nodes: NodeFactory
) -> None:
    a, b = nodes(redis_url, "a"), nodes(redis_url, "b")
    table_id = await create_table(a.url)
    racers = [await WireClient.open((a, b)[i % 2].url) for i in range(8)]
    join = {"type": "join", "table_id": table_id, "seat": 0}
    await asyncio.gather(*(r.send(join) for r in racers))
    answers = await asyncio.gather(
        *(r.until(lambda m: m["type"] in ("joined", "error")) for r in racers)
    )
    assert sorted(m["type"] for m in answers) == ["error"] * 7 + ["joined"]
    assert {m["code"] for m in answers if m["type"] == "error"} == {"table_full"}

    first = racers[[m["type"] for m in answers].index("joined")]
    players = [(first, (a, b)[racers.index(first) % 2])]
    players += [(await seat((b, a)[i % 2].url, table_id, i), (b, a)[i % 2]) for i in (1, 2, 3)]
    turn = await first.until(is_event("turn"))
    to_act, home = players[turn["event"]["seat"]]
    legal = (await to_act.until(lambda m: m["type"] == "your_turn"))["legal"]
    # The seat to act gets a second connection, on the other node, and both bid at once.
    # The older connection is being replaced (bye) while its bid races the new one's.
    twin = await WireClient.open((b if home is a else a).url)
    await twin.request({"type": "resume", "token": to_act.token}, "joined")
    bid: Message = {"type": "act", "action": {"kind": "bid", "contract": legal["bids"][-1]}}
    # The old connection may already be closed by the time it sends: that is a lost race.
    await asyncio.gather(to_act.send(bid), twin.send(bid), return_exceptions=True)
    await twin.until(is_event("bid"))
    await twin.send({"type": "ping"})  # answers come in order: an error would come first
    await twin.until(lambda m: m["type"] == "pong")
    bye = await to_act.until(lambda m: m["type"] == "bye")
    assert bye["reason"] == "replaced"
    refusals = [m for c in (to_act, twin) for m in c.received if m["type"] == "error"]
    assert {m["code"] for m in refusals} <= {"not_your_turn", "not_seated"}
    observer = players[(turn["event"]["seat"] + 2) % 4][0]
    await observer.until(lambda m: is_event("turn")(m) and m["seq"] > turn["seq"])
    bids = [e for e in events_by_seq(observer).values() if e["kind"] == "bid"]
    assert bids == [{"kind": "bid", "seat": to_act.seat, "contract": legal["bids"][-1]}]


async def test_resuming_a_seat_on_another_node_replaces_the_first_connection(
    redis_url: str, nodes: NodeFactory
) -> None:
    a, b = nodes(redis_url, "a"), nodes(redis_url, "b")
    table_id = await create_table(a.url)
    first = await seat(a.url, table_id, 0)
    second = await WireClient.open(b.url)
    await second.request({"type": "resume", "token": first.token}, "joined")
    bye = await first.until(lambda m: m["type"] == "bye")
    assert bye["reason"] == "replaced"
    # The seat is the second connection's: it can start the table and play.
    await second.send({"type": "start"})
    await play_until(second, is_event("table_over"), random.Random(2))
