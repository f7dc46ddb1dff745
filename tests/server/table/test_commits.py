"""A cached engine state follows newer versions of its table (server/table/commits.py):
by replaying only the actions it has not seen when the new deal extends its own, and
from the seed otherwise; the update a commit makes numbers its version and events."""

from __future__ import annotations

import random
from typing import Any

import engine
from protocol import models as m
from protocol.convert import action_model
from server.table import seating
from server.table.commits import committed_update, followed_state
from server.table.data import DealData, TableData, deal_state, next_commits
from server.table.seating import JoinRequest
from tests.deal_seeds import ordinary, seeds

SEED = next(s for s in seeds("commits") if ordinary(s))
OTHER = next(s for s in seeds("commits-other") if ordinary(s))


def played(seed: str, count: int) -> list[dict[str, Any]]:
    """The first ``count`` actions of a random deal from ``seed``, as the store keeps them."""
    state, rng, entries = engine.new_deal(0, bytes.fromhex(seed)), random.Random(3), []
    for _ in range(count):
        action = engine.random_action(state, rng)
        entries.append({"seat": action.seat, "action": action_model(action).model_dump()})
        engine.apply_in_place(state, action)
    return entries


def table(seed: str, actions: list[dict[str, Any]], number: int = 1) -> TableData:
    deal = DealData(number=number, dealer=0, seed=seed, actions=actions)
    return TableData(table_id="t1", options=m.TableOptions(), deal=deal)


def test_a_longer_deal_is_followed_from_the_cached_state() -> None:
    actions = played(SEED, 12)
    old, new = table(SEED, actions[:5]), table(SEED, actions)
    assert old.deal is not None and new.deal is not None
    cached = deal_state(old.deal)
    followed = followed_state(old, cached, new)
    assert followed is not None and followed is not cached
    assert engine.to_record(followed) == engine.to_record(deal_state(new.deal))
    assert engine.to_record(cached) == engine.to_record(deal_state(old.deal))  # untouched


def test_a_deal_that_does_not_extend_the_cache_is_replayed_from_its_seed() -> None:
    other = table(OTHER, played(OTHER, 6))
    for old in (table(SEED, played(SEED, 4)), table(SEED, played(SEED, 4), number=2)):
        assert old.deal is not None and other.deal is not None
        followed = followed_state(old, deal_state(old.deal), other)
        assert followed is not None
        assert engine.to_record(followed) == engine.to_record(deal_state(other.deal))
    # The same seed and number, but another first bid: the cache is not a prefix.
    mine = played(SEED, 3)
    bid = "prise" if mine[0]["action"]["contract"] == "pass" else "pass"
    theirs = [{"seat": mine[0]["seat"], "action": {"kind": "bid", "contract": bid}}]
    old, new = table(SEED, mine), table(SEED, theirs)
    assert old.deal is not None and new.deal is not None
    followed = followed_state(old, deal_state(old.deal), new)
    assert followed is not None
    assert engine.to_record(followed) == engine.to_record(deal_state(new.deal))


def test_no_deal_follows_to_no_state() -> None:
    old = table(SEED, played(SEED, 2))
    assert old.deal is not None
    empty = TableData(table_id="t1", options=m.TableOptions())
    assert followed_state(old, deal_state(old.deal), empty) is None


def test_a_commit_numbers_its_version_commit_and_events() -> None:
    data = TableData(table_id="t1", options=m.TableOptions(), commits=next_commits([]))
    change = seating.join(data, None, JoinRequest("Ann", 0, 0))
    update = committed_update(data, change)
    assert update.table.version == data.version + 1
    assert update.table.parent == data.commit and update.table.commit != data.commit
    assert [e.seq for e in update.events] == list(
        range(data.seq + 1, data.seq + 1 + len(change.events))
    )
    assert update.table.seq == data.seq + len(change.events)
