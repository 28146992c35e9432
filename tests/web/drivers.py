"""Per game: make one move on the page by clicking, as a person would; returns whether it did.

A driver looks only at the page (the board's controls and what it shows), never at the server.
Games without a board of their own are driven through the generic board.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import permutations
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

Driver = Callable[[Any], bool]


def _enabled(page: Any, selector: str) -> Any:
    loc = page.locator(f"{selector}:not([disabled])")
    return loc if loc.count() else None


def generic(page: Any) -> bool:
    """Click the first listed legal action, or the first example of a large action space."""
    for selector in ("[data-testid=legal]", ".b-generic .chip"):
        loc = _enabled(page, selector)
        if loc is not None:
            loc.first.click()
            return True
    return False


def numeron(page: Any) -> bool:
    """Set 012; call a number consistent with every judgment so far (no items: 3 digits)."""
    submit = page.locator("[data-testid=pad-submit]")
    if not submit.count():
        for selector in ("[data-key=decline]", "[data-key=no_item]", "[data-key=reveal-0]"):
            loc = _enabled(page, selector)
            if loc is not None:
                loc.first.click()
                return True
        return False
    status = page.inner_text("[data-testid=numeron-status]")
    digits = int(re.findall(r"\d+", status)[0])
    if "setting" in status or "設定" in status:
        number = "0123456789"[:digits]
    else:
        me = page.get_attribute(".b-numeron .side.me", "data-seat")
        rows = page.locator(f"[data-testid=calls-{me}] tbody tr")
        judged = []
        for i in range(rows.count()):
            cells = rows.nth(i).locator("td").all_inner_texts()
            judged.append((cells[1], int(cells[2]), int(cells[3])))

        def fits(secret: str) -> bool:
            for call, eat, bite in judged:
                e = sum(a == b for a, b in zip(secret, call, strict=True))
                b = sum(c in secret for c in call) - e
                if (e, b) != (eat, bite):
                    return False
            return True

        number = next("".join(p) for p in permutations("0123456789", digits) if fits("".join(p)))
    clear = _enabled(page, "[data-key=pad-clear]")
    if clear is not None:  # digits typed for this decision by an earlier, interrupted try
        clear.click()
    for d in number:
        key = page.locator(f"[data-key=pad-{d}]")
        if not key.count() or key.is_disabled():  # the decision ended meanwhile (a timeout)
            return False
        key.click()
    page.click("[data-testid=pad-submit]")
    return True


def daifugo(page: Any) -> bool:
    """Exchange: give the strongest cards; play: the first legal play, else pass."""
    give = page.locator("[data-testid=give]")
    if give.count():
        # all_inner_texts does not wait: after our own give the button stays until the
        # server's answer removes it, so it may be gone by the time it is read
        texts = give.all_inner_texts()
        if not texts:
            return False
        need = int(re.findall(r"\d+", texts[0])[0])
        cards = page.locator(".b-daifugo .hand button.card:not([disabled])")
        n = cards.count()
        if n == 0:
            return False
        selected = page.locator(".b-daifugo .hand button.card.selected").count()
        if selected == 0:
            for i in range(need):
                cards.nth(n - 1 - i).click()
        return _click(page, "[data-testid=give]")
    chip = _enabled(page, "[data-testid=legal-play]")
    if chip is not None:
        chip.first.click()
        play = page.locator("[data-testid=play]")
        if not play.count() or play.is_disabled():  # the turn moved on meanwhile
            return False
        play.click()
        return True
    passing = _enabled(page, "[data-testid=pass]")
    if passing is not None:
        passing.click()
        return True
    return False


def _click(page: Any, selector: str) -> bool:
    """Click an enabled control; False when it is gone or disabled (the decision moved on)."""
    loc = _enabled(page, selector)
    if loc is None:
        return False
    loc.first.click()
    return True


def hilo(page: Any) -> bool:
    """Pick the side with more of one's candidates; else one of the six choices, by points.

    Odd points: a random High-Low (2.2, then the pick); 10 or more: a check at the first
    candidate (2.3); otherwise a High-Low (2.1) at the middle of one's range.
    """
    high, low = page.locator("[data-testid=pick-high]"), page.locator("[data-testid=pick-low]")
    if high.count() and low.count():
        # all_inner_texts does not wait: the buttons may be re-rendered as the decision moves on
        texts = [b.locator(".share").all_inner_texts() for b in (high, low)]
        if not all(texts):
            return False
        share = [int(re.sub(r"\D", "", t[0]) or 0) for t in texts]
        side = "high" if share[0] >= share[1] else "low"
        return _click(page, f"[data-testid=pick-{side}]")
    if not page.locator("[data-testid^=choice-]:not([disabled])").count():
        return False
    me = page.get_attribute(".b-hilo .player.me", "data-seat")
    points = int(page.inner_text(f"[data-testid=points-{me}] strong"))
    if points >= 10 and _click(page, "[data-testid=choice-check]"):
        return _click(page, "[data-key=x-low]") and _click(page, "[data-testid=send]")
    if points % 2 and _click(page, "[data-testid=choice-random_guess]"):
        return _click(page, "[data-testid=send]")
    if not _click(page, "[data-testid=choice-guess]"):
        return False
    return _click(page, "[data-testid=x-mid]") and _click(page, "[data-testid=high]")


def smuggling(page: Any) -> bool:
    """Nominate the first teammate; pack a quarter of the most; finish talking; as inspector,
    doubt half the limit in odd small games and pass in even ones."""
    if _click(page, "[data-testid=nominate]") or _click(page, "[data-testid=ready]"):
        return True
    if page.locator("[data-testid=trunk-send]").count():
        presets = page.locator("[data-testid=trunk-preset]:not([disabled])")
        if not presets.count():
            return False
        presets.nth(min(1, presets.count() - 1)).click()
        return _click(page, "[data-testid=trunk-send]")
    if page.locator("[data-testid=pass]").count():
        status = page.inner_text("[data-testid=smuggling-status]")
        small_game = int(re.findall(r"\d+", status)[0])
        presets = page.locator("[data-testid=doubt-preset]:not([disabled])")
        if small_game % 2 and presets.count():
            presets.nth(presets.count() // 2).click()
            return _click(page, "[data-testid=doubt-send]")
        return _click(page, "[data-testid=pass]")
    return False


def pandemic(page: Any) -> bool:
    """Every fourth tick the check room; otherwise ask someone for a contact (in turn)."""
    if not _enabled(page, "[data-testid=choose-idle]"):
        return False
    tick = int(re.findall(r"\d+", page.inner_text("[data-testid=pandemic-status]"))[2])
    people = page.locator("[data-testid=contact]:not([disabled])")
    if tick % 4 == 1 or not people.count():
        chosen = _click(page, "[data-testid=choose-check]")
    else:
        people.nth(tick % people.count()).click()
        chosen = True
    return chosen and _click(page, "[data-testid=seal]")


def chairs(page: Any) -> bool:
    """Free time: one gift, then ready; go: the two nearest chairs, then block a rival player
    (or nobody); vote for the first candidate; as parent remove the first chair."""
    if _enabled(page, "[data-testid=ready]"):
        if _enabled(page, "[data-testid=gift]") and not page.locator(".gift-list li").count():
            return _click(page, "[data-testid=gift]")
        return _click(page, "[data-testid=ready]")
    if page.locator("[data-testid=order-seal]").count():
        chairs = page.locator("[data-testid=order-chair]")
        # evaluate_all does not wait: the chairs may be re-rendered as the decision moves on
        pressed = chairs.evaluate_all("els => els.map(e => e.getAttribute('aria-pressed'))")
        for i, state in enumerate(pressed[:2]):
            if state != "true":
                if not chairs.nth(i).count():
                    return False
                chairs.nth(i).click()
        return _click(page, "[data-testid=order-seal]")
    if page.locator("[data-testid=block-seal]").count():
        if _click(page, "[data-testid=block-mode-player]"):
            _click(page, "[data-testid=block-player]")
        return _click(page, "[data-testid=block-seal]")
    if _click(page, "[data-testid=vote]"):
        return True
    if page.locator("[data-testid=remove]").count():
        return _click(page, "[data-testid=remove-chair]") and _click(page, "[data-testid=remove]")
    return False


DRIVERS: dict[str, Driver] = {
    "numeron": numeron,
    "daifugo": daifugo,
    "hilo": hilo,
    "smuggling": smuggling,
    "pandemic": pandemic,
    "chairs": chairs,
}


def driver(game: str) -> Driver:
    """The game's driver (the generic one for games without a board of their own).

    A read or click that times out because the page moved on meanwhile (the decision ended, the
    game ended and its board gave way to the results) is no move: the caller looks again, and
    its own deadline catches a page that really stopped.
    """
    move = DRIVERS.get(game, generic)

    def patient(page: Any) -> bool:
        try:
            return move(page)
        except PlaywrightTimeoutError:
            return False

    return patient
