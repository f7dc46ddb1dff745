"""``tarot schema --web``: the JSON Schema of the protocol as TypeScript declarations."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cli.main import main
from cli.schema_ts import constants, typescript


def schema(client: dict[str, Any], server: dict[str, Any]) -> dict[str, Any]:
    def side(defs: dict[str, Any]) -> dict[str, Any]:
        return {"$defs": defs, "oneOf": [{"$ref": f"#/$defs/{name}"} for name in defs]}

    return {"title": "tarot.v9", "client_messages": side(client), "server_messages": side(server)}


MESSAGE = {
    "type": "object",
    "description": "A message.",
    "properties": {
        "type": {"const": "ping", "type": "string"},
        "seat": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None},
        "cards": {"type": "array", "items": {"type": "string"}},
        "level": {"enum": ["simple", "double"], "type": "string"},
        "points": {"type": "array", "items": {"anyOf": [{"type": "integer"}, {"type": "number"}]}},
        "scores": {"type": "object", "additionalProperties": {"type": "number"}},
        "info": {"$ref": "#/$defs/Info"},
    },
    "required": ["type", "cards"],
}
INFO = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}


def test_a_default_is_optional_to_send_and_always_there_to_read() -> None:
    out = typescript(schema({"Ping": MESSAGE}, {"Pong": MESSAGE, "Info": INFO}))
    client = out.split("export interface Ping")[1].split("}")[0]
    server = out.split("export interface Pong")[1].split("}\n")[0]
    assert "  seat?: number | null;" in client and "  seat: number | null;" in server
    assert "  cards: string[];" in client and "  level?: " in client
    assert '  level?: "simple" | "double";' in server  # no default: it may be missing
    assert "  points?: number[];" in server  # integer | number said once
    assert "  scores?: { [key: string]: number };" in server
    assert "  info?: Info;" in server and "export interface Info {\n  n: number;\n}" in out
    assert "/** A message. */\nexport interface Ping" in out
    assert "export type ClientMessage = Ping;" in out
    assert "export type ServerMessage = Pong | Info;" in out


def test_the_constants_are_an_es_module() -> None:
    text = constants("tarot.v9.json", 9)
    assert text.startswith("// @ts-check\n")
    assert 'export const SUBPROTOCOL = "tarot.v9.json";\n' in text
    assert "export const PROTOCOL_VERSION = 9;\n" in text


def test_the_command_writes_both_files(tmp_path: Path) -> None:
    assert main(["schema", "--web", str(tmp_path)]) == 0
    assert (tmp_path / "messages.d.ts").read_text().count("export interface YourTurn") == 1
    assert "tarot.v2.json" in (tmp_path / "protocol.js").read_text()
