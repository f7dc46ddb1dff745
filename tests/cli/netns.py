"""The network namespaces a test made, by their prefix: tests run side by side (xdist
workers) make namespaces of their own, which another test must not count."""

from __future__ import annotations

import subprocess


def namespaces(prefix: str) -> set[str]:
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=True)
    names = {line.split()[0] for line in listed.stdout.splitlines() if line.strip()}
    return {name for name in names if name.startswith(f"{prefix}-")}
