"""Reporting talk in a real browser: a player reports another's line from the table, the
host's operator reads it on /reports (as text) and resolves it; nobody else may read reports
(docs/web.md, "At the table").
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from dennou.server.testing import ServerProcess

from .browser import create_table, open_tab, shot, sign_in, wait_until

OPERATOR = "olga_reports"
TRICK = '<img src=x onerror="window.hacked=1">rude words'


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("reports") / "data", args=["--operator", OPERATOR])
    proc.start()
    yield proc
    proc.stop()


def test_a_player_reports_a_line_and_the_operator_resolves_it(
    host: ServerProcess, browser: Any
) -> None:
    ann, ben, olga = open_tab(browser), open_tab(browser), open_tab(browser, locale="ja-JP")
    sign_in(ann, host.http, "ann_report")
    table = create_table(ann, "numeron", {}, ["me", "open"])
    sign_in(ben, host.http, "ben_report")
    ben.page.goto(f"{host.http}/tables/{table}")
    ben.page.click("[data-testid=take-1]")
    wait_until(lambda: ann.page.locator("[data-testid=pad-submit]").count(), 20)
    ben.page.fill("#talk-text", TRICK)
    ben.page.click("#talk-send")
    line = ann.page.locator("[data-testid=talk-lines] li", has_text="rude words")
    line.wait_for()
    # no report button on one's own lines
    ben.page.locator("[data-testid=talk-lines] li", has_text="rude words").wait_for()
    assert ben.page.locator("[data-testid=talk-lines] [data-testid=report]").count() == 0
    line.locator("[data-testid=report]").click()
    line.locator("[data-testid=report-reason]").fill("insults")
    line.locator("[data-testid=report-send]").click()
    line.locator("[data-testid=reported]").wait_for()

    # others are told the page is the operators'
    ann.page.goto(f"{host.http}/reports")
    ann.page.locator("[data-testid=reports-refused]").wait_for()

    sign_in(olga, host.http, OPERATOR)
    olga.page.goto(f"{host.http}/reports")
    row = olga.page.locator("[data-testid=reports] tr[data-report]")
    row.wait_for()
    assert TRICK in row.inner_text() and "insults" in row.inner_text()
    assert row.locator("img").count() == 0 and olga.page.evaluate("window.hacked") is None
    shot(olga.page, "reports-ja.png")
    row.locator("[data-testid=resolve-warned]").click()
    olga.page.locator("[data-testid=no-reports]").wait_for()
    olga.page.goto(f"{host.http}/reports?resolved=1")
    olga.page.locator("[data-testid=reports] tr[data-report]").wait_for()
    for tab in (ann, ben, olga):
        assert tab.errors == [] or all("403" in e or "401" in e for e in tab.errors), tab.errors
        assert tab.missing_keys() == []
        tab.close()
