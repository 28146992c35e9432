"""Motion on the boards: a play moves where it goes (Daifugo's played cards fly to the field,
Numeron's judged calls appear in their table), each movement at most 250 ms and skipped by a key;
with ``prefers-reduced-motion: reduce`` (Playwright's emulation) nothing moves at all.
"""

from __future__ import annotations

from typing import Any

import pytest

from dennou.server.testing import ServerProcess

from .midgame import play_to_middle

# Every Web Animation started on the page is noted (an init script runs before the page's own).
NOTE_ANIMATIONS = """
window.dennouMotion = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, timing) {
  const a = animate.call(this, frames, timing);
  const t = a.effect ? a.effect.getComputedTiming() : {};
  window.dennouMotion.push({ el: String(this.className), ms: Number(t.endTime || 0) });
  return a;
};
"""
# CSS animations and transitions, named by their computed style, anywhere on the page
CSS_ANIMATED = """[...document.querySelectorAll('*')].filter((e) => {
  const s = getComputedStyle(e);
  return s.animationName !== 'none' || parseFloat(s.transitionDuration) > 0;
}).length"""
MOVED = {"daifugo": "card", "numeron": ""}  # what moves: a class of the element


@pytest.mark.parametrize("game", ["daifugo", "numeron"])
def test_a_play_moves_where_it_goes_for_at_most_250_ms(
    game: str, shared_server: ServerProcess, browser: Any
) -> None:
    tab, _ = play_to_middle(
        browser, shared_server, game, f"move_{game}", moves=4, init_script=NOTE_ANIMATIONS
    )
    moved = tab.page.evaluate("window.dennouMotion")
    assert [m for m in moved if MOVED[game] in m["el"].split() or not MOVED[game]], moved
    assert all(0 < m["ms"] <= 250 for m in moved), moved
    # a key finishes a movement at once
    state = tab.page.evaluate(
        """() => {
          const board = document.querySelector('#board');
          const a = board.animate([{ opacity: 0 }, { opacity: 1 }], 200);
          const key = new KeyboardEvent('keydown', { key: 'Shift', bubbles: true });
          document.activeElement.dispatchEvent(key);
          return a.playState;
        }"""
    )
    assert state == "finished"
    assert tab.errors == [], tab.errors
    tab.close()


@pytest.mark.parametrize("game", ["daifugo", "numeron"])
def test_nothing_moves_for_people_who_ask_for_reduced_motion(
    game: str, shared_server: ServerProcess, browser: Any
) -> None:
    tab, _ = play_to_middle(
        browser,
        shared_server,
        game,
        f"still_{game}",
        moves=4,
        init_script=NOTE_ANIMATIONS,
        reduced_motion="reduce",
    )
    page = tab.page
    assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    assert page.evaluate("window.dennouMotion") == []
    assert page.evaluate("document.getAnimations().length") == 0
    assert page.evaluate(CSS_ANIMATED) == 0
    assert tab.errors == [], tab.errors
    tab.close()
