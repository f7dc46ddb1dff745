"""The two codecs of the protocol: JSON in text frames, msgpack in binary frames.

Both carry the same shapes (the models' JSON form). The codec of a connection
is chosen by WebSocket subprotocol: ``tarot.v2.msgpack`` or ``tarot.v2.json``
(``tarot.v1.*`` for version 1; JSON when none is asked). The subprotocol's
version is the one the connection's ``hello`` must name (``versions.py``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgpack
from pydantic import BaseModel, ValidationError

from .errors import BadFrame, BadName, FrameTooLarge, InvalidMessage, ProtocolError, UnknownType
from .models import (
    CLIENT_MESSAGES,
    MAX_FRAME_BYTES,
    REQUEST_ID,
    SERVER_MESSAGES,
    ClientMessage,
    RequestId,
    ServerMessage,
)

JSON_SUBPROTOCOL = "tarot.v2.json"
MSGPACK_SUBPROTOCOL = "tarot.v2.msgpack"
V1_JSON_SUBPROTOCOL = "tarot.v1.json"
V1_MSGPACK_SUBPROTOCOL = "tarot.v1.msgpack"
# Newest first, msgpack before JSON within a version (the server takes the client's first).
SUBPROTOCOLS = (MSGPACK_SUBPROTOCOL, JSON_SUBPROTOCOL, V1_MSGPACK_SUBPROTOCOL, V1_JSON_SUBPROTOCOL)


@dataclass(frozen=True, slots=True)
class Codec:
    name: str  # "json" or "msgpack": the subprotocol's last part
    binary: bool

    def dumps(self, data: dict[str, Any]) -> str | bytes:
        if self.binary:
            packed: bytes = msgpack.packb(data, use_bin_type=True)
            return packed
        return json.dumps(data, separators=(",", ":"))

    def loads(self, frame: str | bytes) -> Any:
        size = len(frame) if isinstance(frame, bytes) else _utf8_size(frame)
        if size > MAX_FRAME_BYTES:
            raise FrameTooLarge(f"frame of {size} bytes, limit {MAX_FRAME_BYTES}")
        try:
            if self.binary:
                if isinstance(frame, str):
                    raise ValueError("a text frame on a msgpack connection")
                return _string_keyed(msgpack.unpackb(frame, raw=False, strict_map_key=True))
            if isinstance(frame, bytes):
                raise ValueError("a binary frame on a JSON connection")
            return json.loads(frame)
        except (RecursionError, msgpack.StackError) as e:  # the latter says nothing
            raise BadFrame("cannot decode the frame: it nests too deep") from e
        except (ValueError, msgpack.UnpackException) as e:
            raise BadFrame(f"cannot decode the frame: {e}") from e

    def encode(self, message: BaseModel) -> str | bytes:
        return self.dumps(message.model_dump(mode="json"))

    def decode_client(
        self, frame: str | bytes, admits: Callable[[str], None] | None = None
    ) -> ClientMessage:
        return decode_client(self.loads(frame), admits)

    def decode_server(self, frame: str | bytes) -> ServerMessage:
        return SERVER_MESSAGES.validate_python(self.loads(frame))


def _string_keyed(data: Any) -> Any:
    """A msgpack message's own keys must be strings, as a JSON object's are: a ``bin`` key
    would make a message with no ``type``. Deeper maps are the models' to refuse (pydantic:
    "Keys should be strings", an ``invalid_message``); walking them here cost 1.5 µs a
    frame, an ``object_pairs_hook`` called for every map (issue 28), this 0.25."""
    if type(data) is dict:
        for key in data:
            if type(key) is not str:
                raise ValueError("a map key that is not a string")
    return data


def _utf8_size(text: str) -> int:
    # A str of n characters takes n to 4n bytes: only count when it could be too big.
    return len(text) if 4 * len(text) <= MAX_FRAME_BYTES else len(text.encode("utf-8", "replace"))


JSON = Codec("json", binary=False)
MSGPACK = Codec("msgpack", binary=True)
CODECS = {name: MSGPACK if name.endswith(".msgpack") else JSON for name in SUBPROTOCOLS}


def codec_for(subprotocol: str | None) -> Codec:
    """The codec a subprotocol names; JSON when none (or an unknown one) was chosen."""
    return CODECS.get(subprotocol or "", JSON)


def version_for(subprotocol: str | None) -> int | None:
    """The protocol version a subprotocol names (``tarot.v2.json``: 2), or None."""
    if subprotocol not in CODECS:
        return None
    return int(subprotocol.split(".")[1][1:])


def decode_client(data: Any, admits: Callable[[str], None] | None = None) -> ClientMessage:
    """Validate a decoded frame as a client message, or raise a typed ProtocolError.
    ``admits``: the connection's checks of a known type that come before its schema (the
    handshake, the version: docs/PROTOCOL.md, "Which error wins"), a ProtocolError each."""
    if not isinstance(data, dict):
        raise BadFrame("a message must be an object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _CLIENT_TYPES:
        raise UnknownType(f"unknown message type {kind!r}", request_id(data))
    if admits is not None:
        try:
            admits(kind)
        except ProtocolError as e:
            e.request_id = request_id(data)
            raise
    try:
        return CLIENT_MESSAGES.validate_python(data)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or kind
        refusal = BadName if first["type"] == "bad_name" else InvalidMessage
        raise refusal(f"{kind}: {where}: {first['msg']}", request_id(data)) from e


def request_id(data: Any) -> RequestId | None:
    """The ``id`` of a decoded frame that is refused, if it has a valid one: its error's ``re``."""
    if not isinstance(data, dict) or data.get("id") is None:
        return None
    try:
        return REQUEST_ID.validate_python(data["id"], strict=True)
    except ValidationError:
        return None


def _client_types() -> frozenset[str]:
    schema = CLIENT_MESSAGES.json_schema()
    return frozenset(schema["discriminator"]["mapping"])


_CLIENT_TYPES = _client_types()
