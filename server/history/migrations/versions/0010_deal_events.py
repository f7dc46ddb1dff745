"""A stored deal names the duplicate event it is a deal of: hidden while the event is open.

``deals.event_id`` and ``deals.event_deal`` (the deal's index in the event), NULL
for every other deal. The node's writer stores them with the deal, so a deal of
an open event is refused to those who have not played it from the moment it is
stored (``duplicate_reads.check_record_visible``), not only once its results are
recorded, which the node does later in the background. The deals stored before
are named from their recorded results.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

_OF_RESULT = (
    "SELECT {column} FROM duplicate_results AS r"
    " WHERE r.table_id = deals.table_id AND r.deal_number = deals.deal_number"
    " ORDER BY r.event_id LIMIT 1"
)


def upgrade() -> None:
    op.add_column("deals", sa.Column("event_id", sa.Integer, nullable=True))
    op.add_column("deals", sa.Column("event_deal", sa.Integer, nullable=True))
    # Only the deals that have results: an UPDATE of every row would write a new version
    # of each on PostgreSQL (a table as large as the history, locked meanwhile).
    op.execute(
        f"UPDATE deals SET event_id = ({_OF_RESULT.format(column='r.event_id')}),"
        f" event_deal = ({_OF_RESULT.format(column='r.deal_index')})"
        " WHERE EXISTS (SELECT 1 FROM duplicate_results AS r"
        " WHERE r.table_id = deals.table_id AND r.deal_number = deals.deal_number)"
    )


def downgrade() -> None:
    with op.batch_alter_table("deals") as batch:
        batch.drop_column("event_deal")
        batch.drop_column("event_id")
