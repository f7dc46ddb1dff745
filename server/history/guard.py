"""One translation of "the database did not answer" into ``DatabaseUnavailable``.

Drivers say it differently: asyncpg raises ``OSError`` when it cannot connect
and SQLAlchemy wraps a dropped connection as a ``DBAPIError`` marked
invalidated; SQLite says ``unable to open database file`` (an
``OperationalError``). Integrity errors (a duplicate name) are not outages and
pass through.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

from .errors import DatabaseUnavailable


def is_outage(error: BaseException) -> bool:
    if isinstance(error, OSError | TimeoutError | OperationalError | InterfaceError):
        return True
    return isinstance(error, DBAPIError) and error.connection_invalidated


@asynccontextmanager
async def reachable() -> AsyncIterator[None]:
    try:
        yield
    except DatabaseUnavailable:
        raise
    except Exception as e:
        if is_outage(e):
            raise DatabaseUnavailable(
                f"the history database did not answer: {_first_line(e)}"
            ) from e
        raise


def _first_line(error: BaseException) -> str:
    text = str(getattr(error, "orig", None) or error) or type(error).__name__
    return text.splitlines()[0][:200]
