"""Duplicate events: the events, who entered them, each entry's result on each deal.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

# Written out, not imported from schema.py: a migration is what the schema was then.
WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "duplicate_events",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("seed", sa.String(128), nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("scoring", sa.String(16), nullable=False),
        sa.Column("opens_at", WHEN, nullable=False),
        sa.Column("closes_at", WHEN, nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("scored_at", WHEN),
        sa.CheckConstraint("deals >= 1 AND deals <= 64", name="ck_duplicate_events_deals"),
        sa.CheckConstraint("kind IN ('robot', 'tables')", name="ck_duplicate_events_kind"),
        sa.CheckConstraint(
            "scoring IN ('matchpoints', 'datum')", name="ck_duplicate_events_scoring"
        ),
        sa.CheckConstraint("opens_at < closes_at", name="ck_duplicate_events_window"),
    )
    op.create_index("ix_duplicate_events_closes_at", "duplicate_events", ["closes_at"])
    op.create_table(
        "duplicate_entries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "event_id",
            sa.Integer,
            sa.ForeignKey("duplicate_events.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="SET NULL")),
        sa.Column("ai_level", sa.String(64)),
        sa.Column("entered_at", WHEN, nullable=False),
        sa.Column("mark", sa.Float),
        sa.Column("rank", sa.Integer),
        sa.UniqueConstraint("event_id", "account_id", name="uq_duplicate_entries_account"),
        sa.UniqueConstraint("event_id", "id", name="uq_duplicate_entries_event"),
        sa.CheckConstraint(
            "account_id IS NULL OR ai_level IS NULL", name="ck_duplicate_entries_one_entrant"
        ),
    )
    op.create_index("ix_duplicate_entries_account_id", "duplicate_entries", ["account_id"])
    op.create_table(
        "duplicate_results",
        sa.Column("entry_id", sa.Integer, primary_key=True),
        sa.Column("deal_index", sa.Integer, primary_key=True),
        sa.Column("event_id", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("table_id", sa.String(64)),
        sa.Column("deal_number", sa.Integer),
        sa.Column("contract", sa.String(16)),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("mark", sa.Float),
        sa.Column("played_at", WHEN, nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id", "entry_id"],
            ["duplicate_entries.event_id", "duplicate_entries.id"],
            ondelete="CASCADE",
        ),
        sa.CheckConstraint("deal_index >= 0", name="ck_duplicate_results_deal_index"),
        sa.CheckConstraint("seat >= 0 AND seat < 4", name="ck_duplicate_results_seat"),
    )
    op.create_index(
        "ix_duplicate_results_deal",
        "duplicate_results",
        ["event_id", "deal_index", "seat", "score"],
    )
    op.create_index("ix_duplicate_results_record", "duplicate_results", ["table_id", "deal_number"])


def downgrade() -> None:
    for name in ("duplicate_results", "duplicate_entries", "duplicate_events"):
        op.drop_table(name)
