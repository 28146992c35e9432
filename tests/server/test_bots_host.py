"""Built-in bots and heavy engine work never hold the server: a bot's thinking
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
    """``montecarlo:ms=20000`` on a 1 s clock went on computing after its timeout. At the clock
    the seat is defaulted and the thinking cancelled inside its worker, which lives on with its
    other bots (no kill)."""
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
    assert stats["bot_overruns"] >= 1 and stats["bot_kills"] == 0, stats


def play_against(server: LiveServer, bot: str, **options: Any) -> rec.Record:
    """A Numeron game of a harness client (seat 0) against ``bot``; its record."""
    token = server.register("ann")
    ws = server.connect(token)
    created = ws.request(
        {"type": "create_table", "game": "numeron", "seats": ["open", bot], "options": options}
    )
    table = str(created["table"]["id"])  # type: ignore[index]
    asyncio.run(run_bot(HarnessBot, server.ws_url, token, table=table, seed=4))
    [record] = rec.loads(httpx.get(f"{server.http}/api/tables/{table}/record").text)
    return record


def test_a_killed_bot_is_rebuilt_from_what_its_seat_observed(
    bots_live: LiveServer, tmp_path: Path
) -> None:
    """Bots keep state (observe): after its thinking is stopped (the bot dropped, or its
    worker killed), the bot is rebuilt by replaying every event its seat saw, and plays on as if
    nothing happened."""
    record = play_against(bots_live, f"bot:recorder:mark={tmp_path / 'mark'}", time_limit=1.5)
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


def test_host_bots_play_on_while_their_code_compiles(bots_live: LiveServer) -> None:
    """The host's bot workers run in ``play-on`` mode (``dennou.core.native``): a search
    bot whose compiled code is not built yet (a fresh install) decides by its fallback within
    the seat's clock instead of waiting for the compiler (tests/arena/test_play_on.py)."""
    record = play_against(bots_live, "bot:mode-teller")
    said = {s.talk.text for s in record.steps if s.talk is not None and s.seat == 1}
    assert said == {"mode play-on"}


def test_heavy_steps_do_not_stop_other_tables(tmp_path: Path) -> None:
    """A rules option that makes every step expensive (10-card stud's odds) used to stall
    every table; now that work runs off the event loop and everyone else is served. The odds
    are computed for views that show them, so a spectator asks for them."""
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
                "rules": {"odds_samples": 200_000, "odds_exact_limit": 0, "hands": 0},
                "seats": ["bot:random"] * 5,
            }
        )
        assert heavy["type"] == "table", heavy
        table = heavy["table"]["id"]  # type: ignore[index]
        ws.request({"type": "spectate", "table": table})
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
        # Watch both tables until the other one has played on while the heavy one deals (a
        # session of hands runs for minutes under these odds; the test does not wait for it).
        deadline = time.monotonic() + 60
        other_versions: list[int] = []
        work: dict[str, Any] = {}
        while time.monotonic() < deadline:
            assert httpx.get(f"{server.http}/api/tables/{table}", timeout=5).json()["status"] in (
                "playing",
                "starting",
            )
            other_versions.append(
                httpx.get(f"{server.http}/api/tables/{other}", timeout=5).json()["version"]
            )
            work = httpx.get(f"{server.http}/api/stats", timeout=5).json()["work"]
            views = work.get("stud10/view", {})
            if other_versions[-1] > 10 and sum(views.get(k, 0) for k in ("thread", "process")) >= 1:
                break
            time.sleep(0.1)
        stop.set()
        thread.join(10)
        # while the expensive table dealt, the other table played on, and pings came back in a
        # small part of one expensive view (on the loop, each would have waited for a whole one)
        assert max(other_versions, default=0) > 10, (other_versions, work)
        # the slowest view is in CPU ms (about 95 here: a new position's odds); the pings below
        # must come back in a quarter of it
        step_ms = work["stud10/view"]["slowest_ms"]
        assert step_ms > 50 and work["stud10/view"]["inline"] == 0, work
        pings.sort()
        assert len(pings) > 10 and pings[len(pings) // 2] < step_ms / 4, (step_ms, pings)
    finally:
        server.stop()
