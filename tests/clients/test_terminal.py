"""The terminal client plays whole deals from the keyboard (textual's pilot presses the keys)."""

from __future__ import annotations

import asyncio
import re

import pytest
from textual.pilot import Pilot
from textual.widgets import RichLog, Static

from cli.main import main
from cli.play_server import play_server
from clients.python import Bot, Client, TableState, play_table
from clients.python.printable import printable
from clients.terminal import TableApp
from clients.terminal.decisions import decision_for, poignee_pool, swap_poignee_card
from clients.terminal.panels import header_text
from clients.terminal.render import card_label, event_line
from protocol import models as m

AppPilot = Pilot[list[m.Points] | None]


async def move_to(pilot: AppPilot, app: TableApp, target: int, options: bool) -> None:
    """Press ← or → (the shorter way round) until the cursor or the choice is on ``target``."""
    assert app.state is not None and app.state.view is not None
    size = len(app.decision.options) if options else len(app.state.view.hand)
    current = app.option if options else app.cursor
    key = "right" if (target - current) % size <= size // 2 else "left"
    while (app.option if options else app.cursor) != target:
        await pilot.press(key)


async def discard(pilot: AppPilot, app: TableApp, legal: m.LegalChoices) -> None:
    """Select cards with Space until the discard is full (the required ones come selected)."""
    assert legal.discard is not None and app.state is not None and app.state.view is not None
    hand = app.state.view.hand
    assert app.selected == set(legal.discard.required)
    for index, card in enumerate(hand):
        if len(app.selected) == legal.discard.count:
            break
        if card in legal.discard.allowed and card not in app.selected:
            await move_to(pilot, app, index, options=False)
            await pilot.press("space")
    await pilot.press("enter")


async def swap_one_trump(pilot: AppPilot, app: TableApp) -> None:
    """Show another trump than the offer's last one, when the hand has one more."""
    assert app.state is not None and app.state.view is not None and app.poignee is not None
    hand = app.state.view.hand
    spare = [i for i, c in enumerate(hand) if c.startswith("T") and c not in app.selected]
    if not spare:
        return
    dropped = hand.index(sorted(app.selected, key=hand.index)[-1])
    await move_to(pilot, app, dropped, options=False)
    await pilot.press("space")
    await move_to(pilot, app, spare[0], options=False)
    await pilot.press("space")
    assert len(app.selected) == app.poignee.size and hand[spare[0]] in app.selected


async def decide(pilot: AppPilot, app: TableApp, seen: set[str]) -> None:
    """One decision by keys: bid garde when it may (to discard), show a poignee when offered."""
    state = app.state
    assert state is not None and state.legal is not None and state.view is not None
    legal, kind = state.legal, app.decision.kind
    seen.add(kind)
    if kind == "bid":
        wanted: m.ContractCode = "garde" if "garde" in legal.bids else "pass"
        await move_to(pilot, app, legal.bids.index(wanted), options=True)
        await pilot.press("enter")
    elif kind == "discard":
        await discard(pilot, app, legal)
    elif kind == "chelem":
        await pilot.press("enter")  # "no chelem" is the first choice
    elif kind == "poignee":
        await pilot.press("right", "enter")  # the first offer: its trumps come selected
    elif kind == "poignee_cards":
        await swap_one_trump(pilot, app)
        await pilot.press("enter")
    elif kind == "play":
        playable = [i for i, c in enumerate(state.view.hand) if c in legal.cards]
        assert app.cursor in playable  # the cursor starts on a playable card
        if not state.view.tricks:  # each key press costs a screen update: move once a deal
            await move_to(pilot, app, playable[-1], options=False)
        await pilot.press("enter")


async def play_by_keys(pilot: AppPilot, app: TableApp) -> set[str]:
    """Answer every decision until the table is over; return the kinds of decisions met."""
    seen: set[str] = set()
    answered: tuple[object, str] | None = None
    while app.decision.kind != "over":
        await pilot.pause(0.01)
        state = app.state
        kind = app.decision.kind
        if kind == "next":
            seen.add(kind)
            await pilot.press("n")
        elif state is not None and state.turn is not None and not app.acting:
            if answered != (state.turn, kind):  # each your_turn once (a poignee: twice)
                answered = (state.turn, kind)
                await decide(pilot, app, seen)
    return seen


def shown(app: TableApp, widget: str) -> str:
    return str(app.query_one(widget, Static).render())


async def test_tarot_play_plays_a_series_on_its_own_local_server() -> None:
    app = TableApp(deals=2, local_server=play_server(0))
    async with app.run_test(size=(120, 40)) as pilot:
        async with asyncio.timeout(90):
            seen = await play_by_keys(pilot, app)
        assert {"bid", "play", "next"} <= seen
        assert app.server is not None  # it started its own
        # The score sheet is logged line by line: its own line breaks are not drawn as
        # the mark that stands for a server's control character.
        logged = [line.text.strip() for line in app.query_one("#log", RichLog).lines]
        assert [line[:12] for line in logged].count("Score sheet:") == 2, logged[-8:]
        assert not [line for line in logged if "\ufffd" in line], logged[-8:]
        assert "Table over" in shown(app, "#prompt") or "over" in app.decision.prompt
        assert "Total" in shown(app, "#seats")
        state = app.state
        assert state is not None and state.over
        assert [s.status for s in state.sheets].count("played") == 2
        totals = list(state.totals)
        await pilot.press("q")
    assert app.return_value == totals and sum(totals) == 0
    assert app.server is None and app.client is None  # stopped and closed on quit


async def test_tarot_play_joins_a_table_on_a_server_beside_another_player(url: str) -> None:
    """A person at the terminal (seat 2) and a library bot (seat 0), the rest AI."""
    other = await Client.connect(url)
    created = await other.create_table(m.TableOptions(deals=1))
    table_id = created.table.table_id
    await other.join(table_id, seat=0)
    app = TableApp(url, table_id=table_id, seat=2, name="Zoe", codec="json")
    async with app.run_test(size=(120, 40)) as pilot:
        async with asyncio.timeout(30):
            # The seat's state comes with the snapshot, the prompt with the redraw after it.
            while "Press s to start" not in app.decision.prompt:
                await pilot.pause(0.01)
        await pilot.press("s")
        bot = asyncio.ensure_future(play_table(other, Bot()))
        async with asyncio.timeout(90):
            seen = await play_by_keys(pilot, app)
        totals = await bot
        assert "play" in seen
        assert app.state is not None and app.state.totals == totals
        assert "Zoe" in shown(app, "#seats") or "You" in shown(app, "#seats")
        await pilot.press("q")
    await other.close()


async def test_tarot_play_watches_a_table_as_a_spectator(url: str) -> None:
    """The spectator sees the deal go by, its public side only, and is asked nothing."""
    player = await Client.connect(url)
    created = await player.create_table(m.TableOptions(deals=1))
    table_id = created.table.table_id
    await player.join(table_id, seat=1)
    app = TableApp(url, table_id=table_id, watch=True, codec="json")
    async with app.run_test(size=(120, 40)) as pilot:
        async with asyncio.timeout(30):
            while "Watching" not in app.decision.prompt:
                await pilot.pause(0.01)
        assert app.state is not None and app.state.seat is None
        await player.start()
        totals = await play_table(player, Bot())
        async with asyncio.timeout(30):
            while not app.state.over:
                await pilot.pause(0.01)
        assert app.state.totals == totals
        assert app.state.turn is None  # never asked to act
        assert app.state.view is not None and app.state.view.hand == []
        assert "Total" in shown(app, "#seats")
        await pilot.press("q")
    assert app.return_value == totals
    await player.close()


def test_tarot_play_refuses_to_watch_without_a_server(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--watch", "AbC123"]) == 2
    assert "--watch needs --server" in capsys.readouterr().err


def test_the_log_counts_down_to_the_next_deal_and_names_whom_it_waits_for() -> None:
    state = TableState("t", seat=1)
    state.table = m.TableSummary(
        table_id="t",
        options=m.TableOptions(),
        seats=[m.SeatInfo(seat=s, occupant="human", name=n) for s, n in enumerate("ABCD")],
        status="playing",
    )
    event = m.BetweenDealsEvent(next_deal_number=3, deadline_ms=100_000, waiting_for=[1, 3])
    assert event_line(state, event, now_ms=70_400) == (
        "Deal 3 starts in 30 s at the latest. Waiting for D."
    )
    alone = m.BetweenDealsEvent(next_deal_number=3, deadline_ms=100_000, waiting_for=[1])
    assert event_line(state, alone, now_ms=100_500) == "Deal 3 starts in 0 s at the latest."
    assert event_line(state, alone) == "Deal 3 next."


def test_the_header_and_the_log_say_which_deal_of_how_many() -> None:
    state = TableState("t", seat=0)
    state.table = m.TableSummary(
        table_id="t",
        options=m.TableOptions(deals=3),
        seats=[m.SeatInfo(seat=s, occupant="ai", name=f"AI {s + 1}") for s in range(4)],
        status="playing",
    )
    assert event_line(state, m.DealStartedEvent(deal_number=2, dealer=1)) == (
        "Deal 2 of 3, dealer: AI 2."
    )
    state.apply(m.Event(table_id="t", seq=1, event=m.DealStartedEvent(deal_number=2, dealer=1)))
    assert "deal 2 of 3 · dealer AI 2" in header_text(state).plain
    state.table = state.table.model_copy(update={"options": m.TableOptions(deals=None)})
    assert "deal 2 · dealer AI 2" in header_text(state).plain  # a table with no end
    state.table = state.table.model_copy(update={"options": m.TableOptions(deals=3)})
    wait = m.BetweenDealsEvent(next_deal_number=3, deadline_ms=100_000, waiting_for=[])
    assert event_line(state, wait) == "Deal 3 of 3 next."


def offer_of(cards: list[str], level: m.PoigneeLevelName = "simple") -> m.PoigneeChoice:
    size = {"simple": 10, "double": 13, "triple": 15}[level]
    return m.PoigneeChoice(level=level, size=size, cards=cards)  # type: ignore[arg-type]


def test_a_poignee_offer_is_shown_as_offered_or_with_other_trumps() -> None:
    hand = ["T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "T10", "T11", "EX", "KS", "1H"]
    offer = offer_of(hand[:10])
    state = TableState("t", seat=0)
    legal = m.LegalChoices(seat=0, phase="play", poignees=[offer], cards=["T1"])
    state.turn = m.YourTurn(table_id="t", seq=1, legal=legal)
    assert decision_for(state, False, False).kind == "poignee"
    assert decision_for(state, False, False, offer).kind == "poignee_cards"
    assert decision_for(state, True, False).kind == "play"  # declined
    # Space drops a shown trump, then adds another (or the Excuse); never beyond the size.
    chosen = set(offer.cards)
    assert swap_poignee_card(chosen, "T11", hand, offer) == chosen  # full: no room
    chosen = swap_poignee_card(chosen, "T1", hand, offer)
    chosen = swap_poignee_card(chosen, "EX", hand, offer)
    assert chosen == {*offer.cards[1:], "EX"}
    assert swap_poignee_card(chosen, "1H", hand, offer) == chosen  # not a trump
    # Kings belong to the pool only when the offer holds them (R9).
    assert "KS" not in poignee_pool(hand, offer)
    assert "KS" in poignee_pool(hand, offer_of([*hand[:11], "EX", "KS", "T1", "T2"], "triple"))


async def refuse_a_card(pilot: AppPilot, app: TableApp) -> tuple[str, str]:
    """Play by keys until a hand holds a card it may not play; press Enter on it.

    Returns the card and what the prompt then says."""
    seen: set[str] = set()
    answered: tuple[object, str] | None = None
    while True:
        await pilot.pause(0.01)
        state = app.state
        if state is None or state.turn is None or app.acting or state.view is None:
            continue
        if app.decision.kind == "play":
            hand, legal = state.view.hand, state.legal
            assert legal is not None
            barred = [i for i, c in enumerate(hand) if c not in legal.cards]
            if barred:
                seq, turn = state.seq, state.turn
                await move_to(pilot, app, barred[0], options=False)
                await pilot.press("enter")
                while app.acting or not app.error:
                    await pilot.pause(0.01)
                assert state.seq == seq and state.turn is turn  # refused: nothing changed
                return hand[barred[0]], shown(app, "#prompt")
        if answered != (state.turn, app.decision.kind):
            answered = (state.turn, app.decision.kind)
            await decide(pilot, app, seen)


def test_without_a_url_the_terminal_is_handed_a_server_to_start() -> None:
    """The terminal starts no server of its own: ``tarot play`` hands it one (cli/)."""
    with pytest.raises(ValueError, match="a local server to start is needed"):
        TableApp()


async def test_enter_on_a_card_that_cannot_be_played_says_why() -> None:
    """The engine's reason, in the player's terms: 'you must follow spades (R11)'."""
    app = TableApp(deals=1, ai_level="random", local_server=play_server(0))
    async with app.run_test(size=(120, 40)) as pilot:
        async with asyncio.timeout(90):
            card, prompt = await refuse_a_card(pilot, app)
        label = card_label(card)
        why = r"you must (follow (spades|hearts|diamonds|clubs|trumps)|play a trump|overtrump T\d+)"
        assert re.search(f"{re.escape(label)} cannot be played: {why} \\(R11\\)", prompt), prompt
        await pilot.press("q")


def test_cards_are_drawn_with_the_seeds_words() -> None:
    """The Knight is the Cavalier (C); other ranks keep their code; trumps theirs (T21)."""
    assert [card_label(c) for c in ["NS", "NH", "KD", "QC", "JS", "10H", "T21", "T1", "EX"]] == [
        "C♠", "C♥", "K♦", "Q♣", "J♠", "10♥", "T21", "T1", "EX",
    ]  # fmt: skip


def test_names_from_the_server_are_drawn_as_text() -> None:
    assert printable("Ann\x1b]52;c;aGk=\x07") == "Ann\ufffd]52;c;aGk=\ufffd"
    assert printable("Cy\u202eevil\u200b") == "Cy\ufffdevil\ufffd"  # bidi override, zero width
    assert printable("Zoé 🂡 Ölaf") == "Zoé 🂡 Ölaf"  # letters and symbols stay
