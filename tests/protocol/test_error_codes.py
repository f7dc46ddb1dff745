"""One wire registry of error codes (issue 26 point 4): ``bad_key``, ``outcome_unknown`` and
``table_lost`` were sent and documented but missing from ``protocol.ERROR_CODES``.

Every code is in the ``ErrorCode`` type (a refusal with another code does not
type-check), explained in ``ERROR_CODES`` and in docs/PROTOCOL.md section 12;
every code the server's source sends is one of them, and every one of them is
sent somewhere.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import get_args

from protocol.errors import ERROR_CODES, ErrorCode, error_code

ROOT = Path(__file__).resolve().parents[2]
REFUSALS = {"TableError", "TableRefused", "TableUnavailable", "AccountRefused", "error"}


def _codes_table() -> str:
    """Section 12's table of codes (the one headed ``| code | sent when |``)."""
    text = (ROOT / "docs" / "PROTOCOL.md").read_text()
    section = text.split("## 12. Errors", 1)[1].split("\n## 13.", 1)[0]
    return section.split("| code | sent when", 1)[1].split("\n\n", 1)[0]


def _call_codes(node: ast.Call) -> set[str]:
    """A refusal's first argument, or a ``code=`` keyword (not a log line's)."""
    func = node.func
    if isinstance(func, ast.Attribute) and getattr(func.value, "id", "") == "log":
        return set()
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    found = set()
    if name in REFUSALS and node.args and isinstance(node.args[0], ast.Constant):
        found.add(str(node.args[0].value))
    for keyword in node.keywords:
        if keyword.arg == "code" and isinstance(keyword.value, ast.Constant):
            found.add(str(keyword.value.value))
    return found


def _assigned_codes(node: ast.Assign | ast.AnnAssign) -> set[str]:
    """The strings assigned to a ``code`` (a class's, or one chosen for a refusal)."""
    targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
    if node.value is None or not any(isinstance(t, ast.Name) and t.id == "code" for t in targets):
        return set()
    return {
        v.value
        for v in ast.walk(node.value)
        if isinstance(v, ast.Constant) and isinstance(v.value, str)
    }


def _sent_codes(tree: ast.AST) -> set[str]:
    """Codes written in the source as a refusal's first argument, an ``Error(code=...)``,
    a ``code`` chosen for one, or a class's ``code``."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            found |= _call_codes(node)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            found |= _assigned_codes(node)
    return found


def sent_codes(folders: tuple[str, ...] = ("server", "protocol")) -> set[str]:
    codes: set[str] = set()
    for folder in folders:
        for path in (ROOT / folder).rglob("*.py"):
            codes |= _sent_codes(ast.parse(path.read_text()))
    return codes


def test_the_type_and_the_registry_name_the_same_codes() -> None:
    assert list(get_args(ErrorCode)) == list(ERROR_CODES)


def test_every_code_is_explained_in_the_protocol_doc() -> None:
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", _codes_table(), re.M))
    assert documented == set(ERROR_CODES)


def test_every_code_the_server_sends_is_documented() -> None:
    # The history's and the duplicate events' own codes name their errors for the HTTP API
    # and the command line; on the WebSocket they pass through ``error_code`` (a code the
    # protocol does not have becomes ``internal``).
    layers = {
        code
        for folder in ("server/history", "server/duplicate")
        for path in (ROOT / folder).rglob("*.py")
        for code in _sent_codes(ast.parse(path.read_text()))
    }
    # Metric labels of refusals made before any message is read (HTTP 429/503, a slow reader).
    labels_only = {"slow_reader", "too_many_connections", "api_rate_limited", "api_busy"}
    # A transition asked of a closed connection: a bug, raised and never answered.
    never_sent = {"closed"}
    elsewhere = layers - set(ERROR_CODES)
    undocumented = sent_codes() - set(ERROR_CODES) - elsewhere - labels_only - never_sent
    assert undocumented == set(), undocumented


def test_every_documented_code_is_sent_somewhere() -> None:
    assert set(ERROR_CODES) - sent_codes() == set()


def test_the_scan_sees_codes_written_each_way() -> None:
    source = """
raise TableRefused("bad_key", "taken")
self.error("rate_limited", "slow down")
m.Error(code="internal", message="x")
code: ClassVar[ErrorCode] = "bad_frame"
code: ErrorCode = "not_your_turn" if x else "illegal_action"
"""
    assert _sent_codes(ast.parse(source)) == {
        "bad_key",
        "rate_limited",
        "internal",
        "bad_frame",
        "not_your_turn",
        "illegal_action",
    }


def test_another_layer_s_code_reaches_the_wire_as_its_own_or_internal() -> None:
    assert error_code("name_taken") == "name_taken"
    assert error_code("bad_database_url") == "internal"
