"""Alembic's environment: migrations run on the connection ``database.migrate`` hands in.

Run from code only (``server.history.database.migrate``): the URL, the async
engine and the transaction are the caller's, as in Alembic's "sharing a
connection" recipe.
"""

from __future__ import annotations

from alembic import context

from server.history.schema import metadata


def run_migrations() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("run the migrations with server.history.database.migrate")
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


# Alembic gives ``context`` its config only while it runs this file: an import
# (the doctests walk every module) must not start a migration.
if hasattr(context, "config"):
    run_migrations()
