"""Idempotency keys: a ``join`` or a ``create_table`` sent again with the same ``key`` is
applied once (PROTOCOL.md, section 14, "Retries"); ``seating.join`` uses them.

An answer can be lost (``outcome_unknown``, a connection that drops before it comes),
and a join or a creation that did land cannot be found out by its events: the client
holds no token yet, knows no table id. With a key (a random secret the client chooses,
one per request), what the request makes follows from the key: the seat token of a
join, and the id of a created table. Sent again, the join finds its seat already held
with that token and answers it unchanged; the creation finds its table (the table keeps
a hash of its key, so a key can only find the table it made) if it asks for the same
options (``bad_key`` if not: the key was used for another table).
"""

from __future__ import annotations

import base64
import hashlib
import hmac

from protocol import models as m

from .data import TableData
from .refusals import TableRefused


def _digest(purpose: str, *parts: str) -> bytes:
    return hashlib.sha256("\0".join((purpose, *parts)).encode()).digest()


def token_of_key(table_id: str, key: str) -> str:
    """The seat token a join with ``key`` gets: only its sender can know it."""
    secret = base64.urlsafe_b64encode(_digest("tarot-join", table_id, key)).decode()
    return f"{table_id}.{secret[:32]}"


def table_id_of_key(key: str) -> str:
    """The id of the table a ``create_table`` with ``key`` makes (as ``new_table_id``'s)."""
    text = base64.urlsafe_b64encode(_digest("tarot-table-id", key)).decode()[:8]
    return text.replace("-", "x").replace("_", "y")


def key_hash(key: str) -> str:
    """What a created table keeps of its key (``TableData.key_hash``)."""
    return _digest("tarot-create", key).hex()


def made_with(data: TableData, key: str) -> bool:
    """The table was created by a ``create_table`` with ``key``."""
    return data.key_hash is not None and hmac.compare_digest(data.key_hash, key_hash(key))


def same_table(data: TableData, options: m.TableOptions) -> TableData:
    """The table a key made, for a ``create_table`` sent again: with the options it
    was made with, else ``bad_key`` (the same key for another table)."""
    if data.options != options:
        raise TableRefused("bad_key", "this key made a table with other options: use a new key")
    return data
