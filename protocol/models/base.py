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
# A client's name for one request, echoed as ``re`` in its answer: a short string, or an
# integer that every JSON implementation (JavaScript's doubles included) reads exactly.
RequestId = (
    Annotated[str, Field(strict=True, min_length=1, max_length=64)]
    | Annotated[int, Field(strict=True, ge=-(2**53 - 1), le=2**53 - 1)]
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
