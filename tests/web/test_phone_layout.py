"""Every board on a 375 px phone, in Japanese and English, in the middle of a game: the page never
scrolls sideways and no box hides columns sideways, no visible text is smaller than 11 px (SVG
text measured as drawn, its font size scaled by the drawing), and no word is broken a character
per line. Each board's screenshot is saved under ``$DENNOU_SCREENSHOTS`` when it is set.
"""

from __future__ import annotations

from typing import Any

import pytest

from dennou.server.testing import ServerProcess

from .browser import PHONE, shot
from .midgame import GAMES, play_to_middle

MIN_PX = 11

# Run in the page: what breaks a phone layout, each problem as one line of text.
LAYOUT_PROBLEMS = """(minPx) => {
  const out = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > window.innerWidth) {
    const wide = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 3)
      .map((e) => e.tagName.toLowerCase() + '.' + [...e.classList].join('.'));
    out.push(`page ${doc.scrollWidth} px wide in ${window.innerWidth}: ${wide.join(', ')}`);
  }
  // a box that scrolls sideways hides columns (only a timeline marked data-wide may)
  for (const box of document.querySelectorAll('body *')) {
    const s = getComputedStyle(box);
    if (!['auto', 'scroll'].includes(s.overflowX) || box.hasAttribute('data-wide')) continue;
    if (box.scrollWidth > box.clientWidth + 1) {
      const head = [...box.querySelectorAll('th')].map((e) => e.textContent).join('|');
      const size = `${box.scrollWidth} px in ${box.clientWidth}`;
      out.push(`hidden sideways (${size}): ${box.className} ${head}`);
    }
  }
  const shown = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.display === 'none' || s.visibility === 'hidden' || s.opacity === '0') return false;
      if (s.clip === 'rect(0px, 0px, 0px, 0px)' || e.classList.contains('sr-only')) return false;
    }
    return el.getClientRects().length > 0;
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || seen.has(el) || el.closest('dialog:not([open]), script, style')) continue;
    seen.add(el);
    if (!shown(el)) continue;
    let px = parseFloat(getComputedStyle(el).fontSize);
    const svgText = el.closest('text');
    if (svgText instanceof SVGGraphicsElement) {
      const m = svgText.getScreenCTM();
      if (m) px *= Math.hypot(m.b, m.d);
    }
    const tag = `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`;
    const what = `${tag} "${text.slice(0, 20)}"`;
    if (px < minPx - 0.05) out.push(`${px.toFixed(1)} px: ${what}`);
    // a word broken a character per line: three or more lines, each about a character wide
    if (!svgText && [...text].length >= 3) {
      const range = document.createRange();
      range.selectNodeContents(node);
      const lines = [...range.getClientRects()].filter((r) => r.width > 0);
      const tops = new Set(lines.map((r) => Math.round(r.top)));
      const widest = Math.max(...lines.map((r) => r.width));
      if (tops.size >= 3 && widest < 1.8 * px) out.push(`a character per line: ${what}`);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("game", GAMES)
def test_every_board_fits_a_phone_with_readable_text(
    game: str, lang: str, shared_server: ServerProcess, browser: Any
) -> None:
    tab, _ = play_to_middle(
        browser, shared_server, game, f"phone_{game}_{lang}", lang=lang, viewport=PHONE
    )
    page = tab.page
    shot(page, f"{game}-{lang}-375.png")
    problems = page.evaluate(LAYOUT_PROBLEMS, MIN_PX)
    assert problems == [], f"{game} ({lang}) at 375 px:\n" + "\n".join(problems)
    assert tab.errors == [], tab.errors
    tab.close()
