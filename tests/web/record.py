"""Recorded tables for the browser client's tests: the frames a table really sends.

A table runtime of the server (memory store, in this process) plays a few deals of
random legal actions from fixed deal seeds (tests/deal_seeds.py), with followers that
keep every frame: seats 0 and 2 (who join, then follow from a snapshot) and a spectator
(who follows from before the first join), each once on protocol 1 and once on protocol 2
(a commit's events in one ``events`` frame, the turn folded in: issue 28). Before each
action, each follower's frames get a ``check``: the snapshot the server would send that
follower at that moment, which the fold of the frames before it must agree with.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import engine
from protocol import models as m
from server.node.runtime import Build, TableRuntime, TableServices
from server.settings import Settings
from server.store.memory import MemoryStore
from server.table import seating
from server.table import transitions as tr
from server.table.data import TableData
from server.table.seating import JoinRequest
from tests.server.recorder import Recorder

FOLLOWERS = {"seat 0": 0, "seat 2": 2, "spectator": None}
VERSIONS = {"": 1, " (v2)": 2}  # each follower's name, then its protocol
# The contract the first seat able to bid it takes, deal after deal: a chien shown and
# a discard, then a garde sans (no chien), then again.
CONTRACTS = (engine.Contract.GARDE, engine.Contract.GARDE_SANS, engine.Contract.PRISE)


def choose(state: engine.Deal, deal: int, rng: random.Random) -> engine.Action:
    """A legal action: the deal's contract by the first who may, a poignee when one may be
    shown; anything else drawn at random."""
    actions = engine.legal_actions(state).actions
    wanted = CONTRACTS[deal % len(CONTRACTS)]
    bids = [a for a in actions if isinstance(a, engine.Bid)]
    if bids:
        taken = any(contract != engine.Contract.PASS for contract in state.bids)
        bid = next((b for b in bids if b.contract == wanted and not taken), None)
        return bid or next(b for b in bids if b.contract == engine.Contract.PASS)
    shown = next((a for a in actions if isinstance(a, engine.ShowPoignee)), None)
    return shown or engine.random_action(state, rng)


async def record_table(deals: int, seeds: Iterator[str], rng: random.Random) -> dict[str, Any]:
    """Play a table of ``deals`` deals from ``seeds``; returns each follower's seat
    (the page knows it from ``joined``) and frames.

    The caller has made the server deal from ``seeds`` (tests.deal_seeds.deal_from).
    """
    node = TableServices.alone(Settings(), MemoryStore())
    data = TableData(table_id="t1", options=m.TableOptions(deals=deals), created_ms=1)
    await node.store.create(data)
    runtime = TableRuntime(node, data)
    followers = {
        name + suffix: Recorder(seat, version)
        for name, seat in FOLLOWERS.items()
        for suffix, version in VERSIONS.items()
    }
    for suffix in VERSIONS:
        await runtime.follow(followers["spectator" + suffix])
    for seat in range(4):
        await runtime.transact(_sit(seat))
        if seat in (0, 2):
            for suffix in VERSIONS:
                await runtime.follow(followers[f"seat {seat}{suffix}"])
    while runtime.data.status != "finished":
        state = runtime.state
        assert state is not None
        if state.is_over:
            await runtime.transact(lambda d, s: tr.next_deal(d, s, 0))
            continue
        for follower in followers.values():
            snapshot = runtime.snapshot(follower.seat).model_dump(mode="json")
            follower.frames.append({"type": "check", "snapshot": snapshot})
        action = choose(state, runtime.data.deal.number if runtime.data.deal else 0, rng)
        await runtime.transact(lambda d, s, a=action: tr.act(d, s, a, 0))  # type: ignore[misc]
    for follower in followers.values():
        snapshot = runtime.snapshot(follower.seat).model_dump(mode="json")
        follower.frames.append({"type": "check", "snapshot": snapshot})
    await runtime.stop()
    return {name: {"seat": f.seat, "frames": f.frames} for name, f in followers.items()}


def event_kinds(follower: dict[str, Any]) -> set[str]:
    kinds = {f["event"]["kind"] for f in follower["frames"] if f["type"] == "event"}
    folded = (e for f in follower["frames"] if f["type"] == "events" for e in f["events"])
    return kinds | {e["event"]["kind"] for e in folded}


def _sit(seat: int) -> Build:
    """The change that seats a guest in ``seat``."""
    return lambda d, s: seating.join(d, s, JoinRequest("", 0, seat))
