"""Driving the web app in Chromium: sign in, create a table through the form, record frames.

Shared by the browser tests and ``bench/web.py``.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dennou.core.game import rules_options
from dennou.core.jsondata import to_json
from dennou.games import REGISTRY

VIEWPORT = {"width": 1100, "height": 900}
PHONE = {"width": 375, "height": 740}
SHOTS = Path(os.environ["DENNOU_SCREENSHOTS"]) if os.environ.get("DENNOU_SCREENSHOTS") else None
"""Where the tests save screenshots of what they saw, to look at (unset: none is taken; no test
reads one, and a full-page shot takes a second on a busy 2-core machine)."""


def shot(page: Any, name: str, *, full_page: bool = True) -> None:
    """Save a screenshot of ``page`` as ``name`` under :data:`SHOTS` (when it is set)."""
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / name), full_page=full_page)


@dataclass
class Tab:
    """A browser context with one page, and everything the page received and complained about."""

    context: Any
    page: Any
    frames: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def close(self) -> None:
        """Close the context."""
        self.context.close()

    def missing_keys(self) -> list[str]:
        """Translation keys the page asked for that neither language has."""
        return list(self.page.evaluate("[...(globalThis.dennouMissingKeys || [])]"))


def open_tab(
    browser: Any,
    *,
    locale: str = "en-US",
    viewport: dict[str, int] | None = None,
    **options: Any,
) -> Tab:
    """A fresh context (its own cookies) with one page whose WebSocket frames are recorded.

    ``options`` go to Playwright's ``new_context``: ``bypass_csp=True`` lets a test add a script
    of its own to the pages (a checker such as axe-core), ``reduced_motion="reduce"`` emulates
    the system setting.
    """
    context = browser.new_context(viewport=viewport or VIEWPORT, locale=locale, **options)
    context.set_default_timeout(45_000)  # a loaded 2-core machine is slow to draw
    page = context.new_page()
    tab = Tab(context, page)

    def on_ws(ws: Any) -> None:
        def got(payload: Any) -> None:
            text = payload if isinstance(payload, str) else bytes(payload).decode()
            tab.frames.append(json.loads(text))

        ws.on("framereceived", got)

    page.on("websocket", on_ws)
    page.on("pageerror", lambda exc: tab.errors.append(f"pageerror: {exc}"))
    page.on(
        "console",
        lambda msg: tab.errors.append(f"console: {msg.text}") if msg.type == "error" else None,
    )
    return tab


def sign_in(
    tab: Tab, base: str, name: str, lang: str | None = None, password: str | None = None
) -> None:
    """Open the lobby and create an account (a name and a password) through its form."""
    page = tab.page
    page.goto(base + "/" + (f"?lang={lang}" if lang else ""))
    page.fill("#signup-name", name)
    page.fill("#signup-password", password or f"{name} password")
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector("#create-form")


def quick_rules(game: str) -> dict[str, Any]:
    """The game's first conformance rules, less what equals the defaults."""
    engine = REGISTRY[game]
    rules = to_json(engine.conformance_rules()[0])
    defaults = {name: to_json(d) for name, _, d, _ in rules_options(engine.rules_type)}
    return {k: v for k, v in rules.items() if defaults.get(k) != v}


def create_table(tab: Tab, game: str, rules: dict[str, Any], seats: list[str]) -> str:
    """Fill the lobby's form (game, rules, seats) and create the table; returns its id."""
    page = tab.page
    page.select_option("#create-game", game)
    for name, value in rules.items():
        selector = f"#rule-{name}"
        kind = page.eval_on_selector(selector, "e => e.tagName + ':' + (e.type || '')")
        if kind == "INPUT:checkbox":
            page.set_checked(selector, bool(value))
        elif kind.startswith("SELECT"):
            page.select_option(selector, str(value))
        else:
            page.fill(selector, value if isinstance(value, str) else json.dumps(value))
    page.select_option("#create-count", str(len(seats)))
    for i, seat in enumerate(seats):
        kind, _, options = seat.partition(":") if not seat.startswith("bot:") else ("", "", "")
        if seat.startswith("bot:"):
            name, _, options = seat[4:].partition(":")
            page.select_option(f"#seat-{i}", f"bot:{name}")
            if options:
                page.fill(f"#seat-{i}-opts", options)
        else:
            page.select_option(f"#seat-{i}", seat)
        del kind
    page.click("#create-submit")
    page.wait_for_url("**/tables/*")
    return str(page.url.rstrip("/").split("/")[-1].split("?")[0])


def wait_until(check: Any, timeout: float, step: float = 0.05) -> Any:
    """Poll ``check()`` until it returns something truthy."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = check()
        if value:
            return value
        time.sleep(step)
    raise TimeoutError("condition not met in time")


def resign_unless_over(page: Any, timeout: float = 60) -> None:
    """Resign this page's seat, or see the game end first (bots and clocks go on meanwhile).

    Between any two clicks the bots may finish the game, which takes the buttons away: each
    click is tried briefly and the loop ends at the results or once "yes" is clicked.
    """
    from playwright.sync_api import Error as PlaywrightError

    results = page.locator("[data-testid=results]")

    def step() -> bool:
        if results.count():
            return True
        for selector in ("[data-testid=resign-yes]", "[data-testid=resign]"):
            button = page.locator(f"{selector}:not([disabled])")
            if button.count():
                try:
                    button.click(timeout=2_000)
                except PlaywrightError:  # gone between the count and the click: look again
                    return False
                return selector.endswith("yes]")
        return False

    wait_until(step, timeout)
    page.wait_for_selector("[data-testid=results]", timeout=60_000)
