"""The deployment files: docker-compose.yml parses and names Redis, PostgreSQL, two nodes and a
WebSocket-proxying load balancer; the Dockerfile runs the commands that docs/DEPLOY.md
gives. (No Docker engine runs here: the files are checked, not run.)"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from cli.main import build_parser
from server.history import database_url

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"


def load_block_yaml(text: str) -> Any:
    """Parse the block-style YAML subset the compose file is written in.

    Mappings, ``- `` lists, plain or double-quoted scalars, JSON-style flow lists,
    full-line comments. Anything else (anchors, tabs, multi-line scalars) raises.
    """
    lines = []
    for number, raw in enumerate(text.splitlines(), 1):
        if "\t" in raw:
            raise ValueError(f"line {number}: a tab")
        content = raw.strip()
        if content and not content.startswith("#"):
            lines.append((len(raw) - len(raw.lstrip(" ")), content, number))
    value, end = _block(lines, 0, lines[0][0] if lines else 0)
    if end != len(lines):
        raise ValueError(f"line {lines[end][2]}: bad indentation")
    return value


def _block(lines: list[tuple[int, str, int]], i: int, indent: int) -> tuple[Any, int]:
    if lines[i][1].startswith("- "):
        items = []
        while i < len(lines) and lines[i][0] == indent and lines[i][1].startswith("- "):
            items.append(_scalar(lines[i][1][2:], lines[i][2]))
            i += 1
        return items, i
    mapping: dict[str, Any] = {}
    while i < len(lines) and lines[i][0] == indent:
        found = re.fullmatch(r"([A-Za-z0-9_.-]+):(?: (.*))?", lines[i][1])
        if found is None or found.group(1) in mapping:
            raise ValueError(f"line {lines[i][2]}: not a new key: {lines[i][1]!r}")
        key, rest = found.group(1), found.group(2)
        i += 1
        if rest:
            mapping[key] = _scalar(rest, lines[i - 1][2])
        elif i < len(lines) and lines[i][0] > indent:
            mapping[key], i = _block(lines, i, lines[i][0])
        else:
            mapping[key] = None
    return mapping, i


def _scalar(text: str, number: int) -> Any:
    if text.startswith(("[", '"')):
        return json.loads(text)
    if re.search(r"[&*!|>{}\[\]]|: | #", text):
        raise ValueError(f"line {number}: unsupported YAML: {text!r}")
    return text


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    parsed = load_block_yaml(COMPOSE.read_text())
    assert isinstance(parsed, dict)
    return parsed


def dockerfile(instruction: str) -> list[str]:
    lines = (ROOT / "Dockerfile").read_text().replace("\\\n", " ").splitlines()
    return [line.split(None, 1)[1] for line in lines if line.startswith(instruction + " ")]


def command_of(exec_form: str) -> str:
    return shlex.join(json.loads(exec_form))


def test_compose_runs_redis_two_nodes_and_a_load_balancer(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert set(services) == {"redis", "db", "node1", "node2", "lb"}
    assert services["redis"]["image"].startswith("redis:7")
    assert services["db"]["image"].startswith("postgres:")
    for name in ("node1", "node2"):
        node = services[name]
        assert node["build"] == "."
        assert node["environment"]["TAROT_REDIS_URL"].startswith("redis://redis:6379")
        assert node["command"][:2] == ["tarot", "serve"]
        assert node["command"][-2:] == ["--node-id", name]
        assert node["depends_on"]["redis"]["condition"] == "service_healthy"
        assert node["depends_on"]["db"]["condition"] == "service_healthy"
        history = database_url(node["environment"]["TAROT_DB_URL"])  # the history database
        assert (history.drivername, history.host) == ("postgresql+asyncpg", "db")
        build_parser().parse_args(node["command"][1:])  # flags tarot serve knows
    assert services["lb"]["ports"] == ["8080:80"]
    assert services["lb"]["depends_on"] == {
        name: {"condition": "service_healthy"} for name in ("node1", "node2")
    }


def test_the_load_balancer_proxies_websockets_to_both_nodes(compose: dict[str, Any]) -> None:
    mount = compose["services"]["lb"]["volumes"][0]
    source, target, _ = mount.split(":")
    assert target == "/etc/nginx/nginx.conf"
    conf = (ROOT / source).read_text()
    assert re.search(r"server node1:8765\b", conf) and re.search(r"server node2:8765\b", conf)
    assert "proxy_set_header Upgrade $http_upgrade;" in conf
    assert "proxy_set_header Connection $connection_upgrade;" in conf
    assert "proxy_http_version 1.1;" in conf
    assert conf.count("{") == conf.count("}")


def test_the_dockerfile_runs_the_commands_of_the_deploy_guide(compose: dict[str, Any]) -> None:
    guide = (ROOT / "docs" / "DEPLOY.md").read_text()
    assert "pip install ." in dockerfile("RUN")
    [cmd] = dockerfile("CMD")
    serve = command_of(cmd)
    assert serve in guide.splitlines()
    assert "docker compose up --build" in guide
    for name in ("node1", "node2"):
        assert shlex.join(compose["services"][name]["command"]) == f"{serve} --node-id {name}"
    build_parser().parse_args(json.loads(cmd)[1:])


def test_the_image_holds_what_the_package_needs() -> None:
    copied = {line.split()[0] for line in dockerfile("COPY")}
    packages = re.search(r"include = \[(.*?)\]", (ROOT / "pyproject.toml").read_text())
    assert packages is not None
    needed = {name.strip('" *') for name in packages.group(1).split(",")}
    assert needed <= copied
    assert {"pyproject.toml", "README.md"} <= set(dockerfile("COPY")[0].split()[:-1])


def test_the_yaml_subset_refuses_what_it_does_not_know() -> None:
    assert load_block_yaml("a:\n  b: [1, 2]\n  c:\n    - x\n") == {"a": {"b": [1, 2], "c": ["x"]}}
    for bad in ("a: &x 1\n", "a: 1\na: 2\n", "a:\n\tb: 1\n", "a: b: c\n"):
        with pytest.raises(ValueError):
            load_block_yaml(bad)
