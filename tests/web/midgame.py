"""A game brought to its middle on a page: a person signs in, creates a table against built-in
bots (the same set-ups as the whole games of ``test_play``) and makes a few moves by clicking."""

from __future__ import annotations

import time
from typing import Any

from dennou.server.testing import ServerProcess

from .browser import Tab, create_table, open_tab, quick_rules, sign_in
from .drivers import DRIVERS, driver
from .test_play import MOVES_BEFORE_SHOT, SETUPS

GAMES = list(SETUPS)


def play_to_middle(
    browser: Any,
    server: ServerProcess,
    game: str,
    name: str,
    *,
    lang: str = "en",
    viewport: dict[str, int] | None = None,
    moves: int = MOVES_BEFORE_SHOT,
    init_script: str | None = None,
    **options: Any,
) -> tuple[Tab, str]:
    """A tab whose person plays ``game`` and has made ``moves`` moves, and the table's id.

    ``init_script`` runs in every page before the page's own scripts; ``options`` go to the
    browser context (:func:`open_tab`).

    A game without decisions for the person (10-card stud) is shown after 3 s without one; a
    game that ends before the moves are made is shown at its end.
    """
    bots, extra, _ = SETUPS[game]
    tab = open_tab(
        browser,
        locale="ja-JP" if lang == "ja" else "en-US",
        viewport=viewport,
        **options,
    )
    if init_script:
        tab.context.add_init_script(init_script)
    sign_in(tab, server.http, name)
    table = create_table(tab, game, {**quick_rules(game), **extra}, ["me", *bots])
    page = tab.page
    page.wait_for_selector(f"#board.b-{game}, #board.b-generic")
    move = driver(game)
    made = 0
    started = time.time()
    deadline = started + 120
    while made < moves and not page.locator("[data-testid=results]").count():
        assert time.time() < deadline, f"{game}: no {moves} moves in time"
        if move(page):
            made += 1
        elif game not in DRIVERS and time.time() > started + 3:
            break
        else:
            time.sleep(0.05)
    page.wait_for_timeout(300)  # the answer to the last move drawn
    return tab, table
