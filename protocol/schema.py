"""The JSON Schema of every protocol message, made from the models (``tarot schema``)."""

from __future__ import annotations

from typing import Any

from .models import CLIENT_MESSAGES, PROTOCOL_VERSION, SERVER_MESSAGES


def protocol_schema() -> dict[str, Any]:
    """Client and server messages, each a tagged union, with every tag required."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"tarot.v{PROTOCOL_VERSION}",
        "client_messages": _tags_required(CLIENT_MESSAGES.json_schema()),
        "server_messages": _tags_required(SERVER_MESSAGES.json_schema()),
    }


def _tags_required(schema: dict[str, Any]) -> dict[str, Any]:
    """The ``type`` and ``kind`` tags have defaults in Python, but every frame carries them."""
    for definition in schema.get("$defs", {}).values():
        properties = definition.get("properties", {})
        for tag in ("type", "kind"):
            if tag in properties and tag not in definition.setdefault("required", []):
                definition["required"].insert(0, tag)
    return schema
