"""The web app's speed as a person feels it : page load and click-to-board latency.

Starts ``dennou serve`` on a loopback port and drives Debian's Chromium with Playwright:

- **page load**: ``/tables/{id}`` opened fresh until the board is drawn (the page's modules,
  its API calls, the WebSocket and the first view), over ``--loads`` loads;
- **move**: a Numeron call clicked on the pad until the board shows its judgment (the click,
  the action over the WebSocket, the server's step and the broadcast back, and the redraw),
  over ``--moves`` moves against the ``random`` bot.

    python bench/web.py [--loads 20] [--moves 40]

Prints median and p95 in milliseconds. There is no peer to compare with: the figures are for
regressions (run before and after a change, on an idle machine).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from itertools import permutations
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from tests.web.browser import create_table, open_tab, sign_in  # noqa: E402
from tests.web.conftest import ARGS, CHROMIUM  # noqa: E402
from tests.web.drivers import numeron  # noqa: E402

from dennou.server.testing import ServerProcess  # noqa: E402


def p95(xs: list[float]) -> float:
    """The 95th percentile (nearest rank)."""
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def row(name: str, xs: list[float]) -> str:
    """One line of the table."""
    return f"{name:<28} {len(xs):>5} {statistics.median(xs):>10.1f} {p95(xs):>10.1f}"


def loads(browser: Any, base: str, table: str, n: int) -> list[float]:
    """Milliseconds from opening the table page to the drawn board, ``n`` times."""
    out = []
    for _ in range(n):
        tab = open_tab(browser)
        started = time.perf_counter()
        tab.page.goto(f"{base}/tables/{table}")
        tab.page.wait_for_selector("#board.b-numeron")
        out.append((time.perf_counter() - started) * 1000)
        tab.close()
    return out


def moves(page: Any, n: int) -> list[float]:
    """Milliseconds from clicking Call to the judged call on the board, for ``n`` calls."""
    out: list[float] = []
    numbers = ("".join(p) for p in permutations("0123456789", 3))
    deadline = time.time() + 600
    while len(out) < n and time.time() < deadline:
        if page.locator("[data-testid=results]").count():
            break
        submit = page.locator("[data-testid=pad-submit]")
        if not submit.count():
            time.sleep(0.01)
            continue
        status = page.inner_text("[data-testid=numeron-status]")
        if " call " not in f" {status} ":  # setting the number, or an item's step
            numeron(page)
            continue
        me = page.get_attribute(".b-numeron .side.me", "data-seat")
        rows = page.locator(f"[data-testid=calls-{me}] tbody tr")
        before = rows.count()
        for d in next(numbers):
            page.click(f"[data-key=pad-{d}]")
        started = time.perf_counter()
        page.click("[data-testid=pad-submit]")
        while rows.count() <= before:  # (the page's CSP forbids wait_for_function's eval)
            assert time.time() < deadline, "the call never showed"
        out.append((time.perf_counter() - started) * 1000)
    return out


def main() -> None:
    """Run the benchmark and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--loads", type=int, default=20)
    parser.add_argument("--moves", type=int, default=40)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    server = ServerProcess(Path(tempfile.mkdtemp()) / "data")
    server.start()
    pw = sync_playwright().start()
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
    try:
        tab = open_tab(browser)
        sign_in(tab, server.http, "bench")
        # calls in order against the random bot: a long game
        table = create_table(tab, "numeron", {}, ["me", "bot:random"])
        moved = moves(tab.page, args.moves)
        loaded = loads(browser, server.http, table, args.loads)
        print(f"{'web app (ms, loopback)':<28} {'n':>5} {'median':>10} {'p95':>10}")
        print(row("page load to drawn board", loaded))
        print(row("click to judged call", moved))
    finally:
        browser.close()
        pw.stop()
        server.stop()


if __name__ == "__main__":
    main()
