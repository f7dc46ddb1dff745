"""The duplicate rating: one per account, and each finished event's changes.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

# Written out, not imported from schema.py: a migration is what the schema was then.
WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "duplicate_ratings",
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("events", sa.Integer, nullable=False),
        sa.Column("updated_at", WHEN, nullable=False),
    )
    op.create_table(
        "duplicate_rating_changes",
        sa.Column(
            "event_id",
            sa.Integer,
            sa.ForeignKey("duplicate_events.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("rating_before", sa.Float, nullable=False),
        sa.Column("rating_after", sa.Float, nullable=False),
    )
    op.create_index(
        "ix_duplicate_rating_changes_account", "duplicate_rating_changes", ["account_id"]
    )


def downgrade() -> None:
    op.drop_index("ix_duplicate_rating_changes_account", "duplicate_rating_changes")
    op.drop_table("duplicate_rating_changes")
    op.drop_table("duplicate_ratings")
