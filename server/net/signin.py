"""Signing in over the WebSocket: ``hello`` with a session, ``sign_up``, ``sign_in``,
``sign_out``, ``change_password`` (docs/PROTOCOL.md, "Accounts").

A connection is a guest until it signs in; signed in, the seats it takes carry
the account (``account_seats``). The accounts live in the node's history
database (``server.history``, imported only by a node that keeps one): a node
without one refuses with ``accounts_unavailable``, and every refusal of the
history layer keeps its code (``bad_name``, ``name_taken``, ``bad_password``,
``wrong_credentials``, ``bad_session``, ``database_unavailable``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar
from weakref import WeakKeyDictionary, WeakValueDictionary

from protocol import models as m
from protocol.errors import error_code
from server.store.base import StoreError, unavailable
from server.table.refusals import AccountRefused, TableRefused
from server.table.seating import held_seats

if TYPE_CHECKING:
    from server.history import Account, Accounts
    from server.node.node import Node

T = TypeVar("T")


class MutedNames(set[str]):
    """The names (case-folded) an account muted, one set shared by its connections on a
    node (a set that a ``WeakValueDictionary`` may hold). ``changes`` counts the changes
    made to it: a sign-in reading the history can tell a mute or unmute made meanwhile."""

    changes = 0


def _counted(name: str) -> object:
    # Every way a set changes in place counts, whoever changes it (chat_requests adds and
    # discards; a missed one would let a sign-in's older read undo that change).
    inherited = getattr(set, name)

    def counted(self: MutedNames, *args: object) -> object:
        self.changes += 1
        return inherited(self, *args)

    return counted


for _name in (
    "add",
    "discard",
    "remove",
    "pop",
    "clear",
    "update",
    "difference_update",
    "intersection_update",
    "symmetric_difference_update",
    "__ior__",
    "__isub__",
    "__iand__",
    "__ixor__",
):
    setattr(MutedNames, _name, _counted(_name))

# How many times a sign-in reads the account's mutes while its other connections here keep
# changing them (each read is applied only if nothing changed during it).
_MUTE_READS = 3


S = TypeVar("S", bound=set[Any])

# node -> account -> the account's mutes, while a connection of it is open on the node: a
# mute on one connection is applied at once on the others (on other nodes, at sign-in).
# Keyed by the node itself, not its node_id: several nodes of one process (tests, a
# cluster in one process) have the same default one, each with its history.
_SHARED_MUTES: WeakKeyDictionary[Node, WeakValueDictionary[int, MutedNames]] = WeakKeyDictionary()


class HiddenAccounts(set[int]):
    """The accounts an account blocked or was blocked by, one set shared by its
    connections on a node."""


# node -> account -> the accounts hidden from it, while a connection of it is open on the
# node: a block hides the two accounts from each other on their open connections here at
# once (on other nodes, at their next sign-in).
_SHARED_HIDDEN: WeakKeyDictionary[Node, WeakValueDictionary[int, HiddenAccounts]] = (
    WeakKeyDictionary()
)


def _shared(
    sets: WeakKeyDictionary[Node, WeakValueDictionary[int, S]],
    node: Node,
    account_id: int,
    new: Callable[[], S],
) -> S:
    """The account's set on ``node`` (a new one if no connection holds it)."""
    accounts = sets.setdefault(node, WeakValueDictionary())
    found = accounts.get(account_id)
    if found is None:
        found = accounts[account_id] = new()
    return found


def blocked_here(node: Node, blocker_id: int, blocked_id: int) -> None:
    """``blocker_id`` blocked ``blocked_id``: neither's open connections on ``node`` are
    shown the other's chat from now on."""
    for one, other in ((blocker_id, blocked_id), (blocked_id, blocker_id)):
        accounts = _SHARED_HIDDEN.get(node)
        hidden = None if accounts is None else accounts.get(one)
        if hidden is not None:
            hidden.add(other)


class Signing:
    """Who one connection is signed in as, and its session token."""

    def __init__(self, node: Node) -> None:
        self.node = node
        self.account: Account | None = None
        self.token: str | None = None
        # The accounts the signed-in one blocked or was blocked by: no chat either way
        # (chat_requests; read at sign-in, grown by ``block``).
        self.hidden: set[int] = set()
        # The names whose chat this connection is not shown (chat_requests' ``mute``): a
        # guest's, its own; signed in, the account's, kept in the history (migration 0008).
        self.muted: set[str] = set()

    @property
    def account_id(self) -> int | None:
        return self.account.id if self.account is not None else None

    def _accounts(self) -> Accounts:
        if self.node.accounts is None:
            raise AccountRefused(
                "accounts_unavailable", "this server keeps no accounts (it has no history database)"
            )
        return self.node.accounts

    async def check_guest_name(self, name: str) -> None:
        """A guest may not sit under an account's name, nor one that looks like it
        (``bad_name``). With no accounts, or their database down, any name goes: play
        never waits for the history."""
        self.node.moderation.check_player(self.account.name if self.account else name)
        accounts = self.node.accounts
        if self.account is not None or accounts is None or not name:
            return
        from server.history import DatabaseUnavailable  # loaded already: there are accounts

        try:
            taken = await accounts.lookalike(name)
        except DatabaseUnavailable:
            return
        if taken is not None:
            raise TableRefused(
                "bad_name", f"{name!r} is the account {taken!r}'s name: sign in, or choose another"
            )

    async def _asked(self, work: Awaitable[T]) -> T:
        from server.history import HistoryError  # loaded already: there are accounts

        try:
            return await work
        except HistoryError as e:
            raise AccountRefused(error_code(e.code), e.message) from e

    async def resume_session(self, token: str) -> tuple[m.AccountInfo, list[m.HeldSeat]]:
        """``hello``'s session: the account and the seats it holds."""
        account = await self._asked(self._accounts().account_of(token))
        self.account, self.token = account, token
        self.hidden = await self._hidden(account.id)
        self.muted = await self._muted(account.id)
        return m.AccountInfo(id=account.id, name=account.name), await self.held()

    async def sign_up(self, message: m.SignUp) -> m.SignedInAs:
        signed = await self._asked(self._accounts().sign_up(message.name, message.password))
        return await self._signed(signed.account, signed.token, message.id)

    async def sign_in(self, message: m.SignIn) -> m.SignedInAs:
        signed = await self._asked(self._accounts().sign_in(message.name, message.password))
        return await self._signed(signed.account, signed.token, message.id)

    async def _signed(self, account: Account, token: str, re: m.RequestId | None) -> m.SignedInAs:
        accounts = self._accounts()
        if self.token is not None:  # signing in again: the previous session ends
            await self._asked(_quietly_out(accounts, self.token))
        self.account, self.token = account, token
        self.hidden = await self._hidden(account.id)
        self.muted = await self._muted(account.id)
        info = m.AccountInfo(id=account.id, name=account.name)
        return m.SignedInAs(account=info, token=token, seats=await self.held(), re=re)

    async def sign_out(self, re: m.RequestId | None) -> m.SignedOut:
        if self.token is None:
            raise AccountRefused("not_signed_in", "this connection is not signed in")
        await self._asked(self._accounts().sign_out(self.token))
        self.account, self.token, self.hidden, self.muted = None, None, set(), set()
        return m.SignedOut(re=re)

    async def change_password(self, message: m.ChangePassword) -> m.PasswordChanged:
        """The account's new password; this session stays, its others are revoked."""
        if self.token is None:
            raise AccountRefused("not_signed_in", "this connection is not signed in")
        change = self._accounts().change_password(
            self.token, message.old_password, message.new_password
        )
        await self._asked(change)
        return m.PasswordChanged(re=message.id)

    async def _hidden(self, account_id: int) -> set[int]:
        """The account's blocks, either way (shared with its other connections here);
        none read while the database is down."""
        from server.history import DatabaseUnavailable, hidden_accounts

        shared = _shared(_SHARED_HIDDEN, self.node, account_id, HiddenAccounts)
        archive = self.node.archive
        if archive is None or archive.engine is None:
            return shared
        try:
            stored = await hidden_accounts(archive.engine, account_id)
        except DatabaseUnavailable:
            return shared  # read again at the next sign-in
        # Added to, never replaced: nothing removes a block, and one made on another
        # connection while this read was on its way is in the set but maybe not in ``stored``.
        shared |= stored
        return shared

    async def _muted(self, account_id: int) -> set[str]:
        """The account's mutes (shared with its other connections here), read from the
        history; those this connection made before it signed in are kept for the account,
        as many as fit under ``chat_mutes_max``."""
        from server.history import DatabaseUnavailable, mute, muted_names

        shared = _shared(_SHARED_MUTES, self.node, account_id, MutedNames)
        limit = self.node.settings.chat_mutes_max
        archive = self.node.archive
        if archive is None or archive.engine is None:
            return _carried(shared, self.muted, limit)
        try:
            await mute(archive.engine, account_id, self.muted, limit, partial=True)
            for _ in range(_MUTE_READS):
                seen = shared.changes
                stored = await muted_names(archive.engine, account_id)
                # A mute or unmute on another connection meanwhile is in the history, maybe
                # after this read: the stored names replace the set only if none came.
                if shared.changes == seen:
                    shared &= stored
                    shared |= stored
                    return shared
        except DatabaseUnavailable:
            pass  # read again at the next sign-in
        return _carried(shared, self.muted, limit)

    async def held(self) -> list[m.HeldSeat]:
        """The seats the account holds at tables not finished, on any node."""
        if self.account is None:
            return []
        try:
            tables = await self.node.store.account_tables(self.account.id)
        except StoreError as e:
            raise unavailable(e) from e
        current = [
            self.node.runtimes[t.table_id].data if t.table_id in self.node.runtimes else t
            for t in tables
        ]
        return [m.HeldSeat(table_id=t, seat=s) for t, s in held_seats(current, self.account.id)]


def _carried(shared: MutedNames, guest: set[str], limit: int) -> MutedNames:
    """A guest's mutes carried into the account's set without the history: those that fit
    under ``limit``, picked as the history picks them (sorted)."""
    room = max(0, limit - len(shared))
    shared.update(sorted(guest - shared)[:room])
    return shared


async def _quietly_out(accounts: Accounts, token: str) -> None:
    from server.history import BadSession

    try:
        await accounts.sign_out(token)
    except BadSession:
        pass  # revoked elsewhere already
