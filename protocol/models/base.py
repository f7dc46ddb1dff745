"""The building blocks of every ``tarot.v1`` message: the version, the frame limit, the
field types (cards are the codes of docs/RECORD.md) and the frozen base model."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    model_serializer,
)

# The one definition of each, re-exported: a sheet's numbers, why a deal was cancelled.
from engine import Cancellation as Cancellation
from engine import Points as Points

PROTOCOL_VERSION = 2  # the newest (protocol/versions.py: every version spoken)
MAX_FRAME_BYTES = 64 * 1024

CardCode = Annotated[str, Field(pattern=r"^(T([1-9]|1[0-9]|2[01])|EX|([1-9]|10|[JNQK])[SHDC])$")]
ContractCode = Literal["pass", "prise", "garde", "garde_sans", "garde_contre"]
Seat = Annotated[int, Field(ge=0, le=3)]
TableId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
AiLevel = Literal["random", "basic", "expert", "strong"]
PoigneeLevelName = Literal["simple", "double", "triple"]
PhaseName = Literal["bidding", "discard", "chelem", "play", "done"]
# The largest whole number every JSON implementation (JavaScript's doubles included) reads
# exactly; far below the signed 64 bits of SQLite, PostgreSQL's bigint and Redis, where a
# number a client sent past them overflowed the look-up (``internal``, not a typed error).
WIRE_INT_MAX = 2**53 - 1
# A number a request names something stored by: an id (from 1), or an index (from 0: a
# deal's number at its table, the last event seen). Every such field uses one of these.
StoredId = Annotated[int, Field(ge=1, le=WIRE_INT_MAX)]
StoredIndex = Annotated[int, Field(ge=0, le=WIRE_INT_MAX)]
# A client's name for one request, echoed as ``re`` in its answer: a short string, or an
# integer that every JSON implementation reads exactly.
RequestId = (
    Annotated[str, Field(strict=True, min_length=1, max_length=64)]
    | Annotated[int, Field(strict=True, ge=-WIRE_INT_MAX, le=WIRE_INT_MAX)]
)


class Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class WithoutNulls(Model):
    """Serialized without its null fields: the sheet is exactly docs/RECORD.md's JSON."""

    @model_serializer(mode="wrap")
    def _drop_nulls(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        return {k: v for k, v in data.items() if v is not None}


REQUEST_ID: TypeAdapter[RequestId] = TypeAdapter(RequestId)
