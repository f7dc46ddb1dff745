"""Version 2's frames at the runtime (server/node/fanout.py): one per reader and commit,
the public batch encoded once for all who see it alike."""

from __future__ import annotations

import json
import random

import pytest

import engine
from protocol import models as m
from protocol.codecs import JSON, MSGPACK, Codec
from server.node.runtime import Asked, Subscriber, TableRuntime, TableServices
from server.settings import Settings
from server.store.memory import MemoryStore
from server.table import seating
from server.table import transitions as tr
from server.table.data import TableData
from server.table.seating import JoinRequest

from .test_v1_frames import Raw


class Kept(Raw):
    """A reader that keeps the very objects it is sent (a shared frame is one object)."""

    def __init__(self, seat: int | None, codec: Codec = JSON) -> None:
        super().__init__(seat, codec, version=2)
        self.sent: list[str | bytes] = []

    def send_frame(self, frame: str | bytes) -> None:
        self.sent.append(frame)


async def v2_table(codec: Codec, seed: int, actions: int) -> tuple[TableRuntime, list[Kept]]:
    """Four seats and two spectators at a table whose deal lasts for ``actions`` random
    actions drawn from ``random.Random(seed)``: the deal's cards are the table's own
    (random), and one in a few hundred ends at once (a petit sec) or after four passes."""
    while True:
        node = TableServices.alone(Settings(), MemoryStore())
        data = TableData(table_id="t2", options=m.TableOptions(), created_ms=1)
        await node.store.create(data)
        runtime = TableRuntime(node, data)
        readers = [Kept(seat, codec) for seat in (0, 1, 2, 3, None, None)]
        for reader in readers:
            await runtime.follow(reader)
        for seat in range(4):
            request = JoinRequest("", 0, seat)
            await runtime.transact(lambda d, s, r=request: seating.join(d, s, r))  # type: ignore[misc]
        assert runtime.state is not None
        if _lasts(runtime.state, seed, actions):
            return runtime, readers


def _lasts(state: engine.Deal, seed: int, actions: int) -> bool:
    state, rng = state.copy(), random.Random(seed)
    for _ in range(actions):
        if state.is_over:
            return False
        engine.apply_in_place(state, engine.random_action(state, rng))
    return not state.is_over


async def test_each_reader_gets_one_frame_per_commit_and_the_public_one_is_shared() -> None:
    runtime, readers = await v2_table(JSON, 2, 30)
    rng = random.Random(2)
    for _ in range(30):
        state = runtime.state
        assert state is not None and not state.is_over
        actor = state.to_act
        before = [len(r.sent) for r in readers]
        action = engine.random_action(state, rng)
        asked: Asked[Subscriber] = Asked(readers[actor], 9)
        await runtime.transact(lambda d, s, a=action: tr.act(d, s, a, 0), asked=asked)  # type: ignore[misc]
        assert asked.answered
        new = [r.sent[b:] for r, b in zip(readers, before, strict=True)]
        assert all(len(frames) == 1 for frames in new)  # one frame each, whoever reads
        bodies = [json.loads(frames[0]) for frames in new]
        assert all(b["type"] == "events" for b in bodies)
        assert bodies[actor]["re"] == 9
        assert [("re" in b) for b in bodies].count(True) == 1
        after = runtime.state
        assert after is not None
        to_act = None if after.is_over else after.to_act
        for seat, body in enumerate(bodies):
            assert ("your_turn" in body) == (seat == to_act)
        # Whoever gets neither the turn nor the re, and sees the same events, shares
        # the bytes: encoded once.
        plain = [
            frames[0]
            for seat, frames in enumerate(new)
            if seat != actor and seat != to_act and seat < 4
        ]
        spectators = [new[4][0], new[5][0]]
        assert spectators[0] is spectators[1]
        public = all(e["event"]["kind"] != "hidden" for e in bodies[4]["events"])
        if public:
            assert all(frame is spectators[0] for frame in plain)


@pytest.mark.parametrize("codec", [JSON, MSGPACK], ids=["json", "msgpack"])
async def test_a_frame_with_a_turn_or_a_re_is_the_codecs_own_encoding(codec: Codec) -> None:
    """The turn and the ``re`` are appended to the shared bytes of the events: the result
    is byte for byte what encoding the whole message gives, and a valid ``events``."""
    runtime, readers = await v2_table(codec, 5, 40)
    rng = random.Random(5)
    for _ in range(40):
        state = runtime.state
        assert state is not None and not state.is_over
        asked: Asked[Subscriber] = Asked(readers[state.to_act], "a-7")
        action = engine.random_action(state, rng)
        await runtime.transact(lambda d, s, a=action: tr.act(d, s, a, 0), asked=asked)  # type: ignore[misc]
    frames = [frame for reader in readers for frame in reader.sent]
    bodies = [codec.loads(frame) for frame in frames]
    assert sum(1 for b in bodies if "your_turn" in b) > 10
    assert sum(1 for b in bodies if b.get("re") == "a-7") == 40
    for frame, body in zip(frames, bodies, strict=True):
        assert codec.dumps(body) == frame
        if body["type"] == "events":
            assert m.Events.model_validate(body).model_dump(mode="json") == body
