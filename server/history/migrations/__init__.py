"""Alembic migrations of the history database (``database.migrate`` runs them)."""
