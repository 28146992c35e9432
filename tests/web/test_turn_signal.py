"""Your turn, in a real browser: a tone only once switched on, and while the page is in the
background the title and icon flash and a notification shows; looking at the page again stops
them (docs/web.md, "At the table").
"""

from __future__ import annotations

from typing import Any

from dennou.server.testing import ServerProcess

from .browser import create_table, open_tab, sign_in, wait_until
from .drivers import numeron

HIDE = """hidden => {
  const state = () => (hidden ? 'hidden' : 'visible');
  Object.defineProperty(document, 'visibilityState', {configurable: true, get: state});
  Object.defineProperty(document, 'hidden', {configurable: true, get: () => hidden});
  document.dispatchEvent(new Event('visibilitychange'));
}"""


def signals(page: Any) -> dict[str, int]:
    return dict(page.evaluate("({...window.dennouTurnSignals})"))


def test_your_turn_sounds_when_switched_on_and_flashes_and_notifies_in_the_background(
    shared_server: ServerProcess, browser: Any
) -> None:
    tab = open_tab(browser)
    page = tab.page
    tab.context.grant_permissions(["notifications"], origin=shared_server.http)
    sign_in(tab, shared_server.http, "turn_ann")
    create_table(tab, "numeron", {}, ["me", "bot:random"])
    page.locator("[data-testid=pad-submit]").wait_for()
    title = page.title()
    icon = page.get_attribute("link[rel=icon]", "href")
    # off by default: the first turn is silent, and the page is in view, so nothing flashes
    assert signals(page) == {"beeps": 0, "flashes": 0, "notices": 0}
    assert not page.is_checked("[data-testid=turn-sound]")

    page.check("[data-testid=turn-sound]")  # the click plays the tone once, as a sample
    page.check("[data-testid=turn-notify]")
    assert signals(page)["beeps"] == 1

    page.evaluate(HIDE, True)  # the person looks at another tab
    before = signals(page)
    assert numeron(page)  # set the number; the next decision is ours again after the bot's
    wait_until(lambda: signals(page)["beeps"] > before["beeps"], 30)
    wait_until(lambda: page.title().startswith("▶"), 5)
    after = signals(page)
    assert after["flashes"] == 1 and after["notices"] >= 1
    assert page.get_attribute("link[rel=icon]", "href") != icon

    page.evaluate(HIDE, False)  # back at the table: the title and the icon are themselves again
    wait_until(lambda: page.title() == title, 5)
    assert page.get_attribute("link[rel=icon]", "href") == icon

    # the switches are remembered in this browser
    page.reload()
    page.locator("[data-testid=turn-sound]").wait_for()
    assert page.is_checked("[data-testid=turn-sound]")
    assert tab.errors == [], tab.errors
    assert tab.missing_keys() == []
    tab.close()
