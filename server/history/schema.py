"""The history database's tables (SQLAlchemy Core), the one description of its schema.

Alembic's migrations (``migrations/versions``) create and change these tables;
this module says what the code expects them to be, and a test checks that the
migrated database matches it.

- ``accounts``: a display name (shown form, its case-folded key, unique, and
  its skeleton, unique: no two names look alike; migration 0005) and an argon2
  password hash.
- ``sessions``: revocable sign-in tokens, stored as their SHA-256 only (a
  token is 256 random bits, so a fast hash is enough and a stolen table
  signs nobody in).
- ``tables``: finished tables, their series (every sheet) and totals.
- ``deals``: one row per (table, deal number): the ``tarot-record/1`` record,
  its score sheet, when it started and finished. A deal number counts every
  deal dealt at the table from 0, a cancelled one included (it is re-dealt
  under the same number *of play*, but it is another deal). A duplicate
  event's deal names its event and its index there (``event_id``,
  ``event_deal``; migration 0010).
- ``seats``: who sat where in each deal: an account, a guest name or an AI level.
- ``ratings``: each rated account's rating and its number of rated deals
  (docs/RATINGS.md); ``rating_changes``: what each deal did to each account's
  rating; ``rated_deals``: every deal the ratings have looked at, once
  (``rated`` false for a deal with a guest, or cancelled), which keeps a deal
  from moving a rating twice.
- ``deal_reviews`` (defined in ``reviews.py``, on this metadata; migration
  0003): a stored deal's review by the AI, once per reviewer.
- ``duplicate_events`` (migration 0004, docs/DUPLICATE.md): duplicate events,
  their secret seed (hex), deals, window, kind and scoring, and when they were
  scored; ``duplicate_entries``: who entered (an account, once per event, or an
  AI level filling a seat of a ``tables`` event) and their standing once
  scored; ``duplicate_results``: each entry's result on each deal played (its
  seat, contract and score, the stored deal it was, its mark once scored). A
  result names its stored deal without a foreign key: the node's writer may
  store the deal after the result is recorded.
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
    UniqueConstraint,
)

from server.duplicate import DEALS_MAX, EVENT_KINDS, SCORINGS
from server.duplicate.definition import EVENT_NAME_MAX, SEED_BYTES_MAX

metadata = MetaData()

TABLE_ID_MAX = 64
NAME_KEY_MAX = 160  # casefold can lengthen a name (ß -> ss): room for 40 characters x 4
# A skeleton lengthens a name more (a Hangul syllable's prototype is 7 characters; a test
# bounds every character's at 8): room for 40 characters x 8.
NAME_SKELETON_MAX = 320
AI_LEVEL_MAX = 64
CONTRACT_MAX = 16
# JSON, not JSONB, on PostgreSQL too: JSONB reorders keys, and a record exported
# should read as it was written (format first, then dealer, hands...).
Document = JSON()

accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(NAME_KEY_MAX), nullable=False),
    Column("name_key", String(NAME_KEY_MAX), nullable=False, unique=True),
    # protocol.skeletons.name_skeleton(name); NULL for an account older than 0005 whose
    # name looked like an older account's (it keeps its name: docs/DEPLOY.md, "Accounts").
    Column("name_skeleton", String(NAME_SKELETON_MAX)),
    Column("password_hash", String(255), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ux_accounts_name_skeleton", "name_skeleton", unique=True),
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
    # A duplicate event's deal: the event and the deal's index in it (migration 0010),
    # stored with the deal, so that it is hidden while the event is open whatever the
    # node has recorded of its results (duplicate_reads.check_record_visible). NULL else.
    Column("event_id", Integer),
    Column("event_deal", Integer),
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
    # An AI seat of a rated quick-play deal that an account left mid-deal: that account,
    # rated as the deal's last place (ratings.py; migration 0009). NULL for the others.
    Column("left_account_id", Integer, ForeignKey("accounts.id", ondelete="SET NULL")),
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


def _one_of(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


duplicate_events = Table(
    "duplicate_events",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(EVENT_NAME_MAX), nullable=False),
    Column("seed", String(2 * SEED_BYTES_MAX), nullable=False),  # hex; secret
    Column("deals", Integer, nullable=False),
    Column("kind", String(16), nullable=False),
    Column("scoring", String(16), nullable=False),
    Column("opens_at", DateTime(timezone=True), nullable=False),
    Column("closes_at", DateTime(timezone=True), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("scored_at", DateTime(timezone=True)),
    CheckConstraint(f"deals >= 1 AND deals <= {DEALS_MAX}", name="ck_duplicate_events_deals"),
    CheckConstraint(_one_of("kind", EVENT_KINDS), name="ck_duplicate_events_kind"),
    CheckConstraint(_one_of("scoring", SCORINGS), name="ck_duplicate_events_scoring"),
    CheckConstraint("opens_at < closes_at", name="ck_duplicate_events_window"),
    Index("ix_duplicate_events_closes_at", "closes_at"),
)

duplicate_entries = Table(
    "duplicate_entries",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column(
        "event_id",
        Integer,
        ForeignKey("duplicate_events.id", ondelete="CASCADE"),
        nullable=False,
    ),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="SET NULL")),
    Column("ai_level", String(AI_LEVEL_MAX)),
    Column("entered_at", DateTime(timezone=True), nullable=False),
    Column("mark", Float),  # the standing, once the event is scored
    Column("rank", Integer),
    # An account enters an event once (NULLs, AI entries, are distinct in both engines).
    UniqueConstraint("event_id", "account_id", name="uq_duplicate_entries_account"),
    UniqueConstraint("event_id", "id", name="uq_duplicate_entries_event"),  # results' key
    # An account or an AI level; at most, as for seats: a deleted account leaves its entry.
    CheckConstraint(
        "account_id IS NULL OR ai_level IS NULL", name="ck_duplicate_entries_one_entrant"
    ),
    Index("ix_duplicate_entries_account_id", "account_id"),
)

duplicate_results = Table(
    "duplicate_results",
    metadata,
    Column("entry_id", Integer, primary_key=True),
    Column("deal_index", Integer, primary_key=True),
    Column("event_id", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("table_id", String(TABLE_ID_MAX)),  # the stored deal: deals (table_id, deal_number)
    Column("deal_number", Integer),
    Column("contract", String(CONTRACT_MAX)),  # None: passed out
    Column("score", Float, nullable=False),  # the sheet's score for the seat
    Column("mark", Float),  # its percentage (or points above the datum), once scored
    Column("played_at", DateTime(timezone=True), nullable=False),
    # The entry's own event: a result cannot sit in one event and count in another.
    ForeignKeyConstraint(
        ["event_id", "entry_id"],
        ["duplicate_entries.event_id", "duplicate_entries.id"],
        ondelete="CASCADE",
    ),
    CheckConstraint("deal_index >= 0", name="ck_duplicate_results_deal_index"),
    CheckConstraint("seat >= 0 AND seat < 4", name="ck_duplicate_results_seat"),
    Index("ix_duplicate_results_deal", "event_id", "deal_index", "seat", "score"),
    Index("ix_duplicate_results_record", "table_id", "deal_number"),
)

# Migration 0006: the duplicate rating (server.duplicate.rating, docs/RATINGS.md): one per
# account, moved by each finished event it played in; each event's changes, which also
# say the event was rated (once, in the transaction that scored it).
duplicate_ratings = Table(
    "duplicate_ratings",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("events", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

duplicate_rating_changes = Table(
    "duplicate_rating_changes",
    metadata,
    Column(
        "event_id",
        Integer,
        ForeignKey("duplicate_events.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("rating_before", Float, nullable=False),
    Column("rating_after", Float, nullable=False),
    Index("ix_duplicate_rating_changes_account", "account_id"),
)
