"""A player's story in a real browser: ratings beside names at tables and in the lobby, the
player page's rating chart and filtered games list, and the leaderboard's links to players
(docs/web.md, "Ratings and a player's page").
"""

from __future__ import annotations

import time
from typing import Any

import httpx

from dennou.server.testing import WS, ServerProcess

from .browser import open_tab, shot, wait_until
from .games import rated_numeron_game


def rated_points(server: ServerProcess, name: str, n: int) -> list[dict[str, Any]]:
    """The chart points once the host has rated ``n`` tables (it rates in the background)."""
    deadline = time.monotonic() + 30
    while True:
        points: list[dict[str, Any]] = httpx.get(
            f"{server.http}/api/players/{name}/ratings", timeout=10
        ).json()["points"]
        if len(points) >= n or time.monotonic() > deadline:
            return points
        time.sleep(0.2)


def test_the_player_page_charts_the_rating_and_filters_the_games(
    shared_server: ServerProcess, browser: Any
) -> None:
    token = shared_server.register("story_ann")
    tables = []
    for i in range(3):
        ws = WS(shared_server.ws)
        assert ws.request({"type": "hello", "token": token})["type"] == "welcome"
        tables.append(rated_numeron_game(ws, resign=i == 1))  # two wins and a loss
    points = rated_points(shared_server, "story_ann", 3)
    assert [p["games"] for p in points] == [1, 2, 3]

    for locale in ("en-US", "ja-JP"):
        tab = open_tab(browser, locale=locale)
        page = tab.page
        page.goto(f"{shared_server.http}/players/story_ann")
        chart = page.locator("[data-testid=rating-chart]")
        chart.wait_for()
        assert chart.locator("circle.dot").count() == 3
        assert int(chart.locator("path.line").get_attribute("data-points") or 0) == 3
        ordinal = points[-1]["mu"] - 3 * points[-1]["sigma"]
        assert f"{ordinal:.2f}" in (chart.get_attribute("aria-label") or "")
        rows = page.locator("[data-testid=player-history] tbody tr")
        assert rows.count() == 3
        results = {r.inner_text().split("\t")[1] for r in rows.all()}
        page.select_option("[data-testid=filter-result]", index=1)
        shown = rows.count()
        games = {r.locator("a").get_attribute("href") for r in rows.all()}  # each its own table
        assert 1 <= shown <= 3 and len(games) == shown
        assert len(results) == 2 and shown < 3
        page.select_option("[data-testid=filter-result]", "")
        assert rows.count() == 3
        shot(page, f"player-{locale}.png")

        # the leaderboard's ratings link to the player's page
        page.goto(f"{shared_server.http}/leaderboard/numeron")
        page.click("[data-testid^=ratings-] a:text-is('story_ann')")
        page.wait_for_url("**/players/story_ann*")
        page.locator("[data-testid=rating-chart]").wait_for()

        # a finished table shows its seats' ratings beside their names
        page.goto(f"{shared_server.http}/tables/{tables[0]}")
        badge = page.locator("[data-testid=rating-0]")
        badge.wait_for()
        assert badge.inner_text().strip() == f"{ordinal:.1f}"
        assert page.locator("[data-testid=rating-1]").inner_text().strip() != ""
        assert tab.errors == [], tab.errors
        assert tab.missing_keys() == []
        tab.close()


def test_the_lobby_shows_ratings_beside_the_names_at_live_tables(
    shared_server: ServerProcess, browser: Any
) -> None:
    token = shared_server.register("story_ben")
    ws = WS(shared_server.ws)
    assert ws.request({"type": "hello", "token": token})["type"] == "welcome"
    rated_numeron_game(ws)
    rated_points(shared_server, "story_ben", 1)
    ws = WS(shared_server.ws)
    assert ws.request({"type": "hello", "token": token})["type"] == "welcome"
    made = ws.request(
        {"type": "create_table", "game": "numeron", "rules": {"digits": 3}, "seats": ["me", "open"]}
    )
    table = made["table"]["id"]  # type: ignore[index]
    tab = open_tab(browser)
    tab.page.goto(shared_server.http + "/")
    row = tab.page.locator(f"#live-tables tr[data-table='{table}']")
    row.wait_for()
    wait_until(lambda: row.locator("[data-testid=rating-0]").count(), 20)
    assert row.locator("[data-testid=rating-0]").inner_text().strip() != ""
    ws.close()
    assert tab.errors == [], tab.errors
    tab.close()
