"""Fixtures of the web app's tests: a real ``dennou serve`` subprocess and Debian's Chromium.

The browser is driven by Playwright for Python with ``executable_path=/usr/bin/chromium`` (its
own browser download cannot work here). In CI (``DENNOU_REQUIRE_POSTGRES=1``, set by
``.ci/run``) a missing Chromium fails the tests instead of skipping them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dennou.server.testing import ServerProcess

from ..server.conftest import server

__all__ = ["server"]

CHROMIUM = os.environ.get("DENNOU_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
]


def chromium_or_skip() -> None:
    """Skip (or, in CI, fail) when Chromium or Playwright is missing."""
    missing = None
    if not Path(CHROMIUM).exists():
        missing = f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            missing = "Playwright for Python is not installed"
    if missing:
        if os.environ.get("DENNOU_REQUIRE_POSTGRES") == "1":
            pytest.fail(missing)
        pytest.skip(missing)


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for a module's tests (each test uses its own account names)."""
    proc = ServerProcess(tmp_path_factory.mktemp("web") / "data")
    proc.start()
    yield proc
    proc.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium per test module (each test opens its own contexts: cookies, storage and
    pages are per context). Not per session: Playwright's sync API keeps an event loop set on
    the thread while it runs, and later tests of the same worker that call ``asyncio.run``
    would fail."""
    chromium_or_skip()
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
    yield b
    b.close()
    pw.stop()
