"""axe-core (web-dev's npm package) over every page: the lobby, a table of each game in the middle
of a game, the replay, a player's page, the leaderboard, the account page and the operators'
reports page report no serious or critical violation, and no heading out of order.

In CI (``DENNOU_REQUIRE_POSTGRES=1``) a missing axe-core fails the test instead of skipping it:
``scripts/ci-services.sh`` installs web-dev's packages.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dennou.server.testing import ServerProcess

from .browser import Tab, open_tab, resign_unless_over
from .midgame import GAMES, play_to_middle

AXE = Path(__file__).resolve().parents[2] / "web-dev" / "node_modules" / "axe-core" / "axe.min.js"
OPERATOR = "axe_operator"


def axe_or_skip() -> None:
    """Skip (or, in CI, fail) when axe-core is not installed in web-dev."""
    if not AXE.exists():
        missing = f"no axe-core at {AXE} (cd web-dev && npm ci)"
        if os.environ.get("DENNOU_REQUIRE_POSTGRES") == "1":
            pytest.fail(missing)
        pytest.skip(missing)


def serious(tab: Tab) -> list[str]:
    """axe-core's serious and critical violations on the page, and headings out of order (a
    moderate one), one line per element."""
    page = tab.page
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => {
          const r = await axe.run(document, { resultTypes: ['violations'] });
          return r.violations
            .filter((v) => ['serious', 'critical'].includes(v.impact) || v.id === 'heading-order')
            .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')}`
              + ` — ${(n.failureSummary || '').split('\\n').slice(1, 2).join('').trim()}`));
        }"""
    )
    return list(found)


@pytest.fixture(scope="module")
def axe_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server with an operator (the reports page shows its list to operators only)."""
    axe_or_skip()
    proc = ServerProcess(tmp_path_factory.mktemp("axe") / "data", operators=(OPERATOR,))
    proc.start()
    yield proc
    proc.stop()


@pytest.mark.parametrize("game", GAMES)
def test_a_table_in_the_middle_of_a_game_has_no_serious_accessibility_violation(
    game: str, axe_server: ServerProcess, browser: Any, tmp_path: Path
) -> None:
    tab, _ = play_to_middle(browser, axe_server, game, f"axe_{game}", bypass_csp=True)
    found = serious(tab)
    if found:
        tab.page.screenshot(path=str(tmp_path / f"{game}.png"), full_page=True)
    assert found == [], f"{game}:\n" + "\n".join(found)
    tab.close()


def test_the_other_pages_have_no_serious_accessibility_violation(
    axe_server: ServerProcess, browser: Any
) -> None:
    base = axe_server.http
    # a finished game to replay, a player with a game, the operator's reports
    tab, table = play_to_middle(browser, axe_server, "numeron", OPERATOR, bypass_csp=True)
    page = tab.page
    resign_unless_over(page)  # a finished game, for the replay
    problems: list[str] = []
    pages = {
        "lobby": ("/", "#create-form"),
        "replay": (f"/games/{table}", "[data-testid=replay-step]"),
        "replay a file": ("/replay", "main h1"),
        "player": (f"/players/{OPERATOR}", "main h1"),
        "leaderboard": ("/leaderboard", "main h1"),
        "account": ("/account", "main h1"),
        "reports": ("/reports", "main h1"),
    }
    for name, (path, ready) in pages.items():
        page.goto(base + path)
        page.wait_for_selector(ready)
        page.wait_for_load_state("networkidle")
        problems += [f"{name}: {line}" for line in serious(tab)]
    signed_out = open_tab(browser, bypass_csp=True)
    signed_out.page.goto(base + "/")
    signed_out.page.wait_for_selector("#signup-form")
    problems += [f"lobby, signed out: {line}" for line in serious(signed_out)]
    assert problems == [], "\n".join(problems)
    assert tab.errors == [], tab.errors
    tab.close()
    signed_out.close()
