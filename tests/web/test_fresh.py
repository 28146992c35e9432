"""Time controls and freshness in a real browser: presets at table creation (people or bots),
shown on the table and in the lobby; the spectators' count kept current; a lost view request
asked again; nothing to click and no running clock while offline; the replay follows the hash
and Back.
"""

from __future__ import annotations

from typing import Any

import httpx

from dennou.server.testing import ServerProcess

from .browser import Tab, create_table, open_tab, shot, sign_in, wait_until
from .test_replay_page import finished_numeron


def clean(*tabs: Tab) -> None:
    for tab in tabs:
        assert tab.errors == [], tab.errors
        assert tab.missing_keys() == []
        tab.close()


def test_time_control_presets_follow_the_seats_and_show_on_the_table_and_in_the_lobby(
    shared_server: ServerProcess, browser: Any
) -> None:
    ann = open_tab(browser)
    sign_in(ann, shared_server.http, "ann_clock")
    page = ann.page
    page.select_option("#create-game", "daifugo")
    # the host clock is the table's: no rules field for it (it was always refused)
    assert not page.locator("#rule-time_limit").count()
    page.select_option("#create-count", "3")
    assert page.input_value("#opt-preset") == "relaxed"  # only bots: a relaxed clock
    page.select_option("#seat-1", "open")
    assert page.input_value("#opt-preset") == "standard"  # a person: the standard
    page.select_option("#seat-1", "bot:greedy")
    page.select_option("#opt-preset", "blitz")
    page.select_option("#seat-2", "bot:random")
    assert page.input_value("#opt-preset") == "blitz"  # chosen: it stays
    page.click("#create-submit")
    page.wait_for_url("**/tables/*")
    table = page.url.rstrip("/").split("/")[-1]
    info = httpx.get(f"{shared_server.http}/api/tables/{table}", timeout=10).json()
    assert info["time_limit"] == 10 and info["time_bank"] == 60
    meta = page.locator("[data-testid=time-control]")
    wait_until(lambda: "10 s per decision + 60 s bank" in meta.inner_text(), 10)
    # the clock counts the decision's seconds, then the bank's
    clock = page.locator("[data-testid=clock]")
    wait_until(lambda: clock.is_visible() and "bank: 60" in clock.inner_text(), 20)
    shot(page, "clock.png", full_page=False)
    watcher = open_tab(browser)
    watcher.page.goto(shared_server.http + "/")
    row = watcher.page.locator(f"#live-tables tr[data-table='{table}']")
    wait_until(lambda: row.count(), 10)
    shown = row.locator("[data-testid=clock-setting]").inner_text()
    assert "10 s per decision + 60 s bank" in shown
    clean(ann, watcher)


def test_the_spectators_count_stays_current(shared_server: ServerProcess, browser: Any) -> None:
    ann = open_tab(browser)
    sign_in(ann, shared_server.http, "ann_count")
    create_table(ann, "numeron", {}, ["me", "bot:random"])
    count = ann.page.locator("[data-testid=spectators]")
    wait_until(lambda: "0" in count.inner_text(), 10)
    watcher = open_tab(browser)
    watcher.page.goto(ann.page.url)
    watcher.page.wait_for_selector("[data-testid=event-log] li")
    wait_until(lambda: "1" in count.inner_text(), 12)
    clean(ann, watcher)


def test_a_lost_view_request_is_asked_again(shared_server: ServerProcess, browser: Any) -> None:
    """A ``get_view`` without an answer kept the spectator's board at its first view for good."""
    token = shared_server.register("ann_stale")
    made = httpx.post(
        f"{shared_server.http}/api/tables",
        json={"game": "numeron", "seats": ["open", "bot:random"]},
        headers={"authorization": f"Bearer {token}"},
        timeout=10,
    )
    table = made.json()["id"]
    watcher = open_tab(browser)
    dropped: list[str] = []

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def to_server(message: Any) -> None:
            if '"get_view"' in str(message) and not dropped:
                dropped.append(str(message))  # lost: no answer ever comes
                return
            server.send(message)

        ws.on_message(to_server)

    watcher.page.route_web_socket("**/ws", route)
    watcher.page.goto(f"{shared_server.http}/tables/{table}")
    # the sync API runs route handlers only while it is called: wait through it
    wait_until(lambda: watcher.page.wait_for_timeout(50) or dropped, 10)
    # a player takes the open seat: the game starts, and the spectator's board must follow
    from dennou.server.testing import WS

    ann = WS(shared_server.ws)
    ann.request({"type": "hello", "protocol": 1, "token": token})
    ann.request({"type": "join", "table": table, "seat": 0})
    ann.wait_for("turn", table=table)
    ann.request({"type": "act", "table": table, "action": "set 012"})
    status = watcher.page.locator("[data-testid=numeron-status]")
    wait_until(lambda: status.count() and "setting" not in status.inner_text(), 15)
    ann.close()
    clean(watcher)


def test_offline_nothing_can_be_clicked_and_the_clock_stops(
    shared_server: ServerProcess, browser: Any
) -> None:
    ann = open_tab(browser)
    routes: list[Any] = []
    offline = {"on": False}

    def route(ws: Any) -> None:
        if offline["on"]:
            ws.close()
            return
        ws.connect_to_server()
        routes.append(ws)

    ann.page.route_web_socket("**/ws", route)
    sign_in(ann, shared_server.http, "ann_offline")
    create_table(ann, "numeron", {}, ["me", "bot:random"])
    page = ann.page
    key = page.locator("[data-key=pad-1]")
    clock = page.locator("[data-testid=clock]")
    wait_until(lambda: key.count() and key.is_enabled() and clock.is_visible(), 20)
    offline["on"] = True
    for ws in routes:
        ws.close()
    wait_until(lambda: key.is_disabled(), 5)
    assert page.locator("[data-testid=resign]").is_disabled()
    wait_until(lambda: clock.get_attribute("data-state") == "stopped", 5)
    shown = clock.inner_text()
    page.wait_for_timeout(1200)
    assert clock.inner_text() == shown  # not counting down
    offline["on"] = False
    wait_until(lambda: key.is_enabled(), 15)
    running = lambda: clock.get_attribute("data-state") is None and "left" in clock.inner_text()  # noqa: E731
    wait_until(running, 10)
    ann.errors[:] = [e for e in ann.errors if "WebSocket" not in e and "connection" not in e]
    clean(ann)


def test_the_replay_follows_the_hash_and_back(shared_server: ServerProcess, browser: Any) -> None:
    table, record = finished_numeron(shared_server, "ann_hash")
    tab = open_tab(browser)
    page = tab.page
    page.goto(f"{shared_server.http}/games/{table}#step=2")
    position = page.locator("[data-testid=replay-step]")
    total = len(record.steps)
    wait_until(lambda: position.count() and position.inner_text().startswith("step 2 "), 20)
    page.click("#replay-forward")
    wait_until(lambda: position.inner_text().startswith("step 3 "), 10)
    assert "step=3" in page.url
    page.click("#replay-last")
    wait_until(lambda: position.inner_text().startswith(f"step {total} "), 10)
    page.go_back()
    wait_until(lambda: position.inner_text().startswith("step 3 "), 10)
    page.go_back()
    wait_until(lambda: position.inner_text().startswith("step 2 "), 10)
    # a hash typed into the address bar (a link to a moment) moves the replay too
    page.evaluate("location.hash = '#step=1&seat=0'")
    wait_until(lambda: position.inner_text().startswith("step 1 "), 10)
    assert page.input_value("#replay-seat") == "0"
    clean(tab)
