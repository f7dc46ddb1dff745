"""The browser client type-checks: every module is ``// @ts-check``, ``tsc`` (package.json)
passes on them with the protocol's types (clients/web/messages.d.ts), and those types and
the handshake's constants (protocol.js) are what ``tarot schema --web`` generates now."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from cli.schema_ts import constants, typescript
from protocol import JSON_SUBPROTOCOL, PROTOCOL_VERSION
from protocol.schema import protocol_schema

from .node import ROOT, TSC

WEB = ROOT / "clients" / "web"


def tsc(project: Path) -> subprocess.CompletedProcess[str]:
    assert TSC.exists(), "tsc comes from package.json: tasks.py test runs npm ci"
    command = [str(TSC), "-p", str(project), "--pretty", "false"]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=180)


def test_every_browser_module_is_type_checked() -> None:
    unchecked = [
        p.name for p in sorted(WEB.glob("*.js")) if not p.read_text().startswith("// @ts-check\n")
    ]
    assert unchecked == []


def test_the_generated_types_and_constants_are_current() -> None:
    again = "the protocol's models changed: run `tarot schema --web clients/web`"
    assert (WEB / "messages.d.ts").read_text() == typescript(protocol_schema()), again
    assert (WEB / "protocol.js").read_text() == constants(JSON_SUBPROTOCOL, PROTOCOL_VERSION), again


def test_tsc_passes_on_the_browser_client() -> None:
    result = tsc(ROOT / "tsconfig.json")
    assert result.returncode == 0, result.stdout + result.stderr


def test_tsc_refuses_a_frame_the_protocol_does_not_have(tmp_path: Path) -> None:
    """The check bites: a bid of a contract that does not exist, and a misspelt field."""
    bad = tmp_path / "bad.js"
    bad.write_text(
        "// @ts-check\n"
        f'/** @typedef {{import("{WEB / "messages"}").BidEvent}} BidEvent */\n'
        '/** @type {BidEvent} */\nexport const bid = { kind: "bid", seat: 0, contract: "prize" };\n'
        "/** @param {BidEvent} ev */\nexport const seat = (ev) => ev.seats;\n"
    )
    config = tmp_path / "tsconfig.json"
    extends = {"extends": str(ROOT / "tsconfig.json"), "include": [str(bad)]}
    config.write_text(json.dumps(extends))
    result = tsc(config)
    assert result.returncode != 0
    assert "'\"prize\"' is not assignable" in result.stdout, result.stdout
    assert "Property 'seats' does not exist" in result.stdout, result.stdout
