"""The terminal client: play a table from the keyboard (textual).

    ←/→  move over your hand (or the choices)   Enter  confirm
    Space  select a card (discard, poignée)     n      next deal
    s  start the table (AI fills empty seats)   q      quit
    1-8  say a preset phrase at the table (chat)   t  the chat line (text, /mute ...)
    r / d  accept / decline the rematch of a finished table

A poignée offer comes with the trumps the server would show; Space swaps
them for others of your hand before Enter shows them.

Without a server URL it starts the local server it was given (``local_server``:
``tarot play`` runs one in its process, ``cli/play_server.py``), creates a
table of ``deals`` deals, takes seat 0 and starts it against AI.
With ``account`` (a name, its password) it signs in first. With ``watch=True`` it
follows ``table_id`` as a spectator: the public events only, no seat, nothing to decide.
Everything it shows is ``client.state``; every decision is one of the
``your_turn``'s legal choices, so nothing here knows a rule of the game.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Footer, Input, RichLog, Static

from clients.python import Client, ClientError, Refused, TableState, WireAction
from clients.python.printable import printable
from clients.python.state import card_order
from protocol import models as m

from . import panels, render, talk
from .decisions import (
    CHOOSING_CARDS,
    Decision,
    decision_for,
    hand_of,
    poignee_pool,
    prompt_text,
    swap_poignee_card,
)
from .local_server import LocalServer, StartServer
from .queueing import queue_here
from .serverlog import ServerLog


class TableApp(talk.Talk, App[list[m.Points] | None]):
    """Play one table: a deal or a series, against AI or other people."""

    TITLE = "cardavia tarot"
    # The seats' column is as wide as their table; the panel beside it takes the rest.
    CSS = """
    #header { height: 2; padding: 0 1; background: $boost; }
    #middle { height: 10; }
    #seats { width: SEATS_CELLS; padding: 0 1; }
    #trick { width: 1fr; padding: 0 1; }
    #prompt { height: 2; padding: 0 1; color: $accent; }
    #hand { height: 2; padding: 0 1; }
    #log { height: 1fr; border-top: solid $primary; }
    #talk { display: none; }
    """.replace("SEATS_CELLS", str(panels.SEATS_CELLS))
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "left", show=False, priority=True),
        Binding("right", "move(1)", "right", show=False, priority=True),
        Binding("enter", "confirm", "confirm", priority=True),
        Binding("space", "select", "select", priority=True),
        Binding("n", "next_deal", "next deal", priority=True),
        Binding("s", "start", "start", priority=True),
        Binding("q", "quit", "quit", priority=True),
        *talk.BINDINGS,
    ]

    def __init__(
        self,
        url: str | None = None,
        *,
        table_id: str | None = None,
        seat: int | None = None,
        name: str = "",
        deals: int = 1,
        ai_level: m.AiLevel = "expert",
        codec: Any = "msgpack",
        watch: bool = False,
        local_server: StartServer | None = None,
        queue: m.QueueMode | None = None,
        account: tuple[str, str] | None = None,
    ) -> None:
        super().__init__()
        if watch and (url is None or table_id is None):
            raise ValueError("watching needs a server URL and a table id")
        if url is None and local_server is None:
            raise ValueError("without a server URL, a local server to start is needed")
        self.url = url
        self.spectator = watch
        self.table_id = table_id
        self.seat = seat
        self.player_name = name
        self.deals, self.queue, self.account = deals, queue, account  # account: name, password
        self.ai_level: m.AiLevel = ai_level
        self.codec = codec
        self.client: Client | None = None
        self.start_server = local_server
        self.server: LocalServer | None = None  # the local server, once started
        self.server_log: ServerLog | None = None  # its warnings, into the log
        self.decision = Decision("wait", prompt="Connecting...")
        self.cursor = 0
        self.option = 0
        self.selected: set[str] = set()
        self.declined_poignee = False
        self.poignee: m.PoigneeChoice | None = None  # the offer whose trumps are being chosen
        self.awaiting_next = False
        self.acting = False
        self.error = ""

    # ------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        with Horizontal(id="middle"):
            yield Static(id="seats")
            yield Static(id="trick")
        yield Static(id="prompt")
        yield Static(id="hand")
        yield Input(id="talk", placeholder=talk.PLACEHOLDER, disabled=True)
        yield RichLog(id="log", wrap=True, markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.run_worker(self._follow(), name="follow", exclusive=True)

    @property
    def state(self) -> TableState | None:
        return self.client.state if self.client is not None else None

    # ------------------------------------------------------------ connection

    async def _follow(self) -> None:
        try:
            client = await self._connect()
            await self._sit(client)
            self.redraw()
            async for message in client:
                self._take(message)
        except ClientError as e:
            self.log_line(f"Connection: {e}")
            self.error = str(e)
            self.redraw()
        except OSError as e:
            self.log_line(f"Cannot reach the server: {e}")
            self.error = str(e)
            self.redraw()

    async def _connect(self) -> Client:
        url = self.url
        if url is None:
            assert self.start_server is not None  # __init__ checked it
            self.server_log = ServerLog(self.log_line, self.call_from_thread).attach()
            self.server = await self.start_server()
            url = self.server.url
            self.log_line(f"Local server on {url}")
        self.client = await Client.connect(url, self.codec)
        if self.account is not None:  # before the seat is taken: it is the account's
            await self.client.sign_in(*self.account)
        return self.client

    async def _sit(self, client: Client) -> None:
        table_id = self.table_id
        if self.spectator and table_id is not None:
            await client.watch(table_id)
            self.log_line(f"Watching table {table_id}.")
            return
        if self.queue is not None:  # quick play: seated where the server says
            return await queue_here(self, client)
        if table_id is None:
            options = m.TableOptions(deals=self.deals, ai_level=self.ai_level)
            table_id = (await client.create_table(options)).table.table_id
            deals = render.plural(self.deals, "deal")
            self.log_line(f"Created table {table_id} ({deals} against AI).")
        state = await client.join(table_id, self.seat, self.player_name)
        self.log_line(f"Seated at table {table_id}, seat {state.seat}.")
        if self.table_id is None:
            await client.start()

    def _take(self, message: m.Model) -> None:
        state = self.state
        if state is None:
            return
        if isinstance(message, m.Event):
            self._on_event(state, message.event)
        elif isinstance(message, m.YourTurn) and message is state.turn:
            self._new_turn(state, message.legal)
        elif isinstance(message, m.Error):
            self.log_line(f"Server error ({message.code}): {message.message}")
        elif isinstance(message, m.Bye):
            self.log_line(f"The server says bye: {message.reason} {message.message}")
        self.redraw()

    def _on_event(self, state: TableState, event: Any) -> None:
        line = render.event_line(state, event, int(time.time() * 1000))
        if line:
            self.log_line(line)
        if isinstance(event, m.DealStartedEvent):
            self.declined_poignee = False
            self.awaiting_next = False
        elif isinstance(event, m.ScoreEvent):
            # one log line per line of the sheet (names in it are already printable)
            for line in render.sheet_lines(state, event.sheet):
                self.log_line(line)
        elif isinstance(event, m.RecordEvent):
            played = bool(state.sheets) and state.sheets[-1].status == "played"
            self.awaiting_next = played and not state.over
        elif isinstance(event, m.TableOverEvent):
            self.awaiting_next = False

    def _new_turn(self, state: TableState, legal: m.LegalChoices) -> None:
        self.option = 0
        self.selected = set()
        self.poignee = None
        hand = state.view.hand if state.view is not None else []
        choices = legal.discard.allowed if legal.discard is not None else legal.cards
        playable = [i for i, c in enumerate(hand) if c in choices]
        self.cursor = playable[0] if playable else min(self.cursor, max(len(hand) - 1, 0))
        if legal.discard is not None:
            self.selected = set(legal.discard.required)

    # ------------------------------------------------------------ drawing

    def log_line(self, line: str) -> None:
        """Add a line to the log, drawn as text (``printable``: it may quote the server)."""
        with contextlib.suppress(Exception):  # before mount or after exit: nothing to draw on
            self.query_one("#log", RichLog).write(Text(printable(line)))

    def redraw(self) -> None:
        state = self.state
        self.decision = decision_for(state, self.declined_poignee, self.awaiting_next, self.poignee)
        if state is None:
            self.query_one("#prompt", Static).update(
                Text(printable(self.error or self.decision.prompt))
            )
            return
        self.query_one("#header", Static).update(panels.header_text(state))
        self.query_one("#seats", Static).update(panels.seats_text(state))
        view = state.view
        if view is not None and view.sheet is not None:
            self.query_one("#trick", Static).update(panels.sheet_text(state, view.sheet))
        else:
            self.query_one("#trick", Static).update(panels.table_text(state))
        prompt = prompt_text(self.decision, self.option, len(self.selected), self.error)
        self.query_one("#prompt", Static).update(prompt)
        if view is not None:
            hand = hand_of(view.hand, state.legal, self.decision, self.poignee)
            cursor = self.cursor if self.decision.kind in CHOOSING_CARDS else None
            self.query_one("#hand", Static).update(
                render.hand_text(view.hand, hand, cursor, self.selected, cursor is not None)
            )
        else:
            self.query_one("#hand", Static).update("")

    # ------------------------------------------------------------ keys

    def action_move(self, step: int) -> None:
        if self.decision.options:
            self.option = (self.option + step) % len(self.decision.options)
        elif self.state is not None and self.state.view is not None and self.state.view.hand:
            self.cursor = (self.cursor + step) % len(self.state.view.hand)
        self.redraw()

    def action_select(self) -> None:
        state = self.state
        legal = state.legal if state is not None else None
        if self.decision.kind == "poignee_cards" and state is not None and state.view is not None:
            card = state.view.hand[self.cursor]
            self.selected = swap_poignee_card(self.selected, card, state.view.hand, self.poignee)
            self.redraw()
            return
        if self.decision.kind != "discard" or legal is None or legal.discard is None:
            return
        assert state is not None and state.view is not None
        card = state.view.hand[self.cursor]
        if card in self.selected and card not in legal.discard.required:
            self.selected.discard(card)
        elif card in legal.discard.allowed and len(self.selected) < legal.discard.count:
            self.selected.add(card)
        self.redraw()

    def action_confirm(self) -> None:
        if self.decision.kind == "next":
            self.action_next_deal()
            return
        action = self._chosen_action()
        if action is not None:
            self._send(action)
        self.redraw()

    def _chosen_action(self) -> WireAction | None:
        state = self.state
        legal = state.legal if state is not None else None
        if state is None or legal is None or state.view is None or self.acting:
            return None
        Choose = Callable[[m.SeatView, m.LegalChoices], WireAction | None]
        choices: dict[str, Choose] = {
            "bid": lambda _view, legal: m.BidAction(contract=legal.bids[self.option]),
            "chelem": lambda _view, _legal: m.ChelemAction(announce=self.option == 1),
            "poignee": self._poignee_offer,
            "poignee_cards": self._poignee_cards,
            "discard": self._discard,
            "play": self._play,
        }
        choose = choices.get(self.decision.kind)
        return choose(state.view, legal) if choose is not None else None

    def _poignee_offer(self, view: m.SeatView, legal: m.LegalChoices) -> None:
        """Decline, or start choosing the trumps of an offer (then Space / Enter)."""
        if self.option == 0:
            self.declined_poignee = True
            return
        offer = legal.poignees[self.option - 1]
        self.poignee, self.selected = offer, set(offer.cards)
        pool = poignee_pool(view.hand, offer)
        self.cursor = next((i for i, c in enumerate(view.hand) if c in pool), 0)

    def _poignee_cards(self, view: m.SeatView, legal: m.LegalChoices) -> WireAction | None:
        if self.poignee is None:
            return None
        if len(self.selected) != self.poignee.size:
            self.error = f"show {self.poignee.size} cards ({len(self.selected)} now)"
            return None
        cards = sorted(self.selected, key=card_order)
        self.poignee, self.selected = None, set()
        return m.PoigneeAction(cards=cards)

    def _discard(self, view: m.SeatView, legal: m.LegalChoices) -> WireAction | None:
        if legal.discard is None:
            return None
        if len(self.selected) != legal.discard.count:
            self.error = f"select {legal.discard.count} cards ({len(self.selected)} now)"
            return None
        return m.DiscardAction(cards=sorted(self.selected, key=card_order))

    def _play(self, view: m.SeatView, legal: m.LegalChoices) -> WireAction:
        """The card under the cursor, playable or not: a refused one comes back with the
        engine's reason, which the prompt shows (the client knows no rule to tell why)."""
        return m.PlayAction(card=view.hand[self.cursor])

    def _send(self, action: WireAction) -> None:
        self.acting = True
        self.error = ""
        self.run_worker(self._act(action), name="act", group="act")

    async def _act(self, action: WireAction) -> None:
        assert self.client is not None
        try:
            await self.client.act(action)
        except Refused as e:
            self.error = render.refusal_text(action, e.code, e.message, e.rule)
        except ClientError as e:
            self.error = str(e)
        finally:
            self.acting = False
            self.redraw()

    def action_next_deal(self) -> None:
        if self.decision.kind != "next" or self.client is None:
            return
        self.awaiting_next = False
        self.run_worker(self._request(self.client.next_deal()), group="act")
        self.redraw()

    def action_start(self) -> None:
        table = self.state.table if self.state is not None else None
        if self.client is not None and table is not None and table.status == "waiting":
            self.run_worker(self._request(self.client.start()), group="act")

    async def action_quit(self) -> None:
        state = self.state
        totals = list(state.totals) if state is not None and state.over else None
        await self.shut_down()
        self.exit(totals)

    async def shut_down(self) -> None:
        """Close the connection and stop the local server, if any (idempotent)."""
        client, self.client = self.client, None
        if client is not None:
            await client.close()
        server, self.server = self.server, None
        if server is not None:
            await server.stop()
        if self.server_log is not None:
            self.server_log.detach()
