"""An open event's deals and results show nowhere but to those who played them.

A robot or tables event's deal is stored by the node's deal writer, and its
results are recorded later, in the background (``duplicate_recorder``): the
deal must be hidden from the moment it is stored, not once its results are
recorded. Nor may a player's profile, deals, tables or rating changes, or the
lobby's line of a tables event's table, show what the event hides until it
closes (docs/DUPLICATE.md, "Who sees what, when"; docs/API.md).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from websockets.asyncio.client import connect

from server.app import App
from server.history import end_event
from server.node.archive import Archive

from ..wire import random_choice
from .players import Player, _events_and_turns, entrants, history_app, http_get, new_event


def archive_of(app: App) -> Archive:
    archive = app.node.archive
    assert archive is not None and archive.engine is not None
    return archive


async def play_deal_zero(app: App, event_id: int, *players: Player) -> str:
    """Every player enters; the first plays the event's deal 0 (a robot table, to its
    end); its table id."""
    for player in players:
        await player.ask({"type": "duplicate_enter", "event_id": event_id}, "duplicate_entered")
    first = players[0]
    await first.ask({"type": "duplicate_play", "event_id": event_id}, "joined")
    assert first.table_id is not None
    await first.play_until_over()
    await archive_of(app).writer.flush()  # the deal is stored
    return first.table_id


async def test_an_open_events_deal_is_hidden_before_its_results_are_recorded(
    tmp_path: Path,
) -> None:
    """The probe's race, held open: the deal is stored and the recorder has recorded none
    of its results yet (here: never). Bob, entered but not past deal 0, is refused its
    review and its record; once the event closes, the record shows."""
    async with history_app(tmp_path) as app:
        url = f"ws://127.0.0.1:{app.port}/"
        archive = archive_of(app)
        archive.duplicates = None  # the results' recorder has done nothing yet
        event_id = await new_event(app, 2)
        ann, bob = await Player.sign_up(url, "Ann", 0), await Player.sign_up(url, "Bob", 1)
        table_id = await play_deal_zero(app, event_id, ann, bob)

        review = {"type": "review_stored_deal", "table_id": table_id, "deal_number": 0}
        assert await bob.refused(review) == "results_hidden"
        status, body = await http_get(app, f"/api/deals/{table_id}/0")
        assert (status, body["error"]["code"]) == (403, "results_hidden")

        assert archive.engine is not None
        await end_event(archive.engine, event_id)
        status, body = await http_get(app, f"/api/deals/{table_id}/0")
        assert status == 200 and body["record"]["format"] == "tarot-record/1"


async def test_an_open_events_deals_show_in_no_profile_until_it_closes(tmp_path: Path) -> None:
    """After Ann played deal 0 (results recorded, deal stored), the API shows nothing of it
    in her profile, deals, tables or rating changes; once the event closes, all of it."""
    async with history_app(tmp_path) as app:
        url = f"ws://127.0.0.1:{app.port}/"
        event_id = await new_event(app, 2)
        ann = await Player.sign_up(url, "Ann", 0)
        table_id = await play_deal_zero(app, event_id, ann)
        archive = archive_of(app)
        assert archive.duplicates is not None and archive.engine is not None
        await archive.duplicates.settled()

        base = f"/api/players/{ann.account_id}"
        status, profile = await http_get(app, base)
        assert status == 200
        assert profile["deals_stored"] == 0 and profile["recent_deals"] == []
        assert profile["statistics"]["over_deals"] == 0
        for path, name in (("/deals", "deals"), ("/tables", "tables"), ("/ratings", "ratings")):
            status, body = await http_get(app, base + path)
            assert (status, body[name]) == (200, []), path

        await end_event(archive.engine, event_id)
        status, profile = await http_get(app, base)
        assert profile["deals_stored"] == 1
        assert [d["table_id"] for d in profile["recent_deals"]] == [table_id]
        for path, name in (("/deals", "deals"), ("/tables", "tables")):
            status, body = await http_get(app, base + path)
            assert [line["table_id"] for line in body[name]] == [table_id], path


async def test_a_tables_events_table_shows_no_totals_in_the_lobby(tmp_path: Path) -> None:
    """After deal 0 of a tables event's table, its players have the totals at the table;
    the lobby's line of the table, which anyone reads, has none."""
    async with history_app(tmp_path) as app:
        url = f"ws://127.0.0.1:{app.port}/"
        event_id = await new_event(app, 2, kind="tables")
        ann = await Player.sign_up(url, "Ann", 0)
        await ann.ask({"type": "duplicate_enter", "event_id": event_id}, "duplicate_entered")
        await ann.ask({"type": "duplicate_play", "event_id": event_id}, "joined")
        await ann.ask({"type": "start"}, "ack")
        totals = await first_score_totals(ann)
        assert totals != [0, 0, 0, 0]  # what the lobby would show

        async with connect(url, subprotocols=["tarot.v2.json"]) as guest:  # type: ignore[list-item]
            await guest.send(json.dumps({"type": "hello", "protocol": 2}))
            await guest.send(json.dumps({"type": "list_tables", "limit": 100, "id": 1}))
            while (answer := json.loads(await guest.recv()))["type"] != "tables":
                pass
        lines = [t for t in answer["tables"] if t["table_id"] == ann.table_id]
        assert len(lines) == 1 and lines[0]["deal_number"] >= 1
        assert lines[0]["totals"] == [0, 0, 0, 0]


async def first_score_totals(player: Player) -> list[float]:
    """Plays the player's turns until the first ``score`` event; its totals."""
    while True:
        message = await player.recv()
        for event, turn in _events_and_turns(message):
            if event is not None and event["kind"] == "score":
                return list(event["totals"])
            if turn is not None:
                action = random_choice(turn["legal"], player.rng)
                await player.send({"type": "act", "action": action})


async def test_an_events_deals_move_no_table_rating(tmp_path: Path) -> None:
    """A tables event's deal that two accounts played (and two calibrated AI) was rated like
    any table's: the profiles' ratings and the leaderboard moved with the deals' results
    while the event hid them. An event's deals move its duplicate rating only
    (docs/RATINGS.md), open or closed."""
    async with history_app(tmp_path) as app:
        event_id = await new_event(app, 2, kind="tables")
        ann, bob = await entrants(app, event_id, "Ann", "Bob", first_seed=0)
        play = {"type": "duplicate_play", "event_id": event_id}
        await ann.ask(play, "joined")
        await bob.ask({**play, "table_id": ann.table_id}, "joined")
        await ann.ask({"type": "start"}, "ack")
        await asyncio.gather(ann.play_until_over(), bob.play_until_over())
        archive = archive_of(app)
        assert archive.duplicates is not None and archive.engine is not None
        await archive.writer.flush()
        await archive.duplicates.settled()
        for phase in ("open", "closed"):
            for player in (ann, bob):
                status, profile = await http_get(app, f"/api/players/{player.account_id}")
                unrated = {"value": 1500.0, "deals": 0, "provisional": True}
                assert (status, profile["rating"]) == (200, unrated), phase
            status, board = await http_get(app, "/api/leaderboard")
            assert (status, board["players"]) == (200, []), phase
            await end_event(archive.engine, event_id)
