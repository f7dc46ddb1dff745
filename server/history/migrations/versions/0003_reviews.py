"""Deal reviews: a finished deal's review, kept once per reviewer (its version and settings).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "deal_reviews",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("deal_number", sa.Integer, primary_key=True),
        sa.Column("reviewer", sa.String(64), primary_key=True),
        sa.Column("review", sa.JSON, nullable=False),
        sa.Column("reviewed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id", "deal_number"],
            ["deals.table_id", "deals.deal_number"],
            ondelete="CASCADE",
        ),
    )


def downgrade() -> None:
    op.drop_table("deal_reviews")
