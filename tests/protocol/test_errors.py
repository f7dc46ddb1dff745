"""The protocol's refusals: one class per code, each code one of ERROR_CODES."""

from __future__ import annotations

import inspect
import re

import pytest

import protocol
from protocol import ERROR_CODES, JSON, ProtocolError

REFUSALS = [
    value
    for value in vars(protocol).values()
    if inspect.isclass(value) and issubclass(value, ProtocolError) and value is not ProtocolError
]


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


@pytest.mark.parametrize("error", REFUSALS, ids=lambda e: e.__name__)
def test_each_refusal_is_named_after_its_code_and_documented(error: type[ProtocolError]) -> None:
    assert error.code == _snake(error.__name__)
    assert error.code in ERROR_CODES


def test_one_class_per_code() -> None:
    codes = [error.code for error in REFUSALS]
    assert len(codes) == len(set(codes)) == 6


def test_a_code_cannot_be_made_up_at_the_call() -> None:
    """The code is the class's: an unknown one cannot be passed (it was an assert)."""
    with pytest.raises(TypeError):
        ProtocolError("no_such_code", "message", None, None)  # type: ignore[call-arg]
    refused = protocol.UnknownType("unknown message type 'x'", 7)
    assert (refused.code, refused.message, refused.request_id) == (
        "unknown_type",
        refused.args[0],
        7,
    )


@pytest.mark.parametrize(
    ("frame", "error"),
    [
        ("[1]", protocol.BadFrame),
        ('{"type": "shout"}', protocol.UnknownType),
        ('{"type": "join"}', protocol.InvalidMessage),
        ("x" * 70_000, protocol.FrameTooLarge),
    ],
)
def test_the_codec_raises_the_class_of_its_code(frame: str, error: type[ProtocolError]) -> None:
    with pytest.raises(error):
        JSON.decode_client(frame)
