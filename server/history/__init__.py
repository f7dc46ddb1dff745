"""The history database: accounts and sessions, every finished deal and table.

SQLAlchemy 2 (async) over SQLite (aiosqlite; the default, a file) or
PostgreSQL (asyncpg), the schema migrated by Alembic. ``database`` opens and
migrates, ``accounts`` signs players up and in, ``deals`` stores finished deals
exactly once and reads them back, ``deal_writer`` writes them in the background and
keeps them while the database is down, ``reviews`` keeps each deal's AI review
once. docs/DEPLOY.md, "Database".
"""

from __future__ import annotations

from .accounts import Account, Accounts, SignedIn, display_name
from .database import database_url, default_url, migrate, open_engine
from .deal_writer import DealWriter
from .deals import (
    FinishedDeal,
    FinishedTable,
    Occupant,
    StoredDeal,
    imported_key,
    sheet_of,
    store_deal,
    store_table,
    stored_deals,
)
from .errors import (
    AccountError,
    BadDatabaseUrl,
    BadName,
    BadPassword,
    BadRecord,
    BadSession,
    DatabaseUnavailable,
    HistoryError,
    NameTaken,
    WrongCredentials,
)
from .reviews import KeptReviews, NotReviewable, reviewable_record, store_review, stored_review

__all__ = [
    "Account",
    "AccountError",
    "Accounts",
    "BadDatabaseUrl",
    "BadName",
    "BadPassword",
    "BadRecord",
    "BadSession",
    "DatabaseUnavailable",
    "DealWriter",
    "FinishedDeal",
    "FinishedTable",
    "HistoryError",
    "KeptReviews",
    "NameTaken",
    "NotReviewable",
    "Occupant",
    "SignedIn",
    "StoredDeal",
    "WrongCredentials",
    "database_url",
    "default_url",
    "display_name",
    "imported_key",
    "migrate",
    "open_engine",
    "reviewable_record",
    "sheet_of",
    "store_deal",
    "store_review",
    "store_table",
    "stored_deals",
    "stored_review",
]
