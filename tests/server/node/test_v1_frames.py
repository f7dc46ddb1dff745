"""Version 1 connections get the frames they always got, byte for byte (issue 28).

Version 2 folds a commit's frames into one ``events`` frame (server/node/fanout.py);
version 1 must not notice. A scripted deal (fixed seed, fixed choices) is played at
a table followed by the four seats and a spectator, over JSON and msgpack, and
every frame each of them gets is pinned by a digest taken from the server before
version 2's frames existed (main at 25007ae). A follower of version 2 at the same
table changes nothing of what the version 1 followers get.
"""

from __future__ import annotations

import hashlib
import json
import random

import msgpack
import pytest

import engine
from protocol import models as m
from protocol.codecs import JSON, MSGPACK, Codec
from server.node.runtime import TableRuntime, TableServices
from server.settings import Settings
from server.store.memory import MemoryStore
from server.table import seating
from server.table import transitions as tr
from server.table.data import TableData
from server.table.seating import JoinRequest
from tests.deal_seeds import deal_from, ordinary, where

# sha256 of every frame each follower got, in order (seats 0-3, then the spectator),
# and the number of frames: computed on main at 25007ae, before version 2's frames.
PINNED = {
    "json": ("feb814d41836bb7a77e78433600ee6e348a9260104e0edda37309552457d2e50", 551),
    "msgpack": ("df61b32210f38cfc346ad03398e7f82fa8b11a9eba5955d8072ad6433ec3005a", 551),
}


class Raw:
    """A follower that keeps the bytes of every frame it is sent."""

    def __init__(self, seat: int | None, codec: Codec, version: int = 1) -> None:
        self.seat = seat
        self.codec = codec
        self.version = version
        self.session = 1
        self.frames: list[bytes] = []

    def send_frame(self, frame: str | bytes) -> None:
        self.frames.append(frame.encode() if isinstance(frame, str) else frame)

    def replaced(self) -> None:
        raise AssertionError("not replaced in this test")

    def lost(self, table_id: str) -> None:
        raise AssertionError("no table is lost in this test")


async def scripted_frames(codec: Codec, with_v2: bool) -> list[Raw]:
    node = TableServices.alone(Settings(), MemoryStore())
    data = TableData(table_id="pinned", options=m.TableOptions(), created_ms=1, dealer=0)
    await node.store.create(data)
    runtime = TableRuntime(node, data)
    followers = [Raw(seat, codec) for seat in (0, 1, 2, 3, None)]
    for follower in followers:
        await runtime.follow(follower)
    if with_v2:
        for seat in (0, 1, 2, 3, None):
            await runtime.follow(Raw(seat, codec, version=2))
    for seat in range(4):
        request = JoinRequest("", 0, seat)
        await runtime.transact(lambda d, s, r=request: seating.join(d, s, r))  # type: ignore[misc]
    rng = random.Random(28)
    for _ in range(40):  # the bids, the discard, the first tricks
        state = runtime.state
        assert state is not None and not state.is_over
        action = engine.random_action(state, rng)
        await runtime.transact(lambda d, s, a=action: tr.act(d, s, a, 0))  # type: ignore[misc]
    return followers


def digest(followers: list[Raw]) -> tuple[str, int]:
    h = hashlib.sha256()
    count = 0
    for follower in followers:
        for frame in follower.frames:
            h.update(len(frame).to_bytes(4, "big") + frame)
            count += 1
    return h.hexdigest(), count


@pytest.mark.parametrize("codec", [JSON, MSGPACK], ids=["json", "msgpack"])
@pytest.mark.parametrize("with_v2", [False, True], ids=["alone", "beside-v2"])
async def test_version_1_frames_are_what_they_were(
    monkeypatch: pytest.MonkeyPatch, codec: Codec, with_v2: bool
) -> None:
    deal_from(monkeypatch, where("v1-pin", ordinary))
    followers = await scripted_frames(codec, with_v2)
    kinds = {
        json.loads(f)["type"] if codec is JSON else msgpack.unpackb(f)["type"]
        for follower in followers
        for f in follower.frames
    }
    assert kinds == {"snapshot", "event", "your_turn"}
    assert digest(followers) == PINNED[codec.name]


if __name__ == "__main__":  # prints the digests to pin (run on the code to pin)
    import asyncio

    for codec in (JSON, MSGPACK):
        pytest.MonkeyPatch().setattr(
            "server.table.transitions.new_seed", where("v1-pin", ordinary).__next__
        )
        print(codec.name, digest(asyncio.run(scripted_frames(codec, False))))
