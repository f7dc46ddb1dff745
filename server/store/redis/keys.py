"""Redis key and channel names, defined once.

Every key of a table carries the hash tag ``{table:ID}``, so that all of one
table's keys sit in one Redis Cluster slot: a Lua script may touch them all
atomically, and the table's pub/sub channel (sharded, ``SPUBLISH``) lives on
the same shard. Only the lobby index is global; on a cluster it sits in the
slot of its own name, which is fine: it is written once per table. So are the
lobby's lists (one slot, ``{lobby}``): written when a table's line in the lobby
changes (a seat taken, a deal started), read one page at a time.

    {table:ID}:state    hash: head (TableData JSON but for the fields below), version, seq,
                        commit (last commit id), status, commits, deadline (redis_tables);
                        an older node's table: data (the whole TableData JSON) instead
    {table:ID}:actions  list: the current deal's actions, one record entry (JSON) each
    {table:ID}:events   stream: one entry per event, ID ``<seq>-0``, field ``e`` (JSON: a
                        StoredEvent, its body in the server's storage form, stored_events.py)
    {table:ID}:lease    string: the node running the table's background work (PX ttl)
    {table:ID}:updates  sharded pub/sub channel: each committed change (see redis_store)
    {table:ID}:followers  hash: store id of each node following the table -> until (ms)
    lobby:tables        sorted set: table ids scored by creation time (ms)
    {lobby}:NAME        sorted set, all scores 0: the members (creation time, id) of the
                        tables in the lobby's list NAME (``server.store.lobby_index``); the
                        table's line (summary, lists, member) is in its state hash
    account:ID:tables   set: the ids of the tables where the account was seated, checked
                        when read (``server.store.account_index``); PX ACCOUNT_TTL_MS
    {reviews:PLAYER}:started  sorted set: the player's deal reviews of the window (ms)
    {reviews:PLAYER}:running  string: set while one of its reviews is analysed (PX ttl)
"""

from __future__ import annotations

LOBBY = "lobby:tables"
ACCOUNT_TTL_MS = 30 * 24 * 3600 * 1000  # an account's index, from its last seat or sign-in


def account_tables(account_id: int) -> str:
    """The account index's set of one account (``server.store.account_index``)."""
    return f"account:{account_id}:tables"


def lobby_list(name: str) -> str:
    """One of the lobby's lists (``server.store.lobby_index.LISTS``)."""
    return "{lobby}:" + name


def node(node_id: str) -> str:
    """A node's heartbeat: present while the node lives (its TTL is a lease's)."""
    return f"node:{node_id}:alive"


def tag(table_id: str) -> str:
    """The hash tag of a table: ``tag("abc") == "{table:abc}"``."""
    return "{table:" + table_id + "}"


def state(table_id: str) -> str:
    return f"{tag(table_id)}:state"


def events(table_id: str) -> str:
    return f"{tag(table_id)}:events"


def fence(table_id: str, commit: str) -> str:
    """Set when a commit whose reply was lost is resolved: that commit may no longer land."""
    return f"{tag(table_id)}:fence:{commit}"


def actions(table_id: str) -> str:
    return f"{tag(table_id)}:actions"


def lease(table_id: str) -> str:
    return f"{tag(table_id)}:lease"


def updates(table_id: str) -> str:
    return f"{tag(table_id)}:updates"


def followers(table_id: str) -> str:
    return f"{tag(table_id)}:followers"


def table_of_channel(channel: str) -> str:
    """The table id in an updates channel name (the inverse of ``updates``)."""
    return channel[len("{table:") : channel.index("}")]


def reviews_started(player: str) -> str:
    """A player's deal reviews started in the window (review_limits_shared)."""
    return "{reviews:" + player + "}:started"


def review_running(player: str) -> str:
    return "{reviews:" + player + "}:running"
