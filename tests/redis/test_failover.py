"""Losing a node or Redis loses no table: a killed node's tables are adopted, a draining
node hands its players over, and a Redis restart is reported, then lived through."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable

from ..server.wire import Message, WireClient, is_event, play_until, random_choice
from .conftest import NodeFactory
from .play import create_table, health, lease_holder, metric, move, seat, watch
from .servers import RedisServer


async def start_alone(url: str) -> tuple[str, WireClient]:
    """A table of one human (seat 0) and three AI, started."""
    table_id = await create_table(url)
    human = await seat(url, table_id, 0)
    await human.send({"type": "start"})
    await human.until(is_event("deal_started"))
    return table_id, human


async def test_a_killed_nodes_table_is_adopted_by_another_and_the_deal_finishes(
    redis_url: str, nodes: NodeFactory
) -> None:
    a, b = nodes(redis_url, "a"), nodes(redis_url, "b")
    table_id, human = await start_alone(a.url)
    victim, survivor = (a, b) if await lease_holder(redis_url, table_id) == "a" else (b, a)
    if victim is a:
        human = await move(human, survivor)
    victim.kill()  # the AI seats wait on the dead node's lease, until it expires
    over = await play_until(human, is_event("table_over"), random.Random(3), timeout=60)
    assert sum(over["event"]["totals"]) == 0
    assert await lease_holder(redis_url, table_id) == survivor.node_id
    assert metric(survivor, "tarot_lease_takeovers_total") >= 1
    assert metric(survivor, "tarot_ai_decision_seconds_count") >= 1
    assert metric(survivor, "tarot_store_seconds_count") >= 1


async def test_a_node_restarted_after_a_crash_serves_its_tables_again(
    redis_url: str, nodes: NodeFactory
) -> None:
    a = nodes(redis_url, "a")
    table_id, human = await start_alone(a.url)
    assert await lease_holder(redis_url, table_id) == "a"
    a.kill()
    again = nodes(redis_url, "a-again")
    lobby = await WireClient.open(again.url)
    listed = await lobby.request({"type": "list_tables"}, "tables")
    assert [t["table_id"] for t in listed["tables"]] == [table_id]
    assert listed["tables"][0]["status"] == "playing"
    human = await move(human, again)
    over = await play_until(human, is_event("table_over"), random.Random(6), timeout=60)
    assert sum(over["event"]["totals"]) == 0


async def test_a_draining_node_sends_its_players_to_another_node_and_exits(
    redis_url: str, nodes: NodeFactory
) -> None:
    a, b = nodes(redis_url, "a", "--log-format", "json"), nodes(redis_url, "b")
    _, human = await start_alone(a.url)
    assert a.process is not None
    a.process.terminate()  # SIGTERM, as a deploy does
    bye = await human.until(lambda m: m["type"] == "bye")
    assert bye["reason"] == "shutdown"
    human = await move(human, b)
    assert a.process.wait(15) == 0
    logged = [json.loads(line) for line in a.log.read_text().splitlines()]  # JSON lines
    assert {"level": "info", "logger": "tarot.server", "message": "shutting down"} in [
        {k: e[k] for k in ("level", "logger", "message")} for e in logged
    ]
    over = await play_until(human, is_event("table_over"), random.Random(4), timeout=60)
    assert sum(over["event"]["totals"]) == 0


MOVE_EVENTS = {"bid": "bid", "discard": "discard", "chelem": "chelem", "play": "card"}


def is_move(seat: int, action: Message) -> Callable[[Message], bool]:
    """Whether a message is the event of ``seat``'s ``action`` (of its kind)."""

    def check(m: Message) -> bool:
        event = m.get("event") or {}
        return (
            m["type"] == "event"
            and event.get("kind") == MOVE_EVENTS[action["kind"]]
            and event.get("seat") == seat
        )

    return check


async def act_until_accepted(client: WireClient, action: Message) -> list[str]:
    """Send ``action`` until it is applied; the codes of the refusals met on the way."""
    codes: list[str] = []
    async with asyncio.timeout(30):
        while True:
            await client.send({"type": "act", "action": action})
            answer = await client.until(lambda m: m["type"] == "error" or is_move(0, action)(m))
            if answer["type"] == "event":
                return codes
            codes.append(answer["code"])
            await asyncio.sleep(0.2)


async def quiet(client: WireClient, seconds: float) -> None:
    """Read what the client is sent until nothing comes for ``seconds``."""
    try:
        while True:
            await client.recv(seconds)
    except TimeoutError:
        pass


async def test_a_redis_restart_mid_deal_is_answered_truly_and_the_action_applied_once(
    own_redis: RedisServer, nodes: NodeFactory
) -> None:
    """An act sent while Redis is down gets ``unavailable`` (nothing changed: resend it)
    or ``outcome_unknown`` (the node could not tell: resume, look, then decide)."""
    node, other = nodes(own_redis.url, "a"), nodes(own_redis.url, "b")
    table_id, human = await start_alone(node.url)
    spectator = await watch(other.url, table_id)  # hears of every move through Redis
    rng = random.Random(5)
    for _ in range(3):  # a few moves with Redis up
        turn = await human.until(lambda m: m["type"] == "your_turn")
        await human.send({"type": "act", "action": random_choice(turn["legal"], rng)})
    turn = await human.until(lambda m: m["type"] == "your_turn")
    seq = human.last_seq
    own_redis.stop()
    action = random_choice(turn["legal"], rng)
    await human.send({"type": "act", "action": action})
    refused = await human.until(lambda m: m["type"] == "error")
    assert refused["code"] in ("unavailable", "outcome_unknown"), refused
    assert human.last_seq == seq  # nothing was heard of it
    assert health(node) == 503
    own_redis.start()
    codes: list[str] = []
    if refused["code"] == "outcome_unknown":
        human = await move(human, node)  # the replay from seq tells whether it was kept
        await quiet(human, 1.0)
        if not any(is_move(0, action)(m) for m in human.received):
            codes = await act_until_accepted(human, action)
        elif (last := [m for m in human.received if m["type"] in ("event", "your_turn")])[-1][
            "type"
        ] == "your_turn":  # quiet read the turn after it: answer it
            legal = last[-1]["legal"]
            await human.send({"type": "act", "action": random_choice(legal, rng)})
    else:
        codes = await act_until_accepted(human, action)
    assert set(codes) <= {"unavailable"}  # never refused as done already (applied twice)
    assert health(node) == 200
    over = await play_until(human, is_event("table_over"), rng, timeout=60)
    assert sum(over["event"]["totals"]) == 0
    watched = await spectator.until(is_event("table_over"))  # every event, in order
    assert watched["seq"] == over["seq"]
    after = [m for m in spectator.received if m["type"] == "event" and m["seq"] > seq]
    moved = [m for m in after if m["event"].get("kind") in MOVE_EVENTS.values()]
    assert is_move(0, action)(moved[0])  # the human's action, applied at its turn, once
