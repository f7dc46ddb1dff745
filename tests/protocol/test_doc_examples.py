"""docs/PROTOCOL.md stays true to the models: every example validates, nothing is left out.

Examples are fenced ```json blocks right after a marker line
``<!-- example: client|server|event -->``; transcripts are ```text blocks after
``<!-- transcript -->`` whose lines are ``→ {client message}``,
``← {server message}`` or ``# comment``. Server messages and events must be
exactly what the server sends (every field, as serialized); client messages
exactly what a client may send (no coercion needed), except in a transcript a
client message answered by an ``unknown_type`` / ``invalid_message`` / ``bad_name`` error,
which must indeed be refused so.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

from protocol import (
    CLIENT_MESSAGES,
    ERROR_CODES,
    EVENTS,
    JSON,
    JSON_SUBPROTOCOL,
    MSGPACK_SUBPROTOCOL,
    PROTOCOL_VERSION,
    SERVER_MESSAGES,
    ProtocolError,
)
from protocol import models as m

from .strategies import tag_of, union_members

DOC = Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md"
TEXT = DOC.read_text(encoding="utf-8")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.M | re.S)
MARKER = re.compile(r"<!-- (example: (\w+)|transcript) -->\n$")
ADAPTERS: dict[str, TypeAdapter[Any]] = {
    "client": CLIENT_MESSAGES,
    "server": SERVER_MESSAGES,
    "event": EVENTS,
}
BYE_REASONS = {"replaced", "shutdown", "abuse"}


DECODING_ERRORS = ("unknown_type", "invalid_message", "bad_name")


@dataclass(frozen=True)
class Example:
    kind: str  # client, server or event
    data: Any
    line: int
    refused: str | None = None  # a client message shown with the error it gets

    def __str__(self) -> str:
        return f"line {self.line} ({self.kind})"


def line_of(offset: int) -> int:
    return TEXT.count("\n", 0, offset) + 1


def fences() -> list[tuple[str, str, str, int]]:
    """(language, marker kind or '', body, line) of every fenced block."""
    out = []
    for fence in FENCE.finditer(TEXT):
        before = TEXT[max(0, fence.start() - 80) : fence.start()]
        marker = MARKER.search(before)
        kind = "" if marker is None else (marker.group(2) or "transcript")
        out.append((fence.group(1), kind, fence.group(2), line_of(fence.start())))
    return out


def transcript_lines(body: str, line: int) -> list[Example]:
    out: list[Example] = []
    for i, text in enumerate(body.splitlines()):
        if not text.strip() or text.startswith("#"):
            continue
        arrow, _, payload = text.partition(" ")
        assert arrow in ("→", "←"), f"line {line + 1 + i}: a transcript line starts with → or ←"
        kind = "client" if arrow == "→" else "server"
        data = json.loads(payload)
        if kind == "server" and data["type"] == "error" and data["code"] in DECODING_ERRORS:
            cause = out.pop()
            assert cause.kind == "client", f"line {line + 1 + i}: an error answers a message"
            out.append(Example("client", cause.data, cause.line, refused=data["code"]))
        out.append(Example(kind, data, line + 1 + i))
    return out


def examples() -> list[Example]:
    out: list[Example] = []
    for _, kind, body, line in fences():
        if kind == "transcript":
            out.extend(transcript_lines(body, line))
        elif kind:
            out.append(Example(kind, json.loads(body), line + 1))
    return out


EXAMPLES = examples()


def of_kind(kind: str) -> list[Any]:
    return [e.data for e in EXAMPLES if e.kind == kind and e.refused is None]


def events_shown() -> list[dict[str, Any]]:
    """Every event in the doc: the bare ones and those inside ``event`` messages."""
    inside = [d["event"] for d in of_kind("server") if d.get("type") == "event"]
    return of_kind("event") + inside


# ---------------------------------------------------------------- the examples are right


def test_the_doc_has_examples_of_every_adapter() -> None:
    assert len(of_kind("client")) >= 20
    assert len(of_kind("server")) >= 40
    assert len(of_kind("event")) >= 20


def test_every_json_block_is_a_marked_example() -> None:
    for language, kind, _, line in fences():
        if language == "json":
            assert kind in ADAPTERS, f"line {line}: a ```json block needs <!-- example: ... -->"
        if kind:
            assert language == ("text" if kind == "transcript" else "json"), f"line {line}"


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.refused], ids=str)
def test_refused_client_example_is_refused_with_the_code_shown(example: Example) -> None:
    with pytest.raises(ProtocolError) as refused:
        JSON.decode_client(json.dumps(example.data))
    assert refused.value.code == example.refused


@pytest.mark.parametrize(
    "example", [e for e in EXAMPLES if e.kind == "client" and not e.refused], ids=str
)
def test_client_example_is_a_valid_client_message(example: Example) -> None:
    message = CLIENT_MESSAGES.validate_python(example.data)
    # exactly what a client sends: nothing coerced, nothing unknown
    assert message.model_dump(mode="json", exclude_unset=True) == example.data


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.kind == "server"], ids=str)
def test_server_example_is_exactly_what_the_server_sends(example: Example) -> None:
    message = SERVER_MESSAGES.validate_python(example.data)
    assert message.model_dump(mode="json") == example.data


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.kind == "event"], ids=str)
def test_event_example_is_exactly_what_the_server_sends(example: Example) -> None:
    event = EVENTS.validate_python(example.data)
    assert event.model_dump(mode="json") == example.data


def test_error_examples_use_documented_codes_and_bye_known_reasons() -> None:
    for data in of_kind("server"):
        if data["type"] == "error":
            assert data["code"] in ERROR_CODES, data
        if data["type"] == "bye":
            assert data["reason"] in BYE_REASONS, data


def test_transcripts_number_events_in_order_and_without_gaps() -> None:
    for _, kind, body, line in fences():
        if kind != "transcript":
            continue
        seqs = [
            e.data["seq"]
            for e in transcript_lines(body, line)
            if e.kind == "server" and e.data["type"] == "event"
        ]
        assert seqs == sorted(set(seqs)), f"line {line}: events out of order or repeated"
        if seqs and "\n# " not in "\n" + body:  # no comment line stands for elided events
            assert seqs == list(range(seqs[0], seqs[-1] + 1)), f"line {line}: a gap"


# ---------------------------------------------------------------- nothing is left out


def tags(union: Any) -> set[str]:
    return {tag_of(model) for model in union_members(union)}


def test_every_client_message_type_has_an_example() -> None:
    shown = {d["type"] for d in of_kind("client")}
    assert tags(m.ClientMessage) - shown == set()


def test_every_server_message_type_has_an_example() -> None:
    shown = {d["type"] for d in of_kind("server")}
    assert tags(m.ServerMessage) - shown == set()


def test_every_event_kind_has_an_example() -> None:
    shown = {d["kind"] for d in events_shown()}
    assert tags(m.EventModel) - shown == set()


def test_every_action_kind_has_an_example() -> None:
    shown = {d["action"]["kind"] for d in of_kind("client") if d["type"] == "act"}
    assert shown == {"bid", "discard", "chelem", "poignee", "play"}


@pytest.mark.parametrize(
    "tag", sorted(tags(m.ClientMessage) | tags(m.ServerMessage) | tags(m.EventModel))
)
def test_every_message_type_and_event_kind_has_a_heading(tag: str) -> None:
    assert f"### `{tag}`" in TEXT


def test_every_error_code_is_documented_in_the_table() -> None:
    rows = set(re.findall(r"^\| `(\w+)` \| ", TEXT, re.M))
    assert set(ERROR_CODES) <= rows, set(ERROR_CODES) - rows


def test_every_error_code_has_an_example() -> None:
    shown = {d["code"] for d in of_kind("server") if d["type"] == "error"}
    assert set(ERROR_CODES) - shown == set()


def test_the_doc_names_the_transport_constants() -> None:
    for text in (JSON_SUBPROTOCOL, MSGPACK_SUBPROTOCOL, "64 KiB", "65536"):
        assert text in TEXT
    assert f'"protocol": {PROTOCOL_VERSION}' in TEXT


def test_the_doc_names_every_option_and_view_field() -> None:
    for model in (m.TableOptions, m.TableSummary, m.SeatView, m.LegalChoices, m.ScoreSheet):
        for field in model.model_fields:
            assert f"`{field}`" in TEXT, f"{model.__name__}.{field}"


# ---------------------------------------------------------------- numbers the doc states


def flat(text: str) -> str:
    return " ".join(text.split())


def shown(value: Any) -> str:
    """How the option tables write a default."""
    if isinstance(value, str):
        return value or '""'
    if isinstance(value, float):
        return f"{value:g}"
    return json.dumps(value)


def test_the_doc_states_the_server_defaults() -> None:
    from server.app import MAX_WS_MESSAGE
    from server.settings import Settings
    from server.store.base import EVENT_LOG_LIMIT

    settings, text = Settings(), flat(TEXT)
    assert f"**{settings.rate_per_second:g} messages a second**" in text
    assert f"bursts of up to **{settings.rate_burst}**" in text
    assert f"its **{settings.abuse_strikes}th** rate-limited frame" in text
    assert f"{settings.next_deal_seconds:g} s by default" in text
    assert f"{settings.ai_pause_seconds:g} s by default" in text
    assert f"the last {EVENT_LOG_LIMIT} events" in text
    assert MAX_WS_MESSAGE == 1024 * 1024 and "larger than **1 MiB**" in text
    assert f"({settings.rate_burst // 2} messages in hand" in text  # strikes forgiven
    assert f"drain time, {settings.drain_seconds:g} s by default" in text


def test_the_doc_states_the_subprotocol_choice() -> None:
    from server.app import choose_subprotocol

    def chosen(*offered: str) -> str | None:
        return choose_subprotocol(None, list(offered))  # type: ignore[arg-type]

    assert chosen() is None  # no header: JSON
    assert chosen("chat") is None
    assert chosen(JSON_SUBPROTOCOL, MSGPACK_SUBPROTOCOL) == JSON_SUBPROTOCOL
    assert chosen(MSGPACK_SUBPROTOCOL, JSON_SUBPROTOCOL) == MSGPACK_SUBPROTOCOL
    text = flat(TEXT)
    assert "offers **no subprotocol at all** is accepted and speaks **JSON**" in text
    assert "first of the client's offers that it speaks" in text


def test_trick_events_and_views_agree_on_points() -> None:
    """A snapshot's ``points`` is the ``points`` of its deal's last trick event."""
    tricks = [
        (d["table_id"], d["seq"], d["event"]["number"], d["event"]["points"])
        for d in of_kind("server")
        if d["type"] == "event" and d["event"]["kind"] == "trick"
    ]
    checked = 0
    for d in of_kind("server"):
        view = d.get("view") if d["type"] == "snapshot" else None
        if not view or not view["tricks"]:
            continue
        last = [
            (seq, points)
            for table, seq, number, points in tricks
            if table == d["table_id"] and seq <= d["seq"] and number == len(view["tricks"])
        ]
        if last:
            assert view["points"] == max(last)[1], d["seq"]
            checked += 1
    assert checked >= 1


@pytest.mark.parametrize("field", list(m.TableOptions.model_fields))
def test_the_doc_states_each_table_option_default(field: str) -> None:
    info = m.TableOptions.model_fields[field]
    row = re.search(rf"^\| `{field}` \| [^|]+ \| `([^`]*)` \|", TEXT, re.M)
    assert row is not None, field
    assert row.group(1) == shown(info.default)


def _table_names(section: str, end: str) -> tuple[set[str], set[str]]:
    """The message types of a section's first table: (marked version 2, not marked)."""
    body = TEXT.split(section, 1)[1].split(end, 1)[0]
    marked: set[str] = set()
    plain: set[str] = set()
    for row in re.findall(r"^\| (`.*?) \|(.*)$", body, re.M):
        names = set(re.findall(r"`(\w+)`", row[0]))
        v2 = "(v2)" in row[0] or "protocol 2" in row[1]
        (marked if v2 else plain).update(names)
    return marked, plain


def test_the_client_table_marks_exactly_version_2_s_messages() -> None:
    """Section 4's table says (v2) of each type a version 1 connection gets unknown_type
    for (protocol/versions.py), and of no other."""
    from protocol.versions import V1_CLIENT_TYPES, V2_CLIENT_TYPES

    marked, plain = _table_names("## 4. Client messages", "### Request ids")
    assert marked == set(V2_CLIENT_TYPES)
    assert plain - {"type"} == set(V1_CLIENT_TYPES)


def test_the_server_table_lists_every_server_message_type() -> None:
    marked, plain = _table_names("## 5. Server messages", "### `welcome`")
    assert (marked | plain) - {"type"} == tags(m.ServerMessage)
