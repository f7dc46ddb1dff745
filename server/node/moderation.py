"""What an operator decided about the players (the admin API, ``server/net/admin.py``):
a maintenance announced (new tables refused) and bans of a player or an address for a time.

Kept by the store (``server.store.shared``), so that a decision made through one node
holds on every node that shares it, and after a node's restart. The checks (a new
table, a seat, a connection) read this node's copy, read again each
``REFRESH_SECONDS`` (``refresh``, by ``SharedWatch``) and at once after a decision
made here: another node's decision takes effect here within that time.
"""

from __future__ import annotations

import time

from server.store.shared import BanKind, Decisions, MemoryShared, Shared
from server.table.refusals import TableRefused

REFRESH_SECONDS = 1.0


class Moderation:
    def __init__(self, shared: Shared | None = None) -> None:
        self.shared: Shared = shared or MemoryShared()
        self.decisions = Decisions()

    async def refresh(self) -> Decisions:
        """Read the decisions in force again (store failures are the caller's)."""
        self.decisions = await self.shared.decisions()
        return self.decisions

    # ------------------------------------------------------------ maintenance

    @property
    def maintenance(self) -> str | None:
        """The announcement, while new tables are refused."""
        return self.decisions.maintenance

    async def announce(self, maintenance: str | None) -> None:
        await self.shared.announce(maintenance)
        self.decisions.maintenance = maintenance

    def check_create(self) -> None:
        """``maintenance``: a table may not be created while one is announced."""
        if self.maintenance is not None:
            raise TableRefused("maintenance", f"no new tables: {self.maintenance}")

    # ------------------------------------------------------------ bans

    async def ban(self, *, player: str | None, address: str | None, seconds: float) -> float:
        """Ban ``player`` or ``address`` for ``seconds``; when it ends (epoch seconds)."""
        until = time.time() + seconds
        for kind, key in _keys(player, address):
            await self.shared.ban(kind, key, until)
            self.decisions.bans[kind][key] = until
        return until

    async def unban(self, *, player: str | None, address: str | None) -> bool:
        found = False
        for kind, key in _keys(player, address):
            found |= await self.shared.unban(kind, key)
            self.decisions.bans[kind].pop(key, None)
        return found

    def address_banned(self, address: str) -> float | None:
        """Until when ``address`` is banned (None: it is not)."""
        return _left(self.decisions.bans["address"], address)

    def player_banned(self, name: str) -> float | None:
        return _left(self.decisions.bans["player"], name.casefold())

    def check_player(self, name: str) -> None:
        """``banned``: a banned player may not take a seat."""
        until = self.player_banned(name) if name else None
        if until is not None:
            when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(until))
            raise TableRefused("banned", f"{name!r} may not play here until {when}")

    async def bans(self) -> dict[str, dict[str, float]]:
        found = (await self.refresh()).bans
        return {"players": dict(found["player"]), "addresses": dict(found["address"])}


def _keys(player: str | None, address: str | None) -> list[tuple[BanKind, str]]:
    found: list[tuple[BanKind, str]] = []
    if player:
        found.append(("player", player.casefold()))
    if address:
        found.append(("address", address))
    return found


def _left(kept: dict[str, float], key: str) -> float | None:
    until = kept.get(key)
    if until is None or until <= time.time():
        return None
    return until
