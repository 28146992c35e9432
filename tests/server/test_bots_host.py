"""Built-in bots and heavy engine work never hold the server (issue 12, item 4): a bot's thinking
ends when its seat's clock does, in a worker process that is killed and rebuilt; expensive steps
run off the event loop, so every other table and connection is served meanwhile."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from dennou.client import run_bot
from dennou.client.testing import HarnessBot
from dennou.core import record as rec
from dennou.games import REGISTRY

from . import slow_bots
from .conftest import WS, LiveServer, ServerProcess


@pytest.fixture
def bots_live(tmp_path: Path) -> Iterator[LiveServer]:
    added = slow_bots.register()
    server = LiveServer(tmp_path / "data")
    yield server
    server.stop()
    from dennou.arena import bots

    for name in added:
        bots.GENERIC_BOTS.pop(name, None)


def ping_ms(ws: WS) -> float:
    started = time.perf_counter()
    assert ws.request({"type": "ping"}, timeout=5)["type"] == "pong"
    return (time.perf_counter() - started) * 1000


def test_a_bot_thinking_past_its_clock_is_stopped_and_defaulted(
    bots_live: LiveServer, tmp_path: Path
) -> None:
    """12.4: montecarlo:ms=20000 on a 1 s clock went on computing after its timeout."""
    beat = tmp_path / "beat"
    ann = bots_live.connect(bots_live.register("ann"))
    ann.request(
        {
            "type": "create_table",
            "game": "numeron",
            "seats": ["me", f"bot:spinner:beat={beat}"],
            "options": {"time_limit": 1},
        }
    )
    watcher = bots_live.connect(None)
    pings = []
    deadline = time.monotonic() + 20
    while not beat.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert beat.exists(), "the bot never started thinking"
    while time.monotonic() < deadline:  # the server answers while the bot spins
        pings.append(ping_ms(watcher))
        msgs = [m for m in ann.drain(0.05) if m.get("type") == "event"]
        if any(m.get("reason") == "timeout" for m in msgs):
            break
    else:
        raise AssertionError("the bot's decision was never defaulted")
    stopped_at = time.time()
    time.sleep(0.5)
    assert float(beat.read_text()) < stopped_at, "the bot kept thinking after its clock"
    pings.sort()
    assert pings[len(pings) // 2] < 100, pings  # the server went on answering meanwhile
    stats = httpx.get(f"{bots_live.http}/api/stats").json()
    assert stats["bot_kills"] >= 1


def test_a_killed_bot_is_rebuilt_from_what_its_seat_observed(
    bots_live: LiveServer, tmp_path: Path
) -> None:
    """12.4: bots keep state (observe): after its worker is killed, the bot is rebuilt by
    replaying every event its seat saw, and plays on as if nothing happened."""
    token = bots_live.register("ann")
    ws = bots_live.connect(token)
    table = str(
        ws.request(
            {
                "type": "create_table",
                "game": "numeron",
                "seats": ["open", f"bot:recorder:mark={tmp_path / 'mark'}"],
                "options": {"time_limit": 1.5},
            }
        )["table"]["id"]  # type: ignore[index]
    )
    asyncio.run(run_bot(HarnessBot, bots_live.ws_url, token, table=table, seed=4))
    [record] = rec.loads(httpx.get(f"{bots_live.http}/api/tables/{table}/record").text)
    defaults = [s for s in record.steps if s.seat == 1 and s.default]
    assert [s.default for s in defaults] == ["timeout"]
    frames = list(rec.replay(record, REGISTRY["numeron"]))
    observed = 0
    said = 0
    for frame in frames[1:]:
        step = frame.step
        assert step is not None
        if step.talk is not None and step.seat == 1:
            assert step.talk.text == f"seen {observed}", (frame.index, step.talk.text)
            said += 1
        if any(e.visible_to(1) for e in frame.events):
            observed += 1
    assert said >= 2, "the bot did not play on after its worker was rebuilt"


def test_heavy_steps_do_not_stop_other_tables(tmp_path: Path) -> None:
    """12.4: a rules option that makes every step expensive (10-card stud's odds) used to stall
    every table; now the step runs off the event loop and everyone else is served."""
    server = ServerProcess(tmp_path / "data")
    server.start()
    try:
        token = server.register("ann")
        ws = WS(server.ws)
        ws.request({"type": "hello", "token": token})
        heavy = ws.request(
            {
                "type": "create_table",
                "game": "stud10",
                "rules": {"odds_samples": 300_000, "odds_exact_limit": 0},
                "seats": ["bot:random"] * 5,
            }
        )
        assert heavy["type"] == "table", heavy
        table = heavy["table"]["id"]  # type: ignore[index]
        pings: list[float] = []
        stop = threading.Event()

        def keep_pinging() -> None:
            while not stop.is_set():
                pings.append(ping_ms(ws))
                time.sleep(0.02)

        thread = threading.Thread(target=keep_pinging)
        thread.start()
        other = httpx.post(
            f"{server.http}/api/tables",
            json={"game": "numeron", "seats": ["bot:random", "bot:random"]},
            headers={"authorization": f"Bearer {token}"},
        ).json()["id"]
        deadline = time.monotonic() + 90
        heavy_info: dict[str, Any] = {}
        other_versions = []
        while time.monotonic() < deadline:
            heavy_info = httpx.get(f"{server.http}/api/tables/{table}", timeout=5).json()
            if heavy_info["status"] == "finished":
                break
            other_versions.append(
                httpx.get(f"{server.http}/api/tables/{other}", timeout=5).json()["version"]
            )
            time.sleep(0.1)
        stop.set()
        thread.join(10)
        assert heavy_info["status"] == "finished"
        # while the expensive table dealt, the other table played on, and pings came back in a
        # small part of one expensive step (on the loop, each would have waited for a whole one)
        assert max(other_versions) > 10, other_versions  # seen while the heavy table dealt
        work = httpx.get(f"{server.http}/api/stats").json()["work"]["stud10/chance"]
        step_ms = work["slowest_ms"]
        assert step_ms > 200 and work["inline"] == 0, work
        pings.sort()
        assert len(pings) > 10 and pings[len(pings) // 2] < step_ms / 4, (step_ms, pings)
    finally:
        server.stop()
