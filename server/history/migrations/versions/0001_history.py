"""The first schema: accounts, sessions, finished tables, deals and their seats.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

# Written out, not imported from schema.py: a migration is what the schema was then.
DOCUMENT = sa.JSON()  # not JSONB: it would reorder a record's keys
WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(160), nullable=False),
        sa.Column("name_key", sa.String(160), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("expires_at", WHEN, nullable=False),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_table(
        "tables",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("deals_played", sa.Integer, nullable=False),
        sa.Column("series", DOCUMENT, nullable=False),
        sa.Column("totals", DOCUMENT, nullable=False),
        sa.Column("started_at", WHEN, nullable=False),
        sa.Column("finished_at", WHEN, nullable=False),
    )
    op.create_table(
        "deals",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("deal_number", sa.Integer, primary_key=True),
        sa.Column("record", DOCUMENT, nullable=False),
        sa.Column("sheet", DOCUMENT, nullable=False),
        sa.Column("started_at", WHEN, nullable=False),
        sa.Column("finished_at", WHEN, nullable=False),
        sa.CheckConstraint("deal_number >= 0", name="ck_deals_deal_number"),
    )
    op.create_index("ix_deals_finished_at", "deals", ["finished_at"])
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("deal_number", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="SET NULL")),
        sa.Column("guest_name", sa.String(160)),
        sa.Column("ai_level", sa.String(64)),
        sa.ForeignKeyConstraint(
            ["table_id", "deal_number"],
            ["deals.table_id", "deals.deal_number"],
            ondelete="CASCADE",
        ),
        sa.CheckConstraint("seat >= 0 AND seat < 4", name="ck_seats_seat"),
        sa.CheckConstraint(
            "(CASE WHEN account_id IS NULL THEN 0 ELSE 1 END)"
            " + (CASE WHEN guest_name IS NULL THEN 0 ELSE 1 END)"
            " + (CASE WHEN ai_level IS NULL THEN 0 ELSE 1 END) <= 1",
            name="ck_seats_one_occupant",
        ),
    )
    op.create_index("ix_seats_account_id", "seats", ["account_id"])
    op.create_index("ix_seats_guest_name", "seats", ["guest_name"])


def downgrade() -> None:
    for name in ("seats", "deals", "tables", "sessions", "accounts"):
        op.drop_table(name)
