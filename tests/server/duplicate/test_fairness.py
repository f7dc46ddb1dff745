"""Issue 24, point 5: nobody sees a deal of an open event before playing it; one entry.

Refused while the event is open: a second entry, a deal's results and its stored
record (API, review) before one has played it, another entrant's results, the
standings; once it closes: entering and playing. The robot AI reads nothing but its
seat's view and the deal's seed: an entrant who plays as another did meets the same
AI play, whatever was recorded in between.
"""

from __future__ import annotations

from pathlib import Path

from server.history import end_event

from .players import Player, history_app, http_get, new_event


async def play_deal(player: Player, event_id: int) -> tuple[str, dict[str, object]]:
    """Play the next deal; the table's id and the deal's record."""
    await player.ask({"type": "duplicate_play", "event_id": event_id}, "joined")
    await player.play_until_over()
    record = (
        next(
            m["event"]["record"]
            for m in reversed(player.received)
            if m["type"] == "event" and m["event"]["kind"] == "record"
        )
        if any(m["type"] == "event" for m in player.received)
        else _batched_record(player)
    )
    await player.ask({"type": "leave"}, "left")
    assert player.table_id is not None
    return player.table_id, record


def _batched_record(player: Player) -> dict[str, object]:
    for message in reversed(player.received):
        for item in message.get("events", []):
            if item["event"]["kind"] == "record":
                return dict(item["event"]["record"])
    raise AssertionError("no record event")


async def test_an_open_event_shows_nothing_of_a_deal_to_one_who_has_not_played_it(
    tmp_path: Path,
) -> None:
    async with history_app(tmp_path) as app:
        url = f"ws://127.0.0.1:{app.port}/"
        event_id = await new_event(app, 2)
        ann, bob, cleo = [await Player.sign_up(url, n, 1) for n in ("Ann", "Bob", "Cleo")]
        enter = {"type": "duplicate_enter", "event_id": event_id}
        entered = await ann.ask(enter, "duplicate_entered")
        assert entered["event"]["entry_id"] >= 1 and entered["event"]["played"] == 0
        assert await ann.refused(enter) == "already_entered"  # a second entry
        await bob.ask(enter, "duplicate_entered")
        ann_table, ann_record = await play_deal(ann, event_id)
        archive = app.node.archive
        assert archive is not None and archive.engine is not None
        await archive.writer.flush()

        # Bob has not played deal 0: its results, its record and its review are refused.
        show_deal = {"type": "duplicate_show", "event_id": event_id, "deal": 0}
        assert await bob.refused(show_deal) == "results_hidden"
        status, body = await http_get(app, f"/api/deals/{ann_table}/0")
        assert (status, body["error"]["code"]) == (403, "results_hidden"), body
        review = {"type": "review_stored_deal", "table_id": ann_table, "deal_number": 0}
        assert await bob.refused(review) == "results_hidden"
        status, body = await http_get(app, f"/api/duplicate/{event_id}/deals/0")
        assert (status, body["error"]["code"]) == (403, "results_hidden")
        # Another entrant's results and the standings: not before the close.
        ann_entry = entered["event"]["entry_id"]
        show_ann = {"type": "duplicate_show", "event_id": event_id, "entry": ann_entry}
        assert await bob.refused(show_ann) == "results_hidden"
        assert (await ann.ask(show_ann, "duplicate_results"))["results"][0]["deal"] == 0
        status, body = await http_get(app, f"/api/duplicate/{event_id}")
        assert status == 200 and body["standings"] is None
        assert body["event"]["phase"] == "open" and "seed" not in str(body)

        # Bob plays deal 0 as Ann did (the same seed): the AI plays the same way for him.
        bob_table, bob_record = await play_deal(bob, event_id)
        assert bob_table != ann_table and bob_record == ann_record
        shown = await bob.ask(show_deal, "duplicate_results")
        assert {r["name"] for r in shown["results"]} == {"Ann", "Bob"}

        await end_event(archive.engine, event_id)
        # A closed event: no entry, no deal played; everything shows to anyone.
        assert await cleo.refused(enter) == "event_not_open"
        play = {"type": "duplicate_play", "event_id": event_id}
        assert await ann.refused(play) == "event_not_open"
        assert (await cleo.ask(show_ann, "duplicate_results"))["results"][0]["name"] == "Ann"
        await archive.writer.flush()
        status, body = await http_get(app, f"/api/deals/{ann_table}/0")
        assert status == 200, body
        status, body = await http_get(app, f"/api/duplicate/{event_id}/deals/0")
        assert status == 200 and {r["mark"] for r in body["results"]} == {50.0}
        status, body = await http_get(app, f"/api/duplicate/{event_id}")
        assert [s["name"] for s in body["standings"]] in (["Ann", "Bob"], ["Bob", "Ann"])


async def test_a_duplicate_table_takes_no_plain_join_and_nobody_watches_it(
    tmp_path: Path,
) -> None:
    async with history_app(tmp_path) as app:
        url = f"ws://127.0.0.1:{app.port}/"
        event_id = await new_event(app, 1, kind="tables")
        ann, bob = [await Player.sign_up(url, n, 1) for n in ("Ann", "Bob")]
        await ann.ask({"type": "duplicate_enter", "event_id": event_id}, "duplicate_entered")
        await ann.ask({"type": "duplicate_play", "event_id": event_id}, "joined")
        table = ann.table_id
        join = {"type": "join", "table_id": table}
        assert await bob.refused(join) == "duplicate_table"
        assert await bob.refused({"type": "watch", "table_id": table}) == "results_hidden"
        play = {"type": "duplicate_play", "event_id": event_id, "table_id": table}
        assert await bob.refused(play) == "not_entered"
        assert await bob.refused({"type": "duplicate_enter", "event_id": 999}) == "no_such_event"
        # Ann leaves her table before it starts: she may sit again, at her own table
        # while it waits (one table per entrant: asked again, it is the same).
        await ann.ask({"type": "leave"}, "left")
        await ann.ask({"type": "duplicate_play", "event_id": event_id}, "joined")
        assert ann.table_id == table and ann.seat == 0
