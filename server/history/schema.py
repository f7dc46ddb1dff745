"""The history database's tables (SQLAlchemy Core), the one description of its schema.

Alembic's migrations (``migrations/versions``) create and change these tables;
this module says what the code expects them to be, and a test checks that the
migrated database matches it.

- ``accounts``: a display name (shown form and its case-folded key, unique)
  and an argon2 password hash.
- ``sessions``: revocable sign-in tokens, stored as their SHA-256 only (a
  token is 256 random bits, so a fast hash is enough and a stolen table
  signs nobody in).
- ``tables``: finished tables, their series (every sheet) and totals.
- ``deals``: one row per (table, deal number): the ``tarot-record/1`` record,
  its score sheet, when it started and finished. A deal number counts every
  deal dealt at the table from 0, a cancelled one included (it is re-dealt
  under the same number *of play*, but it is another deal).
- ``seats``: who sat where in each deal: an account, a guest name or an AI level.
- ``ratings``: each rated account's rating and its number of rated deals
  (docs/RATINGS.md); ``rating_changes``: what each deal did to each account's
  rating; ``rated_deals``: every deal the ratings have looked at, once
  (``rated`` false for a deal with a guest, or cancelled), which keeps a deal
  from moving a rating twice.
- ``deal_reviews`` (defined in ``reviews.py``, on this metadata; migration
  0003): a stored deal's review by the AI, once per reviewer.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    String,
    Table,
)

metadata = MetaData()

TABLE_ID_MAX = 64
NAME_KEY_MAX = 160  # casefold can lengthen a name (ß -> ss): room for 40 characters x 4
AI_LEVEL_MAX = 64
# JSON, not JSONB, on PostgreSQL too: JSONB reorders keys, and a record exported
# should read as it was written (format first, then dealer, hands...).
Document = JSON()

accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(NAME_KEY_MAX), nullable=False),
    Column("name_key", String(NAME_KEY_MAX), nullable=False, unique=True),
    Column("password_hash", String(255), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Index("ix_sessions_account_id", "account_id"),
)

tables = Table(
    "tables",
    metadata,
    Column("id", String(TABLE_ID_MAX), primary_key=True),
    Column("deals_played", Integer, nullable=False),
    Column("series", Document, nullable=False),
    Column("totals", Document, nullable=False),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=False),
)

deals = Table(
    "deals",
    metadata,
    Column("table_id", String(TABLE_ID_MAX), primary_key=True),
    Column("deal_number", Integer, primary_key=True),
    Column("record", Document, nullable=False),
    Column("sheet", Document, nullable=False),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=False),
    CheckConstraint("deal_number >= 0", name="ck_deals_deal_number"),
    Index("ix_deals_finished_at", "finished_at"),
)

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(TABLE_ID_MAX), primary_key=True),
    Column("deal_number", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="SET NULL")),
    Column("guest_name", String(NAME_KEY_MAX)),
    Column("ai_level", String(AI_LEVEL_MAX)),
    ForeignKeyConstraint(
        ["table_id", "deal_number"], ["deals.table_id", "deals.deal_number"], ondelete="CASCADE"
    ),
    CheckConstraint("seat >= 0 AND seat < 4", name="ck_seats_seat"),
    # An account, a guest name or an AI level: exactly one (an account deleted
    # later leaves its seats with no one, which is why it is "at most" here).
    CheckConstraint(
        "(CASE WHEN account_id IS NULL THEN 0 ELSE 1 END)"
        " + (CASE WHEN guest_name IS NULL THEN 0 ELSE 1 END)"
        " + (CASE WHEN ai_level IS NULL THEN 0 ELSE 1 END) <= 1",
        name="ck_seats_one_occupant",
    ),
    Index("ix_seats_account_id", "account_id"),
    Index("ix_seats_guest_name", "guest_name"),
)

ratings = Table(
    "ratings",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deals", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Index("ix_ratings_rating", "rating"),
)

rated_deals = Table(
    "rated_deals",
    metadata,
    Column("table_id", String(TABLE_ID_MAX), primary_key=True),
    Column("deal_number", Integer, primary_key=True),
    Column("rated", Boolean, nullable=False),
    Column("rated_at", DateTime(timezone=True), nullable=False),
    ForeignKeyConstraint(
        ["table_id", "deal_number"], ["deals.table_id", "deals.deal_number"], ondelete="CASCADE"
    ),
)

rating_changes = Table(
    "rating_changes",
    metadata,
    Column("table_id", String(TABLE_ID_MAX), primary_key=True),
    Column("deal_number", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("rating_before", Float, nullable=False),
    Column("rating_after", Float, nullable=False),
    Column("deals_after", Integer, nullable=False),
    Column("rated_at", DateTime(timezone=True), nullable=False),
    ForeignKeyConstraint(
        ["table_id", "deal_number"],
        ["rated_deals.table_id", "rated_deals.deal_number"],
        ondelete="CASCADE",
    ),
    CheckConstraint("seat >= 0 AND seat < 4", name="ck_rating_changes_seat"),
    Index("ix_rating_changes_account_id", "account_id", "rated_at"),
)
