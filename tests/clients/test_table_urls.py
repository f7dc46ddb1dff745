"""Issue 25.2: the URL a client connects with names its table (``/t/ID``), for the balancer."""

from __future__ import annotations

from clients.python.routing import table_url


def test_the_table_goes_in_the_path() -> None:
    assert table_url("ws://h:8765/", "Ab3") == "ws://h:8765/t/Ab3"
    assert table_url("ws://h:8765", "Ab3") == "ws://h:8765/t/Ab3"
    assert table_url("wss://h/tarot/", "Ab3") == "wss://h/tarot/t/Ab3"
    assert table_url("ws://h/t/Old", "New") == "ws://h/t/New"
    assert table_url("ws://h/?x=1", "a/b") == "ws://h/t/a%2Fb?x=1"
    assert table_url("ws://h/", None) == "ws://h/"
