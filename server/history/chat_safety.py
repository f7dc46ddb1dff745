"""Blocks between accounts, mutes kept for accounts, and reported chat messages
(migrations 0007 and 0008).

- ``blocks``: an account that blocked another (``block`` on the wire). Neither
  sees the other's chat (``hidden_accounts``), and quick play never seats the
  two at one table: it asks ``blocked_pairs`` about the accounts it would
  group. A block is one way in the table and both ways in effect.
- ``mutes`` (0008): the names (case-folded) a signed-in player muted (``mute`` on
  the wire). Unlike a block it is one way and by name, a guest's name too: the
  player is not shown that name's chat on any of its connections, from any
  node, until ``unmute`` (a guest's mutes live only as long as its connection).
- ``chat_reports``: a chat message a reader reported, with the messages of the
  table before it (its context: the ``chat`` events as they were sent), who
  reported it and why. ``tarot reports`` lists them for an operator
  (docs/DEPLOY.md, "Chat"). One report per message and reporter.

The tables are defined here, on the schema's ``metadata``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    UniqueConstraint,
    or_,
    select,
    update,
)
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from .accounts import display_name
from .deals import _insert
from .errors import BadAccountName, HistoryError
from .guard import reachable
from .schema import NAME_KEY_MAX, TABLE_ID_MAX, Document, accounts, metadata

REASON_MAX = 200

blocks = Table(
    "blocks",
    metadata,
    Column("blocker_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("blocked_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("blocked_at", DateTime(timezone=True), nullable=False),
    Index("ix_blocks_blocked_id", "blocked_id"),
)

mutes = Table(
    "mutes",
    metadata,
    Column("muter_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("name_key", String(NAME_KEY_MAX), primary_key=True),  # the name, case-folded
    Column("muted_at", DateTime(timezone=True), nullable=False),
)

chat_reports = Table(
    "chat_reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("reported_at", DateTime(timezone=True), nullable=False),
    Column("table_id", String(TABLE_ID_MAX), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("reporter_id", Integer, ForeignKey("accounts.id", ondelete="SET NULL")),
    Column("reporter", String(NAME_KEY_MAX), nullable=False),  # a name, or a guest's address
    Column("author_id", Integer, ForeignKey("accounts.id", ondelete="SET NULL")),
    Column("author", String(NAME_KEY_MAX), nullable=False),
    Column("message", Document, nullable=False),  # the reported ``chat`` event
    Column("context", Document, nullable=False),  # the table's ``chat`` events before it
    Column("reason", String(REASON_MAX), nullable=False),
    UniqueConstraint("table_id", "seq", "reporter", name="uq_chat_reports_once"),
    Index("ix_chat_reports_reported_at", "reported_at"),
)


class UnknownPlayer(HistoryError):
    """``block``: no account of that name (or one's own)."""

    code = "unknown_player"


class TooManyMutes(HistoryError):
    """``mute``: the account muted as many names as it may."""

    code = "too_many_mutes"


class TooManyBlocks(HistoryError):
    """``block``: the account blocked as many accounts as it may."""

    code = "too_many_blocks"


@dataclass(frozen=True, slots=True)
class ChatReport:
    """A reported message: where, by whom, what, and the messages before it."""

    table_id: str
    seq: int
    reporter_id: int | None
    reporter: str
    message: dict[str, Any]
    context: list[dict[str, Any]]
    reason: str = ""

    @property
    def author(self) -> str:
        return str(self.message.get("name", ""))

    @property
    def author_id(self) -> int | None:
        found = self.message.get("account_id")
        return found if isinstance(found, int) else None


@dataclass(frozen=True, slots=True)
class StoredReport:
    id: int
    reported_at: datetime
    report: ChatReport

    def as_dict(self) -> dict[str, Any]:
        """The report as JSON gives it to an operator (``tarot reports --json``, the admin API)."""
        report = self.report
        return {
            "id": self.id,
            "reported_at": self.reported_at.isoformat(),
            "table_id": report.table_id,
            "seq": report.seq,
            "reporter": report.reporter,
            "reporter_id": report.reporter_id,
            "author": report.author,
            "author_id": report.author_id,
            "reason": report.reason,
            "message": report.message,
            "context": report.context,
        }


def _now() -> datetime:
    return datetime.now(UTC)


async def block(
    engine: AsyncEngine, blocker_id: int, name: str, limit: int | None = None
) -> tuple[int, str]:
    """``blocker_id`` blocks the account named ``name`` (any case): its id and name.
    ``UnknownPlayer`` if no account has the name, or it is the blocker's own;
    ``TooManyBlocks`` if the blocker has ``limit`` blocks already (one of them: no more)."""
    try:
        _, key = display_name(name)
    except BadAccountName:
        raise UnknownPlayer(f"no account is named {name!r}") from None
    async with reachable(), engine.begin() as conn:
        if limit is not None:
            await _lock_account(conn, blocker_id)
        found = (
            await conn.execute(
                select(accounts.c.id, accounts.c.name).where(accounts.c.name_key == key)
            )
        ).first()
        if found is None or found.id == blocker_id:
            raise UnknownPlayer(f"no other account is named {name!r}")
        if limit is not None:
            await _room_for_block(conn, blocker_id, found.id, limit)
        row = {"blocker_id": blocker_id, "blocked_id": found.id, "blocked_at": _now()}
        await conn.execute(_insert(conn, blocks).values(row).on_conflict_do_nothing())
    return int(found.id), str(found.name)


async def _lock_account(conn: AsyncConnection, account_id: int) -> None:
    """Hold the account's row until the transaction ends, so that two of its mutes (or
    blocks) at once count its rows one after the other: else each sees one row short of
    the limit (READ COMMITTED) and both are kept. PostgreSQL locks the row; SQLite's
    driver begins a transaction at its first write only (a read before it is on its own),
    so there a write comes first, which takes the database's write lock."""
    if conn.dialect.name == "postgresql":
        query = select(accounts.c.id).where(accounts.c.id == account_id).with_for_update()
        await conn.execute(query)
    else:
        same = update(accounts).where(accounts.c.id == account_id).values(id=accounts.c.id)
        await conn.execute(same)


async def _room_for_block(
    conn: AsyncConnection, blocker_id: int, blocked_id: int, limit: int
) -> None:
    query = select(blocks.c.blocked_id).where(blocks.c.blocker_id == blocker_id)
    blocked = set((await conn.execute(query)).scalars())
    if blocked_id not in blocked and len(blocked) >= limit:
        raise TooManyBlocks(f"you have blocked {len(blocked)} accounts, the most allowed")


async def hidden_accounts(engine: AsyncEngine, account_id: int) -> set[int]:
    """The accounts ``account_id`` blocked or was blocked by: no chat between them."""
    query = select(blocks.c.blocker_id, blocks.c.blocked_id).where(
        or_(blocks.c.blocker_id == account_id, blocks.c.blocked_id == account_id)
    )
    async with reachable(), engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    return {r.blocked_id if r.blocker_id == account_id else r.blocker_id for r in rows}


async def blocked_pairs(engine: AsyncEngine, account_ids: Iterable[int]) -> set[frozenset[int]]:
    """The pairs among ``account_ids`` where one blocked the other (either way): quick play
    seats no pair of them at one table."""
    ids = sorted(set(account_ids))
    if len(ids) < 2:
        return set()
    query = select(blocks.c.blocker_id, blocks.c.blocked_id).where(
        blocks.c.blocker_id.in_(ids), blocks.c.blocked_id.in_(ids)
    )
    async with reachable(), engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    return {frozenset((r.blocker_id, r.blocked_id)) for r in rows}


async def mute(
    engine: AsyncEngine,
    muter_id: int,
    names: Iterable[str],
    limit: int | None = None,
    *,
    partial: bool = False,
) -> None:
    """``muter_id`` mutes ``names`` (case-folded here), kept until ``unmute``. With a
    ``limit``, past it: ``TooManyMutes``, nothing kept; or (``partial``: the mutes a
    guest connection carries into the account at sign-in) the first names that fit."""
    keys = sorted({n.casefold()[:NAME_KEY_MAX] for n in names})
    if not keys:
        return
    async with reachable(), engine.begin() as conn:
        if limit is not None:
            await _lock_account(conn, muter_id)
            query = select(mutes.c.name_key).where(mutes.c.muter_id == muter_id)
            kept = set((await conn.execute(query)).scalars())
            new = [key for key in keys if key not in kept]
            room = max(0, limit - len(kept))
            if len(new) > room and not partial:
                raise TooManyMutes(f"you have muted {len(kept)} names, the most allowed")
            keys = new[:room]
        rows = [{"muter_id": muter_id, "name_key": key, "muted_at": _now()} for key in keys]
        if rows:
            await conn.execute(_insert(conn, mutes).values(rows).on_conflict_do_nothing())


async def unmute(engine: AsyncEngine, muter_id: int, name: str) -> None:
    key = name.casefold()[:NAME_KEY_MAX]
    query = mutes.delete().where((mutes.c.muter_id == muter_id) & (mutes.c.name_key == key))
    async with reachable(), engine.begin() as conn:
        await conn.execute(query)


async def muted_names(engine: AsyncEngine, muter_id: int) -> set[str]:
    """The names (case-folded) ``muter_id`` muted."""
    query = select(mutes.c.name_key).where(mutes.c.muter_id == muter_id)
    async with reachable(), engine.connect() as conn:
        return set((await conn.execute(query)).scalars())


async def store_report(engine: AsyncEngine, report: ChatReport) -> int:
    """Keep ``report`` (once per message and reporter): its id."""
    row = {
        "reported_at": _now(),
        "table_id": report.table_id,
        "seq": report.seq,
        "reporter_id": report.reporter_id,
        "reporter": report.reporter[:NAME_KEY_MAX],
        "author_id": report.author_id,
        "author": report.author[:NAME_KEY_MAX],
        "message": report.message,
        "context": report.context,
        "reason": report.reason[:REASON_MAX],
    }
    once = (
        (chat_reports.c.table_id == report.table_id)
        & (chat_reports.c.seq == report.seq)
        & (chat_reports.c.reporter == row["reporter"])
    )
    async with reachable(), engine.begin() as conn:
        await conn.execute(_insert(conn, chat_reports).values(row).on_conflict_do_nothing())
        found = (await conn.execute(select(chat_reports.c.id).where(once))).scalar_one()
    return int(found)


async def stored_reports(
    engine: AsyncEngine, limit: int = 50, since: datetime | None = None, before: int | None = None
) -> list[StoredReport]:
    """The latest reports, newest first (``since``: only those after it; ``before``: only
    those older than the report of that id, the next page after it)."""
    query = select(chat_reports).order_by(chat_reports.c.id.desc()).limit(limit)
    if since is not None:
        query = query.where(chat_reports.c.reported_at >= since)
    if before is not None:
        query = query.where(chat_reports.c.id < before)
    async with reachable(), engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    return [
        StoredReport(
            id=r.id,
            reported_at=r.reported_at,
            report=ChatReport(
                table_id=r.table_id,
                seq=r.seq,
                reporter_id=r.reporter_id,
                reporter=r.reporter,
                message=r.message,
                context=r.context,
                reason=r.reason,
            ),
        )
        for r in rows
    ]
