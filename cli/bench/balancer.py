"""The balancer of ``tarot bench cluster``: Debian's nginx with the shipped ``deploy/nginx.conf``.

The configuration is the shipped file with two things changed, as an operator
would change them: the ``server`` lines of the ``upstream`` block name the
bench's nodes (each keeps the parameters the shipped line gives), and ``listen``
names the balancer host's address. Whatever the shipped file says otherwise
(the balancing method, timeouts, headers) is what the bench runs.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from cli.errors import CliError

SHIPPED = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"
UPSTREAM = re.compile(r"(upstream\s+\w+\s*\{)(.*?)(\})", re.S)
SERVER_LINE = re.compile(r"^(\s*)server\s+\S+(.*;)[ \t]*$", re.M)
LISTEN = re.compile(r"^(\s*)listen\s+\S+;", re.M)


class BalancerError(CliError, RuntimeError):
    """nginx is missing and cannot be installed, or the shipped file has no upstream."""


def config(nodes: list[str], listen: str, shipped: str | None = None) -> str:
    """The shipped configuration with the bench's ``nodes`` (``host:port``) and ``listen``."""
    text = SHIPPED.read_text() if shipped is None else shipped
    block = UPSTREAM.search(text)
    if block is None:
        raise BalancerError("deploy/nginx.conf has no upstream block")
    lines = list(SERVER_LINE.finditer(block[2]))
    if not lines:
        raise BalancerError("deploy/nginx.conf's upstream block names no server")
    indent, params = lines[0][1], lines[0][2]
    rest = "\n".join(x for x in SERVER_LINE.sub("", block[2]).splitlines() if x.strip())
    servers = "".join(f"{indent}server {node}{params}\n" for node in nodes)
    body = f"\n{rest}\n{servers}" if rest.strip() else f"\n{servers}"
    text = text[: block.start(2)] + body.replace("\n\n", "\n") + "    " + text[block.end(2) :]
    return LISTEN.sub(lambda m: f"{m[1]}listen {listen};", text, count=1)


def ensure_nginx() -> str:
    """nginx's path, installed with apt-get (Debian's package) when missing."""
    found = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None
    )
    if found:
        return found
    if shutil.which("apt-get") is None:
        raise BalancerError("nginx is not installed and there is no apt-get to install it")
    print("[bench] installing nginx", file=sys.stderr, flush=True)
    for step in (["apt-get", "update", "-q"], ["apt-get", "install", "-y", "-q", "nginx"]):
        subprocess.run(step, check=True, capture_output=True)
    found = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(found).exists():
        raise BalancerError("apt-get installed no nginx")
    return found


def command(nginx: str, conf: Path, folder: Path) -> list[str]:
    """nginx in the foreground on ``conf``, its pid and error log in ``folder``."""
    main = f"daemon off; pid {folder}/nginx.pid; error_log {folder}/error.log warn;"
    return [nginx, "-c", str(conf), "-p", str(folder), "-g", main]
