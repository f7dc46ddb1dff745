"""Issue 25.7: ``tarot archive export`` then ``import`` into the same database stores
nothing again (before: 208 of 220 deals stored a second time, under ``import-<digest>``)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.ext.asyncio import AsyncEngine

from server.history import store_deal
from server.history.deals import count_rows

from .golden import finished_deals
from .test_archive import tarot


async def test_an_export_imported_back_stores_nothing(
    engine: AsyncEngine, db_url: str, tmp_path: Path
) -> None:
    deals = finished_deals()
    for deal in deals:
        assert await store_deal(engine, deal)  # as a node stores them: (table id, number)
    before = await count_rows(engine)
    exported = tarot("archive", "export", "--db", db_url)
    assert exported.returncode == 0, exported.stderr
    dump = tmp_path / "dump.jsonl"
    dump.write_text(exported.stdout)
    back = tarot("archive", "import", "--db", db_url, str(dump))
    assert back.returncode == 0, back.stderr
    assert f"0 deals stored, {len(deals)} already there" in back.stderr
    assert await count_rows(engine) == before
