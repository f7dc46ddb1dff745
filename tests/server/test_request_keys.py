"""A join or a create_table sent again with the same key is applied once: its answer may be
lost (outcome_unknown, a dropped connection), and a retry must not take a second seat or
make a second table (issue 13; server/table/request_keys.py, PROTOCOL.md section 14)."""

from __future__ import annotations

from .test_tables import create
from .wire import WireClient

KEY = "k" * 16


async def test_a_join_sent_again_with_its_key_gets_the_same_seat_and_token(url: str) -> None:
    host = await WireClient.open(url)
    table_id = await create(host)
    first = await WireClient.open(url)
    join = {"type": "join", "table_id": table_id, "key": KEY}
    one = await first.request(join, "joined")
    again = await WireClient.open(url)  # the first answer was lost: a new connection
    two = await again.request(join, "joined")
    assert (two["seat"], two["token"]) == (one["seat"], one["token"])
    other = await WireClient.open(url)
    three = await other.request({**join, "key": "o" * 16}, "joined")
    assert three["seat"] != one["seat"]
    tables = await host.request({"type": "list_tables"}, "tables")
    (summary,) = [t for t in tables["tables"] if t["table_id"] == table_id]
    assert [s["occupant"] for s in summary["seats"]].count("human") == 2


async def test_a_key_that_took_a_seat_does_not_take_another(url: str) -> None:
    host = await WireClient.open(url)
    table_id = await create(host)
    player = await WireClient.open(url)
    one = await player.request({"type": "join", "table_id": table_id, "key": KEY}, "joined")
    again = await WireClient.open(url)
    other_seat = (one["seat"] + 1) % 4
    await again.send({"type": "join", "table_id": table_id, "seat": other_seat, "key": KEY})
    refused = await again.until(lambda m: m["type"] == "error")
    assert refused["code"] == "bad_key", refused


async def test_a_create_table_sent_again_with_its_key_answers_the_same_table(url: str) -> None:
    first = await WireClient.open(url)
    options = {"deals": 3, "private": True}
    one = await first.request(
        {"type": "create_table", "options": options, "key": KEY}, "table_created"
    )
    again = await WireClient.open(url)
    two = await again.request(
        {"type": "create_table", "options": options, "key": KEY}, "table_created"
    )
    assert two["table"]["table_id"] == one["table"]["table_id"]
    assert two["invite"] == one["invite"] is not None
    plain = await again.request({"type": "create_table", "options": options}, "table_created")
    assert plain["table"]["table_id"] != one["table"]["table_id"]


async def test_a_key_is_a_secret_of_sixteen_characters_or_more(url: str) -> None:
    client = await WireClient.open(url)
    await client.send({"type": "create_table", "key": "short"})
    refused = await client.until(lambda m: m["type"] == "error")
    assert refused["code"] == "invalid_message", refused


async def test_issue29_3_a_keyed_join_sent_again_elsewhere_replaces_the_first_connection(
    url: str,
) -> None:
    """A seat is followed by one connection at a time: the second keyed join takes the seat
    over (as a resume would), the first connection gets ``bye`` ``replaced`` and no more of
    the seat's frames. It used to leave both on the seat, both sent its hand and turn."""
    host = await WireClient.open(url)
    table_id = await create(host)
    first = await WireClient.open(url)
    join = {"type": "join", "table_id": table_id, "key": KEY}
    one = await first.request(join, "joined")
    again = await WireClient.open(url)
    two = await again.request(join, "joined")
    assert (two["seat"], two["token"]) == (one["seat"], one["token"])
    bye = await first.until(lambda m: m["type"] == "bye")
    assert bye["reason"] == "replaced"
    await again.send({"type": "start"})
    hand = await again.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "hand")
    assert hand["event"]["seat"] == one["seat"]


async def test_a_create_table_key_sent_again_with_other_options_is_a_bad_key(url: str) -> None:
    """Issue 29.4: it answered the first table, whatever the second request asked for."""
    first = await WireClient.open(url)
    options = {"name": "Friday  night", "deals": 3}  # cleaned alike both times
    one = await first.request(
        {"type": "create_table", "options": options, "key": KEY}, "table_created"
    )
    again = await WireClient.open(url)
    same = await again.request(
        {"type": "create_table", "options": options, "key": KEY}, "table_created"
    )
    assert same["table"]["table_id"] == one["table"]["table_id"]
    await again.send({"type": "create_table", "options": {**options, "deals": 2}, "key": KEY})
    refused = await again.until(lambda m: m["type"] == "error")
    assert refused["code"] == "bad_key", refused
