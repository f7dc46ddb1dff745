"""What every request and every reply carries: the request's ``id``, its answer's ``re``.

Apart from ``requests`` and ``replies`` so that each feature's own module of messages
(``queue``...) builds on them and the unions of both directions can list its messages.
"""

from __future__ import annotations

from typing import Any

from pydantic import SerializerFunctionWrapHandler, model_serializer

from .base import Model, RequestId


class Request(Model):
    """Every client message may carry an ``id``; its answer then carries it as ``re``."""

    id: RequestId | None = None


class Reply(Model):
    """The answer to one request: ``re`` is the request's ``id``, left out when it had none."""

    re: RequestId | None = None

    @model_serializer(mode="wrap")
    def _drop_null_re(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        re = data.pop("re")
        if re is not None:
            data["re"] = re  # last: ``type`` stays first, as in every other message
        return data
