"""The terminal client answers a finished table's rematch offer (docs/PROTOCOL.md, section 17;
docs/CLIENTS.md): ``d`` declines, ``r`` accepts (a decline may still become an accept),
and the terminal follows the new table from then on."""

from __future__ import annotations

import asyncio

from textual.widgets import RichLog

from clients.python import Bot, Client, TableState, play_table
from clients.terminal import TableApp
from clients.terminal.decisions import decision_for
from protocol import models as m

from .test_terminal import play_by_keys


def logged(app: TableApp) -> str:
    return "\n".join(line.text for line in app.query_one("#log", RichLog).lines)


def finished(seat: int | None = 0) -> TableState:
    state = TableState("t", seat=seat)
    state.table = m.TableSummary(
        table_id="t",
        options=m.TableOptions(deals=1),
        seats=[m.SeatInfo(seat=s, occupant="human", name=n) for s, n in enumerate("ABCD")],
        status="finished",
    )
    state.over = True
    return state


def test_the_prompt_of_a_finished_table_offers_what_the_seat_may_still_answer() -> None:
    state = finished()
    assert "r for a rematch, d to decline" in decision_for(state, False, False).prompt
    state.rematch = m.RematchEvent(table_id="n", accepted=[1], declined=[0])
    assert "Press r to accept after all" in decision_for(state, False, False).prompt
    state.rematch = m.RematchEvent(table_id="n", accepted=[1], declined=[0], timed_out=[2, 3])
    closed = decision_for(state, False, False).prompt
    assert "rematch" not in closed and "Press q to quit" in closed
    watching = decision_for(finished(seat=None), False, False).prompt
    assert "rematch" not in watching


async def test_the_terminal_declines_then_accepts_a_rematch_and_plays_the_new_table(
    url: str,
) -> None:
    other = await Client.connect(url, codec="json")
    created = await other.create_table(m.TableOptions(deals=1, ai_level="random"))
    table_id = created.table.table_id
    await other.join(table_id, seat=0, name="Ann")
    app = TableApp(url, table_id=table_id, seat=2, name="Zoe", codec="json")
    async with app.run_test(size=(120, 40)) as pilot:
        async with asyncio.timeout(30):
            while "Press s to start" not in app.decision.prompt:
                await pilot.pause(0.01)
        await pilot.press("s")
        bot = asyncio.ensure_future(play_table(other, Bot()))
        async with asyncio.timeout(90):
            await play_by_keys(pilot, app)
        await bot
        assert "r for a rematch" in app.decision.prompt
        await pilot.press("d")
        async with asyncio.timeout(10):
            while "accept after all" not in app.decision.prompt:
                await pilot.pause(0.02)
        assert "You declined" in logged(app)
        await pilot.press("r")
        async with asyncio.timeout(10):
            while app.state is None or app.state.table_id == table_id:
                await pilot.pause(0.02)
        new_table = app.state.table_id
        assert app.state.seat == 2 and not app.state.over
        assert f"Rematch: seated at table {new_table}, seat 2." in logged(app)
        assert "Press s to start" in app.decision.prompt  # Ann has not answered yet
        again = await other.rematch(True)  # every human answered: the new table starts
        assert again is not None and again.table_id == new_table
        async with asyncio.timeout(30):
            while app.state.view is None or app.state.view.deal_number != 1:
                await pilot.pause(0.02)
        await pilot.press("q")
    await other.close()
