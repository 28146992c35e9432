"""Playing by keyboard in a real browser: typed input where a player would type (digits for
Numeron, card ranks for Daifugo), the focus kept on the board after every key and action (never
on the page's body), and the keys listed in a help overlay, in Japanese and English.
"""

from __future__ import annotations

import re
import time
from typing import Any

from dennou.server.testing import ServerProcess

from .browser import Tab, create_table, open_tab, quick_rules, shot, sign_in, wait_until

FOCUS_ON_BOARD = "document.activeElement && document.activeElement.closest('#board') !== null"
SUITS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}


def my_actions(tab: Tab, table: str, seat: int) -> int:
    """How many actions of ``seat`` the page was told of."""
    tab.page.wait_for_timeout(20)  # Playwright hands over the frames received meanwhile
    return sum(
        1
        for m in tab.frames
        if m.get("type") == "event"
        and m.get("table") == table
        and m.get("step") == "action"
        and m.get("seat") == seat
    )


def tab_to(page: Any, selector: str, most: int = 80) -> int:
    """Press Tab until the element matching ``selector`` has the focus; returns the presses."""
    for n in range(1, most + 1):
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement?.matches({selector!r}) ?? false"):
            return n
    raise AssertionError(f"{selector} not reached in {most} Tabs")


def test_numeron_by_keyboard_digits_fill_the_entry_enter_sends_and_the_focus_stays_on_the_board(
    shared_server: ServerProcess, browser: Any
) -> None:
    tab = open_tab(browser)
    sign_in(tab, shared_server.http, "kay_numeron")
    table = create_table(tab, "numeron", {}, ["me", "bot:random"])
    page = tab.page
    page.wait_for_selector("[data-testid=pad-submit]")
    tab_to(page, "[data-key=pad-1]")
    for key in "123":
        page.keyboard.press(key)
    assert re.sub(r"\s", "", page.inner_text("[data-testid=entry]")) == "123"
    assert page.evaluate(FOCUS_ON_BOARD)
    page.keyboard.press("Backspace")
    page.keyboard.press("3")
    page.keyboard.press("Enter")
    wait_until(lambda: my_actions(tab, table, 0) == 1, 20)
    assert page.evaluate(FOCUS_ON_BOARD), "the focus fell off the board after setting"
    # the calls: typed digits, Enter, and the focus still on the board after each
    for call in ("456", "789"):
        before = my_actions(tab, table, 0)
        # my turn to call: the pad's keys are enabled again
        wait_until(
            lambda: (
                page.locator("[data-key=pad-4]:not([disabled])").count()
                or page.locator("[data-testid=results]").count()
            ),
            30,
        )
        if page.locator("[data-testid=results]").count():
            break
        page.keyboard.type(call)
        page.keyboard.press("Enter")
        wait_until(lambda b=before: my_actions(tab, table, 0) > b, 20)
        assert page.evaluate(FOCUS_ON_BOARD), f"the focus fell off the board after calling {call}"
    calls = page.locator("[data-testid=calls-0] tbody tr td.mono").all_inner_texts()
    assert calls[:1] == ["456"]
    shot(page, "numeron-keys.png")
    assert tab.errors == [], tab.errors
    assert tab.missing_keys() == []
    tab.close()


def chip_cards(text: str) -> list[str]:
    """A legal play's chip ("♠3 ♥10 JOKER") as cards ("3s", "10h", "JK")."""
    return ["JK" if c == "JOKER" else c[1:] + SUITS[c[0]] for c in text.split()]


def rank_of(card: str) -> str:
    return "JK" if card == "JK" else card[:-1]


def keys_for(play: list[str], hand: list[str]) -> str | None:
    """The rank keys that select exactly ``play`` (each press: the next card of its rank)."""
    chosen: list[str] = []
    for rank in dict.fromkeys(rank_of(c) for c in play):
        want = sum(1 for c in play if rank_of(c) == rank)
        chosen += [c for c in hand if rank_of(c) == rank][:want]
    if sorted(chosen) != sorted(play):
        return None
    key = {"10": "0", "JK": "x"}
    return "".join(key.get(rank_of(c), rank_of(c)) for c in play)


def test_daifugo_by_keyboard_ranks_select_enter_plays_p_passes_and_the_focus_stays(
    shared_server: ServerProcess, browser: Any
) -> None:
    tab = open_tab(browser, locale="ja-JP")
    sign_in(tab, shared_server.http, "kay_daifugo")
    rules = {**quick_rules("daifugo"), "games": 1}
    table = create_table(tab, "daifugo", rules, ["me", *["bot:greedy"] * 3])
    page = tab.page
    page.wait_for_selector(".b-daifugo .hand")
    tabs = tab_to(page, "#board")
    assert tabs <= 25, f"{tabs} Tabs to reach the board"
    played = passed = 0
    deadline = time.time() + 120
    while (played < 2 or passed < 1) and not page.locator("[data-testid=results]").count():
        assert time.time() < deadline, f"played {played}, passed {passed}"
        play = page.locator("[data-testid=play]")
        if not play.count():
            time.sleep(0.05)
            continue
        before = my_actions(tab, table, 0)
        hand = page.eval_on_selector_all(
            ".b-daifugo .hand button.card", "els => els.map(e => e.dataset.card)"
        )
        chips = page.locator("[data-testid=legal-play]").all_inner_texts()
        keys = next((k for c in chips if (k := keys_for(chip_cards(c), hand))), None)
        can_pass = page.locator("[data-testid=pass]:not([disabled])").count() > 0
        if keys and (played < 2 or not can_pass):
            page.keyboard.type(keys)
            selected = page.locator(".b-daifugo .hand button.card.selected").count()
            assert selected == len(keys), (keys, selected)
            page.keyboard.press("Enter")
            kind = "play"
        elif can_pass:
            page.keyboard.press("p")
            kind = "pass"
        else:
            time.sleep(0.05)
            continue
        try:
            wait_until(lambda b=before: my_actions(tab, table, 0) > b, 5)
        except TimeoutError:
            continue  # the clock took the turn meanwhile (10 s); look again
        if kind == "play":
            played += 1
        else:
            passed += 1
        assert page.evaluate(FOCUS_ON_BOARD), f"the focus fell off the board after a {kind}"
    shot(page, "daifugo-keys.png")
    assert played >= 1
    assert tab.errors == [], tab.errors
    assert tab.missing_keys() == []
    tab.close()


def test_the_help_overlay_lists_the_boards_keys_in_each_language(
    shared_server: ServerProcess, browser: Any
) -> None:
    for lang, locale, title in (("ja", "ja-JP", "キー操作"), ("en", "en-US", "Keyboard shortcuts")):
        tab = open_tab(browser, locale=locale)
        sign_in(tab, shared_server.http, f"kay_help_{lang}")
        create_table(tab, "numeron", {}, ["me", "bot:random"])
        page = tab.page
        page.wait_for_selector("[data-testid=pad-submit]")
        page.locator("body").press("?")
        dialog = page.locator("[data-testid=help]")
        wait_until(lambda d=dialog: d.is_visible(), 10)
        text = dialog.inner_text()
        assert title in text
        assert "Backspace" in text and "Enter" in text and "0–9" in text
        assert not re.search(r"\bkeys\.\w", text), text
        shot(page, f"help-{lang}.png", full_page=False)
        page.keyboard.press("Escape")
        wait_until(lambda d=dialog: not d.is_visible(), 10)
        page.click("[data-testid=help-open]")
        wait_until(lambda d=dialog: d.is_visible(), 10)
        page.click("[data-testid=help-close]")
        wait_until(lambda d=dialog: not d.is_visible(), 10)
        assert tab.errors == [], tab.errors
        assert tab.missing_keys() == []
        tab.close()


def test_on_any_board_enter_confirms_with_its_main_button_and_the_focus_stays(
    shared_server: ServerProcess, browser: Any
) -> None:
    tab = open_tab(browser)
    sign_in(tab, shared_server.http, "kay_chairs")
    table = create_table(tab, "chairs", quick_rules("chairs"), ["me", *["bot:random"] * 3])
    page = tab.page
    page.wait_for_selector("[data-testid=ready]:not([disabled])")
    tab_to(page, "#board")
    page.keyboard.press("Enter")  # free time: Enter is "ready", the board's main button
    wait_until(lambda: my_actions(tab, table, 0) == 1, 20)
    assert page.evaluate(FOCUS_ON_BOARD)
    assert tab.errors == [], tab.errors
    assert tab.missing_keys() == []
    tab.close()
