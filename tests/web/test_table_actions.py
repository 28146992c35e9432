"""The table's own actions and the spectators' room in a real browser: resign (asked first),
abort while nothing was dealt or moved, claim once the others were away past ``claim_grace``,
play again with the same seats (the others see where), and the spectators' room with its mutes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from dennou.server.testing import ServerProcess

from .browser import Tab, create_table, open_tab, shot, sign_in, wait_until
from .drivers import numeron

OPERATOR = "olga_op"


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose claim grace is the table's absent grace (5 s), with an operator."""
    proc = ServerProcess(
        tmp_path_factory.mktemp("actions") / "data",
        limits={"claim_grace_min": 1, "claim_grace_clocks": 0},
        args=["--operator", OPERATOR],
    )
    proc.start()
    yield proc
    proc.stop()


def info(server: ServerProcess, table: str) -> dict[str, Any]:
    return dict(httpx.get(f"{server.http}/api/tables/{table}", timeout=10).json())


def clean(*tabs: Tab) -> None:
    for tab in tabs:
        assert tab.errors == [], tab.errors
        assert tab.missing_keys() == []
        tab.close()


def test_resign_asks_first_ends_the_game_and_play_again_opens_the_same_seats(
    host: ServerProcess, browser: Any
) -> None:
    ann = open_tab(browser)
    sign_in(ann, host.http, "ann_resign")
    table = create_table(ann, "numeron", {"digits": 4}, ["me", "bot:random"])
    page = ann.page
    page.wait_for_selector("[data-testid=pad-submit]")
    # the bot has set its number: something moved, so abort is not offered
    wait_until(lambda: not page.locator("[data-testid=abort]").count(), 20)
    page.click("[data-testid=resign]")
    page.wait_for_selector("[data-testid=resign-yes]")
    shot(page, "resign-confirm.png", full_page=False)
    page.click("[data-testid=resign-no]")  # asked first: cancelling changes nothing
    assert info(host, table)["status"] == "playing"
    page.click("[data-testid=resign]")
    page.click("[data-testid=resign-yes]")
    page.wait_for_selector("[data-testid=results]")
    done = info(host, table)
    assert done["status"] == "finished"
    assert done["outcome"]["detail"]["end"] == "resign"
    assert done["outcome"]["ranks"][0] == 2
    shot(page, "resigned.png")
    page.wait_for_timeout(1500)  # the page settles: it picks the talk up once, then waits
    ends = [m for m in ann.frames if m.get("type") == "end" and m.get("table") == table]
    assert len(ends) <= 2, f"{len(ends)} ends: the page keeps joining again"
    page.click("[data-testid=play-again]")
    page.wait_for_url(lambda url: "/tables/" in url and table not in url)
    again = info(host, page.url.rstrip("/").split("/")[-1].split("?")[0])
    assert again["game"] == "numeron" and again["rules"]["digits"] == 4
    assert [(s["kind"], s["name"]) for s in again["seats"]] == [
        ("player", "ann_resign"),
        ("bot", "random"),
    ]
    clean(ann)


def test_abort_is_offered_until_anything_moves_and_the_other_player_sees_the_rematch(
    host: ServerProcess, browser: Any
) -> None:
    ann, ben = open_tab(browser), open_tab(browser, locale="ja-JP")
    sign_in(ann, host.http, "ann_abort")
    first = create_table(ann, "numeron", {}, ["me", "open"])
    sign_in(ben, host.http, "ben_abort")
    ben.page.goto(f"{host.http}/tables/{first}")
    ben.page.click("[data-testid=take-1]")
    ann.page.wait_for_selector("[data-testid=abort]")
    ann.page.click("[data-testid=abort]")
    wait_until(lambda: info(host, first)["status"] == "aborted", 20)
    for tab in (ann, ben):
        wait_until(lambda t=tab: t.page.locator("[data-testid=play-again]").count(), 20)
    assert "中止" in ben.page.inner_text("[data-testid=table-notice]")
    # ann plays again: a new table, ann seated, ben's seat open; ben's page says where
    ann.page.click("[data-testid=play-again]")
    ann.page.wait_for_url(lambda url: "/tables/" in url and first not in url)
    second = ann.page.url.rstrip("/").split("/")[-1].split("?")[0]
    link = ben.page.locator("[data-testid=rematch-link]")
    wait_until(lambda: link.count(), 20)
    shot(ben.page, "rematch.png")
    link.click()
    ben.page.wait_for_url(f"**/tables/{second}*")
    ben.page.click("[data-testid=take-1]")
    ann.page.wait_for_selector("[data-testid=pad-submit]")
    # now something moves (ann sets her number): abort is gone from both pages
    assert numeron(ann.page)
    for tab in (ann, ben):
        wait_until(lambda t=tab: not t.page.locator("[data-testid=abort]").count(), 20)
    clean(ann, ben)


def test_claim_is_enabled_once_the_others_are_away_past_the_grace(
    host: ServerProcess, browser: Any
) -> None:
    ann, ben = open_tab(browser), open_tab(browser)
    sign_in(ann, host.http, "ann_claim")
    table = create_table(ann, "numeron", {}, ["me", "open"])
    sign_in(ben, host.http, "ben_claim")
    ben.page.goto(f"{host.http}/tables/{table}")
    ben.page.click("[data-testid=take-1]")
    ann.page.wait_for_selector("[data-testid=pad-submit]")
    assert not ann.page.locator("[data-testid=claim]").count()  # ben is here
    ben.close()
    claim = ann.page.locator("[data-testid=claim]")
    wait_until(lambda: claim.count(), 20)
    assert claim.is_disabled()  # not before the grace
    shot(ann.page, "claim-wait.png", full_page=False)
    wait_until(lambda: claim.count() and claim.is_enabled(), 30)
    claim.click()
    ann.page.wait_for_selector("[data-testid=results]")
    done = info(host, table)
    assert done["outcome"]["detail"]["end"] == "claim"
    assert done["outcome"]["ranks"] == [1, 2]
    clean(ann)


def test_spectators_talk_in_their_room_the_owner_and_an_operator_mute_and_players_read_it_after(
    host: ServerProcess, browser: Any
) -> None:
    ann, ben, cat, olga = (open_tab(browser) for _ in range(4))
    sign_in(ann, host.http, "ann_room")
    table = create_table(ann, "numeron", {}, ["open", "bot:random"])  # ann owns it and watches
    sign_in(ben, host.http, "ben_room")
    ben.page.goto(f"{host.http}/tables/{table}")
    ben.page.click("[data-testid=take-0]")
    ben.page.wait_for_selector("[data-testid=pad-submit]")
    sign_in(cat, host.http, "cat_room")
    cat.page.goto(f"{host.http}/tables/{table}")
    sign_in(olga, host.http, OPERATOR)
    olga.page.goto(f"{host.http}/tables/{table}")
    ann.page.goto(f"{host.http}/tables/{table}")
    # cat, a spectator, talks in the spectators' room
    wait_until(lambda: cat.page.locator("#talk-channel option[value=spectators]").count(), 20)
    cat.page.fill("#talk-text", "cat was here")
    cat.page.click("#talk-send")
    for watcher in (ann, olga):
        lines = watcher.page.locator("[data-testid=talk-lines]")
        wait_until(lambda w=lines: "cat was here" in w.inner_text(), 20)
    # the owner and the operator get a mute button for cat; cat gets none for itself
    wait_until(lambda: olga.page.locator("[data-testid=mute]").count(), 20)
    assert not cat.page.locator("[data-testid=mute]").count()
    ann.page.click("[data-testid=mute]")
    wait_until(lambda: info(host, table)["muted"] == ["cat_room"], 20)
    wait_until(lambda: ann.page.locator("[data-testid=unmute]").count(), 20)
    shot(ann.page, "muted.png")
    cat.page.fill("#talk-text", "muted line")
    cat.page.click("#talk-send")
    wait_until(lambda: cat.page.inner_text("#talk-error").strip(), 20)
    olga.page.click("[data-testid=unmute]")  # the operator unmutes
    wait_until(lambda: info(host, table)["muted"] == [], 20)
    cat.page.fill("#talk-text", "cat again")
    cat.page.click("#talk-send")
    wait_until(lambda: "cat again" in ann.page.inner_text("[data-testid=talk-lines]"), 20)
    # ben, playing, does not read the room; after the end (ben resigns) he does
    assert "cat was here" not in ben.page.inner_text("[data-testid=talk-lines]")
    ben.page.click("[data-testid=resign]")
    ben.page.click("[data-testid=resign-yes]")
    ben.page.wait_for_selector("[data-testid=results]")
    ben_lines = ben.page.locator("[data-testid=talk-lines]")
    wait_until(lambda: "cat again" in ben_lines.inner_text(), 20)
    assert "cat was here" in ben_lines.inner_text()
    assert "muted line" not in ben_lines.inner_text()
    shot(ben.page, "room-after.png")
    clean(ann, ben, cat, olga)
