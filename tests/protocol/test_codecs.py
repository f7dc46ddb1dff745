"""The two codecs of tarot.v1: lossless both ways, same shapes, and typed refusals.

Every refused frame raises ``ProtocolError`` with one of the stable codes the
server sends back in an ``error`` message: ``bad_frame``, ``unknown_type``,
``invalid_message`` or ``frame_too_large``.
"""

from __future__ import annotations

import json
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from protocol import (
    CODECS,
    JSON,
    JSON_SUBPROTOCOL,
    MAX_FRAME_BYTES,
    MSGPACK,
    MSGPACK_SUBPROTOCOL,
    SUBPROTOCOLS,
    Codec,
    ProtocolError,
    codec_for,
    version_for,
)
from protocol import models as m

from .strategies import card_codes, message_strategy, union_members, union_strategy

BOTH = pytest.mark.parametrize("codec", [JSON, MSGPACK], ids=["json", "msgpack"])
client_messages = union_strategy(m.ClientMessage)
server_messages = union_strategy(m.ServerMessage)
events = union_strategy(m.EventModel)
QUICK = settings(max_examples=60, deadline=None)


def refusal(codec: Codec, frame: str | bytes) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        codec.decode_client(frame)
    return caught.value


def frame_of(codec: Codec, data: Any) -> str | bytes:
    """A raw frame as a client would build it, whatever it holds."""
    return codec.dumps(data)


# ---------------------------------------------------------------- round trips


@BOTH
@QUICK
@given(message=client_messages)
def test_client_message_round_trips(codec: Codec, message: Any) -> None:
    frame = codec.encode(message)
    assert isinstance(frame, bytes if codec.binary else str)
    assert codec.decode_client(frame) == message


@BOTH
@QUICK
@given(message=server_messages)
def test_server_message_round_trips(codec: Codec, message: Any) -> None:
    frame = codec.encode(message)
    assert isinstance(frame, bytes if codec.binary else str)
    assert codec.decode_server(frame) == message


@BOTH
@QUICK
@given(event=events, seq=st.integers(1, 2**31), table_id=st.sampled_from(["8VyCt5jc", "a-b_c"]))
def test_every_event_kind_round_trips_in_its_envelope(
    codec: Codec, event: Any, seq: int, table_id: str
) -> None:
    message = m.Event(table_id=table_id, seq=seq, event=event)
    assert codec.decode_server(codec.encode(message)) == message


@BOTH
@QUICK
@given(view=message_strategy(m.SeatView), summary=message_strategy(m.TableSummary))
def test_snapshot_with_a_full_seat_view_round_trips(
    codec: Codec, view: m.SeatView, summary: m.TableSummary
) -> None:
    message = m.Snapshot(table_id=summary.table_id, seq=7, table=summary, view=view)
    assert codec.decode_server(codec.encode(message)) == message


@BOTH
@QUICK
@given(
    contract=st.sampled_from(["pass", "prise", "garde", "garde_sans", "garde_contre"]),
    cards=st.lists(card_codes, min_size=6, max_size=6, unique=True),
    card=card_codes,
    announce=st.booleans(),
)
def test_every_deal_action_round_trips(
    codec: Codec, contract: Any, cards: list[str], card: str, announce: bool
) -> None:
    actions: list[Any] = [
        m.BidAction(contract=contract),
        m.DiscardAction(cards=cards),
        m.ChelemAction(announce=announce),
        m.PoigneeAction(cards=cards),
        m.PlayAction(card=card),
    ]
    for action in actions:
        message = m.Act(action=action)
        assert codec.decode_client(codec.encode(message)) == message


@QUICK
@given(message=client_messages | server_messages)
def test_json_and_msgpack_carry_the_same_shapes(message: Any) -> None:
    as_json = json.loads(JSON.encode(message))
    as_msgpack = msgpack.unpackb(MSGPACK.encode(message), raw=False)
    assert as_json == as_msgpack == message.model_dump(mode="json")


def test_strategies_cover_every_message_type_and_event_kind() -> None:
    # The unions the round trips draw from are the models' own: nothing is left out.
    assert len(union_members(m.ClientMessage)) == 17 + 4 + 4 + 6  # v1, quick play, dup., chat
    assert len(union_members(m.ServerMessage)) == 19 + 1 + 3 + 3 + 5  # v1, events, qp, dup., chat
    assert len(union_members(m.EventModel)) == 19 + 3  # v1, chat, ratings, rematch


def test_scores_keep_their_int_or_half_form_in_both_codecs() -> None:
    sheet = m.ScoreSheet(status="played", scores=[45, -15, -15, -15], points=40.5, made=False)
    for codec in (JSON, MSGPACK):
        back = codec.decode_server(
            codec.encode(
                m.Event(
                    table_id="t",
                    seq=1,
                    event=m.ScoreEvent(deal_number=1, sheet=sheet, totals=[45, -15, -15, -15.5]),
                )
            )
        )
        assert isinstance(back, m.Event) and isinstance(back.event, m.ScoreEvent)
        assert back.event.sheet.scores == [45, -15, -15, -15]
        assert all(type(s) is int for s in back.event.sheet.scores)
        assert back.event.sheet.points == 40.5
        assert back.event.totals[3] == -15.5


# ---------------------------------------------------------------- subprotocols


def test_subprotocol_names_pick_their_codec() -> None:
    assert JSON_SUBPROTOCOL == "tarot.v2.json" and MSGPACK_SUBPROTOCOL == "tarot.v2.msgpack"
    assert SUBPROTOCOLS == (
        MSGPACK_SUBPROTOCOL,
        JSON_SUBPROTOCOL,
        "tarot.v1.msgpack",
        "tarot.v1.json",
    )
    assert codec_for("tarot.v2.json") is JSON and not JSON.binary
    assert codec_for("tarot.v2.msgpack") is MSGPACK and MSGPACK.binary
    assert codec_for("tarot.v1.json") is JSON and codec_for("tarot.v1.msgpack") is MSGPACK
    assert codec_for(None) is JSON
    assert codec_for("") is JSON
    assert set(CODECS) == set(SUBPROTOCOLS)
    assert [version_for(name) for name in SUBPROTOCOLS] == [2, 2, 1, 1]
    assert version_for(None) is None and version_for("tarot.v9.json") is None


# ---------------------------------------------------------------- bad frames


@pytest.mark.parametrize(
    "frame",
    ["{not json", "", "[1, 2]", '"hello"', "42", "null", "{'type': 'ping'}", "[" * 50_000],
    ids=["broken", "empty", "array", "string", "number", "null", "single-quotes", "deep"],
)
def test_json_frame_that_is_not_an_object_is_bad_frame(frame: str) -> None:
    assert refusal(JSON, frame).code == "bad_frame"


@pytest.mark.parametrize(
    "frame",
    [
        b"",
        b"\xc1",  # never used in msgpack
        b"\x92\x01",  # an array of two that holds one
        msgpack.packb([1, 2]),
        msgpack.packb("ping"),
        msgpack.packb({1: "ping"}),  # map keys must be strings
        b"\x91" * 50_000 + b"\xc0",  # nested too deep
        b"\xa2\xff\xfe",  # a str that is not UTF-8
    ],
    ids=["empty", "reserved", "truncated", "array", "string", "int-key", "deep", "not-utf8"],
)
def test_msgpack_frame_that_is_not_a_map_is_bad_frame(frame: bytes) -> None:
    assert refusal(MSGPACK, frame).code == "bad_frame"


@given(garbage=st.binary(max_size=64))
def test_random_bytes_never_escape_as_anything_but_protocol_error(garbage: bytes) -> None:
    try:
        MSGPACK.decode_client(garbage)
    except ProtocolError as e:
        assert e.code in ("bad_frame", "unknown_type", "invalid_message")


@given(garbage=st.text(max_size=64))
def test_random_text_never_escapes_as_anything_but_protocol_error(garbage: str) -> None:
    try:
        JSON.decode_client(garbage)
    except ProtocolError as e:
        assert e.code in ("bad_frame", "unknown_type", "invalid_message")


def test_text_frame_on_a_msgpack_connection_is_refused() -> None:
    error = refusal(MSGPACK, '{"type": "ping"}')
    assert error.code == "bad_frame"
    assert "text frame on a msgpack connection" in error.message


def test_binary_frame_on_a_json_connection_is_refused() -> None:
    error = refusal(JSON, b'{"type": "ping"}')
    assert error.code == "bad_frame"
    assert "binary frame on a JSON connection" in error.message
    assert refusal(JSON, msgpack.packb({"type": "ping"})).code == "bad_frame"


@BOTH
@pytest.mark.parametrize(
    "data",
    [{}, {"type": "shout"}, {"type": 3}, {"type": None}, {"type": "welcome"}, {"kind": "play"}],
    ids=["no-type", "unknown", "int", "null", "server-type", "kind-not-type"],
)
def test_unknown_or_missing_type_is_unknown_type(codec: Codec, data: dict[str, Any]) -> None:
    assert refusal(codec, frame_of(codec, data)).code == "unknown_type"


@BOTH
@pytest.mark.parametrize(
    ("data", "where"),
    [
        ({"type": "join"}, "join: table_id: Field required"),
        ({"type": "ping", "extra": 1}, "ping: extra: Extra inputs are not permitted"),
        ({"type": "hello"}, "hello: protocol: Field required"),
        ({"type": "hello", "protocol": "one"}, "hello: protocol:"),
        ({"type": "join", "table_id": "no spaces"}, "join: table_id: String should match"),
        ({"type": "join", "table_id": "t", "seat": 4}, "join: seat: Input should be less"),
        ({"type": "join", "table_id": "t", "name": "x" * 41}, "join: name: String should have"),
        ({"type": "resume", "token": ""}, "resume: token: String should have at least 1"),
        ({"type": "resume", "token": "t.x", "last_seq": -1}, "resume: last_seq:"),
        ({"type": "act", "action": {"kind": "fold"}}, "act: action: Input tag 'fold'"),
        ({"type": "act", "action": {"kind": "play", "card": "T22"}}, "act: action.play.card:"),
        ({"type": "act", "action": {"kind": "bid", "contract": "grand"}}, "act: action.bid."),
        ({"type": "act", "action": {"kind": "discard", "cards": ["1C"] * 25}}, "act: action."),
        ({"type": "create_table", "options": {"deals": 0}}, "create_table: options.deals:"),
        ({"type": "create_table", "options": {"ai_level": "god"}}, "create_table: options."),
        ({"type": "create_table", "options": {"turn_seconds": 0}}, "create_table: options."),
    ],
)
def test_message_off_its_schema_is_invalid_message(
    codec: Codec, data: dict[str, Any], where: str
) -> None:
    error = refusal(codec, frame_of(codec, data))
    assert error.code == "invalid_message"
    assert error.message.startswith(where), error.message


@BOTH
def test_frame_over_64_kib_is_frame_too_large(codec: Codec) -> None:
    assert MAX_FRAME_BYTES == 65536
    padding = "x" * MAX_FRAME_BYTES
    frame = frame_of(codec, {"type": "hello", "protocol": 1, "client": padding})
    error = refusal(codec, frame)
    assert error.code == "frame_too_large"
    assert "limit 65536" in error.message


@BOTH
def test_frame_of_exactly_64_kib_is_decoded(codec: Codec) -> None:
    # At the limit the frame is read; this one then fails on its content, not its size.
    frame = frame_of(codec, {"type": "ping", "pad": ""})
    pad = MAX_FRAME_BYTES - len(frame)
    frame = frame_of(codec, {"type": "ping", "pad": "x" * pad})
    if len(frame) != MAX_FRAME_BYTES:  # msgpack's str header grows with the length
        frame = frame_of(
            codec, {"type": "ping", "pad": "x" * (pad - (len(frame) - MAX_FRAME_BYTES))}
        )
    assert len(frame) == MAX_FRAME_BYTES
    assert refusal(codec, frame).code == "invalid_message"


def test_text_frame_limit_counts_utf8_bytes_not_characters() -> None:
    # 40000 characters, 80002 bytes: too large although under 65536 characters.
    frame = '"' + "\u00e9" * 40000 + '"'
    assert len(frame) < MAX_FRAME_BYTES < len(frame.encode())
    error = refusal(JSON, frame)
    assert error.code == "frame_too_large"
    assert error.message == "frame of 80002 bytes, limit 65536"
    # Exactly 65536 bytes of 2-byte characters is read (then refused for its content).
    at_limit = '"' + "\u00e9" * ((MAX_FRAME_BYTES - 2) // 2) + '"'
    assert len(at_limit.encode()) == MAX_FRAME_BYTES
    assert refusal(JSON, at_limit).code == "bad_frame"


def test_oversized_frame_is_refused_before_it_is_parsed() -> None:
    assert refusal(JSON, "{" * (MAX_FRAME_BYTES + 1)).code == "frame_too_large"
    assert refusal(MSGPACK, b"\xc1" * (MAX_FRAME_BYTES + 1)).code == "frame_too_large"


# ---------------------------------------------------------------- card codes


def play(card: Any) -> dict[str, Any]:
    return {"type": "act", "action": {"kind": "play", "card": card}}


@pytest.mark.parametrize("code", engine.CODES)
def test_every_card_code_of_the_deck_is_accepted(code: str) -> None:
    message = JSON.decode_client(json.dumps(play(code)))
    assert isinstance(message, m.Act) and isinstance(message.action, m.PlayAction)
    assert message.action.card == code


@pytest.mark.parametrize(
    "code",
    [
        "T0",
        "T22",
        "T01",
        "t1",
        "ex",
        "Ex",
        "E",
        "EXX",
        "0S",
        "11S",
        "1X",
        "kh",
        "KH ",
        " KH",
        "KH\n",
        "10",
        "S",
        "",
        "T",
        "1O S",
        "KHKH",
        "T2 1",
        "AS",
        "CH",
    ],
)
def test_card_code_pattern_rejects_bad_codes(code: str) -> None:
    assert refusal(JSON, json.dumps(play(code))).code == "invalid_message"


@given(text=st.text(max_size=5))
def test_a_card_code_is_valid_exactly_when_it_names_a_card_of_the_deck(text: str) -> None:
    try:
        JSON.decode_client(json.dumps(play(text)))
        accepted = True
    except ProtocolError as e:
        assert e.code == "invalid_message"
        accepted = False
    assert accepted == (text in engine.CODES)


def test_the_deck_has_78_distinct_codes() -> None:
    assert len(set(engine.CODES)) == 78


def test_text_frames_are_measured_in_utf8_bytes_not_characters() -> None:
    # 30,000 euro signs are 90,000 bytes of UTF-8: over the limit, though fewer characters.
    wide = '{"type":"hello","protocol":1,"client":"' + "\u20ac" * 30_000 + '"}'
    assert len(wide) < MAX_FRAME_BYTES
    assert refusal(JSON, wide).code == "frame_too_large"
    narrow = '{"type":"hello","protocol":1,"client":"' + "\u20ac" * 20 + '"}'
    assert JSON.decode_client(narrow).type == "hello"
