"""Browser tests: a real server node on 127.0.0.1:0 and a real Chromium driven by Playwright.

Chromium is the one ``TAROT_CHROMIUM`` names, else the first ``chromium`` (or
``chromium-browser``, ``google-chrome``) on PATH; Debian's package puts it in
/usr/bin. Playwright's own download does not work here.

The server runs on the test's own event loop (``App.start``); pages talk to it over
real HTTP and WebSocket. Nothing is mocked. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
from playwright.async_api import Browser, async_playwright

from server.app import App
from server.settings import Settings

from ..conftest import require_marker
from .player import Player

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

NewPlayer = Callable[..., Awaitable[Player]]


@pytest.fixture
async def server() -> AsyncIterator[App]:
    app = await App.start(Settings(port=0, next_deal_seconds=30))
    try:
        yield app
    finally:
        await app.stop(drain_seconds=0)


@pytest.fixture
def base_url(server: App) -> str:
    return f"http://127.0.0.1:{server.port}/"


def find_chromium() -> str | None:
    named = os.environ.get("TAROT_CHROMIUM")
    if named:
        return named
    return next(filter(None, map(shutil.which, CHROMIUM_NAMES)), None)


@pytest.fixture
async def browser(request: pytest.FixtureRequest) -> AsyncIterator[Browser]:
    require_marker(request.node, "browser", "drives Chromium")
    chromium = find_chromium()
    assert chromium, "no Chromium: set TAROT_CHROMIUM, or apt-get install -y chromium"
    async with async_playwright() as pw:
        launched = await pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            await launched.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
async def new_player(browser: Browser, base_url: str) -> AsyncIterator[NewPlayer]:
    """Open a page in a fresh browser context (its own storage): one player each."""
    contexts = []

    async def make(
        width: int = 1280,
        height: int = 800,
        query: str = "speed=0.05",
        lang: str = "en",
        bypass_csp: bool = False,
    ) -> Player:
        context = await browser.new_context(
            viewport={"width": width, "height": height}, locale="en-GB", bypass_csp=bypass_csp
        )
        await context.add_init_script(
            "if (!localStorage.getItem('cardavia.lang'))"
            f" localStorage.setItem('cardavia.lang', JSON.stringify('{lang}'));"
        )
        contexts.append(context)
        page = await context.new_page()
        player = Player(page, f"{base_url}?{query}" if query else base_url)
        return player

    yield make
    for context in contexts:
        await context.close()
