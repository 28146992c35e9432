"""Every game in a real browser: a person signs in, creates a table against built-in bots, plays
it to the end by clicking and sees the result, while a second browser context spectates live.

What each page received over its WebSocket is held to a replay of the stored record: every event
is the replay's event filtered for that seat (or the spectators), every view is the engine's view
for that seat at that version, the spectator never gets a turn, and the spectator's page never
shows another seat's private events.
"""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from dennou.core import record as rec
from dennou.core.jsondata import to_json
from dennou.games import REGISTRY
from dennou.server.testing import ServerProcess

from ..server.checks import check_view
from .browser import Tab, create_table, open_tab, quick_rules, shot, sign_in, wait_until
from .drivers import driver

# game: (seats after "me", extra rules, language of the player's page)
SETUPS: dict[str, tuple[list[str], dict[str, Any], str]] = {
    "numeron": (["bot:random"], {}, "en"),
    "daifugo": (["bot:greedy"] * 3, {"games": 2}, "ja"),
    "stud10": (["bot:random"] * 4, {}, "en"),
    "hilo": (["bot:random"], {"max_rounds": 4}, "ja"),
    "smuggling": (["bot:greedy"], {}, "en"),
    "pandemic": (["bot:random"] * 3, {}, "ja"),
    "chairs": (["bot:random"] * 3, {}, "en"),
}
MOVES_BEFORE_SHOT = 3


def check_frames(tab: Tab, record: rec.Record, table: str, seat: int | None) -> int:
    """What a page received against the replay; returns how many frames were checked."""
    game = REGISTRY[record.game]
    frames = list(rec.replay(record, game))
    checked = 0
    for msg in tab.frames:
        if msg.get("table") != table and not (
            msg.get("type") == "table" and msg["table"]["id"] == table
        ):
            continue
        kind = msg["type"]
        if kind == "event":
            expected = [
                {"kind": e.kind, "text": e.text, "data": to_json(e.data)}
                for e in frames[msg["version"]].events
                if e.visible_to(seat)
            ]
            got = [{"kind": e["kind"], "text": e["text"], "data": e["data"]} for e in msg["events"]]
            assert got == expected, f"event at version {msg['version']}"
        elif kind == "view" and msg["view"] is not None:
            assert msg["seat"] == seat
            state = frames[msg["version"]].state
            assert msg["view"] == to_json(game.view(state, seat)), f"view at {msg['version']}"
        elif kind == "turn":
            assert seat is not None and msg["seat"] == seat, "a spectator got a turn"
            state = frames[msg["version"]].state
            assert msg["view"] == to_json(game.view(state, seat)), f"turn at {msg['version']}"
        checked += 1
    return checked


def private_texts(record: rec.Record, up_to: int, seat: int | None) -> list[str]:
    """The texts of events up to a version that ``seat`` may not see."""
    game = REGISTRY[record.game]
    out = []
    for frame in rec.replay(record, game):
        if frame.index > up_to:
            break
        out += [e.text for e in frame.events if not e.visible_to(seat)]
    return out


@pytest.mark.parametrize("game", list(SETUPS))
def test_play_a_whole_game_by_clicking_while_a_spectator_watches(
    game: str, shared_server: ServerProcess, browser: Any
) -> None:
    server = shared_server
    name = f"ann_{game}"
    bots, extra, lang = SETUPS[game]
    rules = {**quick_rules(game), **extra}
    player = open_tab(browser, locale="ja-JP" if lang == "ja" else "en-US")
    sign_in(player, server.http, name)
    table = create_table(player, game, rules, ["me", *bots])
    watcher = open_tab(browser, locale="en-US")
    watcher.page.goto(f"{server.http}/tables/{table}")
    move = driver(game)
    moves = 0
    mid_text: str | None = None
    mid_version = 0
    deadline = time.time() + 240
    page = player.page
    while not page.locator("[data-testid=results]").count():
        assert time.time() < deadline, f"{game}: the game did not end ({moves} moves)"
        if move(page):
            moves += 1
            if moves == MOVES_BEFORE_SHOT and mid_text is None:
                shot(page, f"{game}-mid.png")
                shot(watcher.page, f"{game}-watch.png")
                mid_text = watcher.page.inner_text("body")
                versions = watcher.page.eval_on_selector_all(
                    "[data-testid=event-log] li", "els => els.map(e => +e.dataset.version || 0)"
                )
                mid_version = max(versions, default=0)
        else:
            time.sleep(0.05)
    if mid_text is None:  # a game without decisions (10-card stud): a shot of the running board
        mid_text = ""
    page.wait_for_selector("[data-testid=board-result]")
    # the table's last game never promises a next deal
    assert not page.locator("[data-testid=game-end-next]").count()
    shot(page, f"{game}-end.png")
    wait_until(lambda: watcher.page.locator("[data-testid=results]").count(), 30)
    shot(watcher.page, f"{game}-watch-end.png")

    text = httpx.get(f"{server.http}/api/tables/{table}/record", timeout=30).text
    [record] = rec.loads(text)
    outcome = record.outcome
    assert outcome is not None
    # the result the page shows is the record's
    rows = page.locator("[data-testid=results] tbody tr")
    assert rows.count() == len(record.players)
    me = record.players.index(name)
    shown = page.locator("[data-testid=results] tbody tr", has_text=name).first
    assert shown.locator("td").first.inner_text() == str(outcome["ranks"][me])
    # what each page received is the replay's, filtered for its seat
    assert check_frames(player, record, table, me) > 3
    assert check_frames(watcher, record, table, None) > 3
    spectator_views = [m for m in watcher.frames if m["type"] == "view" and m.get("view")]
    playing = [m for m in spectator_views if m["status"] == "playing"]
    if playing:
        check_view(REGISTRY[game], playing[-1]["view"], None, seed=1)
    for secret in private_texts(record, mid_version, None):
        assert secret not in mid_text, f"the spectator's page shows {secret!r}"
    # the finished game replays to its last step with the scrubber, to the record's result
    page.goto(f"{server.http}/games/{table}#seat={me}")
    page.click("#replay-last")
    steps = len(record.steps)
    position = page.locator("[data-testid=replay-step]")  # "step N of N" / "N 手中 N 手目"
    wait_until(lambda: position.count() and position.inner_text().count(str(steps)) >= 2, 30)
    replayed = page.locator("#results-box tbody tr", has_text=name).first
    assert replayed.locator("td").first.inner_text() == str(outcome["ranks"][me])
    for tab in (player, watcher):
        assert tab.errors == [], tab.errors
        assert tab.missing_keys() == []
    player.close()
    watcher.close()
