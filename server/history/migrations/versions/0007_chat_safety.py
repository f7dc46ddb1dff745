"""Chat safety: blocks between accounts, and reported chat messages with their context.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "blocks",
        sa.Column(
            "blocker_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "blocked_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("blocked_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_blocks_blocked_id", "blocks", ["blocked_id"])
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reported_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("reporter_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="SET NULL")),
        sa.Column("reporter", sa.String(160), nullable=False),
        sa.Column("author_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="SET NULL")),
        sa.Column("author", sa.String(160), nullable=False),
        sa.Column("message", sa.JSON, nullable=False),
        sa.Column("context", sa.JSON, nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.UniqueConstraint("table_id", "seq", "reporter", name="uq_chat_reports_once"),
    )
    op.create_index("ix_chat_reports_reported_at", "chat_reports", ["reported_at"])


def downgrade() -> None:
    op.drop_index("ix_chat_reports_reported_at", "chat_reports")
    op.drop_table("chat_reports")
    op.drop_index("ix_blocks_blocked_id", "blocks")
    op.drop_table("blocks")
