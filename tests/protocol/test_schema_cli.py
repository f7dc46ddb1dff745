"""``tarot schema`` prints the JSON Schema of every tarot.v1 message, from the models."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cli.main import main
from protocol import PROTOCOL_VERSION
from protocol import models as m

from .strategies import tag_of, union_members


@pytest.fixture
def schema(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["schema"]) == 0
    out = capsys.readouterr().out
    printed: dict[str, Any] = json.loads(out)
    return printed


def tags(union: Any) -> set[str]:
    return {tag_of(model) for model in union_members(union)}


def test_schema_is_draft_2020_12_titled_with_the_version(schema: dict[str, Any]) -> None:
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["title"] == f"tarot.v{PROTOCOL_VERSION}" == "tarot.v2"


def test_schema_lists_every_client_message_type(schema: dict[str, Any]) -> None:
    client = schema["client_messages"]
    assert client["discriminator"]["propertyName"] == "type"
    assert set(client["discriminator"]["mapping"]) == tags(m.ClientMessage)
    assert len(client["oneOf"]) == len(tags(m.ClientMessage)) == 17 + 4 + 4 + 6


def test_schema_lists_every_server_message_type(schema: dict[str, Any]) -> None:
    server = schema["server_messages"]
    assert server["discriminator"]["propertyName"] == "type"
    assert set(server["discriminator"]["mapping"]) == tags(m.ServerMessage)
    assert len(server["oneOf"]) == len(tags(m.ServerMessage)) == 19 + 1 + 3 + 3 + 5


def test_schema_lists_every_event_kind_inside_event(schema: dict[str, Any]) -> None:
    event = schema["server_messages"]["$defs"]["Event"]["properties"]["event"]
    assert event["discriminator"]["propertyName"] == "kind"
    assert set(event["discriminator"]["mapping"]) == tags(m.EventModel)
    assert len(tags(m.EventModel)) == 22


def test_schema_lists_every_action_kind_inside_act(schema: dict[str, Any]) -> None:
    action = schema["client_messages"]["$defs"]["Act"]["properties"]["action"]
    assert set(action["discriminator"]["mapping"]) == {
        "bid",
        "discard",
        "chelem",
        "poignee",
        "play",
    }


@pytest.mark.parametrize("side", ["client_messages", "server_messages"])
def test_each_tag_maps_to_a_definition_whose_tag_is_that_constant(
    schema: dict[str, Any], side: str
) -> None:
    part = schema[side]
    for tag, ref in part["discriminator"]["mapping"].items():
        name = ref.removeprefix("#/$defs/")
        assert part["$defs"][name]["properties"]["type"]["const"] == tag


@pytest.mark.parametrize("side", ["client_messages", "server_messages"])
def test_every_object_refuses_unknown_fields(schema: dict[str, Any], side: str) -> None:
    # extra="forbid" on every model: a client may not add fields of its own.
    for name, definition in schema[side]["$defs"].items():
        if definition.get("type") == "object":
            assert definition.get("additionalProperties") is False, name


def test_card_codes_carry_their_pattern(schema: dict[str, Any]) -> None:
    card = schema["client_messages"]["$defs"]["PlayAction"]["properties"]["card"]
    assert card["pattern"] == "^(T([1-9]|1[0-9]|2[01])|EX|([1-9]|10|[JNQK])[SHDC])$"


@pytest.mark.parametrize("side", ["client_messages", "server_messages"])
def test_type_and_kind_are_required(schema: dict[str, Any], side: str) -> None:
    # The models give the tag a default; the schema still requires it on the wire.
    tagged = 0
    for name, definition in schema[side]["$defs"].items():
        for tag in ("type", "kind"):
            if "const" in definition.get("properties", {}).get(tag, {}):
                assert tag in definition.get("required", []), f"{name}.{tag}"
                tagged += 1
    assert tagged >= (16 if side == "client_messages" else 30)
