"""The node's event loop (issue 28): uvloop where installed, asyncio's own when asked."""

from __future__ import annotations

import asyncio
import importlib.util

import pytest

from server import event_loop
from server.settings import Settings, SettingsError


async def loop_module() -> str:
    return type(asyncio.get_running_loop()).__module__


def test_asyncio_runs_on_the_standard_loop() -> None:
    assert event_loop.run(loop_module(), "asyncio").startswith("asyncio")


def test_auto_takes_uvloop_where_it_is_installed() -> None:
    installed = importlib.util.find_spec("uvloop") is not None
    assert event_loop.chosen("auto") == ("uvloop" if installed else "asyncio")
    if installed:
        assert event_loop.run(loop_module(), "auto").startswith("uvloop")


def test_an_unknown_loop_is_refused_by_the_settings() -> None:
    with pytest.raises(SettingsError, match="auto, asyncio, uvloop"):
        Settings(event_loop="trio")


UVLOOP_INSTALLED = importlib.util.find_spec("uvloop") is not None


@pytest.mark.skipif(UVLOOP_INSTALLED, reason="uvloop is installed here (it is not in CI)")
def test_uvloop_asked_where_it_is_not_installed_is_refused_by_the_settings() -> None:
    """It was an import's traceback at start-up, after the settings had been accepted."""
    with pytest.raises(SettingsError, match="uvloop is not installed"):
        Settings(event_loop="uvloop")
