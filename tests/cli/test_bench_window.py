"""The bench reads a server's figures over the clients' measured window only (issue 28).

Read from the start of the clients' run to its end, a node's CPU per action
counted every connection's handshake and join and every close (800 of each at
200 tables); the latencies never did. ``Window`` takes both ends where the
clients' window is: ``clients.warm_up`` after the word to go, for ``seconds``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cli.bench.clients import warm_up
from cli.bench.processes import Window, cpu_seconds

# A stand-in server: busy for its set-up and its closing, idle in between, and its
# ``/metrics`` counting the milliseconds since the word to go as actions.
SERVER = """
import http.server, sys, threading, time

def burn(seconds):
    start = time.process_time()
    while time.process_time() - start < seconds:
        pass

go = [0.0]

class Metrics(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        actions = int(1000 * (time.monotonic() - go[0])) if go[0] else 0
        body = f"tarot_actions_applied_total {actions}\\n".encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Metrics)
threading.Thread(target=server.serve_forever, daemon=True).start()
burn(0.6)  # the set-up
print(server.server_address[1], flush=True)
sys.stdin.readline()
go[0] = time.monotonic()
time.sleep(float(sys.argv[1]))  # the window, and some
burn(0.6)  # the closing
print("closed", flush=True)
sys.stdin.readline()
"""


def test_the_window_leaves_out_the_set_up_and_the_closing(tmp_path: Path) -> None:
    seconds = 0.5
    script = tmp_path / "server.py"
    script.write_text(SERVER)
    quiet = warm_up(seconds) + seconds + 0.5  # idle until well after the window closed
    with subprocess.Popen(
        [sys.executable, str(script), str(quiet)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        try:
            port = int(process.stdout.readline())
            window = Window([process], [port], seconds)
            process.stdin.write("go\n")  # then the window opens, as in ``run_clients``
            process.stdin.flush()
            window.open()
            (cpu_before, scraped_before), (cpu_after, scraped_after) = window.marks()
            assert process.stdout.readline().strip() == "closed"
            whole = cpu_seconds(process.pid)
        finally:
            process.kill()

    assert whole >= 1.1  # the set-up's and the closing's 0.6 s each happened
    assert cpu_after[0] - cpu_before[0] < 0.3  # and neither is in the window
    key = "tarot_actions_applied_total"
    opened_at = scraped_before[0][key] / 1000  # seconds after the word to go
    lasted = (scraped_after[0][key] - scraped_before[0][key]) / 1000
    # Each end is read a little late on a loaded machine, never early.
    assert opened_at >= warm_up(seconds) - 0.15
    assert seconds - 0.15 <= lasted <= seconds + 0.5


def test_a_window_that_cannot_read_a_server_says_so() -> None:
    window = Window([], [1], 0.01)  # nothing listens on port 1
    window.open()
    with pytest.raises(RuntimeError, match="could not be read"):
        window.marks()
