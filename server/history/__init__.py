"""The history database: accounts and sessions, every finished deal and table.

SQLAlchemy 2 (async) over SQLite (aiosqlite; the default, a file) or
PostgreSQL (asyncpg), the schema migrated by Alembic. ``database`` opens and
migrates, ``accounts`` signs players up and in, ``deals`` stores finished deals
exactly once and reads them back, ``deal_writer`` writes them in the background and
keeps them while the database is down, ``reviews`` keeps each deal's AI review
once; ``duplicate_events``, ``duplicate_play``, ``duplicate_close`` and
``duplicate_reads`` keep duplicate events, their entries and results, score
them and show them to whom may see them (docs/DUPLICATE.md). docs/DEPLOY.md,
"Database".
"""

from __future__ import annotations

from .accounts import Account, Accounts, SignedIn, display_name
from .chat_safety import (
    ChatReport,
    StoredReport,
    TooManyBlocks,
    TooManyMutes,
    UnknownPlayer,
    block,
    blocked_pairs,
    hidden_accounts,
    mute,
    muted_names,
    store_report,
    stored_reports,
    unmute,
)
from .database import database_url, default_url, history_place, migrate, open_engine
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
from .duplicate_close import close_event, end_event
from .duplicate_events import StoredEvent, create_event, enter_event, entry_of, stored_event
from .duplicate_play import EventResult, record_result
from .duplicate_reads import (
    EntrantStanding,
    RunningStanding,
    ShownResult,
    check_record_visible,
    deal_results,
    entry_results,
    event_standings,
    own_standing,
)
from .errors import (
    AccountError,
    AlreadyEntered,
    BadAccountName,
    BadDatabaseUrl,
    BadEntry,
    BadEventResult,
    BadPassword,
    BadRecord,
    BadSession,
    DatabaseUnavailable,
    DuplicateEventError,
    EventNotOpen,
    EventStillOpen,
    HistoryError,
    NameTaken,
    NoSuchEvent,
    NotADatabase,
    NotEntered,
    ResultsHidden,
    WrongCredentials,
)
from .reviews import KeptReviews, NotReviewable, reviewable_record, store_review, stored_review

__all__ = [
    "Account",
    "AccountError",
    "Accounts",
    "AlreadyEntered",
    "BadAccountName",
    "BadDatabaseUrl",
    "BadEntry",
    "BadEventResult",
    "BadPassword",
    "BadRecord",
    "BadSession",
    "ChatReport",
    "DatabaseUnavailable",
    "DealWriter",
    "DuplicateEventError",
    "EntrantStanding",
    "EventNotOpen",
    "EventResult",
    "EventStillOpen",
    "FinishedDeal",
    "FinishedTable",
    "HistoryError",
    "KeptReviews",
    "NameTaken",
    "NoSuchEvent",
    "NotADatabase",
    "NotEntered",
    "NotReviewable",
    "Occupant",
    "ResultsHidden",
    "RunningStanding",
    "ShownResult",
    "SignedIn",
    "StoredDeal",
    "StoredEvent",
    "StoredReport",
    "TooManyBlocks",
    "TooManyMutes",
    "UnknownPlayer",
    "WrongCredentials",
    "block",
    "blocked_pairs",
    "check_record_visible",
    "close_event",
    "create_event",
    "database_url",
    "deal_results",
    "default_url",
    "display_name",
    "end_event",
    "enter_event",
    "entry_of",
    "entry_results",
    "event_standings",
    "hidden_accounts",
    "history_place",
    "imported_key",
    "migrate",
    "mute",
    "muted_names",
    "open_engine",
    "own_standing",
    "record_result",
    "reviewable_record",
    "sheet_of",
    "store_deal",
    "store_report",
    "store_review",
    "store_table",
    "stored_deals",
    "stored_event",
    "stored_reports",
    "stored_review",
    "unmute",
]
