"""Debian's nginx in front of local nodes, configured from the shipped ``deploy/nginx.conf``:
only its listen address, its upstream servers and its files are changed (as an operator
changes hosts and ports), so the tests exercise the configuration operators run."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from cli.local_servers import free_port, stop_process, wait_until

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "deploy" / "nginx.conf"
LOG_FORMAT = "log_format tarot '$status $upstream_addr $upstream_status $request_uri';"


def nginx_binary() -> str:
    found = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    if found is None:
        raise AssertionError("no nginx: tasks.py installs Debian's (the nginx marker)")
    return found


def configured(shipped: str, listen: int, nodes: list[int], folder: Path) -> str:
    """The shipped configuration for nodes on 127.0.0.1:``nodes`` behind 127.0.0.1:``listen``."""
    servers = re.findall(r"^\s*server node\d+:8765([^;]*);", shipped, re.M)
    assert len(servers) >= 2, "deploy/nginx.conf names node1 and node2"
    options = servers[0]
    upstream = "".join(f"        server 127.0.0.1:{port}{options};\n" for port in nodes)
    text = re.sub(r"(^\s*server node\d+:8765[^;]*;\n)+", upstream, shipped, count=1, flags=re.M)
    text = text.replace("listen 80;", f"listen 127.0.0.1:{listen};")
    files = f"    {LOG_FORMAT}\n    access_log {folder / 'access.log'} tarot;\n" + "".join(
        f"    {kind}_temp_path {folder / kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    text = text.replace("http {\n", "http {\n" + files, 1)
    head = f"pid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'} warn;\n"
    if os.geteuid() == 0:
        head += "user root;\n"  # the workers run as root too (the files are the test's)
    return head + text


class Balancer:
    """nginx on a free port of 127.0.0.1, in front of the nodes on ``ports``."""

    def __init__(self, folder: Path, ports: list[int], shipped: str | None = None) -> None:
        self.folder = folder
        self.port = free_port()
        folder.mkdir(parents=True, exist_ok=True)
        text = configured(shipped or SHIPPED.read_text(), self.port, ports, folder)
        self.conf = folder / "nginx.conf"
        self.conf.write_text(text)
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    def start(self) -> Balancer:
        binary = nginx_binary()
        test = subprocess.run(
            [binary, "-t", "-p", str(self.folder), "-c", str(self.conf)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert test.returncode == 0, test.stderr
        self.process = subprocess.Popen(
            [binary, "-p", str(self.folder), "-c", str(self.conf), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_until(self._answers, f"nginx on port {self.port}")
        return self

    def _answers(self) -> bool:
        import socket

        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                return True
        except OSError:
            return False

    def statuses(self) -> list[str]:
        """The access log's lines: status, upstream address(es), upstream status(es), URI."""
        log = self.folder / "access.log"
        return log.read_text().splitlines() if log.exists() else []

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process)
        self.process = None
