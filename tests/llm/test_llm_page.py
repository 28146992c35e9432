"""A person plays a declared model in the browser: the lobby offers the model like a built-in
bot, the game is played by clicking against the real llama.cpp server, and the page shows the
results (docs/llm.md, "On a host")."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from ..web.browser import create_table, open_tab, shot, sign_in
from ..web.conftest import browser
from ..web.drivers import numeron
from .test_llama_server import declared
from .test_llm_host import model_host
from .tinymodel import LlamaServer

__all__ = ["browser"]


def test_a_person_plays_a_declared_model_from_the_lobby_to_the_results(
    llama: LlamaServer, browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = model_host(tmp_path, declared(llama), monkeypatch)
    server.start()
    try:
        tab = open_tab(browser, locale="ja-JP")
        sign_in(tab, server.http, "model_fan")
        page = tab.page
        # the lobby offers the operator's model beside the built-in bots
        page.select_option("#create-game", "numeron")
        page.wait_for_selector("#seat-1 option[value='bot:tiny']", state="attached")
        create_table(tab, "numeron", {}, ["me", "bot:tiny"])
        deadline = time.monotonic() + 240
        while not page.locator("[data-testid=results]").count():
            assert time.monotonic() < deadline, "the game did not end"
            if not numeron(page):
                time.sleep(0.1)
        assert "tiny" in page.inner_text("[data-testid=table-meta]")
        assert tab.errors == [], tab.errors
        assert tab.missing_keys() == []
        shot(page, "numeron-vs-model-ja.png")
        tab.close()
    finally:
        server.stop()
