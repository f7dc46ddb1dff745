"""The terminal client's talk (docs/PROTOCOL.md, section 17; docs/CLIENTS.md): keys 1 to 8
say a preset phrase; ``t`` opens the chat line, where Enter says the text (between deals)
or runs a command (``/mute``, ``/unmute``, ``/block``, ``/report``); ``r`` and ``d`` answer
a finished table's rematch offer. The chat itself comes in the log (``render.chat_line``,
printed through ``printable``)."""

from __future__ import annotations

from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, cast

from textual.binding import Binding
from textual.widgets import Input

from clients.python import Client, ClientError, TableState

from .render import preset_of_key

BINDINGS = [
    Binding("t", "talk", "chat", priority=True),
    Binding("r", "rematch(True)", "rematch", show=False, priority=True),
    Binding("d", "rematch(False)", "decline", show=False, priority=True),
    Binding("escape", "close_talk", "close the chat line", show=False, priority=True),
]
# While the chat line is open every key is the text's: the game's keys wait.
GAME_ACTIONS = frozenset(
    {"move", "confirm", "select", "next_deal", "start", "quit", "talk", "rematch"}
)
PLACEHOLDER = "Say something, or /mute NAME (Enter says it, Esc closes)"
COMMANDS = "Commands: /mute NAME, /unmute NAME, /block NAME, /report NAME [reason]."


class Talk:
    """Mixed into ``TableApp``: its client, its log, its worker and its request runner."""

    client: Client | None
    awaiting_next: bool
    declined_poignee: bool
    error: str

    if TYPE_CHECKING:  # the app's own (declared only: App's and TableApp's are the ones run)

        @property
        def state(self) -> TableState | None: ...

        def run_worker(self, work: Any, *args: Any, **kwargs: Any) -> Any: ...

        def log_line(self, line: str) -> None: ...

        def redraw(self) -> None: ...

    async def _request(self, request: Coroutine[Any, Any, Any]) -> None:
        """A request whose refusal the prompt says (its answer is in the state or the log)."""
        try:
            await request
        except ClientError as e:
            self.error = str(e)
            self.redraw()

    def _chat_line(self) -> Input:
        return cast(Input, cast(Any, self).query_one("#talk", Input))  # the App's query_one

    @property
    def typing(self) -> bool:
        return bool(self._chat_line().display)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "close_talk":
            return self.typing
        return not (self.typing and action in GAME_ACTIONS)

    def on_key(self, event: Any) -> None:
        preset = preset_of_key(getattr(event, "character", None))
        if preset is not None and self.client is not None and not self.typing:
            self.run_worker(self._request(self.client.say(preset=preset)), group="chat")

    def action_talk(self) -> None:
        line = self._chat_line()
        line.display, line.disabled = True, False
        line.focus()

    def action_close_talk(self) -> None:
        line = self._chat_line()  # disabled: no focus, no keys, until opened
        line.value, line.display, line.disabled = "", False, True

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        self.action_close_talk()
        if text and self.client is not None:
            self.run_worker(self._request(self._said(self.client, text)), group="chat")

    async def _said(self, client: Client, text: str) -> None:
        """Chat text, or a command on a player by name (the log says what it did)."""
        if not text.startswith("/"):
            return await client.say(text=text)
        command, _, rest = text[1:].partition(" ")
        name, _, reason = rest.strip().partition(" ")
        if command in ("mute", "unmute") and name:
            muted = await (client.mute(name) if command == "mute" else client.unmute(name))
            self.log_line(f"Muted: {', '.join(muted) or 'nobody'}.")
        elif command == "block" and name:
            blocked = await client.block(name)
            self.log_line(f"Blocked {blocked}: neither of you sees the other's chat.")
        elif command == "report" and name:
            await self._report(client, name, reason.strip())
        else:
            self.log_line(COMMANDS)

    async def _report(self, client: Client, name: str, reason: str) -> None:
        """Report the last message ``name`` said at this table (names in any case)."""
        state = client.state
        said = [] if state is None else list(zip(state.chat, state.chat_seqs, strict=True))
        seqs = [seq for chat, seq in said if chat.name.casefold() == name.casefold()]
        if not seqs:
            self.log_line(f"{name} said nothing here to report.")
            return
        report_id = await client.report(seqs[-1], reason)
        self.log_line(f"Reported {name}'s last message (report {report_id}).")

    def action_rematch(self, accept: bool) -> None:
        state = self.state
        if self.client is not None and state is not None and state.over and state.seat is not None:
            self.run_worker(self._rematch(self.client, accept), group="act")

    async def _rematch(self, client: Client, accept: bool) -> None:
        try:
            state = await client.rematch(accept)
        except ClientError as e:
            self.error = str(e)
        else:
            self.error = ""
            if state is not None:  # the client follows the new table from now on
                self.awaiting_next = self.declined_poignee = False
                self.log_line(f"Rematch: seated at table {state.table_id}, seat {state.seat}.")
        self.redraw()
