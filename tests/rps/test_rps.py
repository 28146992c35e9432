"""The toy eighth game goes everywhere a game goes, listed by its one registry line.

Rock-paper-scissors with talk (``tests/rps``) is nowhere in ``dennou``: the tests list it
(``REGISTRY.add`` here, ``DENNOU_EXTRA_GAMES`` for the server) and it is checked by the
conformance harness, served by a real host, played to the end in Chromium on the generic board,
learned through the PettingZoo and Gymnasium environments, and raced in a tournament.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gymnasium
import httpx
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test

import dennou.rl as rl
from dennou.arena.entrants import parse_entrants
from dennou.arena.runners import InlineRunner
from dennou.arena.tournament import Tournament, make_config
from dennou.core import record as rec
from dennou.core.conformance import check_game
from dennou.games import EXTRA_GAMES, REGISTRY
from dennou.rl.gym import register_all
from dennou.server.testing import SRC, ServerProcess
from tests.rps import GAME, TARGET
from tests.web.browser import create_table, open_tab, sign_in, wait_until
from tests.web.conftest import ARGS, CHROMIUM, chromium_or_skip
from tests.web.drivers import driver

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True, scope="module")
def listed() -> Iterator[None]:
    """The registry line, for this module's tests only."""
    REGISTRY.add("rps", TARGET)
    register_all()
    yield
    REGISTRY.remove("rps")


def test_the_toy_is_listed_by_its_registry_line_and_passes_the_conformance_harness() -> None:
    assert REGISTRY.get_game("rps") is GAME
    report = check_game(GAME, games=40, seed=1)
    assert report.games == 40 and report.leak_checks > 100 and report.talk_lines > 0


def test_nothing_in_dennou_names_the_toy() -> None:
    """Its registry line is all that lists it: no table in ``dennou`` names it."""
    files = (ROOT / "src" / "dennou").rglob("*")
    sources = [p for p in files if p.suffix in (".py", ".js", ".json")]
    naming = [p for p in sources if re.search(r"\brps\b", p.read_text(encoding="utf-8"), re.I)]
    assert naming == []


def test_the_toy_has_pettingzoo_and_gymnasium_environments() -> None:
    assert "rps" in rl.games()
    api_test(rl.env("rps"), num_cycles=50)
    parallel_api_test(rl.parallel_env("rps", throws=5), num_cycles=50)
    env = gymnasium.make(rl.gym_id("rps"), opponents="beat_last", seed=1)
    check_env(env.unwrapped)
    obs, _ = env.reset(seed=3)
    done, steps = False, 0
    while not done:
        obs, _, term, trunc, _ = env.step(int(obs["action_mask"].argmax()))
        done, steps = term or trunc, steps + 1
    assert steps == 3  # one decision a throw, three throws


def test_the_toy_plays_a_tournament(tmp_path: Path) -> None:
    config = make_config(GAME, parse_entrants("random,beat_last,random"), rounds=2, seed=4)
    with Tournament(config, tmp_path / "t") as tour:
        summary = tour.run(InlineRunner())
    assert {row["name"] for row in summary["standings"]} == set(config.names)
    assert len(rec.read(tmp_path / "t" / "records.jsonl")) == summary["matches"] > 0


def test_the_toy_is_served_talked_in_and_played_to_the_end_in_the_browser(
    tmp_path: Path,
) -> None:
    chromium_or_skip()
    from playwright.sync_api import sync_playwright

    env = {EXTRA_GAMES: f"rps={TARGET}", "PYTHONPATH": os.pathsep.join([SRC, str(ROOT)])}
    server = ServerProcess(tmp_path / "data", env=env)
    server.start()
    pw = sync_playwright().start()
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
    try:
        games: Any = httpx.get(f"{server.http}/api/games", timeout=30).json()
        [info] = [g for g in games if g["name"] == "rps"]
        assert info["board"] == "generic" and info["talk"]
        tab = open_tab(browser)
        sign_in(tab, server.http, "ann")
        table = create_table(tab, "rps", {"throws": 3}, ["me", "bot:beat_last"])
        tab.page.fill("#talk-text", "good luck")
        tab.page.click("#talk-send")
        lines = tab.page.locator("[data-testid=talk-lines]")
        wait_until(lambda: "good luck" in lines.inner_text(), 20)
        move, deadline = driver("rps"), time.time() + 120
        while not tab.page.locator("[data-testid=results]").count():
            assert time.time() < deadline, "the game did not end"
            if not move(tab.page):
                time.sleep(0.05)
        tab.page.wait_for_selector("[data-testid=board-result]")
        text = httpx.get(f"{server.http}/api/tables/{table}/record", timeout=30).text
        [record] = rec.loads(text)
        assert record.game == "rps" and record.outcome is not None
        said = [s.talk.text for s in record.steps if s.talk is not None]
        assert said == ["good luck"]
        assert len([s for s in record.steps if s.seat == 0 and s.action]) == 3  # three throws
        assert wait_until(lambda: tab.page.locator("[data-testid=results] tbody tr").count(), 10)
        assert tab.errors == [], tab.errors
        tab.close()
    finally:
        browser.close()
        pw.stop()
        server.stop()
