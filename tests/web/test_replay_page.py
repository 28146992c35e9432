"""The replay page in a real browser: a finished table replays to its last
step with the scrubber and shows the record's final state and results; the step and the seat
are in the URL; hands are revealed at the end; a record file dropped on /replay replays the same.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx

from dennou.core import record as rec
from dennou.server.testing import ServerProcess
from dennou.web.routes import STATIC

from .browser import open_tab, shot, wait_until


def finished_numeron(server: ServerProcess, name: str) -> tuple[str, rec.Record]:
    """A Numeron table of two bots, played to its end; its id and record."""
    token = server.register(name)
    made = httpx.post(
        f"{server.http}/api/tables",
        json={"game": "numeron", "seats": ["bot:random", "bot:solver"]},
        headers={"authorization": f"Bearer {token}"},
        timeout=10,
    )
    assert made.status_code == 201, made.text
    table = str(made.json()["id"])
    deadline = time.monotonic() + 60
    while httpx.get(f"{server.http}/api/tables/{table}", timeout=10).json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.1)
    text = httpx.get(f"{server.http}/api/tables/{table}/record", timeout=10).text
    [record] = rec.loads(text)
    return table, record


def step_text(page: Any) -> str:
    return str(page.inner_text("[data-testid=replay-step]"))


def test_a_finished_game_replays_to_its_last_step(
    shared_server: ServerProcess, browser: Any
) -> None:
    table, record = finished_numeron(shared_server, "rita")
    steps = len(record.steps)
    tab = open_tab(browser)
    page = tab.page
    page.goto(f"{shared_server.http}/games/{table}")
    page.wait_for_selector("#replay-last")
    assert step_text(page) == f"step 0 of {steps}"
    page.click("#replay-forward")
    wait_until(lambda: step_text(page) == f"step 1 of {steps}", 10)
    assert page.url.endswith("#step=1")
    page.click("#replay-last")
    wait_until(lambda: step_text(page) == f"step {steps} of {steps}", 20)
    # the record's result, and the final board: every call the record holds is on it
    rows = page.locator("#results-box tbody tr")
    assert rows.count() == len(record.players)
    board = page.inner_text("#board")
    calls = [s.action["number"] for s in record.steps if s.action and s.action["type"] == "call"]
    for number in calls[-2:]:
        assert number in board
    # at the end each seat's hidden fields are revealed, as the replay API lists them
    last = httpx.get(
        f"{shared_server.http}/api/tables/{table}/replay",
        params={"from": steps, "count": 1, "reveal": "true"},
        timeout=10,
    ).json()["frames"][0]["hidden"]
    shown = page.inner_text("[data-testid=replay-revealed]")
    words = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))
    for i, fields in enumerate(last):
        for key in fields:  # in words, never as JSON
            assert f"{words[f'replay.field.{key}']}: " in shown and record.players[i] in shown
    assert '"' not in shown and "[" not in shown
    shot(page, "replay-end.png")
    # a shared link opens at its step and seat
    assert tab.errors == [], tab.errors
    assert tab.missing_keys() == []
    tab.close()
    shared = open_tab(browser)
    shared.page.goto(f"{shared_server.http}/games/{table}#step=3&seat=1")
    wait_until(lambda: step_text(shared.page) == f"step 3 of {steps}", 10)
    assert shared.page.eval_on_selector("#replay-seat", "e => e.value") == "1"
    assert shared.errors == [], shared.errors
    shared.close()


def test_a_record_file_dropped_on_the_page_replays(
    shared_server: ServerProcess, browser: Any, tmp_path: Path
) -> None:
    table, record = finished_numeron(shared_server, "fumi")
    path = tmp_path / "game.jsonl"
    path.write_text(
        httpx.get(f"{shared_server.http}/api/tables/{table}/record", timeout=10).text,
        encoding="utf-8",
    )
    tab = open_tab(browser, locale="ja-JP")
    page = tab.page
    page.goto(f"{shared_server.http}/replay")
    page.set_input_files("#replay-file", str(path))
    page.wait_for_selector("#replay-last")
    page.click("#replay-last")
    steps = len(record.steps)
    wait_until(lambda: step_text(page) == f"{steps} 手中 {steps} 手目", 20)
    assert page.locator("#results-box tbody tr").count() == len(record.players)
    assert tab.errors == [], tab.errors
    assert tab.missing_keys() == []
    tab.close()
