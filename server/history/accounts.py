"""Accounts: sign up, sign in, sign out, change password; sessions as revocable tokens.

A display name is cleaned as every name is (``protocol.names``: no control or
invisible characters, NFKC, at most 40 characters) and unique by its
case-folded form, so "Anna" and "ANNA" are one player; nor may a name look
like another's: their skeletons (``protocol.skeletons``, Unicode TS #39) are
unique too, so "Mаrie" with a Cyrillic а is refused beside "Marie", as are
"Arnie" beside "Amie" and "lan" beside "Ian". Passwords are hashed
with argon2id (argon2-cffi's defaults: memory-hard, salted, the parameters
inside the hash so that they can grow). Hashing costs tens of milliseconds of
CPU, so it runs in a thread and the event loop keeps serving tables.

A session is a random 256-bit token, given once to the client and stored as
its SHA-256 only; signing out deletes it, changing the password deletes the
account's other sessions, and a session ends by itself after ``SESSION_DAYS``.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from protocol.errors import BadName as NameRefused
from protocol.names import PLAYER_NAME_MAX, clean_name, refuse_link
from protocol.skeletons import name_skeleton

from .errors import BadAccountName, BadPassword, BadSession, NameTaken, WrongCredentials
from .guard import reachable
from .schema import accounts, sessions

PASSWORD_MIN = 8
PASSWORD_MAX = 128  # characters; argon2 would hash a megabyte, a sign-in should not ask it to
SESSION_DAYS = 30
_hasher = PasswordHasher()
# Verified against when the name is unknown, so that a wrong name takes as long as a
# wrong password and the answer's timing does not tell which names exist.
_DUMMY_HASH = _hasher.hash("not a password anyone has")


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    name: str


@dataclass(frozen=True, slots=True)
class SignedIn:
    account: Account
    token: str  # shown to the client once; only its hash is kept


def display_name(text: str) -> tuple[str, str]:
    """The shown form of a display name and its unique key, or ``BadAccountName``.

    >>> display_name("  Ｊｅａｎ  Dupont")
    ('Jean Dupont', 'jean dupont')
    """
    try:
        name = clean_name(text, PLAYER_NAME_MAX)
    except NameRefused as e:
        raise BadAccountName(str(e)) from None
    if not name:
        raise BadAccountName("the name is empty")
    return name, unicodedata.normalize("NFKC", name.casefold())


def name_columns(text: str) -> tuple[str, str, str]:
    """A new account name's three columns: as shown, its key, its skeleton; or
    ``BadAccountName``, a link among them (a name given now holds none: protocol/names.py;
    ``display_name`` still finds an account named so before). (docs/DEPLOY.md: what an
    operator sets to rename an account.)

    >>> name_columns("  Ｍarie ")
    ('Marie', 'marie', 'rnarie')
    """
    shown, key = display_name(text)
    try:
        refuse_link(shown)
    except NameRefused as e:
        raise BadAccountName(str(e)) from None
    return shown, key, name_skeleton(shown)


def check_password(password: str) -> None:
    """Refuse a new password that is too short, too long or has a control character."""
    if len(password) < PASSWORD_MIN:
        raise BadPassword(f"the password has {len(password)} characters; at least {PASSWORD_MIN}")
    if len(password) > PASSWORD_MAX:
        raise BadPassword(f"the password has {len(password)} characters; at most {PASSWORD_MAX}")
    for position, char in enumerate(password, 1):
        if unicodedata.category(char) in ("Cc", "Cs"):
            raise BadPassword(f"the password has a control character at position {position}")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Accounts:
    """The accounts and sessions kept in one database."""

    def __init__(
        self, engine: AsyncEngine, *, clock: Callable[[], datetime] = lambda: datetime.now(UTC)
    ) -> None:
        self._engine = engine
        self._clock = clock  # handed in so that a test can see a session expire

    def _time(self) -> datetime:
        return self._clock()

    async def sign_up(self, name: str, password: str) -> SignedIn:
        """A new account, signed in; ``BadAccountName``, ``BadPassword`` or ``NameTaken`` (the name,
        in any case, or a name that looks like it)."""
        shown, key, skeleton = name_columns(name)
        check_password(password)
        await self._refuse_taken(shown, key, skeleton)  # before the hash's cost
        hashed = await asyncio.to_thread(_hasher.hash, password)
        row = {
            "name": shown,
            "name_key": key,
            "name_skeleton": skeleton,
            "password_hash": hashed,
            "created_at": self._time(),
        }
        try:
            async with reachable(), self._engine.begin() as conn:
                result = await conn.execute(insert(accounts).values(row))
                key_row = result.inserted_primary_key
                assert key_row is not None
                account = Account(int(key_row[0]), shown)
                token = await self._open_session(conn, account.id)
        except IntegrityError:  # a sign-up of the name, or of a look-alike, came first
            await self._refuse_taken(shown, key, skeleton)
            raise NameTaken(f"the name {shown!r} is taken") from None
        return SignedIn(account, token)

    async def lookalike(self, name: str) -> str | None:
        """The name of the account ``name`` is, or looks like, if any (a guest may not sit
        under it); None for a name no account has, or one that cannot be an account's."""
        try:
            shown, key = display_name(name)
        except BadAccountName:
            return None
        query = select(accounts.c.name).where(
            (accounts.c.name_key == key) | (accounts.c.name_skeleton == name_skeleton(shown))
        )
        async with reachable(), self._engine.connect() as conn:
            found = (await conn.execute(query.limit(1))).first()
        return None if found is None else str(found.name)

    async def _refuse_taken(self, shown: str, key: str, skeleton: str) -> None:
        """``NameTaken`` if an account has the name in any case, or one that looks like it."""
        query = select(accounts.c.name, accounts.c.name_key).where(
            (accounts.c.name_key == key) | (accounts.c.name_skeleton == skeleton)
        )
        async with reachable(), self._engine.connect() as conn:
            found = (await conn.execute(query.limit(1))).first()
        if found is None:
            return
        if found.name_key == key:
            raise NameTaken(f"the name {shown!r} is taken")
        raise NameTaken(f"the name {shown!r} looks like {found.name!r}, which is taken")

    async def sign_in(self, name: str, password: str) -> SignedIn:
        """A new session for the account; ``WrongCredentials`` if either is wrong."""
        try:
            _shown, key = display_name(name)
        except BadAccountName:
            key = ""
        async with reachable(), self._engine.connect() as conn:
            found = (
                await conn.execute(
                    select(accounts.c.id, accounts.c.name, accounts.c.password_hash).where(
                        accounts.c.name_key == key
                    )
                )
            ).first()
        stored = found.password_hash if found else _DUMMY_HASH
        if not await asyncio.to_thread(_verify, stored, password) or found is None:
            raise WrongCredentials("wrong name or password")
        account = Account(found.id, found.name)
        async with reachable(), self._engine.begin() as conn:
            if _hasher.check_needs_rehash(stored):
                fresh = await asyncio.to_thread(_hasher.hash, password)
                await conn.execute(
                    update(accounts).where(accounts.c.id == account.id).values(password_hash=fresh)
                )
            token = await self._open_session(conn, account.id)
        return SignedIn(account, token)

    async def _open_session(self, conn: AsyncConnection, account_id: int) -> str:
        token = secrets.token_urlsafe(32)
        now = self._time()
        await conn.execute(
            insert(sessions).values(
                token_hash=token_hash(token),
                account_id=account_id,
                created_at=now,
                expires_at=now + timedelta(days=SESSION_DAYS),
            )
        )
        return token

    async def account_of(self, token: str) -> Account:
        """Whose session ``token`` is; ``BadSession`` if unknown, revoked or expired."""
        query = (
            select(accounts.c.id, accounts.c.name, sessions.c.expires_at)
            .join(sessions, sessions.c.account_id == accounts.c.id)
            .where(sessions.c.token_hash == token_hash(token))
        )
        async with reachable(), self._engine.connect() as conn:
            found = (await conn.execute(query)).first()
        if found is None or _aware(found.expires_at) <= self._time():
            raise BadSession("the session is unknown, signed out or expired: sign in again")
        return Account(found.id, found.name)

    async def sign_out(self, token: str) -> None:
        """Revoke the session ``token``; ``BadSession`` if it was not one."""
        async with reachable(), self._engine.begin() as conn:
            result = await conn.execute(
                delete(sessions).where(sessions.c.token_hash == token_hash(token))
            )
        if result.rowcount == 0:
            raise BadSession("the session is unknown or already signed out")

    async def change_password(self, token: str, old: str, new: str) -> None:
        """Set a new password; every other session of the account is revoked."""
        account = await self.account_of(token)
        check_password(new)
        async with reachable(), self._engine.connect() as conn:
            stored = (
                await conn.execute(
                    select(accounts.c.password_hash).where(accounts.c.id == account.id)
                )
            ).scalar_one()
        if not await asyncio.to_thread(_verify, stored, old):
            raise WrongCredentials("wrong password")
        fresh = await asyncio.to_thread(_hasher.hash, new)
        async with reachable(), self._engine.begin() as conn:
            await conn.execute(
                update(accounts).where(accounts.c.id == account.id).values(password_hash=fresh)
            )
            await conn.execute(
                delete(sessions).where(
                    sessions.c.account_id == account.id,
                    sessions.c.token_hash != token_hash(token),
                )
            )


def _verify(stored: str, password: str) -> bool:
    try:
        return _hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


def _aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes: they were stored in UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
