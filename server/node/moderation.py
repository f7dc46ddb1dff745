"""What an operator decided about this node's players (the admin API, ``server/net/admin.py``):
a maintenance announced (new tables refused) and bans of a player or an address for a time.

Kept in the node's memory: ``tarot admin`` sends each action to every node it is given.
"""

from __future__ import annotations

import time

from server.table.refusals import TableRefused


class Moderation:
    def __init__(self) -> None:
        self.maintenance: str | None = None  # the announcement, while new tables are refused
        self._players: dict[str, float] = {}  # case-folded name -> banned until (epoch s)
        self._addresses: dict[str, float] = {}

    # ------------------------------------------------------------ maintenance

    def check_create(self) -> None:
        """``maintenance``: a table may not be created while one is announced."""
        if self.maintenance is not None:
            raise TableRefused("maintenance", f"no new tables: {self.maintenance}")

    # ------------------------------------------------------------ bans

    def ban(self, *, player: str | None, address: str | None, seconds: float) -> float:
        """Ban ``player`` or ``address`` for ``seconds``; when it ends (epoch seconds)."""
        until = time.time() + seconds
        if player:
            self._players[player.casefold()] = until
        if address:
            self._addresses[address] = until
        return until

    def unban(self, *, player: str | None, address: str | None) -> bool:
        found = False
        if player:
            found |= self._players.pop(player.casefold(), None) is not None
        if address:
            found |= self._addresses.pop(address, None) is not None
        return found

    def address_banned(self, address: str) -> float | None:
        """Until when ``address`` is banned (None: it is not)."""
        return _left(self._addresses, address)

    def player_banned(self, name: str) -> float | None:
        return _left(self._players, name.casefold())

    def check_player(self, name: str) -> None:
        """``banned``: a banned player may not take a seat."""
        until = self.player_banned(name) if name else None
        if until is not None:
            when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(until))
            raise TableRefused("banned", f"{name!r} may not play here until {when}")

    def bans(self) -> dict[str, dict[str, float]]:
        for kept in (self._players, self._addresses):
            for key in [k for k, until in kept.items() if until <= time.time()]:
                del kept[key]
        return {"players": dict(self._players), "addresses": dict(self._addresses)}


def _left(kept: dict[str, float], key: str) -> float | None:
    until = kept.get(key)
    if until is None:
        return None
    if until <= time.time():
        del kept[key]
        return None
    return until
