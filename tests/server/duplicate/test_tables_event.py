"""Issue 24's test of a ``tables`` event: two tables of four play its 4 deals.

Table A: Ann (seat 0), Bob (seat 1) and two AI; table B: Cleo, Dan, Eve (seats 0-2)
and one AI. Each table is made and filled through ``duplicate_play`` and started
with ``start``; it deals the event's 4 deals in order (the same cards at both), and
each seat is compared across the two tables: Ann with Cleo, Bob with Dan, A's AI in
seat 2 with Eve, the two AI of seat 3 with each other. Entrants and AI decide from
fixed seeds: the scores are pinned, and the percentages worked out by hand.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from server.history import end_event

from .players import Player, history_app, new_event

DEALS = 4
# The sheets of each deal at table A and table B (seats 0-3), as the score events said.
SHEETS_A = [[-1242, 414, 414, 414], [360, -1080, 360, 360], [-576, 192, 192, 192]]
SHEETS_A += [[378, -1134, 378, 378]]
SHEETS_B = [[104, 104, -312, 104], [300, -100, -100, -100], [-954, 318, 318, 318]]
SHEETS_B += [[-522, 174, 174, 174]]
# By hand: two results per deal and seat, so the higher gets 2 of 2 (100%), the lower 0
# (no ties here). Per seat, (A's, B's) percentages, deals 0-3:
# seat 0, Ann vs Cleo: -1242 < 104, 360 > 300, -576 > -954, 378 > -522.
# seat 1, Bob vs Dan: 414 > 104, -1080 < -100, 192 < 318, -1134 < 174.
# seat 2, A's AI vs Eve: 414 > -312, 360 > -100, 192 < 318, 378 > 174.
# seat 3, A's AI vs B's AI: 414 > 104, 360 > -100, 192 < 318, 378 > 174.
PERCENT_A = [[0, 100, 100, 100], [100, 0, 100, 100], [100, 0, 0, 0], [100, 0, 100, 100]]
# (deal by deal, seats 0-3; B's are 100 minus A's.) Standings, the mean of the four:
# Ann, Dan, A's two AI: 75%, 1st shared by four; Bob, Cleo, Eve, B's AI: 25%, 5th.
STANDINGS = {("Ann", 75.0), ("Dan", 75.0), ("Bob", 25.0), ("Cleo", 25.0), ("Eve", 25.0)}


async def test_two_tables_of_four_play_a_tables_event(tmp_path: Path) -> None:
    async with history_app(tmp_path) as app:
        url = f"ws://127.0.0.1:{app.port}/"
        event_id = await new_event(app, DEALS, kind="tables")
        names = ("Ann", "Bob", "Cleo", "Dan", "Eve")
        players = {n: await Player.sign_up(url, n, i) for i, n in enumerate(names)}
        for player in players.values():
            enter = {"type": "duplicate_enter", "event_id": event_id}
            await player.ask(enter, "duplicate_entered")
        tables = []
        for first, others in (("Ann", ("Bob",)), ("Cleo", ("Dan", "Eve"))):
            play = {"type": "duplicate_play", "event_id": event_id}
            await players[first].ask(play, "joined")
            table = players[first].table_id
            for name in others:
                await players[name].ask({**play, "table_id": table}, "joined")
            tables.append(table)
        assert [players[n].seat for n in names] == [0, 1, 0, 1, 2]
        await asyncio.gather(
            players["Ann"].ask({"type": "start"}, "ack"),
            players["Cleo"].ask({"type": "start"}, "ack"),
        )
        await asyncio.gather(*(p.play_until_over() for p in players.values()))
        assert [s["sheet"]["scores"] for s in players["Ann"].scores] == SHEETS_A
        assert [s["sheet"]["scores"] for s in players["Cleo"].scores] == SHEETS_B
        archive = app.node.archive
        assert archive is not None and archive.engine is not None
        assert archive.duplicates is not None
        await archive.duplicates.settled()
        await end_event(archive.engine, event_id)
        ann = players["Ann"]
        for deal in range(DEALS):
            show = {"type": "duplicate_show", "event_id": event_id, "deal": deal}
            results = (await ann.ask(show, "duplicate_results"))["results"]
            assert len(results) == 8  # 2 tables x 4 seats, AI seats included
            got = {
                (r["seat"], r["table_id"] == tables[0]): (r["score"], r["mark"]) for r in results
            }
            for seat in range(4):
                percent = PERCENT_A[deal][seat]
                assert got[seat, True] == (SHEETS_A[deal][seat], percent)
                assert got[seat, False] == (SHEETS_B[deal][seat], 100 - percent)
            humans = {r["name"]: r["seat"] for r in results if "name" in r}
            assert humans == {"Ann": 0, "Bob": 1, "Cleo": 0, "Dan": 1, "Eve": 2}
        show = {"type": "duplicate_show", "event_id": event_id}
        standings = (await ann.ask(show, "duplicate_results"))["standings"]
        assert {(s["name"], s["mark"]) for s in standings if "name" in s} == STANDINGS
        ai = sorted((s["rank"], s["mark"]) for s in standings if "ai_level" in s)
        assert ai == [(1, 75.0), (1, 75.0), (5, 25.0)]  # A's two AI, B's one
        assert {(s["rank"], s["mark"]) for s in standings} == {(1, 75.0), (5, 25.0)}
        assert all(s["played"] == DEALS for s in standings)
