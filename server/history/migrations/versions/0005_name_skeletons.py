"""Account names' skeletons (Unicode TS #39), unique: no name may look like another's.

Each account gets ``protocol.skeletons.name_skeleton`` of its name, oldest
first. An account whose name already looked like an older one's (registered
before this revision) keeps its name and gets no skeleton (NULL), so that the
unique index can be built; docs/DEPLOY.md ("Accounts") says how an operator
finds and renames them. The skeleton is computed here with the table of this
revision's time: a later change of ``protocol/confusables.txt`` needs a
revision of its own that computes them again.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from protocol.skeletons import name_skeleton

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("accounts", sa.Column("name_skeleton", sa.String(320), nullable=True))
    connection = op.get_bind()
    named = connection.execute(sa.text("SELECT id, name FROM accounts ORDER BY id")).all()
    kept: dict[str, int] = {}
    for account_id, name in named:
        kept.setdefault(name_skeleton(name), account_id)  # the oldest of look-alikes
    if kept:
        connection.execute(
            sa.text("UPDATE accounts SET name_skeleton = :skeleton WHERE id = :id"),
            [{"skeleton": skeleton, "id": account_id} for skeleton, account_id in kept.items()],
        )
    op.create_index("ux_accounts_name_skeleton", "accounts", ["name_skeleton"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_index("ux_accounts_name_skeleton")
        batch.drop_column("name_skeleton")
