"""Table chat end to end on a real node with accounts (docs/PROTOCOL.md, section 17):
presets mid-deal, free text only between deals, spectators apart, every limit, mute,
block, report; the chat goes through the table's log (replayed on resume), never into
the game record, and never to a version 1 connection."""

from __future__ import annotations

import asyncio
import contextlib
import io
from typing import Any

import pytest
from argon2 import PasswordHasher

from cli.main import main as cli_main
from server.app import App
from server.history import accounts, blocked_pairs, stored_reports

from .social_wire import (
    V2Client,
    done,
    events_of,
    next_event,
    node,
    player,
    refused,
    settled,
    table_of,
    url_of,
)
from .wire import WireClient

__all__ = ["node"]  # the fixture, used by name


@pytest.fixture(autouse=True)
def cheaper_argon2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(accounts, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024))


async def test_presets_mid_deal_reach_the_table_as_codes_and_free_text_is_refused(
    node: App,
) -> None:
    anna, bob = await player(node, "Anna"), await player(node, "Bob")
    await table_of(anna, bob)
    await done(anna, {"type": "chat", "preset": "good_luck"})
    said = await next_event(bob, "chat")
    assert said | {"seq": 0} == {
        "seq": 0,
        "kind": "chat",
        "seat": 0,
        "name": "Anna",
        "account_id": said["account_id"],
        "preset": "good_luck",
        "text": None,
        "spectators_only": False,
    }
    error = await refused(anna, {"type": "chat", "text": "I have the 21"})
    assert (error["code"], error["reason"]) == ("chat_refused", "text_mid_deal")


async def test_free_text_is_said_before_the_start_and_links_are_refused(node: App) -> None:
    anna, bob = await player(node, "Anna"), await player(node, "Bob")
    await table_of(anna, bob, start=False)
    await done(anna, {"type": "chat", "text": "  hi   <b>Bob</b>  "})
    assert (await next_event(bob, "chat"))["text"] == "hi <b>Bob</b>"  # as sent, folded
    for text in ("join me at www.example.com", "https://x.y/z", "see evil[.]ru", "a.b.io/x"):
        error = await refused(anna, {"type": "chat", "text": text})
        assert (error["code"], error["reason"]) == ("chat_refused", "link"), text


async def test_links_spelled_with_idna_dots_dot_dodges_or_addresses_are_refused(
    node: App,
) -> None:
    anna = await player(node, "Anna")
    await table_of(anna, start=False)
    links = ["example\u3002com", "example\uff61com", "example\uff0ecom", "example(.)com"]
    links += ["example{dot}com", "example[dot]com", "1.2.3.4/x", "example . com"]
    for text in links:
        error = await refused(anna, {"type": "chat", "text": text})
        assert (error["code"], error["reason"]) == ("chat_refused", "link"), text
    for text in ("well done. next time", "3.5 points"):
        await done(anna, {"type": "chat", "text": text})
    assert [e["text"] for e in events_of(anna, "chat")] == ["well done. next time", "3.5 points"]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("x" * 141, "invalid_message"),
        ("x" * 140 + "  ", "ok"),  # 140 once cleaned
        ("evil\x1b]52;c;aGk=\x07", "bad_name"),
        ("bidi\u202etxt", "bad_name"),
        ("   ", "invalid_message"),
    ],
    ids=repr,
)
async def test_text_too_long_or_unsafe_is_refused(node: App, text: str, code: str) -> None:
    anna = await player(node, "Anna")
    await table_of(anna, start=False)
    if code == "ok":
        await done(anna, {"type": "chat", "text": text})
        assert events_of(anna, "chat")[-1]["text"] == text.strip()
        return
    error = await refused(anna, {"type": "chat", "text": text})
    assert error["code"] == code, error


async def test_five_messages_in_ten_seconds_then_refused_and_repeats_refused(
    node: App,
) -> None:
    anna = await player(node, "Anna")
    await table_of(anna)
    await done(anna, {"type": "chat", "preset": "hello"})
    error = await refused(anna, {"type": "chat", "preset": "hello"})
    assert (error["code"], error["reason"]) == ("chat_refused", "repeated")
    for preset in ("good_luck", "well_played", "thanks", "oops"):
        await done(anna, {"type": "chat", "preset": preset})
    error = await refused(anna, {"type": "chat", "preset": "sorry"})
    assert (error["code"], error["reason"]) == ("chat_refused", "rate")
    assert len(events_of(anna, "chat")) == 5


async def test_a_guest_reads_the_chat_but_may_not_write(node: App) -> None:
    anna = await player(node, "Anna")
    guest = await V2Client.open(url_of(node))
    table_id = await table_of(anna, start=False)
    await guest.request({"type": "join", "table_id": table_id, "name": "Gus"}, "joined")
    error = await refused(guest, {"type": "chat", "preset": "hello"})
    assert (error["code"], error["reason"]) == ("chat_refused", "guest")
    await done(anna, {"type": "chat", "preset": "hello"})
    assert (await next_event(guest, "chat"))["name"] == "Anna"


async def test_spectators_talk_apart_during_a_deal_and_a_v1_follower_sees_no_chat(
    node: App,
) -> None:
    anna, carl = await player(node, "Anna"), await player(node, "Carl")
    table_id = await table_of(anna)
    await carl.request({"type": "watch", "table_id": table_id}, "watching")
    old = await WireClient.open(url_of(node))  # version 1
    await old.request({"type": "watch", "table_id": table_id}, "watching")
    await done(carl, {"type": "chat", "text": "nice bid"})  # its event comes before its answer
    [heard] = events_of(carl, "chat")
    assert (heard["seat"], heard["text"], heard["spectators_only"]) == (None, "nice bid", True)
    await done(anna, {"type": "chat", "preset": "thanks"})
    assert (await next_event(carl, "chat"))["preset"] == "thanks"  # spectators read players
    said = events_of(anna, "chat")
    assert [e["preset"] for e in said] == ["thanks"]  # Carl's was hidden from the seat
    hidden = [m for m in anna.received if m["type"] in ("event", "events")]
    assert any(e.get("kind") == "hidden" for m in hidden for e in _bodies(m))
    await settled(old, "v1")
    assert not [
        m for m in old.received if m.get("type") == "event" and m["event"]["kind"] == "chat"
    ]


def _bodies(message: dict[str, Any]) -> list[dict[str, Any]]:
    if message["type"] == "event":
        return [message["event"]]
    return [e["event"] for e in message["events"]]


async def test_a_muted_player_is_not_shown_and_unmuted_again(node: App) -> None:
    anna, bob = await player(node, "Anna"), await player(node, "Bob")
    await table_of(anna, bob)
    muted = await bob.request({"type": "mute", "name": "anna", "id": 1}, "muted")
    assert muted == {"type": "muted", "names": ["anna"], "re": 1}
    await done(anna, {"type": "chat", "preset": "hello"})
    await settled(bob, "after-mute")
    assert events_of(bob, "chat") == []
    await bob.request({"type": "unmute", "name": "Anna"}, "muted")
    await done(anna, {"type": "chat", "preset": "oops"})
    assert (await next_event(bob, "chat"))["preset"] == "oops"


async def test_a_block_hides_both_ways_is_kept_and_named_to_quick_play(node: App) -> None:
    anna, bob = await player(node, "Anna"), await player(node, "Bob")
    await table_of(anna, bob)
    error = await refused(bob, {"type": "block", "name": "Nobody"})
    assert error["code"] == "unknown_player"
    blocked = await bob.request({"type": "block", "name": "ANNA", "id": 2}, "blocked")
    assert blocked == {"type": "blocked", "name": "Anna", "re": 2}
    await done(anna, {"type": "chat", "preset": "hello"})
    await settled(bob, "after-block")
    assert events_of(bob, "chat") == []
    archive = node.node.archive
    assert archive is not None and archive.engine is not None
    assert anna.account_id is not None and bob.account_id is not None
    carl = await player(node, "Carl")
    assert carl.account_id is not None
    everyone = [anna.account_id, bob.account_id, carl.account_id]
    pairs = await blocked_pairs(archive.engine, everyone)
    assert pairs == {frozenset((anna.account_id, bob.account_id))}
    guest = await V2Client.open(url_of(node))
    assert (await refused(guest, {"type": "block", "name": "Anna"}))["code"] == "not_signed_in"


async def test_a_report_is_kept_with_the_messages_before_it(node: App) -> None:
    anna, bob = await player(node, "Anna"), await player(node, "Bob")
    table_id = await table_of(anna, bob, start=False)
    for text in ("one", "two", "three"):
        await done(anna, {"type": "chat", "text": text})
    await done(bob, {"type": "chat", "text": "rude words"})
    reported = await next_event(anna, "chat")
    answer = await anna.request(
        {"type": "report", "seq": reported["seq"], "reason": "insult"}, "reported"
    )
    archive = node.node.archive
    assert archive is not None and archive.engine is not None
    [kept] = await stored_reports(archive.engine)
    assert kept.id == answer["report_id"]
    report = kept.report
    assert (report.table_id, report.seq, report.reporter, report.author) == (
        table_id,
        reported["seq"],
        "Anna",
        "Bob",
    )
    assert report.message["text"] == "rude words" and report.reason == "insult"
    assert [c["text"] for c in report.context] == ["one", "two", "three"]
    error = await refused(anna, {"type": "report", "seq": 1})  # not a chat message
    assert error["code"] == "no_such_message"
    # The operator's command lists it, the context first, nothing raw.
    db = f"sqlite:///{archive.engine.url.database}"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert await asyncio.to_thread(cli_main, ["reports", "--db", db]) == 0
    listed = out.getvalue()
    assert f"table {table_id} event {reported['seq']}: Anna reported Bob" in listed
    assert "reason: insult" in listed and listed.index("one") < listed.index("rude words")


async def test_a_message_sent_as_hidden_to_a_muter_or_a_blocker_cannot_be_reported(
    node: App,
) -> None:
    anna, bob = await player(node, "Anna"), await player(node, "Bob")
    await table_of(anna, bob, start=False)
    await bob.request({"type": "mute", "name": "anna"}, "muted")
    await done(anna, {"type": "chat", "text": "muted words"})
    muted_seq = events_of(anna, "chat")[-1]["seq"]
    await settled(bob, "muted")
    error = await refused(bob, {"type": "report", "seq": muted_seq})
    assert error["code"] == "no_such_message", error
    # Shown, then muted: the mute does not withdraw it (mute, then report, is the usual order).
    await bob.request({"type": "unmute", "name": "anna"}, "muted")
    await done(anna, {"type": "chat", "text": "rude words"})
    shown = await next_event(bob, "chat")
    await bob.request({"type": "mute", "name": "anna"}, "muted")
    await bob.request({"type": "report", "seq": shown["seq"]}, "reported")
    await bob.request({"type": "unmute", "name": "anna"}, "muted")
    await bob.request({"type": "block", "name": "anna"}, "blocked")
    await done(anna, {"type": "chat", "text": "blocked words"})
    await done(bob, {"type": "chat", "text": "back at you"})  # hidden from Anna: blocked
    blocked_seqs = [e["seq"] for e in events_of(anna, "chat")[-1:]]
    await settled(anna, "blocked")
    error = await refused(bob, {"type": "report", "seq": blocked_seqs[0]})
    assert error["code"] == "no_such_message", error
    bobs = events_of(bob, "chat")[-1]
    error = await refused(anna, {"type": "report", "seq": bobs["seq"]})
    assert error["code"] == "no_such_message", error
    archive = node.node.archive
    assert archive is not None and archive.engine is not None
    assert [r.report.seq for r in await stored_reports(archive.engine)] == [shown["seq"]]


@pytest.mark.parametrize(
    "reason",
    ["bad\x1b]0;pwned\x07", "bad\x1b[2J", "evil\u202etxt", "line1\nline2", "bell\x07", "x" * 201],
    ids=repr,
)
async def test_a_report_reason_follows_the_rules_of_chat_text(node: App, reason: str) -> None:
    anna = await player(node, "Anna")
    await table_of(anna, start=False)
    await done(anna, {"type": "chat", "text": "hello there"})
    seq = events_of(anna, "chat")[-1]["seq"]
    error = await refused(anna, {"type": "report", "seq": seq, "reason": reason})
    expected = "invalid_message" if len(reason) > 200 else "bad_name"
    assert error["code"] == expected, error
    archive = node.node.archive
    assert archive is not None and archive.engine is not None
    assert await stored_reports(archive.engine) == []
    await anna.request({"type": "report", "seq": seq, "reason": "  rude\u3000 words "}, "reported")
    [kept] = await stored_reports(archive.engine)
    assert kept.report.reason == "rude words"  # cleaned as chat text is


async def test_chat_is_replayed_on_resume(node: App) -> None:
    anna = await player(node, "Anna")
    await table_of(anna)
    await done(anna, {"type": "chat", "preset": "hello"})
    token = anna.token
    assert token is not None
    chat_seq = events_of(anna, "chat")[0]["seq"]
    await anna.close()
    again = await V2Client.open(url_of(node))
    again.last_seq = chat_seq - 1
    await again.send({"type": "resume", "token": token, "last_seq": chat_seq - 1})
    replayed = await next_event(again, "chat")
    assert (replayed["seq"], replayed["preset"]) == (chat_seq, "hello")


async def test_the_lobby_says_how_many_are_online_to_version_2_only(node: App) -> None:
    first = await V2Client.open(url_of(node))
    second = await V2Client.open(url_of(node))
    await second.send({"type": "list_tables", "id": "l"})
    assert (await second.recv())["type"] == "tables"
    online = await second.recv()
    assert online == {"type": "online", "count": 2, "re": "l"}
    old = await WireClient.open(url_of(node))  # version 1: as it always was
    await old.send({"type": "list_tables"})
    await old.send({"type": "ping", "id": "p"})
    assert [(await old.recv())["type"], (await old.recv())["type"]] == ["tables", "pong"]
    await first.close()
