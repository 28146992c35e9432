"""Pacing in a real browser, on a host that paces chance steps while people watch: a 10-card stud
session is seen card by card with its odds chart filling as cards turn, and the end of a Daifugo
game stays on the page, in its own panel, before the next deal."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from dennou.server.testing import WS, ServerProcess

from .browser import create_table, open_tab, quick_rules, shot, sign_in
from .drivers import daifugo


@pytest.fixture(scope="module")
def paced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(
        tmp_path_factory.mktemp("paced") / "data", limits={"reveal_pace": 0.4, "deal_pause": 3}
    )
    proc.start()
    yield proc
    proc.stop()


def warm_up_stud_views(server: ServerProcess) -> None:
    """A fresh host compiles the odds' native code at its first 10-card stud view (seconds):
    ask for one first, so that the session below is seen as a warm host shows it."""
    token = server.register("warm_stud")
    made = httpx.post(
        f"{server.http}/api/tables",
        json={"game": "stud10", "rules": quick_rules("stud10"), "seats": ["bot:random"] * 5},
        headers={"authorization": f"Bearer {token}"},
        timeout=10,
    )
    ws = WS(server.ws)
    ws.request({"type": "spectate", "table": made.json()["id"]}, timeout=120)
    ws.request({"type": "get_view", "table": made.json()["id"]}, timeout=120)
    ws.close()


def test_a_stud_session_is_seen_card_by_card_and_its_odds_chart_fills(
    paced: ServerProcess, browser: Any
) -> None:
    """10-card stud was over in about 2 s live, its odds chart empty."""
    warm_up_stud_views(paced)
    tab = open_tab(browser)
    sign_in(tab, paced.http, "ann_stud")
    started = time.monotonic()
    create_table(tab, "stud10", quick_rules("stud10"), ["me", *["bot:random"] * 4])
    page = tab.page
    points: list[int] = []
    shot_taken = False
    while not page.locator("[data-testid=results]").count():
        assert time.monotonic() - started < 120
        count = page.evaluate(
            "() => { const l = document.querySelector('#board polyline');"
            " return l ? l.getAttribute('points').split(' ').length : 0; }"
        )
        if not points or count != points[-1]:
            points.append(count)
        if count >= 3 and not shot_taken:
            shot(page, "stud10-live.png")
            shot_taken = True
        page.wait_for_timeout(100)
    assert time.monotonic() - started > 4, "the session was not paced"
    grown = [n for n in points if n > 0]
    assert len(grown) >= 3 and grown == sorted(grown), points
    assert tab.errors == [] and tab.missing_keys() == []
    tab.close()


def test_the_end_of_a_daifugo_game_stays_before_the_next_deal(
    paced: ServerProcess, browser: Any
) -> None:
    """A game's end was replaced by the next deal in about 0.1 s."""
    tab = open_tab(browser)
    sign_in(tab, paced.http, "ann_set")
    rules = {**quick_rules("daifugo"), "games": 2}
    create_table(tab, "daifugo", rules, ["me", *["bot:greedy"] * 3])
    page = tab.page
    panel = page.locator("[data-testid=game-end]")
    deadline = time.monotonic() + 180
    while not panel.is_visible():
        assert time.monotonic() < deadline, "game 1 did not end"
        if not daifugo(page):
            page.wait_for_timeout(50)
    seen = time.monotonic()
    assert "1" in panel.inner_text()
    shot(page, "daifugo-game-end.png")
    page.wait_for_timeout(1500)
    assert panel.is_visible(), "the next deal came at once"
    # it gives way at the next decision of this seat (or when closed)
    while panel.is_visible():
        assert time.monotonic() - seen < 30
        page.wait_for_timeout(100)
    assert time.monotonic() - seen > 2.5
    assert tab.errors == [] and tab.missing_keys() == []
    tab.close()
