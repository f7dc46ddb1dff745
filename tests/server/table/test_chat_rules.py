"""The chat's rules without I/O (server/table/chat_rules.py): each limit refuses exactly
past its bound, and ``shown_to`` hides what a follower may not read."""

from __future__ import annotations

import pytest

from protocol import models as m
from server.table import rematch
from server.table import transitions as tr
from server.table.chat_rules import (
    ChatPolicy,
    Sender,
    SenderLimits,
    SentChat,
    reportable,
    said,
    shown_to,
)
from server.table.data import StoredEvent, TableData
from server.table.refusals import TableRefused
from server.table.seating import JoinRequest, join

from .wired import wired

NOW = 1_000_000
POLICY = ChatPolicy()
ANNA = Sender(seat=0, name="Anna", account_id=7)


def seated(*names: str) -> TableData:
    data = TableData(table_id="chat", options=m.TableOptions(deals=2))
    for seat, name in enumerate(names):
        data = join(data, None, JoinRequest(name=name, now_ms=NOW, seat=seat)).data
    return data


def playing() -> tuple[TableData, object]:
    change = tr.start(seated("Anna", "Bob"), None, NOW)
    return change.data, change.state


def reason(work: object) -> str | None:
    try:
        work() if callable(work) else None
    except TableRefused as e:
        assert e.code == "chat_refused"
        return e.reason
    return None


def test_the_rate_allows_five_in_ten_seconds_and_then_again_after_the_window() -> None:
    limits = SenderLimits(POLICY)
    for i in range(5):
        limits.check(f"message {i}", NOW + i)
    assert reason(lambda: limits.check("one more", NOW + 9_999)) == "rate"
    limits.check("one more", NOW + 10_000)  # the first left the window


def test_a_repeat_of_the_last_two_is_refused_an_older_one_is_not() -> None:
    limits = SenderLimits(ChatPolicy(per_window=100))
    limits.check("hello", NOW)
    assert reason(lambda: limits.check("HELLO ", NOW)) == "repeated"
    limits.check("thanks", NOW)
    assert reason(lambda: limits.check("hello", NOW)) == "repeated"
    limits.check("oops", NOW)
    limits.check("hello", NOW)  # three messages ago: allowed


def test_a_refused_message_does_not_count() -> None:
    limits = SenderLimits(POLICY)
    limits.check("a", NOW)
    assert reason(lambda: limits.check("a", NOW)) == "repeated"
    for text in "bcde":
        limits.check(text, NOW)
    assert len(limits.sent_ms) == 5


def test_a_seat_sends_presets_mid_deal_and_text_only_outside_a_deal() -> None:
    data, state = playing()
    preset = said(data, state, ANNA, m.Chat(preset="hello"), POLICY)  # type: ignore[arg-type]
    [(audience, event)] = [(a, wired(e)) for a, e in preset.events]
    assert audience is None and isinstance(event, m.ChatEvent) and event.preset == "hello"
    text = m.Chat(text="I hold the 21")
    assert reason(lambda: said(data, state, ANNA, text, POLICY)) == "text_mid_deal"  # type: ignore[arg-type]
    waiting = seated("Anna")
    assert said(waiting, None, ANNA, text, POLICY).events  # before the start
    over = data.model_copy(update={"status": "finished"})
    assert said(over, state, ANNA, text, POLICY).events  # type: ignore[arg-type]


def test_a_spectator_writes_text_mid_deal_to_spectators_only() -> None:
    data, state = playing()
    dan = Sender(seat=None, name="Dan", account_id=9)
    change = said(data, state, dan, m.Chat(text="nice"), POLICY)  # type: ignore[arg-type]
    [(_, event)] = [(a, wired(e)) for a, e in change.events]
    assert isinstance(event, m.ChatEvent) and event.spectators_only
    between = said(seated("Anna"), None, dan, m.Chat(text="nice"), POLICY)
    [(_, event)] = [(a, wired(e)) for a, e in between.events]
    assert isinstance(event, m.ChatEvent) and not event.spectators_only


def test_a_guest_seat_writes_after_the_deals_the_server_asks() -> None:
    guest = Sender(seat=1, name="Gus", account_id=None)
    data = seated("Anna", "Gus")
    hello = m.Chat(preset="hello")
    assert reason(lambda: said(data, None, guest, hello, POLICY)) == "guest"
    two = data.model_copy(update={"played": POLICY.guest_deals - 1})
    assert reason(lambda: said(two, None, guest, hello, POLICY)) == "guest"
    three = data.model_copy(update={"played": POLICY.guest_deals})
    assert said(three, None, guest, hello, POLICY).events
    spectator = Sender(seat=None, name="", account_id=None)
    assert reason(lambda: said(three, None, spectator, hello, POLICY)) == "guest"


def test_links_are_refused_in_text() -> None:
    text = m.Chat(text="play at cheat.com")
    assert reason(lambda: said(seated("Anna"), None, ANNA, text, POLICY)) == "link"


def chat_event(**fields: object) -> StoredEvent:
    body = m.ChatEvent(seat=0, name="Anna", account_id=7, preset="hello", **fields)  # type: ignore[arg-type]
    return StoredEvent(5, None, body.model_dump(mode="json"))


def test_shown_to_hides_chat_from_v1_muters_blockers_and_seats_of_spectators_talk() -> None:
    event = chat_event().event
    assert shown_to(event, 1, 2)
    assert not shown_to(event, 1, 1)  # version 1: a hidden marker
    assert not shown_to(event, 1, 2, muted={"anna"})
    assert not shown_to(event, None, 2, hidden_accounts={7})
    assert shown_to(event, None, 2, muted={"bob"}, hidden_accounts={8})
    spectators = chat_event(spectators_only=True).event
    assert shown_to(spectators, None, 2) and not shown_to(spectators, 0, 2)
    assert shown_to({"kind": "card", "seat": 0, "card": "KH"}, 1, 1)


def test_a_rematch_waits_for_every_human_then_starts_if_one_accepted() -> None:
    over = seated("Anna", "Bob").model_copy(update={"status": "finished"})
    with pytest.raises(TableRefused) as refused:
        rematch.answer(seated("Anna"), None, 0, True, "new")
    assert refused.value.code == "not_finished"
    first = rematch.answer(over, None, 0, True, "new").data
    assert not rematch.starts(first)
    second = rematch.answer(first, None, 1, False, "other").data
    assert rematch.starts(second)
    assert wired(rematch.event_of(second)) == m.RematchEvent(
        table_id="new", accepted=[0], declined=[1], started=True
    )
    both_out = rematch.answer(rematch.answer(over, None, 0, False, "n").data, None, 1, False, "n")
    assert not rematch.starts(both_out.data)
    assert len(rematch.rematch_key("abc")) <= 64


def test_a_message_is_reportable_as_it_was_sent_else_as_it_would_be_shown_now() -> None:
    event = chat_event().event
    sent = SentChat(limit=2)
    sent.sent("t", 5, False)  # sent hidden: Anna was muted then
    assert not reportable(event, 1, 2, was_shown=sent.was_shown("t", 5))
    sent.sent("t", 6, True)
    assert reportable(event, 1, 2, muted={"anna"}, was_shown=sent.was_shown("t", 6))  # muted since
    assert sent.was_shown("other", 6) is None
    assert not reportable(event, 1, 2, muted={"anna"})  # never sent: as shown now
    assert not reportable(chat_event(spectators_only=True).event, 0, 2)
    sent.sent("t", 7, True)
    assert sent.was_shown("t", 5) is None and len(sent.shown) == 2  # the oldest forgotten
    sent.sent("u", 1, True)
    assert sent.was_shown("t", 7) is None  # another table: a new record
