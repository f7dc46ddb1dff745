"""The terminal client's chat keys: 1 to 8 say a preset phrase at the table
(``render.PRESET_WORDS``; docs/CLIENTS.md). The chat itself comes in the log
(``render.chat_line``, printed through ``printable``)."""

from __future__ import annotations

from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from clients.python import Client

from .render import preset_of_key


class ChatKeys:
    """Mixed into ``TableApp``: its client, its worker and its request runner."""

    client: Client | None

    if TYPE_CHECKING:  # the app's own (declared only: App's and TableApp's are the ones run)

        def run_worker(self, work: Any, *args: Any, **kwargs: Any) -> Any: ...

        async def _request(self, request: Coroutine[Any, Any, Any]) -> None: ...

    def on_key(self, event: Any) -> None:
        preset = preset_of_key(getattr(event, "character", None))
        if preset is not None and self.client is not None:
            self.run_worker(self._request(self.client.say(preset=preset)), group="chat")
