"""The ``tarot`` wire protocol (versions 1 and 2): message models, codecs, engine conversions.

A frame in, a typed message out, and back (docs/PROTOCOL.md):

>>> from protocol import JSON
>>> message = JSON.decode_client('{"type": "join", "table_id": "t1", "seat": 2}')
>>> type(message).__name__, message.seat
('Join', 2)
>>> JSON.decode_client('{"type": "join", "table_id": "t1", "seat": 9}')
Traceback (most recent call last):
    ...
protocol.errors.InvalidMessage: join: seat: ...
"""

from .codecs import (
    CODECS,
    JSON,
    JSON_SUBPROTOCOL,
    MSGPACK,
    MSGPACK_SUBPROTOCOL,
    SUBPROTOCOLS,
    V1_JSON_SUBPROTOCOL,
    V1_MSGPACK_SUBPROTOCOL,
    Codec,
    codec_for,
    decode_client,
    request_id,
    version_for,
)
from .errors import (
    ERROR_CODES,
    BadFrame,
    FrameTooLarge,
    HelloRequired,
    InvalidMessage,
    ProtocolError,
    UnknownType,
    UnsupportedVersion,
)
from .models import (
    CLIENT_MESSAGES,
    EVENTS,
    MAX_FRAME_BYTES,
    PROTOCOL_VERSION,
    SERVER_MESSAGES,
    ClientMessage,
    ServerMessage,
)
from .versions import CURRENT_VERSION, SUPPORTED_VERSIONS

__all__ = [
    "CLIENT_MESSAGES",
    "CODECS",
    "CURRENT_VERSION",
    "ERROR_CODES",
    "EVENTS",
    "JSON",
    "JSON_SUBPROTOCOL",
    "MAX_FRAME_BYTES",
    "MSGPACK",
    "MSGPACK_SUBPROTOCOL",
    "PROTOCOL_VERSION",
    "SERVER_MESSAGES",
    "SUBPROTOCOLS",
    "SUPPORTED_VERSIONS",
    "V1_JSON_SUBPROTOCOL",
    "V1_MSGPACK_SUBPROTOCOL",
    "BadFrame",
    "ClientMessage",
    "Codec",
    "FrameTooLarge",
    "HelloRequired",
    "InvalidMessage",
    "ProtocolError",
    "ServerMessage",
    "UnknownType",
    "UnsupportedVersion",
    "codec_for",
    "decode_client",
    "request_id",
    "version_for",
]
