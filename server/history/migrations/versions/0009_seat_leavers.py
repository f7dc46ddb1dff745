"""Who left a seat mid-deal, kept with the deal's seat: the deal is rated with its leaver
last whoever rates it (the writer that stored it, or ``rate_pending`` after a restart).

A rated quick-play seat left mid-deal is stored with the AI that finished it
(``ai_level``); ``left_account_id`` names the account that left it, rated as
the deal's last place (docs/RATINGS.md, "Quick play"). NULL for every other seat.

SQLite adds a column's reference only inline, which SQLAlchemy does not read
back with its ``ON DELETE``: the table is built again there, as schema.py has it.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

_OLD_COLUMNS = "table_id, deal_number, seat, account_id, guest_name, ai_level"
_SQLITE_SEATS = """CREATE TABLE seats_new (
    table_id VARCHAR(64) NOT NULL,
    deal_number INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    account_id INTEGER,
    guest_name VARCHAR(160),
    ai_level VARCHAR(64),
    left_account_id INTEGER,
    PRIMARY KEY (table_id, deal_number, seat),
    FOREIGN KEY(table_id, deal_number) REFERENCES deals (table_id, deal_number)
        ON DELETE CASCADE,
    CONSTRAINT ck_seats_seat CHECK (seat >= 0 AND seat < 4),
    CONSTRAINT ck_seats_one_occupant CHECK ((CASE WHEN account_id IS NULL THEN 0 ELSE 1 END)
        + (CASE WHEN guest_name IS NULL THEN 0 ELSE 1 END)
        + (CASE WHEN ai_level IS NULL THEN 0 ELSE 1 END) <= 1),
    FOREIGN KEY(account_id) REFERENCES accounts (id) ON DELETE SET NULL,
    FOREIGN KEY(left_account_id) REFERENCES accounts (id) ON DELETE SET NULL
)"""


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        fk = sa.ForeignKey("accounts.id", ondelete="SET NULL")
        op.add_column("seats", sa.Column("left_account_id", sa.Integer, fk, nullable=True))
        return
    op.execute(_SQLITE_SEATS)
    op.execute(f"INSERT INTO seats_new ({_OLD_COLUMNS}) SELECT {_OLD_COLUMNS} FROM seats")
    op.execute("DROP TABLE seats")
    op.execute("ALTER TABLE seats_new RENAME TO seats")
    op.create_index("ix_seats_account_id", "seats", ["account_id"])
    op.create_index("ix_seats_guest_name", "seats", ["guest_name"])


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("left_account_id")
