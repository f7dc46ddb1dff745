"""Issue 24's test: a robot event of 4 deals played by 5 entrants through the protocol.

Each entrant signs up, enters, and plays the event's deals in order with a random
legal action from its own seeded generator, alone with three AI (``basic`` here, for
speed; ``strong`` in a real event). Entrants and AI decide from fixed seeds, and the
deals come from the event's fixed seed: the scores are the same every run (pinned
below), and each deal's percentages were worked out by hand from them.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from server.history import end_event

from .players import Player, history_app, http_get, new_event

ENTRANTS = ("Ann", "Bob", "Cleo", "Dan", "Eve")
DEALS = 4
# The sheet's score for seat 0, per entrant and deal (random legal play, fixed seeds).
SCORES = {
    "Ann": [-792, 0, 0, -168],
    "Bob": [-174, -882, -1026, -528],
    "Cleo": [0, 0, 0, -162],
    "Dan": [-129, 138, -900, 0],
    "Eve": [-168, 222, -720, -87],
}
# By hand: 5 results a deal, so the most is 2 x 4 = 8 matchpoints.
# Deal 0: Cleo 0 beats all 4 (8/8), Dan -129 beats 3 (6/8), Eve -168 beats 2, Bob -174
#   beats Ann, Ann -792 beats nobody.
# Deal 1: Eve 222 beats 4, Dan 138 beats 3; Ann and Cleo (both passed out, 0) beat Bob
#   and tie each other: 2 + 1 = 3/8 = 37.5%; Bob -882 beats nobody.
# Deal 2: Ann and Cleo (0) beat three and tie each other: 7/8 = 87.5%; Eve -720 beats
#   Dan and Bob (4/8), Dan -900 beats Bob (2/8), Bob -1026 nobody.
# Deal 3: Dan 0 beats 4, Eve -87 beats 3, Cleo -162 beats 2, Ann -168 beats Bob.
PERCENT: dict[str, list[float]] = {
    "Ann": [0, 37.5, 87.5, 25],
    "Bob": [25, 0, 0, 0],
    "Cleo": [100, 37.5, 87.5, 50],
    "Dan": [75, 75, 25, 100],
    "Eve": [50, 100, 50, 75],
}
# The mean of the four: Cleo, Dan and Eve 275/4 = 68.75% share 1st; Ann 150/4 = 37.5%
# is 4th; Bob 25/4 = 6.25% is 5th.
STANDINGS = [(1, "Cleo", 68.75), (1, "Dan", 68.75), (1, "Eve", 68.75), (4, "Ann", 37.5)]
STANDINGS += [(5, "Bob", 6.25)]


async def play_event(event_id: int, player: Player) -> list[float]:
    await player.ask({"type": "duplicate_enter", "event_id": event_id}, "duplicate_entered")
    scores = []
    for deal in range(DEALS):
        await player.ask({"type": "duplicate_play", "event_id": event_id}, "joined")
        assert player.seat == 0
        score = await player.play_until_over()
        scores.append(score["sheet"]["scores"][0])
        await player.ask({"type": "leave"}, "left")
        # Once played, the deal's results so far show to its player, without marks.
        shown = await player.ask(
            {"type": "duplicate_show", "event_id": event_id, "deal": deal}, "duplicate_results"
        )
        assert player.name in {r["name"] for r in shown["results"]}
        assert all("mark" not in r for r in shown["results"])
    assert await player.refused({"type": "duplicate_play", "event_id": event_id}) == "event_played"
    return scores


async def test_five_entrants_play_a_robot_event_of_four_deals(tmp_path: Path) -> None:
    async with history_app(tmp_path) as app:
        url = f"ws://127.0.0.1:{app.port}/"
        event_id = await new_event(app, DEALS)
        players = [await Player.sign_up(url, name, i) for i, name in enumerate(ENTRANTS)]
        played = await asyncio.gather(*(play_event(event_id, p) for p in players))
        assert dict(zip(ENTRANTS, played, strict=True)) == SCORES
        archive = app.node.archive
        assert archive is not None and archive.engine is not None
        assert archive.duplicates is not None
        await archive.duplicates.settled()
        await end_event(archive.engine, event_id)

        ann = players[0]
        for deal in range(DEALS):
            shown = await ann.ask(
                {"type": "duplicate_show", "event_id": event_id, "deal": deal}, "duplicate_results"
            )
            results = shown["results"]
            assert {r["name"]: r["score"] for r in results} == {
                name: SCORES[name][deal] for name in ENTRANTS
            }
            assert {r["name"]: r["mark"] for r in results} == {
                name: PERCENT[name][deal] for name in ENTRANTS
            }
            assert sum(r["mark"] for r in results) == 250  # 5 results average 50%
            for r in results:  # each linked to its stored deal, in seat 0
                assert r["seat"] == 0 and r["table_id"] and r["deal_number"] == 0
                assert ("contract" in r) == (r["score"] != 0)
        shown = await ann.ask({"type": "duplicate_show", "event_id": event_id}, "duplicate_results")
        got = [(s["rank"], s["name"], s["mark"]) for s in shown["standings"]]
        assert sorted(got) == sorted(STANDINGS)
        assert all(s["played"] == DEALS for s in shown["standings"])
        assert shown["event"]["phase"] == "closed" and shown["event"]["scored"]
        assert shown["own"]["played"] == DEALS
        # The duplicate rating, all at 1500 before: each deal's share of games won minus
        # 0.5, times 10 a deal. Cleo (1 + .375 + .875 + .5 - 2) * 10 = +7.5, Dan and Eve
        # +7.5 too, Ann (0 + .375 + .875 + .25 - 2) * 10 = -5, Bob (.25 - 2) * 10 = -17.5.
        status, body = await http_get(app, "/api/duplicate/ratings")
        rated = {(r["name"], r["rating"], r["events"]) for r in body["ratings"]}
        assert status == 200 and rated == {
            ("Cleo", 1507.5, 1),
            ("Dan", 1507.5, 1),
            ("Eve", 1507.5, 1),
            ("Ann", 1495.0, 1),
            ("Bob", 1482.5, 1),
        }
