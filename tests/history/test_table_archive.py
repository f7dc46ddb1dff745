"""A table's finished deals as the server hands them over (server/node/archive.py): a
cancelled deal and its re-deal are two rows, however many nodes write them."""

from __future__ import annotations

import itertools
import logging
import random

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

import engine as game
from protocol import models as m
from server.history import DealWriter
from server.history.deals import count_rows
from server.history.schema import TABLE_ID_MAX, deals, seats, tables
from server.node.archive import Archive
from server.table import transitions as tr
from server.table.data import TableData

from ..deal_seeds import deal_from, ordinary, where


def changes(monkeypatch: pytest.MonkeyPatch, table_id: str = "t-redeal") -> list[tr.Change]:
    """A one-deal table: its first deal passed out (four passes), the re-deal played out.

    The deals are ordinary (no petit sec, R3) and the same every run, so the random play
    of the re-deal always finishes it.
    """
    deal_from(monkeypatch, where("archive", ordinary))
    data = TableData(table_id=table_id, options=m.TableOptions(deals=1, ai_level="expert"))
    now = 1_000
    out = [tr.start(data, None, now)]
    for _ in range(4):
        last = out[-1]
        assert last.state is not None
        now += 10
        out.append(
            tr.act(last.data, last.state, game.Bid(last.state.to_act, game.Contract.PASS), now)
        )
    last = out[-1]
    assert last.state is not None and last.state.cancelled
    out.append(tr.next_deal(last.data, last.state, now + 10))
    rng = random.Random(5)
    while not (state := out[-1].state).is_over:  # type: ignore[union-attr]
        assert state is not None
        now += 10
        out.append(tr.act(out[-1].data, state, game.random_action(state, rng), now))
    assert out[-1].data.status == "finished"
    return out


async def test_a_re_deal_is_another_row_and_two_nodes_write_each_deal_once(
    engine: AsyncEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    steps = changes(monkeypatch)
    writers = [DealWriter(engine), DealWriter(engine)]  # two nodes that both follow the table
    for writer in writers:
        writer.start()
        archive = Archive(writer)
        before: tr.Change | None = None
        for step in steps:
            if before is None:
                archive.seen(None, None, step.data, step.state)
            else:
                archive.seen(before.data, before.state, step.data, step.state)
            before = step
    for writer in writers:
        await writer.flush()
        await writer.close()
    assert sum(w.stored for w in writers) == 2 and sum(w.tables for w in writers) == 1
    async with engine.connect() as conn:
        stored = (await conn.execute(select(deals).order_by(deals.c.deal_number))).all()
        seated = (await conn.execute(select(seats).order_by(seats.c.seat))).all()
        [table] = (await conn.execute(select(tables))).all()
    assert [(d.table_id, d.deal_number, d.sheet["status"]) for d in stored] == [
        ("t-redeal", 0, "cancelled"),
        ("t-redeal", 1, "played"),
    ]
    final = steps[-1]
    assert final.state is not None
    assert stored[1].record == game.to_record(final.state)
    assert stored[1].sheet == game.score(final.state).to_json()
    assert [s.ai_level for s in seated] == ["expert"] * 8
    assert (table.deals_played, table.series) == (1, [stored[1].sheet])
    assert table.totals == list(final.data.totals)


async def test_a_deal_the_history_refuses_is_logged_and_play_goes_on(
    engine: AsyncEngine, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Handing a deal over runs after its commit: a refusal must not raise into the table."""
    steps = changes(monkeypatch, "t" * (TABLE_ID_MAX + 1))  # longer than the history keeps
    writer = DealWriter(engine)
    writer.start()
    archive = Archive(writer)
    with caplog.at_level(logging.ERROR, "tarot.history"):
        for before, after in itertools.pairwise(steps):
            archive.seen(before.data, before.state, after.data, after.state)
    await writer.flush()
    await writer.close()
    assert "a finished deal was not queued" in caplog.text
    assert "a table id has 1-64 characters" in caplog.text
    assert (await count_rows(engine, ["deals", "seats"])) == {"deals": 0, "seats": 0}
