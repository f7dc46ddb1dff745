"""Table chat across server nodes on one Redis (docs/PROTOCOL.md, section 17): a message
said on one node reaches the players and spectators on the other, in the table's order,
and a resume on the other node replays it (``tarot serve --chat-guest-deals 0``: guests
write at once, these nodes keep no accounts)."""

from __future__ import annotations

from ..server.social_wire import V2Client, done, events_of, next_event, table_events
from ..server.wire import WireClient
from .conftest import NodeFactory
from .play import create_table


async def v2_seat(url: str, table_id: str, seat: int, name: str) -> WireClient:
    client = await V2Client.open(url)
    join = {"type": "join", "table_id": table_id, "seat": seat, "name": name}
    await client.request(join, "joined")
    return client


async def test_chat_crosses_nodes_in_order_and_is_replayed_on_the_other_node(
    redis_url: str, nodes: NodeFactory
) -> None:
    flags = ("--chat-guest-deals", "0")
    a, b = nodes(redis_url, "a", *flags), nodes(redis_url, "b", *flags)
    table_id = await create_table(a.url)
    anna = await v2_seat(a.url, table_id, 0, "Anna")
    bob = await v2_seat(b.url, table_id, 1, "Bob")
    carl = await V2Client.open(b.url)
    await carl.request({"type": "watch", "table_id": table_id}, "watching")

    await done(anna, {"type": "chat", "text": "said on node a"})
    heard = await next_event(bob, "chat")
    assert (heard["name"], heard["text"]) == ("Anna", "said on node a")
    await done(bob, {"type": "chat", "preset": "hello"})
    assert (await next_event(anna, "chat"))["preset"] == "hello"
    await done(anna, {"type": "start"})
    await done(anna, {"type": "chat", "preset": "good_luck"})
    assert (await next_event(bob, "chat"))["preset"] == "good_luck"
    await next_event(carl, "chat")
    while len(events_of(carl, "chat")) < 3:
        await next_event(carl, "chat")
    said = [(e["seq"], e.get("preset") or e.get("text")) for e in events_of(carl, "chat")]
    assert [s for _, s in said] == ["said on node a", "hello", "good_luck"]
    assert [q for q, _ in said] == sorted(q for q, _ in said)

    # Bob's connection goes; he resumes on node a from before Anna's good luck.
    token, replay_from = bob.token, said[-1][0] - 1
    await bob.close()
    again = await V2Client.open(a.url)
    again.last_seq = replay_from
    await again.send({"type": "resume", "token": token, "last_seq": replay_from})
    replayed = await next_event(again, "chat")
    assert (replayed["seq"], replayed["preset"]) == (said[-1][0], "good_luck")
    assert all(
        e.get("kind") != "hidden"
        for m in again.received
        for e in table_events(m)
        if e["seq"] == said[-1][0]
    )
