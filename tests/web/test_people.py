"""People at tables in a real browser: two people play
Numeron against each other and talk, user text shows as text, a forged action from the console
is refused while the table is unchanged, and a page whose server was killed (SIGKILL) reconnects
by itself and finishes the game, at a phone's width.
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

from dennou.arena.bots import make_bot
from dennou.client import run_bot
from dennou.games import REGISTRY
from dennou.server.testing import ServerProcess

from .browser import PHONE, create_table, open_tab, shot, sign_in, wait_until
from .drivers import numeron

TRICK = '<img src=x onerror="window.hacked=1"><b>bold</b>'


def play_until_results(pages: list[Any], timeout: float = 120) -> None:
    """Let each page make its moves until every page shows the results."""
    deadline = time.time() + timeout
    while not all(p.locator("[data-testid=results]").count() for p in pages):
        assert time.time() < deadline, "the game did not end"
        if not any(numeron(p) for p in pages):
            time.sleep(0.05)


def version(server: ServerProcess, table: str) -> int:
    return int(httpx.get(f"{server.http}/api/tables/{table}", timeout=10).json()["version"])


def test_two_people_play_numeron_talk_as_text_and_a_forged_action_is_refused(
    shared_server: ServerProcess, browser: Any
) -> None:
    ann, ben = open_tab(browser), open_tab(browser, locale="ja-JP")
    sign_in(ann, shared_server.http, "ann_duel")
    table = create_table(ann, "numeron", {}, ["me", "open"])
    sign_in(ben, shared_server.http, "ben_duel")
    ben.page.goto(f"{shared_server.http}/tables/{table}")
    ben.page.click("[data-testid=take-1]")
    wait_until(lambda: ann.page.locator("[data-testid=pad-submit]").count(), 20)

    # talk: ben reads ann's line exactly, as text (no element made of it, no script run)
    ann.page.fill("#talk-text", TRICK)
    ann.page.click("#talk-send")
    lines = ben.page.locator("[data-testid=talk-lines]")
    wait_until(lambda: TRICK in lines.inner_text(), 20)
    assert lines.locator("img, b").count() == 0
    assert ben.page.evaluate("window.hacked") is None

    # a forged action out of turn, sent from the console: refused, shown, the table unchanged
    numeron(ann.page)  # ann sets her number; ben has not yet
    wait_until(lambda: version(shared_server, table) >= 1, 20)
    before = version(shared_server, table)
    ann.page.evaluate("window.dennou.act({type: 'set', number: '345'})")
    wait_until(lambda: ann.page.inner_text("[data-testid=table-error]").strip(), 20)
    assert version(shared_server, table) == before

    play_until_results([ann.page, ben.page])
    record = httpx.get(f"{shared_server.http}/api/tables/{table}/record", timeout=10).text
    assert '"ann_duel"' in record and '"ben_duel"' in record
    for tab in (ann, ben):
        assert tab.errors == [], tab.errors
        assert tab.missing_keys() == []
        tab.close()


def test_a_killed_server_comes_back_and_the_page_finishes_the_game_at_phone_width(
    browser: Any, tmp_path: Path
) -> None:
    server = ServerProcess(tmp_path / "data")
    server.start()
    try:
        tab = open_tab(browser, viewport=PHONE)
        page = tab.page
        sign_in(tab, server.http, "kim")
        table = create_table(tab, "numeron", {}, ["me", "bot:random"])
        wait_until(lambda: numeron(page), 30)  # kim sets her number
        wait_until(lambda: version(server, table) >= 2, 30)
        server.kill()  # SIGKILL, mid-game
        server.start()
        play_until_results([page])
        info = httpx.get(f"{server.http}/api/tables/{table}", timeout=10).json()
        assert info["status"] == "finished"
        # usable at 375 px: nothing wider than the screen
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width
        shot(page, "phone-end.png")
        assert tab.missing_keys() == []
        tab.close()
    finally:
        server.stop()


def test_the_leaderboard_page_shows_the_ratings_of_rated_tables(
    shared_server: ServerProcess, browser: Any
) -> None:
    """The leaderboard page is fed by the host's ratings (rated tournament tables)."""
    token = shared_server.register("lia")
    made = httpx.post(
        f"{shared_server.http}/api/tables",
        json={"game": "numeron", "seats": ["open", "bot:random"], "options": {"rated": True}},
        headers={"authorization": f"Bearer {token}"},
        timeout=10,
    )
    assert made.status_code == 201, made.text
    solver = make_bot(REGISTRY["numeron"], "solver")  # a short game
    game = run_bot(solver, shared_server.ws, token, table=made.json()["id"], seed=1)
    with ThreadPoolExecutor(1) as pool:  # Playwright's own loop runs in this thread
        result = pool.submit(asyncio.run, asyncio.wait_for(game, 60)).result(90)
    assert result.outcome is not None
    tab = open_tab(browser)
    tab.page.goto(f"{shared_server.http}/leaderboard/numeron")
    ratings = tab.page.locator("[data-testid=ratings-default]")
    deadline = time.time() + 30
    while not (ratings.count() and "lia" in ratings.inner_text()):  # rated once it is stored
        assert time.time() < deadline, "no rating for lia"
        time.sleep(0.5)
        tab.page.reload()
    assert "lia" in tab.page.inner_text("[data-testid=leaderboard]")
    assert tab.errors == [], tab.errors
    assert tab.missing_keys() == []
    tab.close()
