"""Accounts share the bot workers and engine processes fairly: one account's heavy tables never
hold another's cheap ones for more than about one decision, an account's bot thinking is bounded
by a quota, a bot's budget by its seat's clock, and a decision past its clock is cancelled
without losing the other bots of its worker."""

from __future__ import annotations

import asyncio
import statistics
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from dennou.server.fair import FairQueue, TimeQuota
from dennou.server.testing import WS, LiveServer, ServerProcess

from . import slow_bots


@pytest.fixture
def bot_names() -> Iterator[None]:
    added = slow_bots.register()
    yield
    from dennou.arena import bots

    for name in added:
        bots.GENERIC_BOTS.pop(name, None)


def create(
    server: LiveServer | ServerProcess, token: str, game: str, seats: list[str], **extra: Any
) -> str:
    reply = httpx.post(
        f"{server.http}/api/tables",
        json={"game": game, "seats": seats, **extra},
        headers={"authorization": f"Bearer {token}"},
        timeout=30,
    )
    assert reply.status_code == 201, reply.text
    return str(reply.json()["id"])


def table_info(server: LiveServer | ServerProcess, table: str) -> dict[str, Any]:
    info: dict[str, Any] = httpx.get(f"{server.http}/api/tables/{table}", timeout=10).json()
    return info


def stats(server: LiveServer | ServerProcess) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(f"{server.http}/api/stats", timeout=10).json()
    return data


def test_the_fair_queue_serves_a_new_account_before_a_heavy_accounts_backlog() -> None:
    async def go() -> list[str]:
        queue: FairQueue[int] = FairQueue(100)
        for i in range(10):
            queue.put_nowait("heavy", i)
        order = []
        for _ in range(3):  # the heavy account is served, 5 s each
            account, _item = await queue.get()
            queue.charge(account, 5.0)
            order.append(account)
        queue.put_nowait("light", 0)
        queue.put_nowait("light", 1)
        for _ in range(4):
            account, _item = await queue.get()
            queue.charge(account, 0.001 if account == "light" else 5.0)
            order.append(account)
        return order

    order = asyncio.run(go())
    assert order == ["heavy"] * 3 + ["light", "light", "heavy", "heavy"]


def test_an_account_past_its_quota_is_served_again_only_once_it_refills() -> None:
    now = [0.0]
    quota = TimeQuota(6.0, clock=lambda: now[0])  # 6 s a minute: 0.1 s per second
    assert quota.wait("a") == 0
    quota.charge("a", 7.0)  # one long decision: 1 s of debt
    assert quota.wait("a") == pytest.approx(10.0, abs=0.01)
    assert quota.wait("b") == 0  # another account is not concerned
    now[0] = 10.01
    assert quota.wait("a") == 0


@pytest.fixture
def two_workers(tmp_path: Path, bot_names: None) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path / "data", limits={"bot_workers": 2})
    yield server
    server.stop()


def test_an_accounts_slow_bots_do_not_slow_another_accounts_table(
    two_workers: LiveServer,
) -> None:
    """One account's 3 tables of bots that think 3 s each (within their 10 s clock) took both
    workers, and another account's random bots waited behind them, one decision per 3 s."""
    heavy = two_workers.register("heavy")
    for _ in range(3):
        create(
            two_workers, heavy, "numeron", ["bot:sleeper:ms=3000"] * 2, options={"time_limit": 10}
        )
    time.sleep(1)  # the slow bots are thinking on both workers
    light = two_workers.register("light")
    table = create(two_workers, light, "numeron", ["bot:random"] * 2)
    started = time.monotonic()
    version = 0
    while time.monotonic() - started < 15:
        info = table_info(two_workers, table)
        version = info["version"]
        if version >= 20 or info["status"] == "finished":
            break
        time.sleep(0.05)
    took = time.monotonic() - started
    # at most one slow decision (3 s) before the light account has a worker to itself
    assert version >= 20 or table_info(two_workers, table)["status"] == "finished", version
    assert took < 6.5, (took, version)


def test_a_bots_time_budget_is_cut_to_its_seats_clock(tmp_path: Path, bot_names: None) -> None:
    """montecarlo:ms=20000 on a 1 s clock always overran; its budget is now cut below the clock
    and it answers in time."""
    server = LiveServer(tmp_path / "data")
    try:
        token = server.register("ann")
        ws = server.connect(token)
        created = ws.request(
            {
                "type": "create_table",
                "game": "numeron",
                "seats": ["bot:sleeper:ms=20000", "bot:random"],
                "options": {"time_limit": 1},
            }
        )
        table = created["table"]["id"]  # type: ignore[index]
        ws.request({"type": "spectate", "table": table})
        events: list[dict[str, Any]] = []
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            events += [m for m in ws.drain(0.1) if m.get("type") == "event"]
            if sum(1 for e in events if e.get("seat") == 0) >= 3:
                break
        mine = [e for e in events if e.get("seat") == 0]
        assert len(mine) >= 3, events
        assert all(e.get("reason") is None for e in mine), mine
    finally:
        server.stop()


def _builds_while_another_bot_overruns(
    tmp_path: Path, bot: str, grace: float, until: str
) -> tuple[int, dict[str, Any], int]:
    """Account ``ann`` plays ``bot`` at a 0.3 s clock until the stat ``until`` reaches 3; account
    ``bob``'s bot, in the same (only) worker, notes each time it is built. Returns bob's builds,
    the stats and bob's steps."""
    builds = tmp_path / "builds"
    server = LiveServer(tmp_path / "data", limits={"bot_workers": 1, "bot_overrun_grace": grace})
    try:
        bob = server.register("bob")
        theirs = create(
            server, bob, "numeron", [f"bot:sleeper:ms=50:builds={builds}", "bot:random"]
        )
        deadline = time.monotonic() + 20
        while not builds.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        ann = server.register("ann")
        create(
            server,
            ann,
            "numeron",
            [bot, "bot:random"],
            rules={"forfeit_after": 0},  # timeouts do not end the game
            options={"time_limit": 0.3},
        )
        deadline = time.monotonic() + 60
        while stats(server).get(until, 0) < 3 and time.monotonic() < deadline:
            time.sleep(0.2)
        # bob's table goes on playing in that worker (a loaded machine plays it slower)
        while table_info(server, theirs)["version"] <= 10 and time.monotonic() < deadline:
            time.sleep(0.2)
        return (
            len(builds.read_text().splitlines()),
            stats(server),
            table_info(server, theirs)["version"],
        )
    finally:
        server.stop()


def test_a_decision_past_its_clock_is_cancelled_without_rebuilding_other_tables_bots(
    tmp_path: Path, bot_names: None
) -> None:
    """A bot past its 1 s clock killed its worker: every other table's bots there were rebuilt by
    replaying their games, at every overrun. Now the thinking is cancelled inside the worker."""
    count, after, steps = _builds_while_another_bot_overruns(
        tmp_path, "bot:spinner", 3.0, "bot_overruns"
    )
    assert count == 1, (count, after)  # bob's bot was built once and kept
    assert after["bot_overruns"] >= 3 and after["bot_kills"] == 0, after
    assert steps > 10


def test_a_bot_that_ignores_the_cancel_is_killed_once_then_kept_apart(
    tmp_path: Path, bot_names: None
) -> None:
    """A bot that cannot be interrupted costs the bots sharing its worker one rebuild at most:
    its table's bots then live on a worker of their own."""
    count, after, steps = _builds_while_another_bot_overruns(
        tmp_path, "bot:stubborn", 0.3, "bot_kills"
    )
    assert after["bot_kills"] >= 3, after
    assert count <= 2, (count, after)
    assert steps > 10


def test_an_accounts_bot_thinking_is_bounded_by_its_quota(tmp_path: Path, bot_names: None) -> None:
    server = LiveServer(tmp_path / "data", limits={"bot_seconds_per_minute": 1.2})
    try:
        ann = server.register("ann")
        table = create(
            server, ann, "numeron", ["bot:sleeper:ms=500", "bot:random"], options={"time_limit": 5}
        )
        bob = server.register("bob")
        other = create(server, bob, "numeron", ["bot:random", "bot:random"])
        time.sleep(5)
        # 1.2 s of thinking a minute: about 3 decisions of 0.5 s, then one each 25 s
        assert table_info(server, table)["version"] <= 2 * 4, table_info(server, table)
        info = table_info(server, other)
        assert info["version"] > 20 or info["status"] == "finished", info
    finally:
        server.stop()


def test_an_accounts_heavy_views_do_not_hold_another_accounts_views(tmp_path: Path) -> None:
    """10-card stud views with expensive odds went to the engine process first come, first
    served: another account's views waited behind all of them."""
    server = ServerProcess(tmp_path / "data")
    server.start()
    stop = threading.Event()
    heavy_ms: list[float] = []
    threads: list[threading.Thread] = []
    try:
        heavy = server.register("heavy")
        rules = {"odds_samples": 200_000, "odds_exact_limit": 0, "hands": 0}
        tables = [
            create(server, heavy, "stud10", ["bot:random"] * 5, rules=rules) for _ in range(5)
        ]

        def ask(table: str) -> None:
            conn = WS(server.ws)
            conn.request({"type": "hello", "token": heavy})
            conn.request({"type": "spectate", "table": table})
            while not stop.is_set():
                started = time.perf_counter()
                conn.request({"type": "get_view", "table": table}, timeout=60)
                heavy_ms.append((time.perf_counter() - started) * 1000)
                conn.backlog.clear()
            conn.close()

        threads = [threading.Thread(target=ask, args=(t,)) for t in tables]
        for thread in threads:
            thread.start()
        light = server.register("light")
        mine = create(server, light, "stud10", ["bot:random"] * 5)
        ws = WS(server.ws)
        ws.request({"type": "hello", "token": light})
        ws.request({"type": "spectate", "table": mine})
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # until the heavy views run in the process
            where = stats(server)["work"].get("stud10/view", {})
            if where.get("process", 0) >= 10:
                break
            time.sleep(0.2)
        heavy_ms.clear()
        light_ms = []
        for _ in range(15):
            started = time.perf_counter()
            assert ws.request({"type": "get_view", "table": mine}, timeout=60)["type"] == "view"
            light_ms.append((time.perf_counter() - started) * 1000)
            ws.backlog.clear()
            time.sleep(0.05)
        ws.close()
        # the heavy account's views wait for each other; the light account's for one at most
        assert len(heavy_ms) >= 5, heavy_ms
        assert statistics.median(light_ms) < statistics.median(heavy_ms) / 2, (light_ms, heavy_ms)
    finally:
        stop.set()
        for thread in threads:
            thread.join(10)
        server.stop()
