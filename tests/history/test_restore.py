"""Issue 25.7: the restore procedures of docs/DEPLOY.md ("Restoring") work: pg_restore onto
a migrated database (a plain ``pg_restore -d`` fails there), and SQLite's (nodes stopped,
``-wal`` and ``-shm`` removed, the backup copied over)."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from server.history import migrate, open_engine, store_deal
from server.history.deals import count_rows

from .databases import postgres_database
from .golden import finished_deals


def pg_tool(name: str) -> str:
    found = shutil.which(name) or max(
        Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), default=None
    )
    assert found is not None, f"no {name}"
    return str(found)


@pytest.mark.postgres
async def test_pg_restore_as_documented_onto_a_migrated_database(tmp_path: Path) -> None:
    deals = finished_deals()
    async with postgres_database() as url:
        engine = open_engine(url)
        try:
            await migrate(engine)
            for deal in deals[:3]:
                await store_deal(engine, deal)
            libpq = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
            dump = tmp_path / "tarot.dump"
            subprocess.run([pg_tool("pg_dump"), "-Fc", "-f", str(dump), libpq], check=True)
            for deal in deals[3:]:
                await store_deal(engine, deal)  # after the backup: lost by the restore
            await engine.dispose()  # the nodes are stopped
            plain = subprocess.run(
                [pg_tool("pg_restore"), "-d", libpq, str(dump)], capture_output=True, text=True
            )
            assert plain.returncode != 0 and "already exists" in plain.stderr  # as the issue saw
            documented = [
                pg_tool("pg_restore"),
                "--clean",
                "--if-exists",
                "--no-owner",
                "--single-transaction",
                "-d",
                libpq,
                str(dump),
            ]
            done = subprocess.run(documented, capture_output=True, text=True)
            assert done.returncode == 0, done.stderr
            await migrate(engine)  # the nodes start again
            assert (await count_rows(engine))["deals"] == 3
        finally:
            await engine.dispose()


async def test_sqlite_restore_as_documented(tmp_path: Path) -> None:
    deals = finished_deals()
    path = tmp_path / "history.sqlite3"
    engine = open_engine(f"sqlite:///{path}")
    await migrate(engine)
    for deal in deals[:3]:
        await store_deal(engine, deal)
    backup = tmp_path / "backup.sqlite3"
    live, copy = sqlite3.connect(path), sqlite3.connect(backup)
    live.backup(copy)  # what `sqlite3 history.sqlite3 ".backup ..."` does
    live.close()
    copy.close()
    for deal in deals[3:]:
        await store_deal(engine, deal)
    await engine.dispose()  # every node stopped
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(backup, path)
    check = sqlite3.connect(path)
    assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    check.close()
    engine = open_engine(f"sqlite:///{path}")
    try:
        await migrate(engine)
        assert (await count_rows(engine))["deals"] == 3
    finally:
        await engine.dispose()
