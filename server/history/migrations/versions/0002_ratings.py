"""Ratings: each account's rating, every deal's changes, the deals already rated.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("updated_at", WHEN, nullable=False),
    )
    op.create_index("ix_ratings_rating", "ratings", ["rating"])
    op.create_table(
        "rated_deals",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("deal_number", sa.Integer, primary_key=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("rated_at", WHEN, nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id", "deal_number"],
            ["deals.table_id", "deals.deal_number"],
            ondelete="CASCADE",
        ),
    )
    op.create_table(
        "rating_changes",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("deal_number", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("rating_before", sa.Float, nullable=False),
        sa.Column("rating_after", sa.Float, nullable=False),
        sa.Column("deals_after", sa.Integer, nullable=False),
        sa.Column("rated_at", WHEN, nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id", "deal_number"],
            ["rated_deals.table_id", "rated_deals.deal_number"],
            ondelete="CASCADE",
        ),
        sa.CheckConstraint("seat >= 0 AND seat < 4", name="ck_rating_changes_seat"),
    )
    op.create_index("ix_rating_changes_account_id", "rating_changes", ["account_id", "rated_at"])


def downgrade() -> None:
    for name in ("rating_changes", "rated_deals", "ratings"):
        op.drop_table(name)
